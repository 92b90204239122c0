// Assembles the running bot from a loaded Config: one SCC client per profile, the role policy, the
// tracking queue (workers run in this process too; `npm run worker` adds more), the approval service,
// and the Bolt app (Socket Mode when an app token is configured, else HTTP at /slack/events). Returns a
// handle that stops everything in order. main.ts is only the process around this.
import { webApi } from '@slack/bolt';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createApprovals } from '../approvals/approvals.js';
import { auditOperation } from '../approvals/auditOperation.js';
import { authorizerFrom } from '../approvals/authorizer.js';
import { approvalSettingsFrom, requiresApproval } from '../approvals/settings.js';
import { createCatalogue } from '../catalogue/index.js';
import type { Config } from '../config.js';
import { vpnUnwatch, vpnWatch } from '../jobs/watchOperations.js';
import { createWorkerSlackClient, startWorkers } from '../jobs/workers.js';
import { tailAudit } from '../observability/auditTail.js';
import { type ReadinessCheck, redisCheck, sccChecks, slackApiCheck } from '../observability/health.js';
import { createHttpSide, type HttpSide } from '../observability/httpSide.js';
import { instrumentBolt, instrumentCatalogue, instrumentGate } from '../observability/instrument.js';
import { createMetrics, observeSlackClient, sccCallRecorder } from '../observability/metrics.js';
import { observeQueues } from '../observability/queues.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import { AccessControl } from '../policy/access.js';
import { UserGroupDirectory } from '../policy/userGroups.js';
import { createFwbotApp, type FwbotApp } from '../slack/app.js';
import { RedisDeduper } from '../slack/dedupe.js';
import { SlackApi } from '../slack/slackApi.js';
import { createSccClients } from './sccClients.js';

/** Key prefix of this deployment in Redis (queues, approvals, retry marks). */
const DEFAULT_REDIS_PREFIX = 'fwbot';

export interface StartBotOptions {
  /** Another key prefix in Redis (tests share one server). */
  redisPrefix?: string;
}

export interface RunningBot {
  fwbot: FwbotApp;
  /** /healthz, /readyz, /metrics as Bolt customRoutes: beside /slack/events, or on PORT in Socket Mode. */
  http: HttpSide;
  /** In order, for installGracefulShutdown: not ready, no new events, jobs in hand finish, connections close. */
  shutdownSteps(): ShutdownStep[];
  stop(): Promise<void>;
}

export async function startBot(
  config: Config,
  log: Logger,
  options: StartBotOptions = {},
): Promise<RunningBot> {
  const REDIS_PREFIX = options.redisPrefix ?? DEFAULT_REDIS_PREFIX;
  const slackConfig = config.slack;
  if (slackConfig.mode === 'disabled')
    throw new Error('Slack is not configured (SLACK_BOT_TOKEN and a mode)');
  const botToken = slackConfig.botToken.reveal();
  const slackApiUrl = slackConfig.apiUrl;

  const metrics = createMetrics();
  const onCall = sccCallRecorder(metrics);
  const clients = createSccClients(config.profiles, { timeoutMs: config.scc.timeoutMs, log, onCall });
  // Workers poll with their own clients: no retries inside the client, the queue reschedules instead.
  const workerClients = createSccClients(config.profiles, {
    timeoutMs: config.scc.timeoutMs,
    log,
    retries: false,
    onCall,
  });
  const redisUrl = config.redis.url.reveal();
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const workerSlack = createWorkerSlackClient(botToken, slackApiUrl);
  observeSlackClient(workerSlack, metrics);
  const workers = await startWorkers({
    redisUrl,
    prefix: REDIS_PREFIX,
    clients: workerClients,
    slack: workerSlack,
    logger: log.child({ component: 'jobs' }),
  });
  const jobs = workers.jobs;

  const slackClient = new webApi.WebClient(botToken, { slackApiUrl });
  observeSlackClient(slackClient, metrics);
  const slackApi = new SlackApi(slackClient);
  const groups = new UserGroupDirectory({ log, fetchMembers: (group) => slackApi.userGroupMembers(group) });
  const access = new AccessControl(
    { policy: config.policy, channels: config.channelProfiles, profiles: [...config.profiles.keys()] },
    groups,
  );
  const catalogue = instrumentCatalogue(
    createCatalogue({ extra: [auditOperation, vpnWatch, vpnUnwatch] }),
    metrics,
  );
  const settings = approvalSettingsFrom(config);
  const secrets = [
    botToken,
    ...(slackConfig.mode === 'http' ? [slackConfig.signingSecret.reveal()] : [slackConfig.appToken.reveal()]),
    ...[...config.profiles.values()].map((profile) => profile.token.reveal()),
  ];
  const approvals = createApprovals({
    redis,
    prefix: `${REDIS_PREFIX}:`,
    slack: slackClient,
    clients,
    lookup: (id) => catalogue.get(id),
    tracker: jobs.tracker,
    authorizer: authorizerFrom(access),
    settings,
    logger: log,
    secrets,
  });

  // Read at each probe: the Slack check joins once the app exists.
  const readinessChecks: ReadinessCheck[] = [redisCheck(redis), ...sccChecks(clients)];
  const http = createHttpSide({ port: config.http.port, readinessChecks, metrics, log });
  const fwbot = createFwbotApp(
    {
      catalogue,
      scc: clients,
      access,
      tracker: jobs.tracker,
      approvals: instrumentGate(approvals.gate, metrics),
      tenantCreation: { enqueue: (request) => jobs.enqueueTenantCreation(request) },
      requiresApproval: (op) => requiresApproval(op, settings),
      dedupe: new RedisDeduper(redis, `${REDIS_PREFIX}:slack:seen:`),
      log,
      metrics,
      services: { watches: jobs.watches, audit: approvals.audit },
      listeners: [(app) => approvals.register(app)],
    },
    {
      botToken,
      ...(slackConfig.mode === 'http'
        ? { signingSecret: slackConfig.signingSecret.reveal() }
        : { appToken: slackConfig.appToken.reveal() }),
      port: config.http.port,
      slackApiUrl,
      // HTTP mode: the same server as /slack/events. Socket Mode: Bolt serves them on PORT too.
      customRoutes: http.routes,
    },
  );
  instrumentBolt(fwbot.app, metrics);
  observeSlackClient(fwbot.app.client, metrics);
  readinessChecks.push(slackApiCheck(fwbot.app.client));
  const queues = observeQueues({ redisUrl, prefix: REDIS_PREFIX, profiles: clients.names(), metrics, log });
  const audit = tailAudit({ redisUrl, streamKey: `${REDIS_PREFIX}:audit`, metrics, log });
  await fwbot.start();
  await approvals.recover();
  approvals.startSweeper();
  log.info(
    { mode: fwbot.mode, port: config.http.port, profiles: clients.names(), policy: config.policy !== null },
    'fwbot is running',
  );

  const steps = (): ShutdownStep[] => [
    { name: 'readiness', run: async () => http.drain() },
    { name: 'slack', run: () => fwbot.stop() },
    { name: 'approvals', run: () => approvals.close() },
    { name: 'workers', run: () => workers.close() },
    { name: 'metrics observers', run: async () => void (await Promise.all([queues.close(), audit.close()])) },
    { name: 'redis', run: async () => void (await redis.quit()) },
    { name: 'scc', run: async () => void (await Promise.all([clients.close(), workerClients.close()])) },
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
