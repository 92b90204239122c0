// `npm start`: the fwbot process (app/process.ts: configuration, logger, shutdown, faults, the Redis
// check) around the bot (app/bot.ts): Bolt, the command intake and, with BOT_WORKERS=on, the workers.
import { startBot } from '../app/bot.js';
import { runFwbotProcess } from '../app/process.js';

runFwbotProcess({
  name: 'fwbot',
  start: async ({ config, log, metrics }) => (await startBot(config, log, { metrics })).shutdownSteps(),
});
