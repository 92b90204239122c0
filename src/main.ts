// `npm start`: the fwbot process. Loads the configuration (every problem listed at once, exit code 2),
// starts the bot (see app/bot.ts), and stops cleanly on SIGTERM / SIGINT. A promise rejection nothing
// handled is logged and counted and the bot keeps serving; an exception nothing caught stops it
// (observability/processFaults.ts).

import { startBot } from './app/bot.js';
import { processLogger } from './app/logger.js';
import { checkRedis, EXIT_REDIS_UNREACHABLE, RedisUnreachable } from './app/redisCheck.js';
import { ConfigError, loadConfig } from './config.js';
import { createMetrics } from './observability/metrics.js';
import { installProcessFaults } from './observability/processFaults.js';
import { installGracefulShutdown, type ShutdownStep } from './observability/shutdown.js';

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
  // Request ids of the request being handled are added to every line, shared clients' lines included.
  const log = processLogger(config.logLevel);
  // SIGTERM / SIGINT: not ready, no new Slack events, jobs in hand finish, connections close; bounded.
  // Installed before starting, so a signal during start-up is handled too; the bot's steps join once it runs.
  const steps: ShutdownStep[] = [];
  const shutdown = installGracefulShutdown({ log, steps });
  const metrics = createMetrics();
  installProcessFaults({
    kind: 'keep-serving',
    log,
    metrics,
    stop: (reason) => void shutdown.shutdown(reason, true).catch(() => process.exit(1)),
  });
  // One sentence and exit 3 within seconds when Redis is not there, instead of retrying forever.
  await checkRedis(config.redis, config.redis.display);
  const bot = await startBot(config, log, { metrics });
  steps.push(...bot.shutdownSteps());
}

main().catch((error: unknown) => {
  if (error instanceof RedisUnreachable) {
    process.stderr.write(`fwbot cannot start: ${error.message}\n`);
    process.exit(EXIT_REDIS_UNREACHABLE);
  }
  // Problems only the running bot can see (an approval rule naming no operation) are configuration too.
  if (error instanceof ConfigError) {
    process.stderr.write(`fwbot cannot start: the configuration has problems.\n${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`fwbot failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
