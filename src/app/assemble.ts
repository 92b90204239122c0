// The one assembly every process of fwbot that keeps state shares (the bot, `npm run worker`, the demo):
// from a loaded Config, the deployment's Redis (its topology watched), the queues — with their workers
// when this process runs them (tracking, notifications, watches, the operations' paced queues), or only
// their producer side — the surface (SCC clients per profile, the role policy, the catalogue, approvals,
// reveal grants, the dispatcher, the App Home), the workers of queued /fw commands, the readers of Redis
// behind /metrics, and the approvals' recovery and expiry passes, each where the process asks for them; the
// pass over timed work (src/jobs/timed/) runs in every one of them.
// The processes add only what is theirs: the bot its Bolt app and command intake, a worker its probes,
// the demo its simulator and its console's chat. (The CLI keeps no state: it has no Redis.)
import type { Logger } from 'pino';
import type { CertificateProbe } from '../catalogue/operation.js';
import { channelScopes } from '../config/scope.js';
import type { Config } from '../config.js';
import type { HomeTiming } from '../home/changes.js';
import type { Home } from '../home/service.js';
import { alertScanCheck, alertScanMetrics } from '../jobs/alerts/scanHealth.js';
import {
  type CommandWorkers,
  type CommandWorkersOptions,
  startCommandWorkers,
} from '../jobs/commandQueue.js';
import { commandRunner } from '../jobs/queuedCommands.js';
import { observeQueues } from '../jobs/queueMetrics.js';
import { DEFAULT_SCHEDULE, type ScheduleOverrides, scheduleFromConfig } from '../jobs/schedule.js';
import { createJobs, declaredQueues, type Jobs, startWorkers } from '../jobs/workers.js';
import type { ChatOf } from '../model/message.js';
import { tailAudit } from '../observability/auditTail.js';
import { type ReadinessCheck, sccChecks } from '../observability/health.js';
import { type FwbotMetrics, observeSlackClient, sccCallRecorder } from '../observability/metrics.js';
import type { RedisHealth } from '../observability/redisHealth.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import { isCluster, type RedisClient } from '../redis/connection.js';
import { DEFAULT_PREFIX, RedisKeys, slotPrefix } from '../redis/keys.js';
import type { TopologyWatch } from '../redis/topology.js';
import { slackChatOf } from '../slack/chat.js';
import { slackCommandAnswers } from '../slack/commands/queued.js';
import type { SurfaceDeps } from '../slack/deps.js';
import type { SlackClientsByTeam } from '../slackApi/clientsByTeam.js';
import { openProcessRedis } from './processRedis.js';
import { createSccClients } from './sccClients.js';
import {
  buildSurface,
  type ChatRoute,
  type SlackClients,
  type Surface,
  slackClientsFrom,
} from './surface.js';

export interface AssembleOptions {
  config: Config;
  log: Logger;
  /** The process's registry: everything assembled here counts in it. */
  metrics: FwbotMetrics;
  /** This process, as its Redis connection and its log lines name it: `bot`, `worker`. */
  name: string;
  /** Run the workers here: tracking, notifications, watches, the operations' paced queues. */
  workers: boolean;
  /** Run queued /fw commands here. */
  commands: boolean;
  /** Another key prefix in Redis (tests share one server). */
  redisPrefix?: string;
  /** How App Home updates are coalesced (tests shorten the waits). */
  homeTiming?: Partial<HomeTiming>;
  /**
   * The Slack clients (default: the configured app's, from its bot token), or in OAuth mode what makes each
   * workspace's from this process's Redis (its installations: installedWorkspaceClients).
   */
  slack?: SlackClients | ((opened: { redis: RedisClient; prefix: string }) => SlackClientsByTeam);
  /**
   * One channel that everyone is in (the demo's console): a person's Home counts every watched channel as
   * theirs, instead of asking Slack which channels they are in.
   */
  oneChannelForAll?: boolean;
  /** Timings over the configuration's (tests run the same machinery in milliseconds). */
  schedule?: ScheduleOverrides;
  /**
   * Where the workers' notifications and the approvals' cards go, given Slack's chat (default: Slack's):
   * the demo's console takes its own channel's (src/console/consoleChat.ts).
   */
  chat?: ChatRoute;
  /** Read the queues and the audit stream for /metrics (the bot and the demo; a worker's are the bot's). */
  observe?: boolean;
  /** Run the approvals' recovery pass now and their expiry sweeper from now on (the bot and the demo). */
  sweep?: boolean;
  /**
   * The look at devices' certificates (default: a TLS handshake to each device's own address); the demo
   * sends it to its simulator's management endpoint.
   */
  certificates?: CertificateProbe;
}

export interface Assembled {
  /** The deployment's key prefix (in a hash tag on a Redis Cluster). */
  prefix: string;
  redis: RedisClient;
  topology: TopologyWatch;
  redisHealth: RedisHealth;
  /** The queues' producer side: what the dispatcher and the surfaces hand work to. */
  jobs: Jobs;
  surface: Surface;
  /** Redis, its topology, and each SCC profile, for /readyz. */
  readinessChecks: ReadinessCheck[];
  /**
   * What stops, in order: queued commands, approvals, the Home, the workers (jobs in hand finish), then
   * `beforeRedis` (the process's own readers of Redis), Redis itself, and the SCC clients.
   */
  steps(beforeRedis?: readonly ShutdownStep[]): ShutdownStep[];
}

/**
 * How queued /fw commands run on a surface: the dispatcher runs what the front read, with the registry's
 * operations, and Slack only carries the answers back (the command workers import nothing of src/slack/).
 */
export function commandHandling(deps: SurfaceDeps): Pick<CommandWorkersOptions, 'handler' | 'catalogue'> {
  return {
    handler: commandRunner({
      dispatcher: deps.dispatcher,
      lookup: (id) => deps.catalogue.get(id),
      answers: slackCommandAnswers(deps),
      log: deps.log,
    }),
    catalogue: deps.catalogue,
  };
}

/** The queued /fw commands' workers, with the default schedule's concurrency and locks. */
function startCommandRunners(
  options: AssembleOptions,
  prefix: string,
  surface: Surface,
  redisHealth: RedisHealth,
): Promise<CommandWorkers> {
  const { workers } = DEFAULT_SCHEDULE;
  return startCommandWorkers({
    redisUrl: options.config.redis,
    prefix,
    ...commandHandling(surface.surfaceDeps),
    concurrency: workers.commandConcurrency,
    lockDurationMs: workers.lockDurationMs,
    stalledIntervalMs: workers.stalledIntervalMs,
    log: options.log.child({ component: 'commands' }),
    redisHealth,
  });
}

/**
 * Every watched or subscribed channel is everyone's: the console has one channel, and every console user is
 * in it (so the demo's Home lists the watches and the open incidents of the channel it tells).
 */
function oneChannelForAll(jobs: Jobs): () => Promise<string[]> {
  return async () => {
    const [watches, subscriptions] = await Promise.all([
      jobs.watches.list(),
      jobs.alerts.subscriptions.list(),
    ]);
    return [...new Set([...watches, ...subscriptions].map((item) => item.channelId))];
  };
}

export async function assemble(options: AssembleOptions): Promise<Assembled> {
  const { config, log, metrics } = options;
  const configured = options.slack ?? slackClientsFrom(config);
  if (!configured) throw new Error('Slack is not configured (SLACK_BOT_TOKEN and a mode)');
  const prefix = slotPrefix(options.redisPrefix ?? DEFAULT_PREFIX, isCluster(config.redis));
  const { redis, topology, redisHealth } = openProcessRedis(config.redis, {
    name: options.name,
    prefix,
    metrics,
    log,
  });
  const slack = typeof configured === 'function' ? configured({ redis, prefix }) : configured;
  const schedule = { ...scheduleFromConfig(config), ...options.schedule };
  // Followed work that ends refreshes its requesters' Homes; the Home is built with the surface, below.
  let home: Home | undefined;
  let jobs: Jobs;
  let runQueuedCalls: ((surface: Surface) => Promise<void>) | undefined;
  let closeWorkers: () => Promise<void>;
  if (options.workers) {
    // Workers poll with their own clients: no retries inside the client, the queue reschedules instead.
    const workerClients = createSccClients(config.profiles, {
      timeoutMs: config.scc.timeoutMs,
      log,
      retries: false,
      onCall: sccCallRecorder(metrics),
    });
    // Each notification goes out with the chat of the workspace it names (one for all in single mode).
    let workerSlack: ChatOf;
    if ('forTeam' in slack) workerSlack = slackChatOf((team) => slack.forTeam(team, 'workers'), log);
    else {
      workerSlack = slackChatOf(slack.workers, log);
      observeSlackClient(slack.workers, metrics);
    }
    const workers = await startWorkers({
      redisUrl: config.redis,
      prefix,
      clients: workerClients,
      chat: options.chat ? options.chat(workerSlack) : workerSlack,
      logger: log.child({ component: 'jobs' }),
      schedule,
      redisHealth,
      onSettled: (requesterIds) => void home?.publisher.changed(requesterIds),
      // Open incidents are listed on every Home of their channels' members: the opened Homes are refreshed.
      onIncidentsChanged: () => void home?.publisher.changed('everyone'),
      alertMetrics: alertScanMetrics(metrics),
      // A customer channel is told its tenant's alerts only, whatever it was subscribed to before.
      channelScope: channelScopes(config),
      snapshotRetentionDays: config.changes.snapshotRetentionDays,
    });
    jobs = workers.jobs;
    // Queued calls run with the surface's catalogue and governance: their workers start once it exists.
    runQueuedCalls = (surface) => workers.runQueuedCalls(surface.queuedCalls);
    closeWorkers = async () => {
      await workers.close();
      await workerClients.close();
    };
  } else {
    jobs = createJobs({
      // A new alert subscription's first read tells what is wrong now, in the channels that may hear it.
      alertRouting: { channelScope: channelScopes(config), profiles: [...config.profiles.keys()] },
      redisUrl: config.redis,
      prefix,
      logger: log.child({ component: 'jobs' }),
      schedule,
      redisHealth,
      snapshotRetentionDays: config.changes.snapshotRetentionDays,
    });
    closeWorkers = () => jobs.close();
  }
  const surface = buildSurface({
    config,
    slack,
    log,
    redis,
    prefix,
    jobs,
    metrics,
    redisHealth,
    ...(options.homeTiming ? { homeTiming: options.homeTiming } : {}),
    ...(options.oneChannelForAll ? { homeChannelsOf: oneChannelForAll(jobs) } : {}),
    ...(options.chat ? { chat: options.chat } : {}),
    ...(options.certificates ? { certificates: options.certificates } : {}),
  });
  home = surface.home;
  await runQueuedCalls?.(surface);
  const commands = options.commands
    ? await startCommandRunners(options, prefix, surface, redisHealth)
    : undefined;
  const redisUrl = config.redis;
  const observers = options.observe
    ? [
        observeQueues({
          redisUrl,
          prefix,
          profiles: surface.clients.names(),
          queues: declaredQueues(surface.deps.catalogue.operations).map((queue) => queue.name),
          metrics,
          log,
          redisHealth,
        }),
        tailAudit({ redisUrl, streamKey: new RedisKeys(prefix).audit(), metrics, log, redisHealth }),
      ]
    : [];
  if (options.sweep) {
    await surface.approvals.recover();
    surface.approvals.startSweeper();
  }
  // Every process passes over the timed work, as any of them may be the one alive when an item is due.
  surface.timed.start();
  return {
    prefix,
    redis,
    topology,
    redisHealth,
    jobs,
    surface,
    readinessChecks: [
      redisHealth.readinessCheck(redis),
      topology.readinessCheck(),
      ...sccChecks(surface.clients),
      // Where this process scans for alerts: whether the scan keeps its intervals within its SCC budget.
      ...(options.workers ? [alertScanCheck(redis, prefix)] : []),
    ],
    steps: (beforeRedis = []) => [
      { name: 'commands', run: async () => void (await commands?.close()) },
      { name: 'approvals', run: () => surface.approvals.close() },
      { name: 'timed work', run: () => surface.timed.close() },
      { name: 'home', run: () => surface.home.close() },
      { name: 'workers', run: () => closeWorkers() },
      ...beforeRedis,
      ...(observers.length > 0
        ? [
            {
              name: 'metrics observers',
              run: async () => void (await Promise.all(observers.map((observer) => observer.close()))),
            },
          ]
        : []),
      { name: 'redis', run: async () => void (await redis.quit()) },
      { name: 'scc', run: () => surface.clients.close() },
    ],
  };
}
