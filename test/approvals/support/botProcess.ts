// A bot process of its own, for the crash tests: started as a child (`node --import tsx`), configured by
// the APPROVALS_BOT JSON variable (with `tracking`: on the jobs' real tracking queue, device holds and
// snapshots), it runs the start-up recovery pass and the periodic sweeper like the real service, prints
// `READY <events url>` and runs until it is killed.
import { pino } from 'pino';
import { z } from 'zod';
import { createJobs } from '../../../src/jobs/workers.js';
import { startBot } from './bot.js';

const Config = z.object({
  redisUrl: z.string(),
  prefix: z.string(),
  slackApiUrl: z.string(),
  sccBaseUrl: z.string(),
  sccToken: z.string(),
  executionLeaseMs: z.number().int(),
  sweepEveryMs: z.number().int(),
  /** The jobs' tracking queue, device holds and snapshots on the same Redis and prefix (else only recorded). */
  tracking: z.boolean().optional(),
});

const { tracking, ...config } = Config.parse(JSON.parse(process.env.APPROVALS_BOT ?? '{}'));
const jobs = tracking
  ? createJobs({ redisUrl: config.redisUrl, prefix: config.prefix, logger: pino({ level: 'silent' }) })
  : undefined;
const bot = await startBot({
  ...config,
  settings: { executionLeaseMs: config.executionLeaseMs },
  ...(jobs ? { tracking: jobs.tracker, holds: jobs.holds, snapshots: jobs.snapshots } : {}),
});
await bot.approvals.recover();
bot.approvals.startSweeper(config.sweepEveryMs);
process.stdout.write(`READY ${bot.eventsUrl}\n`);
process.once('SIGTERM', () => {
  bot.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
