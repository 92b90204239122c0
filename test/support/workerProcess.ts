// One fwbot worker process for crash tests, benchmarks and drills: the same startWorkers as
// `npm run worker`, configured from the environment (Redis, key prefix, simulator, fake Slack, and a
// schedule in JSON so a test or benchmark can compress time). Prints "ready" once its workers run;
// SIGTERM closes it gracefully, and callers kill it with SIGKILL whenever they like.
import { pino } from 'pino';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import type { ScheduleOverrides } from '../../src/jobs/schedule.js';
import { startWorkers } from '../../src/jobs/workers.js';
import { createSccClient } from '../../src/scc/client.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const schedule = JSON.parse(process.env.SCHEDULE ?? '{}') as ScheduleOverrides;
const logger = pino({ level: process.env.LOG_LEVEL ?? process.env.FWBOT_TEST_LOG ?? 'silent' });
// No retries inside the client: the queue reschedules, as in production (src/entry/worker.ts).
const client = createSccClient({
  baseUrl: need('SIM_URL'),
  token: need('SIM_TOKEN'),
  profile: 'default',
  retry: { maxAttempts: 1 },
  logger,
});
const clients = sccClientsFrom(new Map([['default', client]]));

const workers = await startWorkers({
  redisUrl: need('REDIS_URL'),
  prefix: need('PREFIX'),
  clients,
  slack: createWorkerSlackClient('xoxb-worker', need('SLACK_API_URL')),
  schedule,
  logger,
});
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  workers
    .close()
    .then(() => client.close())
    .then(() => process.exit(0))
    .catch(() => process.exit(1));
});
