// A bot process of its own, for the crash tests: started as a child (`node --import tsx`), configured by
// the APPROVALS_BOT JSON variable, it runs the start-up recovery pass and the periodic sweeper like the
// real service, prints `READY <events url>` and runs until it is killed.
import { z } from 'zod';
import { startBot } from './bot.js';

const Config = z.object({
  redisUrl: z.string(),
  prefix: z.string(),
  slackApiUrl: z.string(),
  sccBaseUrl: z.string(),
  sccToken: z.string(),
  executionLeaseMs: z.number().int(),
  sweepEveryMs: z.number().int(),
});

const config = Config.parse(JSON.parse(process.env.APPROVALS_BOT ?? '{}'));
const bot = await startBot({ ...config, settings: { executionLeaseMs: config.executionLeaseMs } });
await bot.approvals.recover();
bot.approvals.startSweeper(config.sweepEveryMs);
process.stdout.write(`READY ${bot.eventsUrl}\n`);
process.once('SIGTERM', () => {
  bot.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
