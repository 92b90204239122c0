// A worker process of its own as far as timed work goes, for the approvals' crash tests: the real kinds of
// timed work (src/catalogue/timed/) on REDIS_URL and PREFIX, the simulator (SIM_URL, which may be a holding
// proxy) behind an SCC client, the services the kinds use (timed work, device holds, configuration
// snapshots), the test world's role policy, the tracking queue to hand followed work to, and the pass every
// process runs, every 50 ms with a lease of LEASE_MS, on the machine's clock. Prints "ready" once it
// passes; a test kills it with SIGKILL whenever it likes.
import { pino } from 'pino';
import { sccClientsFrom } from '../../../src/app/sccClients.js';
import { authorizerFrom } from '../../../src/approvals/authorizer.js';
import { createJobs } from '../../../src/jobs/workers.js';
import { need, simClientFromEnv } from '../../support/processEnv.js';
import { policyAccess } from './world.js';

const logger = pino({ level: process.env.FWBOT_TEST_LOG ?? 'silent' });
const client = simClientFromEnv(logger);
const clients = sccClientsFrom(new Map([['default', client]]));
const leaseMs = Number(need('LEASE_MS'));
const jobs = createJobs({
  redisUrl: need('REDIS_URL'),
  prefix: need('PREFIX'),
  schedule: { timed: { passEveryMs: 50, leaseMs, batch: 10, concurrency: 2 } },
  logger,
});
const runner = jobs.timedRunner({
  clients,
  services: { timed: jobs.timed, holds: jobs.holds, snapshots: jobs.snapshots },
  roleCheck: authorizerFrom(policyAccess()),
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
