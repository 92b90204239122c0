// One fwbot worker process for crash tests, benchmarks and drills: the same startWorkers as
// `npm run worker`, configured from the environment (Redis, key prefix, simulator, fake Slack, and a
// schedule in JSON so a test or benchmark can compress time). Redis is REDIS_URL, or for the failover
// drills Sentinel or Cluster (REDIS_SENTINELS or REDIS_CLUSTER_NODES with their REDIS_* settings, read as
// production reads them). Prints "ready" once its workers run; SIGTERM closes it gracefully, and callers
// kill it with SIGKILL whenever they like.
import { pino } from 'pino';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import { loadConfig } from '../../src/config.js';
import type { ScheduleOverrides } from '../../src/jobs/schedule.js';
import { startWorkers } from '../../src/jobs/workers.js';
import type { RedisTarget } from '../../src/redis/connection.js';
import { slackChatOf } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { need, simClientFromEnv } from './processEnv.js';

function redisTarget(): RedisTarget {
  const env = process.env;
  if (!env.REDIS_SENTINELS && !env.REDIS_CLUSTER_NODES) return need('REDIS_URL');
  const redisEnv = Object.entries(env).filter(([name]) => name.startsWith('REDIS_') && name !== 'REDIS_URL');
  return loadConfig(Object.fromEntries(redisEnv)).redis;
}

const schedule = JSON.parse(process.env.SCHEDULE ?? '{}') as ScheduleOverrides;
const logger = pino({ level: process.env.LOG_LEVEL ?? process.env.FWBOT_TEST_LOG ?? 'silent' });
// No retries inside the client: the queue reschedules, as in production (src/entry/worker.ts).
const client = simClientFromEnv(logger);
const clients = sccClientsFrom(new Map([['default', client]]));

const workers = await startWorkers({
  redisUrl: redisTarget(),
  prefix: need('PREFIX'),
  clients,
  chat: slackChatOf(createWorkerSlackClient('xoxb-worker', need('SLACK_API_URL')), logger),
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
