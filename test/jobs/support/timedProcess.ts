// One fwbot process as far as timed work goes, for the crash tests: the jobs' producer side on REDIS_URL
// and PREFIX, the test kinds (timedKinds.ts), the simulator (SIM_URL, which may be a holding proxy) behind
// an SCC client, and the pass every process runs, every 50 ms with a lease of LEASE_MS, on the machine's
// clock. Prints "ready" once it passes; callers kill it with SIGKILL whenever they like.
import { pino } from 'pino';
import { sccClientsFrom } from '../../../src/app/sccClients.js';
import { createJobs } from '../../../src/jobs/workers.js';
import { need, simClientFromEnv } from '../../support/processEnv.js';
import { TEST_TIMED_KINDS } from './timedKinds.js';

const logger = pino({ level: process.env.FWBOT_TEST_LOG ?? 'silent' });
const client = simClientFromEnv(logger);
const clients = sccClientsFrom(new Map([['default', client]]));
const leaseMs = Number(need('LEASE_MS'));
const jobs = createJobs({
  redisUrl: need('REDIS_URL'),
  prefix: need('PREFIX'),
  schedule: { timed: { passEveryMs: 50, leaseMs, batch: 50, concurrency: 4 } },
  timedKinds: TEST_TIMED_KINDS,
  logger,
});
const runner = jobs.timedRunner({
  clients,
  roleCheck: async () => true,
  tracker: jobs.tracker,
  clock: Date.now,
  log: logger,
});
runner.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  runner
    .close()
    .then(() => jobs.close())
    .then(() => client.close())
    .then(() => process.exit(0))
    .catch(() => process.exit(1));
});
