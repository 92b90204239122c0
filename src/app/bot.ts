// Assembles the running bot from a loaded Config: the Slack surface (buildSurface: SCC clients, role
// policy, catalogue, approvals), the command intake that hands /fw commands to the command workers, the
// tracking queue, and the Bolt app (Socket Mode when an app token is configured, else HTTP at
// /slack/events). With BOT_WORKERS=on (the default) the workers run in this process too; with off it is a
// front that only answers Slack, and `npm run worker` processes do the work. Returns a handle that stops
// everything in order. main.ts is only the process around this.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { HomeTiming } from '../home/changes.js';
import type { Home } from '../home/service.js';
import { type CommandWorkers, createCommandIntake, startCommandWorkers } from '../jobs/commandQueue.js';
import { DEFAULT_PREFIX, slotPrefix } from '../jobs/keys.js';
import { DEFAULT_SCHEDULE, scheduleFromConfig } from '../jobs/schedule.js';
import {
  createJobs,
  createWorkerSlackClient,
  declaredQueues,
  type Jobs,
  startWorkers,
  type Workers,
} from '../jobs/workers.js';
import { tailAudit } from '../observability/auditTail.js';
import { type ReadinessCheck, sccChecks, slackApiCheck } from '../observability/health.js';
import { createHttpSide, type HttpSide } from '../observability/httpSide.js';
import { instrumentBolt } from '../observability/instrument.js';
import {
  createMetrics,
  type FwbotMetrics,
  observeSlackClient,
  sccCallRecorder,
} from '../observability/metrics.js';
import { observeQueues } from '../observability/queues.js';
import type { RedisHealth } from '../observability/redisHealth.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import { isCluster, type RedisTarget } from '../redis/connection.js';
import { createFwbotApp, type FwbotApp } from '../slack/app.js';
import { runCommand } from '../slack/commands/fw.js';
import { slashCommandHandler } from '../slack/commands/queued.js';
import type { SurfaceDeps } from '../slack/deps.js';
import { openProcessRedis } from './processRedis.js';
import { createSccClients } from './sccClients.js';
import { buildSurface } from './surface.js';

export interface StartBotOptions {
  /** Another key prefix in Redis (tests share one server). */
  redisPrefix?: string;
  /** How App Home updates are coalesced (tests shorten the waits). */
  homeTiming?: Partial<HomeTiming>;
  /** The process's registry, when the process counts in it too (main.ts: unhandled rejections). */
  metrics?: FwbotMetrics;
}

export interface RunningBot {
  fwbot: FwbotApp;
  /** /healthz, /readyz, /metrics as Bolt customRoutes: beside /slack/events, or on PORT in Socket Mode. */
  http: HttpSide;
  /** In order, for installGracefulShutdown: not ready, no new events, jobs in hand finish, connections close. */
  shutdownSteps(): ShutdownStep[];
  stop(): Promise<void>;
}

/** The queued /fw commands' workers, with the bot's schedule; used by the bot and by `npm run worker`. */
export function startCommandRunners(options: {
  redisUrl: RedisTarget;
  prefix: string;
  deps: SurfaceDeps;
  log: Logger;
  redisHealth?: RedisHealth;
}): Promise<CommandWorkers> {
  const { workers } = DEFAULT_SCHEDULE;
  const { deps, ...queue } = options;
  return startCommandWorkers({
    ...queue,
    handler: slashCommandHandler(deps, runCommand),
    concurrency: workers.commandConcurrency,
    lockDurationMs: workers.lockDurationMs,
    stalledIntervalMs: workers.stalledIntervalMs,
    log: options.log.child({ component: 'commands' }),
  });
}

export async function startBot(
  config: Config,
  log: Logger,
  options: StartBotOptions = {},
): Promise<RunningBot> {
  const REDIS_PREFIX = slotPrefix(options.redisPrefix ?? DEFAULT_PREFIX, isCluster(config.redis));
  const slackConfig = config.slack;
  if (slackConfig.mode === 'disabled')
    throw new Error('Slack is not configured (SLACK_BOT_TOKEN and a mode)');
  const botToken = slackConfig.botToken.reveal();
  const slackApiUrl = slackConfig.apiUrl;

  const metrics = options.metrics ?? createMetrics();
  const redisUrl = config.redis;
  const { redis, topology, redisHealth } = openProcessRedis(config.redis, {
    name: 'bot',
    prefix: REDIS_PREFIX,
    metrics,
    log,
  });
  let jobs: Jobs;
  let closeWorkers: () => Promise<void>;
  // Queued calls run with the surface's catalogue and governance, built below: their workers start then.
  let runQueuedCalls: Workers['runQueuedCalls'] | undefined;
  // Followed work that ends refreshes its requesters' Homes; the Home is built with the surface, below.
  let home: Home | undefined;
  const onSettled = (requesterIds: string[]) => void home?.publisher.changed(requesterIds);
  if (config.botWorkers) {
    // Workers poll with their own clients: no retries inside the client, the queue reschedules instead.
    const workerClients = createSccClients(config.profiles, {
      timeoutMs: config.scc.timeoutMs,
      log,
      retries: false,
      onCall: sccCallRecorder(metrics),
    });
    const workerSlack = createWorkerSlackClient(botToken, slackApiUrl);
    observeSlackClient(workerSlack, metrics);
    const workers = await startWorkers({
      redisUrl,
      prefix: REDIS_PREFIX,
      clients: workerClients,
      slack: workerSlack,
      logger: log.child({ component: 'jobs' }),
      schedule: scheduleFromConfig(config),
      redisHealth,
      onSettled,
    });
    jobs = workers.jobs;
    runQueuedCalls = (deps) => workers.runQueuedCalls(deps);
    closeWorkers = async () => {
      await workers.close();
      await workerClients.close();
    };
  } else {
    jobs = createJobs({
      redisUrl,
      prefix: REDIS_PREFIX,
      logger: log.child({ component: 'jobs' }),
      schedule: scheduleFromConfig(config),
      redisHealth,
    });
    closeWorkers = () => jobs.close();
  }
  const surface = buildSurface({
    config,
    log,
    redis,
    prefix: REDIS_PREFIX,
    jobs,
    metrics,
    redisHealth,
    ...(options.homeTiming ? { homeTiming: options.homeTiming } : {}),
  });
  home = surface.home;
  await runQueuedCalls?.(surface.queuedCalls);
  const { approvals, clients } = surface;
  const intake = createCommandIntake({ redisUrl, prefix: REDIS_PREFIX, log, redisHealth });
  await intake.ready();
  const commandWorkers = config.botWorkers
    ? await startCommandRunners({
        redisUrl,
        prefix: REDIS_PREFIX,
        deps: surface.surfaceDeps,
        log,
        redisHealth,
      })
    : undefined;

  // Read at each probe: the Slack check joins once the app exists.
  const readinessChecks: ReadinessCheck[] = [
    redisHealth.readinessCheck(redis),
    topology.readinessCheck(),
    ...sccChecks(clients),
  ];
  const http = createHttpSide({
    port: config.http.port,
    metricsPort: config.http.metricsPort,
    readinessChecks,
    metrics,
    log,
  });
  const fwbot = createFwbotApp(
    { ...surface.deps, commandIntake: intake },
    {
      botToken,
      ...(slackConfig.mode === 'http'
        ? { signingSecret: slackConfig.signingSecret.reveal() }
        : { appToken: slackConfig.appToken.reveal() }),
      port: config.http.port,
      slackApiUrl,
      // HTTP mode: the same server as /slack/events. Socket Mode: Bolt serves them on PORT too.
      customRoutes: http.routes,
      // Requests from another workspace or app are refused, and each refusal goes to the audit trail.
      workspace: {
        ...slackConfig.workspace,
        audit: approvals.audit,
      },
    },
  );
  instrumentBolt(fwbot.app, metrics);
  observeSlackClient(fwbot.app.client, metrics);
  readinessChecks.push(slackApiCheck(fwbot.app.client));
  const queues = observeQueues({
    redisUrl,
    prefix: REDIS_PREFIX,
    profiles: clients.names(),
    queues: declaredQueues(surface.deps.catalogue.operations).map((queue) => queue.name),
    metrics,
    log,
    redisHealth,
  });
  const audit = tailAudit({ redisUrl, streamKey: `${REDIS_PREFIX}:audit`, metrics, log, redisHealth });
  await fwbot.start();
  // METRICS_PORT: /metrics on a server of its own, not among the routes of the port Slack reaches.
  if (config.http.metricsPort !== undefined) await http.listenMetrics();
  await approvals.recover();
  approvals.startSweeper();
  // Scheduled Home updates are published by the bot processes (they have the Slack token and the data).
  surface.home.start();
  log.info(
    {
      mode: fwbot.mode,
      port: config.http.port,
      profiles: clients.names(),
      policy: config.policy !== null,
      workers: config.botWorkers ? 'in this process' : 'none (BOT_WORKERS=off: run npm run worker)',
    },
    'fwbot is running',
  );

  const steps = (): ShutdownStep[] => [
    { name: 'readiness', run: async () => http.drain() },
    { name: 'slack', run: () => fwbot.stop() },
    { name: 'metrics server', run: () => http.close() },
    { name: 'command intake', run: () => intake.close() },
    { name: 'commands', run: async () => void (await commandWorkers?.close()) },
    { name: 'approvals', run: () => approvals.close() },
    { name: 'home', run: () => surface.home.close() },
    { name: 'workers', run: () => closeWorkers() },
    { name: 'metrics observers', run: async () => void (await Promise.all([queues.close(), audit.close()])) },
    { name: 'redis', run: async () => void (await redis.quit()) },
    { name: 'scc', run: () => clients.close() },
  ];
  return {
    fwbot,
    http,
    shutdownSteps: steps,
    async stop() {
      for (const step of steps()) await step.run();
    },
  };
}
