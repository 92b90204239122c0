// A running worker (`npm run worker`): the shared assembly (assemble.ts) with every worker in this
// process — tracking, notifications, watches, the operations' paced queues and queued /fw commands — and
// /healthz, /readyz and /metrics on PORT (METRICS_PORT), as the bot serves them, so each process can be
// probed. The probes are served before any job is taken; src/entry/worker.ts is the process around this.
// In OAuth mode it posts with each workspace's own token, from the installations the bot stored in Redis.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ReadinessCheck } from '../observability/health.js';
import { createHttpSide, type HttpSide } from '../observability/httpSide.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import { assemble } from './assemble.js';
import { installedWorkspaces } from './installedWorkspaces.js';

export interface RunningWorker {
  /** In order, for installGracefulShutdown: not ready, jobs in hand finish, connections close. */
  shutdownSteps(): ShutdownStep[];
}

export async function startWorker(
  config: Config,
  log: Logger,
  options: {
    metrics: FwbotMetrics;
    /** Serves the probes before any job is taken (the process decides what a port already taken means). */
    serve(http: HttpSide): Promise<void>;
  },
): Promise<RunningWorker> {
  const { metrics } = options;
  // Read at each probe: the checks join once what they check exists.
  const readinessChecks: ReadinessCheck[] = [];
  const http = createHttpSide({
    port: config.http.port,
    metricsPort: config.http.metricsPort,
    readinessChecks,
    metrics,
    log,
  });
  await options.serve(http);
  // Queued commands run here as they would in the bot: same catalogue, policy, approvals and tracker.
  // OAuth mode: each notification goes out with its workspace's token, from its installation.
  const oauth = installedWorkspaces(config, log);
  const assembled = await assemble({
    config,
    log,
    metrics,
    name: 'worker',
    workers: true,
    commands: true,
    ...(oauth ? { slack: (opened) => oauth.clients(opened) } : {}),
  });
  readinessChecks.push(...assembled.readinessChecks);
  log.info(
    { redis: config.redis.display, profiles: assembled.surface.clients.names(), port: config.http.port },
    'worker ready',
  );
  return {
    shutdownSteps: () => [
      { name: 'readiness', run: async () => http.drain() },
      ...assembled.steps([{ name: 'installations', run: async () => oauth?.close() }]),
      { name: 'http', run: () => http.close() },
    ],
  };
}
