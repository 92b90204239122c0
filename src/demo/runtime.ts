// Everything behind the surfaces, assembled for one process: SCC clients per profile (their calls
// counted), the workers and their tracker, the approvals (listeners on the console's in-process Bolt app),
// the permission check, the instrumented catalogue, and the readiness checks and shutdown steps that go
// with them. Workers and approvals talk to the console's stand-in Slack; with real Slack credentials their
// calls about other channels go to Slack (ConsoleSlack.routingFetch).
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createSccClients, type OwnedSccClients } from '../app/sccClients.js';
import { fwbotCatalogue, startGovernance } from '../app/surface.js';
import type { Approvals } from '../approvals/approvals.js';
import { authorizerFrom } from '../approvals/authorizer.js';
import { ApprovalSettings } from '../approvals/settings.js';
import type { Catalogue } from '../catalogue/index.js';
import type { OperationServices } from '../catalogue/operation.js';
import type { RolePolicy, SccProfile } from '../config.js';
import type { ConsoleSlack } from '../console/consoleSlack.js';
import type { ConsoleDeps } from '../console/runner.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import type { Tracker } from '../dispatch/ports.js';
import { createHome, type Home } from '../home/service.js';
import { DEFAULT_PREFIX } from '../jobs/keys.js';
import { observeQueues } from '../jobs/queueMetrics.js';
import { declaredQueues, startWorkers, type Workers } from '../jobs/workers.js';
import { tailAudit } from '../observability/auditTail.js';
import { type ReadinessCheck, sccChecks } from '../observability/health.js';
import { type FwbotMetrics, observeSlackClient, sccCallRecorder } from '../observability/metrics.js';
import { RedisHealth } from '../observability/redisHealth.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import { AccessControl } from '../policy/access.js';
import type { RedisDeduper } from '../redis/dedupe.js';
import { SlackApi } from '../slackApi/slackApi.js';

export interface RuntimeOptions {
  redisUrl: string;
  /** REDIS_URL as shown to people (no password), for the sentences about a lost Redis. */
  redisDisplay?: string;
  profiles: ReadonlyMap<string, SccProfile>;
  channelProfiles: ReadonlyMap<string, string>;
  policy: RolePolicy | null;
  approvalSettings: ApprovalSettings;
  sccTimeoutMs: number;
  log: Logger;
  metrics: FwbotMetrics;
  consoleSlack: ConsoleSlack;
  /** Real Slack beside the console (the demo with Slack tokens). */
  realSlack?: { token: string; apiUrl: string } | undefined;
  /** Values kept out of the audit trail (tokens). */
  secrets: readonly string[];
  /** Key prefix of the jobs (default `fwbot`); the approvals use it with a colon. */
  prefix?: string;
  /** Speeds polling up for tests. */
  schedule?: Parameters<typeof startWorkers>[0]['schedule'];
}

export interface Runtime {
  catalogue: Catalogue;
  access: AccessControl;
  /** The surfaces' SCC clients (the workers have their own, without retries). */
  clients: OwnedSccClients;
  tracker: Tracker;
  /** Every surface's calls go through it: roles, approvals, reveals, queues, audit. */
  dispatcher: Dispatcher;
  approvals: Approvals;
  services: OperationServices;
  /** Drops Slack's second deliveries of one interaction (shared with the approvals' listeners). */
  dedupe: RedisDeduper;
  /** Each person's App Home, read by the console's /home (nothing is published from the demo). */
  home: Home;
  redis: Redis;
  readinessChecks: ReadinessCheck[];
  /** In order: stop the workers (jobs in hand finish), the approvals, the observers, Redis, SCC. */
  shutdownSteps(): ShutdownStep[];
}

/** The console's view of the runtime: the same catalogue, checks, approvals and tracking as Slack's. */
export function consoleDeps(
  runtime: Runtime,
  extra: Pick<ConsoleDeps, 'slack' | 'log' | 'users' | 'channelId' | 'metrics'>,
): ConsoleDeps {
  return {
    catalogue: runtime.catalogue,
    dispatcher: runtime.dispatcher,
    tracker: runtime.tracker,
    approvals: runtime.approvals,
    home: runtime.home,
    ...extra,
  };
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { log, metrics, consoleSlack } = options;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const sccOptions = { timeoutMs: options.sccTimeoutMs, onCall: sccCallRecorder(options.metrics) };
  const clients = createSccClients(options.profiles, { ...sccOptions, log: options.log });
  // Workers retry through the queue, never by sleeping inside a client.
  const workerClients = createSccClients(options.profiles, {
    ...sccOptions,
    log: options.log.child({ component: 'worker' }),
    retries: false,
  });
  const workerSlack = consoleSlack.client({ workers: true, real: options.realSlack });
  observeSlackClient(workerSlack, metrics);
  // One view of Redis for every connection of this process: a line per change of state, not per retry.
  const redisHealth = new RedisHealth({ log, where: options.redisDisplay ?? 'the demo Redis' });
  const workers: Workers = await startWorkers({
    redisHealth,
    redisUrl: options.redisUrl,
    prefix,
    clients: workerClients,
    slack: workerSlack,
    logger: log.child({ component: 'jobs' }),
    ...(options.schedule ? { schedule: options.schedule } : {}),
  });
  const tracker = workers.jobs.tracker;
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  redisHealth.watch('demo', redis);
  const access = new AccessControl({
    policy: options.policy,
    channels: options.channelProfiles,
    profiles: clients.names(),
  });
  const catalogue = fwbotCatalogue(metrics);
  const approvalsSlack = consoleSlack.client({ real: options.realSlack });
  observeSlackClient(approvalsSlack, metrics);
  const settings = ApprovalSettings.parse(options.approvalSettings);
  let approvalsMade: Approvals | undefined;
  const home = createHome({
    redis,
    prefix,
    slack: new SlackApi(approvalsSlack),
    pending: async () => (approvalsMade ? approvalsMade.pending() : []),
    authorizer: authorizerFrom(access),
    allowSelfApproval: settings.allowSelfApproval,
    watches: workers.jobs.watches,
    // The console has one channel and every console user is in it: its watches are everyone's.
    channelsOf: async () => (await workers.jobs.watches.list()).map((watch) => watch.channelId),
    log,
    absorb: redisHealth.absorb.bind(redisHealth),
  });
  const { approvals, dispatcher, dedupe, services, queuedCalls } = startGovernance({
    redis,
    prefix,
    slack: approvalsSlack,
    clients,
    access,
    catalogue,
    jobs: workers.jobs,
    settings,
    secrets: options.secrets,
    metrics,
    log,
    home,
  });
  approvalsMade = approvals;
  await workers.runQueuedCalls(queuedCalls);
  await approvals.recover();
  approvals.startSweeper();
  const observer = observeQueues({
    redisUrl: options.redisUrl,
    prefix,
    profiles: clients.names(),
    queues: declaredQueues(catalogue.operations).map((queue) => queue.name),
    metrics,
    log,
    redisHealth,
  });
  const audit = tailAudit({
    redisUrl: options.redisUrl,
    streamKey: `${prefix}:audit`,
    metrics,
    log,
    redisHealth,
  });
  return {
    catalogue,
    access,
    clients,
    // Follows from the console are noted for the follower's Home, as from Slack.
    tracker: home.tracker(tracker),
    dispatcher,
    approvals,
    services,
    dedupe,
    home,
    redis,
    readinessChecks: [redisHealth.readinessCheck(redis), ...sccChecks(clients)],
    shutdownSteps: () => [
      { name: 'workers', run: () => workers.close() },
      { name: 'approvals', run: () => approvals.close() },
      { name: 'home', run: () => home.close() },
      {
        name: 'metrics observers',
        run: async () => void (await Promise.all([observer.close(), audit.close()])),
      },
      { name: 'redis', run: async () => void (await redis.quit()) },
      { name: 'scc', run: async () => void (await Promise.all([clients.close(), workerClients.close()])) },
    ],
  };
}
