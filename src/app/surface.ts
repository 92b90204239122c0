// What answering people needs, built once from the Config for any process that does it: the bot (its
// buttons, modals and, with BOT_WORKERS=on, its commands) and `npm run worker` (queued commands). One SCC
// client per profile, the role policy with its user-group directory, the catalogue, the approval service,
// and the FwbotDeps object the Slack surface runs on.

import type { Logger } from 'pino';
import { type Approvals, createApprovals } from '../approvals/approvals.js';
import { authorizerFrom } from '../approvals/authorizer.js';
import { ChatCardNotifier } from '../approvals/chatNotifier.js';
import { type ApprovalSettings, approvalSettingsFrom } from '../approvals/settings.js';
import { type Catalogue, createCatalogue } from '../catalogue/index.js';
import type { CertificateProbe, OperationPolicy, OperationServices } from '../catalogue/operation.js';
import type {
  AccessRequestPolicy,
  ChangeSettings,
  Config,
  DeviceOutputSettings,
  ResponseSettings,
  UpgradeSettings,
} from '../config.js';
import { Dispatcher } from '../dispatch/dispatcher.js';
import { governanceOf } from '../dispatch/governance.js';
import type { AuditEntry, SccClients } from '../dispatch/ports.js';
import { RedisRevealGrants } from '../dispatch/reveals.js';
import type { HomeTiming } from '../home/changes.js';
import { createHome, type Home } from '../home/service.js';
import type { TimedRunner } from '../jobs/timed/runner.js';
import type { Jobs, QueuedCallsDeps } from '../jobs/workers.js';
import type { ChatOf } from '../model/message.js';
import type { Role } from '../model/types.js';
import type { WorkspaceRef } from '../model/workspace.js';
import { type FwbotMetrics, observeSlackClient, sccCallRecorder } from '../observability/metrics.js';
import type { RedisHealth } from '../observability/redisHealth.js';
import { AccessControl, type AccessSettings } from '../policy/access.js';
import { UserGroupDirectory } from '../policy/userGroups.js';
import type { RedisClient } from '../redis/connection.js';
import { RedisDeduper } from '../redis/dedupe.js';
import { slackChatOf } from '../slack/chat.js';
import { type FwbotDeps, type SurfaceDeps, surfaceOf } from '../slack/deps.js';
import { slackHomeTab } from '../slack/homeTab.js';
import {
  createWorkerSlackClient,
  slackClient as newSlackClient,
  type SlackWebClient,
} from '../slackApi/clients.js';
import { type SlackClientsByTeam, singleWorkspaceClients } from '../slackApi/clientsByTeam.js';
import { SlackApi, type WebApiClient } from '../slackApi/slackApi.js';
import { createCertificateProbe } from './certificateProbe.js';
import { instrumentCatalogue, instrumentGate } from './instrument.js';
import { createSccClients, type OwnedSccClients } from './sccClients.js';

/** The Slack Web API clients a running fwbot answers, works and publishes its Homes with. */
export interface SlackClients {
  /** Answers people and posts approval cards (the Web API client's own retries). */
  answers: SlackWebClient;
  /** The workers' notifications: a 429 comes back at once, the queue waits (createWorkerSlackClient). */
  workers: SlackWebClient;
  /** The Homes' publishes, paced by the Home itself (a 429 comes back at once too). */
  home: SlackWebClient;
}

/** The clients of the configured Slack app (its bot token); undefined when Slack is not configured. */
export function slackClientsFrom(config: Config): SlackClients | undefined {
  const { slack } = config;
  // OAuth mode has no one bot token: each workspace's clients come from its install (InstallationTokens).
  if (slack.mode === 'disabled' || slack.mode === 'oauth') return undefined;
  return slackClientsOf(slack.botToken.reveal(), slack.apiUrl);
}

/** One bot token's clients, one per use: the configured app's, or (OAuth mode) an installed workspace's. */
export function slackClientsOf(token: string, apiUrl: string): SlackClients {
  return {
    answers: newSlackClient(token, { slackApiUrl: apiUrl }),
    workers: createWorkerSlackClient(token, apiUrl),
    home: createWorkerSlackClient(token, apiUrl),
  };
}

/** Each workspace's clients: the same ones for every workspace, or (OAuth mode) each installation's own. */
export function clientsByTeamOf(slack: SlackClients | SlackClientsByTeam): SlackClientsByTeam {
  return 'forTeam' in slack ? slack : singleWorkspaceClients(slack);
}

export interface SurfaceOptions {
  config: Config;
  /**
   * Where it answers, works and publishes (the bot's from its token; the demo's console its own), or in
   * OAuth mode each workspace's from its installation (src/slackApi/clientsByTeam.ts).
   */
  slack: SlackClients | SlackClientsByTeam;
  log: Logger;
  /** The deployment's Redis (approvals, audit, retry marks). */
  redis: RedisClient;
  /** Key prefix of the deployment, e.g. `fwbot`. */
  prefix: string;
  /** The queues' producer side: tracking, watches, operations' queues. */
  jobs: Jobs;
  metrics: FwbotMetrics;
  /** The Home's coalescing (tests shorten it; DEFAULT_HOME_TIMING otherwise). */
  homeTiming?: Partial<HomeTiming>;
  /** The process's view of Redis: the Home's queues report their connection errors to it. */
  redisHealth?: RedisHealth;
  /** The channels a person is in, for their Home's watched channels (default: asked of Slack). */
  homeChannelsOf?: (userId: string) => Promise<readonly string[]>;
  /** Where messages go instead of Slack's chat, or beside it (ChatRoute: the demo's console). */
  chat?: ChatRoute;
  /** The look at devices' certificates (default: a TLS handshake to each device's own address). */
  certificates?: CertificateProbe;
}

/**
 * Where fwbot's messages (the workers' notifications, the approvals' cards) go, given Slack's chat: Slack's
 * itself, or the demo's console for its own channel beside it (src/console/consoleChat.ts).
 */
export type ChatRoute = (slack: ChatOf) => ChatOf;

export interface Surface {
  deps: FwbotDeps;
  /** deps with the Slack API wrapper, for code that runs commands outside Bolt (the command workers). */
  surfaceDeps: SurfaceDeps;
  approvals: Approvals;
  clients: OwnedSccClients;
  /** The home workspace's client for answers (OAuth mode: resolved from its installation at each call). */
  slackClient: WebApiClient;
  /** Each person's App Home (start() its publisher where Slack events are answered). */
  home: Home;
  /** What a process's queued-call workers run calls with (Workers.runQueuedCalls). */
  queuedCalls: QueuedCallsDeps;
  /** This process's pass over timed work, with what the dispatcher runs calls with; not started yet. */
  timed: TimedRunner;
}

/**
 * The catalogue a running fwbot serves (Slack, worker, demo): every operation, those backed by its Redis
 * services (audit, VPN upgrade watches) included, each execute() counted in the metrics.
 */
export function fwbotCatalogue(metrics: FwbotMetrics, roles: Readonly<Record<string, Role>> = {}): Catalogue {
  return instrumentCatalogue(createCatalogue({ roles }), metrics);
}

/**
 * What governs a running fwbot's calls (bot, worker, demo): the approvals service, one-time reveal
 * grants, the Slack deduper they share with the surface, the Redis-backed services, the dispatcher that
 * applies every operation's declaration with them, and what queued calls run with where workers run them. A policy entry that names no operation, or lowers
 * one that always needs approval, stops the start here (ConfigError).
 */
export function startGovernance(parts: {
  redis: RedisClient;
  prefix: string;
  /** Where the approval cards go: each workspace's chat (Slack's, or the console's for its channel). */
  cards: ChatOf;
  clients: SccClients;
  access: AccessControl;
  catalogue: Catalogue;
  jobs: Pick<
    Jobs,
    | 'tracker'
    | 'watches'
    | 'alerts'
    | 'queue'
    | 'snapshots'
    | 'followed'
    | 'timed'
    | 'holds'
    | 'accessRecords'
  >;
  settings: ApprovalSettings;
  /** The look at devices' certificates, for the request and again for the approved call. */
  certificates?: CertificateProbe;
  /** The change process (the file's `changes`): operations and the dispatcher check tickets with it. */
  changes?: ChangeSettings;
  /** What operations show of devices' answers (the file's `device_output`). */
  deviceOutput?: DeviceOutputSettings;
  /** The responder's fast path (the file's `response`). */
  response?: ResponseSettings;
  /** The access requests' risk policy (the file's `access`). */
  accessRequests?: AccessRequestPolicy;
  /** What is checked after a software upgrade (the file's `upgrades`). */
  upgrades?: UpgradeSettings;
  secrets: readonly string[];
  metrics: FwbotMetrics;
  log: Logger;
  /** The App Home: told of commands, follows, watches and approval changes (the bot; not the CLI). */
  home?: Home;
  /**
   * The one clock of governed work: the approvals' executor, the dispatcher's operations and the queued
   * calls all read it, so a card's "open now" is the executor's (default: the machine's).
   */
  clock?: () => number;
}): {
  approvals: Approvals;
  dispatcher: Dispatcher;
  dedupe: RedisDeduper;
  services: OperationServices;
  /** What the policy file decides for operations, as the dispatcher passes it. */
  policy: OperationPolicy;
  queuedCalls: QueuedCallsDeps;
} {
  const { redis, prefix, access, catalogue, settings, metrics, log, home } = parts;
  const clock = parts.clock ?? Date.now;
  const jobs = home
    ? { ...parts.jobs, tracker: home.tracker(parts.jobs.tracker), watches: home.watches(parts.jobs.watches) }
    : parts.jobs;
  const governance = governanceOf(catalogue.operations, settings.operations);
  const reveals = new RedisRevealGrants(redis, prefix);
  const dedupe = new RedisDeduper(redis, prefix);
  const lookup = (id: string) => catalogue.get(id);
  const approvals = createApprovals({
    redis,
    prefix,
    notifier: new ChatCardNotifier(parts.cards),
    clients: parts.clients,
    lookup,
    tracker: jobs.tracker,
    // Approved calls of paced operations wait their turn in their queue like any other call.
    queue: jobs.queue,
    snapshots: jobs.snapshots,
    timed: jobs.timed,
    holds: jobs.holds,
    ...(parts.certificates ? { certificates: parts.certificates } : {}),
    accessRecords: jobs.accessRecords,
    authorizer: authorizerFrom(access),
    reveals,
    settings,
    logger: log,
    ...(parts.changes ? { changes: parts.changes } : {}),
    ...(parts.upgrades ? { upgrades: parts.upgrades } : {}),
    ...(parts.accessRequests ? { accessRequests: parts.accessRequests } : {}),
    secrets: parts.secrets,
    ...(home ? { onAudit: (entry: AuditEntry) => home.onAudit(entry) } : {}),
    clock,
  });
  const services: OperationServices = {
    watches: jobs.watches,
    alerts: jobs.alerts,
    audit: approvals.audit,
    staging: approvals.staging,
    followed: jobs.followed,
    snapshots: jobs.snapshots,
    scheduled: approvals.scheduled,
    timed: jobs.timed,
    holds: jobs.holds,
    ...(parts.certificates ? { certificates: parts.certificates } : {}),
    accessRecords: jobs.accessRecords,
  };
  const policy: OperationPolicy = {
    deployWithChange: settings.deployWithChange,
    ...(parts.changes ? { changes: parts.changes } : {}),
    ...(parts.deviceOutput ? { deviceOutput: parts.deviceOutput } : {}),
    ...(parts.response ? { response: parts.response } : {}),
    ...(parts.accessRequests ? { accessRequests: parts.accessRequests } : {}),
    ...(parts.upgrades ? { upgrades: parts.upgrades } : {}),
  };
  const dispatcher = new Dispatcher({
    access,
    scc: parts.clients,
    lookup,
    governance,
    approvals: instrumentGate(approvals.gate, metrics),
    reveals,
    audit: approvals.audit,
    queue: jobs.queue,
    services,
    policy,
    metrics,
    ...(home ? { history: home.recent } : {}),
    clock,
    log,
  });
  // Queued calls run as the dispatcher would run them: same catalogue, roles, services, policy and audit.
  const queuedCalls: QueuedCallsDeps = {
    operations: catalogue.operations,
    lookup,
    access,
    services,
    policy,
    audit: approvals.audit,
    tracker: jobs.tracker,
    clock,
  };
  return { approvals, dispatcher, dedupe, services, policy, queuedCalls };
}

/**
 * What the policy needs from the configuration: the home workspace's bindings and policy, the other
 * workspaces' (`workspaces`, OAuth mode), the home workspace's team id in OAuth mode (so a workspace the
 * profiles file does not list holds no role, instead of falling back to the home policy), and the customer
 * channels (bound to a tenant), which admit external people (Slack Connect) without `external` grants.
 */
export function accessSettingsFrom(
  config: Pick<Config, 'policy' | 'channelBindings' | 'workspaces' | 'profiles' | 'slack'>,
): AccessSettings {
  const bindings = [
    ...config.channelBindings,
    ...[...config.workspaces.values()].flatMap((workspace) => [...workspace.channels]),
  ];
  return {
    policy: config.policy,
    channels: config.channelBindings,
    workspaces: config.workspaces,
    profiles: [...config.profiles.keys()],
    ...(config.slack.mode === 'oauth' ? { homeTeamId: config.slack.workspace.teamId } : {}),
    customerChannels: new Set(bindings.filter(([, bound]) => bound.tenant !== undefined).map(([id]) => id)),
  };
}

export function buildSurface(options: SurfaceOptions): Surface {
  const { config, log, redis, prefix, jobs, metrics } = options;
  const { slack } = config;
  const clients = createSccClients(config.profiles, {
    timeoutMs: config.scc.timeoutMs,
    log,
    onCall: sccCallRecorder(metrics),
  });
  const byTeam = clientsByTeamOf(options.slack);
  if (!('forTeam' in options.slack)) observeSlackClient(options.slack.answers, metrics);
  const slackClient = byTeam.forTeam(undefined, 'answers');
  const slackApi = new SlackApi(slackClient);
  // Approval cards and queued commands' answers go out with the client of the workspace they belong to.
  const slackFor = (team: WorkspaceRef) => new SlackApi(byTeam.forTeam(team, 'answers'));
  const groups = new UserGroupDirectory({ log, fetchMembers: (group) => slackApi.userGroupMembers(group) });
  const access = new AccessControl(accessSettingsFrom(config), groups);
  const catalogue = fwbotCatalogue(metrics, config.operationRoles);
  const settings = approvalSettingsFrom(config);
  // What the audit trail never writes: the Slack app's tokens and signing secret, every profile's token.
  const secrets = [
    ...(slack.mode === 'http' || slack.mode === 'socket' ? [slack.botToken.reveal()] : []),
    ...(slack.mode === 'http' || slack.mode === 'oauth' ? [slack.signingSecret.reveal()] : []),
    ...(slack.mode === 'socket' ? [slack.appToken.reveal()] : []),
    ...(slack.mode === 'oauth' ? [slack.clientSecret.reveal(), slack.installKey.reveal()] : []),
    ...[...config.profiles.values()].map((profile) => profile.token.reveal()),
  ];
  const authorizer = authorizerFrom(access);
  let approvalsMade: Approvals | undefined;
  const home = createHome({
    redis,
    prefix,
    // Publishes are paced by the Home itself: a 429 comes back at once instead of stalling the client.
    tab: slackHomeTab(new SlackApi(byTeam.forTeam(undefined, 'home'))),
    tabFor: (team) => slackHomeTab(new SlackApi(byTeam.forTeam(team, 'home'))),
    pending: async () => (approvalsMade ? approvalsMade.pending() : []),
    authorizer,
    allowSelfApproval: settings.allowSelfApproval,
    watches: jobs.watches,
    ...(options.homeChannelsOf ? { channelsOf: options.homeChannelsOf } : {}),
    log,
    ...(options.homeTiming ? { timing: options.homeTiming } : {}),
    ...(options.redisHealth ? { absorb: options.redisHealth.absorb.bind(options.redisHealth) } : {}),
  });
  const { approvals, dispatcher, dedupe, services, policy, queuedCalls } = startGovernance({
    redis,
    prefix,
    cards: (options.chat ?? ((slack) => slack))(slackChatOf(slackFor, log)),
    clients,
    access,
    catalogue,
    jobs,
    settings,
    changes: config.changes,
    deviceOutput: config.deviceOutput,
    response: config.response,
    certificates: options.certificates ?? createCertificateProbe(),
    accessRequests: config.accessRequests,
    secrets,
    metrics,
    log,
    home,
  });
  approvalsMade = approvals;
  const deps: FwbotDeps = {
    catalogue,
    scc: clients,
    access,
    tracker: home.tracker(jobs.tracker),
    dispatcher,
    dedupe,
    log,
    metrics,
    services,
    home,
    approvals,
  };
  const surfaceDeps = surfaceOf(deps, slackApi, slackFor);
  // Items are run as the dispatcher would run calls: the same clients, services, policy and role checks.
  const timed = jobs.timedRunner({
    clients,
    services,
    policy,
    roleCheck: authorizer,
    tracker: deps.tracker,
    audit: approvals.audit,
    clock: Date.now,
    log: log.child({ component: 'timed' }),
  });
  return { deps, surfaceDeps, approvals, clients, slackClient, home, queuedCalls, timed };
}
