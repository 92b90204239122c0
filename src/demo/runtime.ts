// Everything behind the surfaces, assembled for one process: SCC clients per profile (their calls
// counted), the workers and their tracker, the approvals (listeners on the console's in-process Bolt app),
// the permission check, the instrumented catalogue, and the readiness checks and shutdown steps that go
// with them. Workers and approvals talk to the console's stand-in Slack; with real Slack credentials their
// calls about other channels go to Slack (ConsoleSlack.routingFetch).
import type { App } from '@slack/bolt';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ApprovalGate, TenantCreationQueue, Tracker } from '../dispatch/ports.js';
import { createSccClients, type OwnedSccClients } from '../app/sccClients.js';
import { fwbotCatalogue } from '../app/surface.js';
import { type Approvals, createApprovals } from '../approvals/approvals.js';
import { authorizerFrom } from '../approvals/authorizer.js';
import { type ApprovalSettings, requiresApproval } from '../approvals/settings.js';
import type { Catalogue } from '../catalogue/index.js';
import type { Operation, OperationServices } from '../catalogue/operation.js';
import type { RolePolicy, SccProfile } from '../config.js';
import type { ConsoleSlack } from '../console/consoleSlack.js';
import { createConsoleBolt } from '../console/interactions.js';
import type { ConsoleDeps } from '../console/runner.js';
import { DEFAULT_PREFIX } from '../jobs/keys.js';
import { startWorkers, type Workers } from '../jobs/workers.js';
import { tailAudit } from '../observability/auditTail.js';
import { type ReadinessCheck, redisCheck, sccChecks } from '../observability/health.js';
import { instrumentGate } from '../observability/instrument.js';
import { type FwbotMetrics, observeSlackClient, sccCallRecorder } from '../observability/metrics.js';
import { observeQueues } from '../observability/queues.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import { AccessControl } from '../policy/access.js';

export interface RuntimeOptions {
  redisUrl: string;
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
  gate: ApprovalGate;
  /** The approval policy's rule: destructive operations, and VPN upgrades when the policy says so. */
  requiresApproval: (op: Operation) => boolean;
  tenantCreation: TenantCreationQueue;
  approvals: Approvals;
  services: OperationServices;
  /** The in-process Bolt app the approvals' listeners are registered on, for the console's clicks. */
  consoleBolt: App;
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
    access: runtime.access,
    scc: runtime.clients,
    tracker: runtime.tracker,
    approvals: runtime.gate,
    requiresApproval: runtime.requiresApproval,
    tenantCreation: runtime.tenantCreation,
    bolt: runtime.consoleBolt,
    services: runtime.services,
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
  const workers: Workers = await startWorkers({
    redisUrl: options.redisUrl,
    prefix,
    clients: workerClients,
    slack: workerSlack,
    logger: log.child({ component: 'jobs' }),
    ...(options.schedule ? { schedule: options.schedule } : {}),
  });
  const tracker = workers.jobs.tracker;
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const access = new AccessControl({
    policy: options.policy,
    channels: options.channelProfiles,
    profiles: clients.names(),
  });
  const catalogue = fwbotCatalogue(metrics);
  const approvalsSlack = consoleSlack.client({ real: options.realSlack });
  observeSlackClient(approvalsSlack, metrics);
  const approvals = createApprovals({
    redis,
    prefix: `${prefix}:`,
    slack: approvalsSlack,
    clients,
    lookup: (id) => catalogue.get(id),
    tracker,
    authorizer: authorizerFrom(access),
    settings: options.approvalSettings,
    logger: log,
    secrets: options.secrets,
  });
  const consoleBolt = createConsoleBolt(consoleSlack, log);
  approvals.register(consoleBolt);
  await approvals.recover();
  approvals.startSweeper();
  const observer = observeQueues({
    redisUrl: options.redisUrl,
    prefix,
    profiles: clients.names(),
    metrics,
    log,
  });
  const audit = tailAudit({ redisUrl: options.redisUrl, streamKey: `${prefix}:audit`, metrics, log });
  return {
    catalogue,
    access,
    clients,
    tracker,
    gate: instrumentGate(approvals.gate, metrics),
    requiresApproval: (op) => requiresApproval(op, options.approvalSettings),
    tenantCreation: { enqueue: (request) => workers.jobs.enqueueTenantCreation(request) },
    approvals,
    services: { audit: approvals.audit, watches: workers.jobs.watches },
    consoleBolt,
    redis,
    readinessChecks: [redisCheck(redis), ...sccChecks(clients)],
    shutdownSteps: () => [
      { name: 'workers', run: () => workers.close() },
      { name: 'approvals', run: () => approvals.close() },
      {
        name: 'metrics observers',
        run: async () => void (await Promise.all([observer.close(), audit.close()])),
      },
      { name: 'redis', run: async () => void (await redis.quit()) },
      { name: 'scc', run: async () => void (await Promise.all([clients.close(), workerClients.close()])) },
    ],
  };
}
