// `npm run worker`: the workers without the Slack front: queued /fw commands, tracking, notifications,
// watches and the operations' queues. Reads the same environment as the bot; start as many as you like,
// anywhere that reaches the same Redis. Serves /healthz, /readyz and /metrics on PORT as the bot does (so
// each process on one host needs a PORT of its own), or /metrics and the detailed /readyz on METRICS_PORT
// when it is set. SIGTERM / SIGINT let the jobs in hand finish before the process exits. A promise
// rejection nothing handled is logged and counted and the worker keeps working; an exception nothing
// caught stops it (observability/processFaults.ts).
import { startCommandRunners } from '../app/bot.js';
import { processLogger } from '../app/logger.js';
import { openProcessRedis } from '../app/processRedis.js';
import { checkRedis, EXIT_REDIS_UNREACHABLE, RedisUnreachable } from '../app/redisCheck.js';
import { createSccClients } from '../app/sccClients.js';
import { buildSurface } from '../app/surface.js';
import { type Config, ConfigError, loadConfig } from '../config.js';
import type { Home } from '../home/service.js';
import { sccChecks } from '../observability/health.js';
import { createHttpSide, type HttpSide } from '../observability/httpSide.js';
import { createMetrics, observeSlackClient, sccCallRecorder } from '../observability/metrics.js';
import { installProcessFaults } from '../observability/processFaults.js';
import { installGracefulShutdown, type ShutdownStep } from '../observability/shutdown.js';
import { isCluster } from '../redis/connection.js';
import { DEFAULT_PREFIX, slotPrefix } from './keys.js';
import { scheduleFromConfig } from './schedule.js';
import { createWorkerSlackClient, startWorkers } from './workers.js';

function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'EADDRINUSE';
}

/**
 * Serves the probes (and METRICS_PORT's server), or ends the process (exit 2) when a port is taken. Called
 * before any job is taken, so a worker that cannot be probed stops with nothing in hand; the usual cause
 * is a second process on one host left on the default PORT, or on the bot's METRICS_PORT.
 */
async function serveProbes(http: HttpSide, ports: Config['http']): Promise<void> {
  const taken = (what: string, variable: string, port: number, example: string): never => {
    process.stderr.write(
      `fwbot worker cannot serve ${what}: ${variable} ${port} is already in use on this host. ` +
        `Give each process on one host its own ${variable} (${example}).\n`,
    );
    return process.exit(2);
  };
  try {
    await http.listen();
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    const what = ports.metricsPort === undefined ? '/healthz, /readyz and /metrics' : '/healthz and /readyz';
    taken(what, 'PORT', ports.port, 'e.g. PORT=3000 for the bot, PORT=3001 for a worker');
  }
  if (ports.metricsPort === undefined) return;
  try {
    await http.listenMetrics();
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    await http.close();
    taken('/metrics', 'METRICS_PORT', ports.metricsPort, 'e.g. 9464 for the bot, 9465 for a worker');
  }
}

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
  const log = processLogger(config.logLevel).child({ component: 'worker' });
  const steps: ShutdownStep[] = [];
  const shutdown = installGracefulShutdown({ log, steps });
  // One registry for everything this process does: with BOT_WORKERS=off the queued commands' counters, the
  // workers' SCC calls and their Slack rate-limit waits exist only here.
  const metrics = createMetrics();
  installProcessFaults({
    kind: 'keep-serving',
    log,
    metrics,
    stop: (reason) => void shutdown.shutdown(reason, true).catch(() => process.exit(1)),
  });
  if (config.slack.mode === 'disabled') {
    log.fatal('Slack is not configured: workers need SLACK_BOT_TOKEN to report in threads');
    process.exit(2);
  }
  // No retries inside the clients: the queue reschedules a failed poll instead of sleeping on it.
  const clients = createSccClients(config.profiles, {
    timeoutMs: config.scc.timeoutMs,
    log,
    retries: false,
    onCall: sccCallRecorder(metrics),
  });
  const redisUrl = config.redis;
  const PREFIX = slotPrefix(DEFAULT_PREFIX, isCluster(redisUrl));
  // One sentence and exit 3 within seconds when Redis is not there, instead of retrying forever.
  await checkRedis(redisUrl, config.redis.display);
  const { redis, topology, redisHealth } = openProcessRedis(config.redis, {
    name: 'worker',
    prefix: PREFIX,
    metrics,
    log,
  });
  const http = createHttpSide({
    port: config.http.port,
    metricsPort: config.http.metricsPort,
    readinessChecks: [redisHealth.readinessCheck(redis), topology.readinessCheck(), ...sccChecks(clients)],
    metrics,
    log,
  });
  await serveProbes(http, config.http);

  const slack = createWorkerSlackClient(config.slack.botToken.reveal(), config.slack.apiUrl);
  observeSlackClient(slack, metrics);
  // Followed work that ends here refreshes its requesters' App Homes (the bots publish them).
  let home: Home | undefined;
  const workers = await startWorkers({
    redisUrl,
    prefix: PREFIX,
    clients,
    slack,
    logger: log,
    schedule: scheduleFromConfig(config),
    redisHealth,
    onSettled: (requesterIds) => void home?.publisher.changed(requesterIds),
  });
  // Queued commands run here as they would in the bot: same catalogue, policy, approvals and tracker.
  const surface = buildSurface({
    config,
    log,
    redis,
    prefix: PREFIX,
    jobs: workers.jobs,
    metrics,
    redisHealth,
  });
  home = surface.home;
  await workers.runQueuedCalls(surface.queuedCalls);
  const commands = await startCommandRunners({
    redisUrl,
    prefix: PREFIX,
    deps: surface.surfaceDeps,
    log,
    redisHealth,
  });
  log.info(
    { redis: config.redis.display, profiles: clients.names(), port: config.http.port },
    'worker ready',
  );

  steps.push(
    { name: 'readiness', run: async () => http.drain() },
    { name: 'commands', run: () => commands.close() },
    { name: 'approvals', run: () => surface.approvals.close() },
    { name: 'home', run: () => surface.home.close() },
    { name: 'workers', run: () => workers.close() },
    { name: 'redis', run: async () => void (await redis.quit()) },
    { name: 'scc', run: async () => void (await Promise.all([clients.close(), surface.clients.close()])) },
    { name: 'http', run: () => http.close() },
  );
}

main().catch((error: unknown) => {
  if (error instanceof RedisUnreachable) {
    process.stderr.write(`fwbot worker cannot start: ${error.message}\n`);
    process.exit(EXIT_REDIS_UNREACHABLE);
  }
  // Problems only the running worker can see (an approval rule naming no operation) are configuration too.
  if (error instanceof ConfigError) {
    process.stderr.write(`fwbot worker cannot start: the configuration has problems.\n${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `fwbot worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
