// The process the shun drill SIGKILLs: fwbot's pass over timed work (src/jobs/timed/runner.ts), as every
// fwbot process runs it, on the drill's Redis and the simulator, with its clock set by the drill (the
// simulator's manual clock). It reads `pass <epoch ms>` lines on stdin, runs one pass at that time, and
// answers `passed <items looked at>`; "ready" once it can. Nothing else is special: a claim it holds when
// killed lapses after the schedule's lease, and the next process's pass settles the item.
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import type { ScheduleOverrides } from '../../src/jobs/schedule.js';
import { createJobs } from '../../src/jobs/workers.js';
import { need, simClientFromEnv } from '../../test/support/processEnv.js';

const logger = pino({ level: process.env.LOG_LEVEL ?? 'silent' });
let now = Number(need('START_AT'));
const jobs = createJobs({
  redisUrl: need('REDIS_URL'),
  prefix: need('PREFIX'),
  schedule: JSON.parse(process.env.SCHEDULE ?? '{}') as ScheduleOverrides,
  logger,
  clock: () => now,
});
const client = simClientFromEnv(logger);
const runner = jobs.timedRunner({
  clients: sccClientsFrom(new Map([['default', client]])),
  services: { timed: jobs.timed, holds: jobs.holds },
  // A shun's end checks no one's role; every other kind is absent from the drill.
  roleCheck: async () => true,
  tracker: jobs.tracker,
  clock: () => now,
  log: logger,
});
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const match = /^pass (\d+)$/.exec(line.trim());
  if (!match) return;
  now = Number(match[1]);
  runner
    .pass()
    .then((looked) => process.stdout.write(`passed ${looked}\n`))
    .catch((error: unknown) => process.stdout.write(`failed ${String(error)}\n`));
});
process.stdout.write('ready\n');
