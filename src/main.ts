// `npm start`: the fwbot process. Loads the configuration (every problem listed at once, exit code 2),
// starts the bot (see app/bot.ts), and stops cleanly on SIGTERM / SIGINT.
import { startBot } from './app/bot.js';
import { createLogger } from './app/logger.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, { require: { slack: true, scc: true } });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`fwbot cannot start: the configuration has problems.\n${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const bot = await startBot(config, log);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    bot
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'unclean stop');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`fwbot failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
