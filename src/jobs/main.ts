// `npm run worker`: the workers without the Slack front: queued /fw commands, tracking, notifications,
// watches and tenant creations. Reads the same environment as the bot; start as many as you like, anywhere
// that reaches the same Redis. SIGTERM / SIGINT let the jobs in hand finish before the process exits.
import { Redis } from 'ioredis';
import { startCommandRunners } from '../app/bot.js';
import { createLogger } from '../app/logger.js';
import { createSccClients } from '../app/sccClients.js';
import { buildSurface } from '../app/surface.js';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { createMetrics } from '../observability/metrics.js';
import { installGracefulShutdown, type ShutdownStep } from '../observability/shutdown.js';
import { createWorkerSlackClient, startWorkers } from './workers.js';

const PREFIX = 'fwbot';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env, { require: { slack: true, scc: true } });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  // The bot's logger (JSON lines, secrets redacted) and its bounded drain on SIGTERM.
  const log = createLogger(config.logLevel).child({ component: 'worker' });
  const steps: ShutdownStep[] = [];
  installGracefulShutdown({ log, steps });
  if (config.slack.mode === 'disabled') {
    log.fatal('Slack is not configured: workers need SLACK_BOT_TOKEN to report in threads');
    process.exit(2);
  }
  // No retries inside the clients: the queue reschedules a failed poll instead of sleeping on it.
  const clients = createSccClients(config.profiles, { timeoutMs: config.scc.timeoutMs, log, retries: false });
  const redisUrl = config.redis.url.reveal();
  const workers = await startWorkers({
    redisUrl,
    prefix: PREFIX,
    clients,
    slack: createWorkerSlackClient(config.slack.botToken.reveal(), config.slack.apiUrl),
    logger: log,
  });
  // Queued commands run here as they would in the bot: same catalogue, policy, approvals and tracker.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const surface = buildSurface({
    config,
    log,
    redis,
    prefix: PREFIX,
    jobs: workers.jobs,
    metrics: createMetrics(),
  });
  const commands = await startCommandRunners({ redisUrl, prefix: PREFIX, deps: surface.surfaceDeps, log });
  log.info({ redis: config.redis.display, profiles: clients.names() }, 'worker ready');

  steps.push(
    { name: 'commands', run: () => commands.close() },
    { name: 'approvals', run: () => surface.approvals.close() },
    { name: 'workers', run: () => workers.close() },
    { name: 'redis', run: async () => void (await redis.quit()) },
    { name: 'scc', run: async () => void (await Promise.all([clients.close(), surface.clients.close()])) },
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `fwbot worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
