// fwbot's configuration: the environment (and the optional FWBOT_PROFILES file) parsed once at start into
// one typed, frozen Config, or a ConfigError listing every problem. Secrets stay wrapped in Secret, so
// logging the Config or the error cannot leak them. The parts live in src/config/; this is the entry.
import { readFileSync } from 'node:fs';
import type { SccProfile } from './config/endpoints.js';
import { checkRedisUrl, sccBaseUrlForRegion } from './config/endpoints.js';
import {
  type Environment,
  type EnvSnapshot,
  type EnvValues,
  isSet,
  parseEnvironment,
  secretVariableNames,
  snapshotEnvironment,
  variableNames,
} from './config/environment.js';
import {
  conflictingSettings,
  missingSettings,
  type Requirements,
  redisDeploymentIssues,
  slackEnabled,
} from './config/environmentRules.js';
import { ConfigError, type ConfigIssue, scrubIssues } from './config/issues.js';
import type { Role, RoleGrants, RolePolicy } from './config/policy.js';
import { type ProfilesFileContents, readProfilesFile } from './config/profilesFile.js';
import {
  deploymentDisplay,
  nodesTransport,
  type RedisDeployment,
  type RedisTransport,
} from './config/redisDeployment.js';
import { Secret } from './config/secret.js';
import { type AccessRequestPolicy, defaultAccessRequests } from './config/sections/access.js';
import { type ApprovalSettings, defaultApprovals } from './config/sections/approvals.js';
import { type AuditSettings, defaultAudit } from './config/sections/audit.js';
import { type ChangeSettings, defaultChanges } from './config/sections/changes.js';
import type { ChannelBinding } from './config/sections/channels.js';
import { type DeviceOutputSettings, defaultDeviceOutput } from './config/sections/deviceOutput.js';
import { defaultResponse, type ResponseSettings } from './config/sections/response.js';
import { defaultUpgrades, type UpgradeSettings } from './config/sections/upgrades.js';
import type { WorkspaceSettings } from './config/sections/workspaces.js';
import type { LogLevel } from './config/variables/process.js';

export type { SccProfile, SccRegion } from './config/endpoints.js';
export { isLoopbackHost, sccBaseUrlForRegion, sccRegions } from './config/endpoints.js';
export type { Environment } from './config/environment.js';
export { configVariables, EnvSchema } from './config/environment.js';
export type { Requirements } from './config/environmentRules.js';
export type { ConfigIssue } from './config/issues.js';
export { ConfigError, formatIssue } from './config/issues.js';
export type { PolicySubject, Principal, Role, RoleGrants, RolePolicy } from './config/policy.js';
export { EVERYONE, roleDescriptions, roles, rolesOf } from './config/policy.js';
export { profilesFileKeys } from './config/profilesFileSchema.js';
export type { RedisDeployment, RedisNode } from './config/redisDeployment.js';
export { REDACTED, Secret } from './config/secret.js';
export { type AccessRequestPolicy, defaultAccessRequests } from './config/sections/access.js';
export type { ApprovalSettings } from './config/sections/approvals.js';
export type { AuditSettings } from './config/sections/audit.js';
export {
  type ChangeSettings,
  defaultChanges,
  type OpenPeriod,
  type PolicyWindow,
  type TicketRule,
  type Weekday,
  weekdays,
} from './config/sections/changes.js';
export { type DeviceOutputSettings, defaultDeviceOutput } from './config/sections/deviceOutput.js';
export { defaultResponse, type ResponseSettings } from './config/sections/response.js';
export type { ProfilesFileKey } from './config/sections/schemaParts.js';
export { defaultUpgrades, type UpgradeSettings } from './config/sections/upgrades.js';
export type { ConfigVariable } from './config/variables/declare.js';
export { type LogLevel, logLevels } from './config/variables/process.js';

/** SLACK_TEAM_ID, SLACK_ENTERPRISE_ID, SLACK_APP_ID: the workspace fwbot serves, where configured. */
export interface SlackWorkspace {
  readonly teamId: string | undefined;
  readonly enterpriseId: string | undefined;
  readonly appId: string | undefined;
}

export type SlackConfig =
  | {
      readonly mode: 'socket';
      readonly botToken: Secret;
      readonly appToken: Secret;
      readonly apiUrl: string;
      readonly workspace?: SlackWorkspace;
    }
  | {
      readonly mode: 'http';
      readonly botToken: Secret;
      readonly signingSecret: Secret;
      readonly apiUrl: string;
      readonly workspace?: SlackWorkspace;
    }
  | {
      /** Installed in many workspaces (SLACK_CLIENT_ID): HTTP mode, each workspace's bot token from its install. */
      readonly mode: 'oauth';
      readonly signingSecret: Secret;
      readonly clientId: string;
      readonly clientSecret: Secret;
      /** FWBOT_INSTALL_KEY: base64 of the 32-byte key the installations are encrypted with. */
      readonly installKey: Secret;
      readonly apiUrl: string;
      /** The home workspace: SLACK_TEAM_ID is required in this mode. */
      readonly workspace: SlackWorkspace & { readonly teamId: string };
    }
  | { readonly mode: 'disabled'; readonly apiUrl: string };

export interface RedisConfig {
  /** One server (REDIS_URL), Sentinel (REDIS_SENTINELS) or Cluster (REDIS_CLUSTER_NODES); secrets wrapped. */
  readonly deployment: RedisDeployment;
  /** The deployment with any password masked, for logs. */
  readonly display: string;
  /** TLS, or clear text to loopback, a private address or (REDIS_ALLOW_PLAINTEXT=on) anywhere else. */
  readonly transport: RedisTransport;
  /** REDIS_ALLOW_PLAINTEXT: clear text to a public address or DNS name was allowed explicitly. */
  readonly allowPlaintext: boolean;
  /** REDIS_WAIT_REPLICAS (resolved): replicas that must acknowledge a transition before fwbot acts on it. */
  readonly waitReplicas: number;
  /** REDIS_WAIT_TIMEOUT_MS: how long to wait for them. */
  readonly waitTimeoutMs: number;
}

/** What a process says at start-up about a Redis it reaches in clear text beyond loopback (or undefined). */
export function redisPlaintextWarning(redis: RedisConfig): string | undefined {
  if (redis.transport === 'tls' || redis.transport === 'loopback') return undefined;
  const fix = redis.deployment.kind === 'single' ? 'use rediss://' : 'set REDIS_TLS=on';
  return `Redis at ${redis.display} is reached in clear text: its traffic, the password included, is readable on that network; ${fix} where you can.`;
}

function redisConfig(values: EnvValues): RedisConfig {
  const common = {
    allowPlaintext: values.REDIS_ALLOW_PLAINTEXT,
    waitTimeoutMs: values.REDIS_WAIT_TIMEOUT_MS,
  };
  const tls = values.REDIS_TLS ?? false;
  const nodes = values.REDIS_SENTINELS ?? values.REDIS_CLUSTER_NODES;
  let deployment: RedisDeployment;
  if (values.REDIS_SENTINELS !== undefined)
    deployment = {
      kind: 'sentinel',
      sentinels: values.REDIS_SENTINELS,
      masterName: values.REDIS_SENTINEL_MASTER ?? 'mymaster',
      password: values.REDIS_PASSWORD,
      sentinelPassword: values.REDIS_SENTINEL_PASSWORD,
      tls,
    };
  else if (values.REDIS_CLUSTER_NODES !== undefined)
    deployment = { kind: 'cluster', nodes: values.REDIS_CLUSTER_NODES, password: values.REDIS_PASSWORD, tls };
  else deployment = { kind: 'single', url: new Secret(values.REDIS_URL.url) };
  return Object.freeze({
    ...common,
    deployment: Object.freeze(deployment),
    display: deploymentDisplay(deployment, values.REDIS_URL.display),
    transport: nodes === undefined ? values.REDIS_URL.transport : nodesTransport(nodes, tls),
    waitReplicas: values.REDIS_WAIT_REPLICAS ?? (deployment.kind === 'single' ? 0 : 1),
  });
}

export interface Config {
  readonly scc: { readonly timeoutMs: number };
  /** Every SCC profile by name: `default` (from SCC_API_TOKEN) first, then the file's in file order. */
  readonly profiles: ReadonlyMap<string, SccProfile>;
  /**
   * Channel id → its binding in the home workspace (the file's `channels`): a profile, and for a customer
   * channel the managed tenant it is scoped to.
   */
  readonly channelBindings: ReadonlyMap<string, ChannelBinding>;
  /** null when no policy is configured: then everyone may read and nobody may change anything. */
  readonly policy: RolePolicy | null;
  /** Other workspaces that installed fwbot (OAuth mode), by team id (T…) or Grid organization id (E…). */
  readonly workspaces: ReadonlyMap<string, WorkspaceSettings>;
  readonly approvals: ApprovalSettings;
  readonly audit: AuditSettings;
  /** The change process: tickets, change windows, snapshots (the file's `changes`). */
  readonly changes: ChangeSettings;
  /** What fwbot shows of devices' answers (the file's `device_output`). */
  readonly deviceOutput: DeviceOutputSettings;
  /** The responder's fast path: how long an operator may shun alone (the file's `response`). */
  readonly response: ResponseSettings;
  /** The access requests' risk policy and recertification (the file's `access`). */
  readonly accessRequests: AccessRequestPolicy;
  /** What is checked after a software upgrade: the smoke traces (the file's `upgrades`). */
  readonly upgrades: UpgradeSettings;
  /**
   * Operation id → the role it needs in this deployment, raised above its declared one (the file's
   * `policy.operations`); checked against the catalogue when it is built (src/catalogue/index.ts).
   */
  readonly operationRoles: Readonly<Record<string, Role>>;
  readonly slack: SlackConfig;
  readonly redis: RedisConfig;
  /** `metricsPort`: METRICS_PORT, where the bot serves /metrics instead of on `port`. */
  readonly http: { readonly port: number; readonly metricsPort: number | undefined };
  /** BOT_WORKERS: whether the bot process runs the workers too (commands, tracking, notifications). */
  readonly botWorkers: boolean;
  /** STAGED_REMINDER_MINUTES: when a change staged through fwbot and not deployed is recalled in its thread. */
  readonly stagedReminderMinutes: number;
  readonly logLevel: LogLevel;
  /** The FWBOT_PROFILES path, if one was given. */
  readonly profilesFile: string | undefined;
  /** The profile a channel works on: its binding, else `default`, else none. */
  profileForChannel(channelId: string): SccProfile | undefined;
}

export interface LoadConfigOptions {
  /** What this process runs; each part required must be fully configured. Both default to false. */
  readonly require?: Partial<Requirements>;
  /** Reads the profiles file (tests inject one); defaults to a UTF-8 readFileSync. */
  readonly readFile?: (path: string) => string;
}

/**
 * Parses the configuration once, at start. The bot calls it with `require: { slack: true, scc: true }`,
 * the CLI with `{ scc: true }`, the simulator and the demo with neither.
 *
 * @throws ConfigError listing every problem found (environment and file together).
 */
export function loadConfig(env: Environment = process.env, options: LoadConfigOptions = {}): Config {
  const require: Requirements = {
    slack: options.require?.slack ?? false,
    scc: options.require?.scc ?? false,
  };
  const snapshot = snapshotEnvironment(env);
  const parsed = parseEnvironment(snapshot);
  const envIssues: ConfigIssue[] = parsed.ok ? [] : [...parsed.issues];

  const profilesPath = isSet(snapshot, 'FWBOT_PROFILES') ? snapshot.FWBOT_PROFILES?.trim() : undefined;
  const file =
    profilesPath === undefined
      ? undefined
      : readProfilesFile({
          path: profilesPath,
          readFile: options.readFile ?? ((path) => readFileSync(path, 'utf8')),
          env,
          envDefinesDefault: isSet(snapshot, 'SCC_API_TOKEN'),
        });

  envIssues.push(...missingSettings(snapshot, require, file?.definesProfiles ?? false));
  if (parsed.ok)
    envIssues.push(...conflictingSettings(parsed.values), ...redisDeploymentIssues(snapshot, parsed.values));
  const fileIssues = [...(file?.issues ?? [])].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  // Environment problems first, in the order the configuration page lists the variables, then the file's by line.
  envIssues.sort((a, b) => variableOrder(a.source) - variableOrder(b.source));
  const issues = [...envIssues, ...fileIssues];

  if (!parsed.ok || issues.length > 0 || (file !== undefined && file.contents === undefined)) {
    throw new ConfigError(scrubIssues(issues, [...secretsIn(snapshot), ...(file?.secrets ?? [])]));
  }
  return new LoadedConfig(parsed.values, file?.contents, profilesPath, slackEnabled(snapshot, require));
}

function variableOrder(source: string): number {
  const index = (variableNames as readonly string[]).indexOf(source);
  return index === -1 ? variableNames.length : index;
}

/** Every secret value in the environment snapshot, as given and trimmed, plus a Redis URL's password. */
function secretsIn(snapshot: EnvSnapshot): string[] {
  const secrets: string[] = [];
  for (const name of secretVariableNames) {
    const value = snapshot[name];
    if (value !== undefined) secrets.push(value, value.trim());
  }
  const redis = snapshot.REDIS_URL === undefined ? undefined : checkRedisUrl(snapshot.REDIS_URL.trim());
  if (redis?.ok) {
    const password = new URL(redis.value.url).password;
    if (password !== '') secrets.push(password, decodeURIComponent(password));
  }
  return secrets;
}

/** A Map that refuses changes once built, so the frozen Config stays frozen all the way down. */
class FrozenMap<K, V> extends Map<K, V> {
  constructor(entries: Iterable<readonly [K, V]>) {
    super();
    // super.set: this class's own set() refuses every change, including the first.
    for (const [key, value] of entries) super.set(key, value);
    Object.freeze(this);
  }

  override set(_key: K, _value: V): this {
    throw new TypeError('the configuration is read-only');
  }

  override delete(_key: K): boolean {
    throw new TypeError('the configuration is read-only');
  }

  override clear(): void {
    throw new TypeError('the configuration is read-only');
  }
}

function envProfile(values: EnvValues): SccProfile | undefined {
  const token = values.SCC_API_TOKEN;
  if (token === undefined) return undefined;
  const endpoint =
    values.SCC_BASE_URL !== undefined
      ? { baseUrl: values.SCC_BASE_URL }
      : { baseUrl: sccBaseUrlForRegion(values.SCC_REGION), region: values.SCC_REGION };
  return Object.freeze({
    name: 'default',
    ...endpoint,
    token,
    tokenVariable: 'SCC_API_TOKEN',
    source: 'env' as const,
  });
}

function slackConfig(values: EnvValues, enabled: boolean): SlackConfig {
  const apiUrl = values.SLACK_API_URL;
  const botToken = values.SLACK_BOT_TOKEN;
  const workspace: SlackWorkspace = Object.freeze({
    teamId: values.SLACK_TEAM_ID,
    enterpriseId: values.SLACK_ENTERPRISE_ID,
    appId: values.SLACK_APP_ID,
  });
  // OAuth mode: missingSettings has already refused a missing part and what cannot go with it.
  const {
    SLACK_CLIENT_ID: clientId,
    SLACK_CLIENT_SECRET: clientSecret,
    FWBOT_INSTALL_KEY: installKey,
  } = values;
  const { SLACK_SIGNING_SECRET: oauthSigningSecret, SLACK_TEAM_ID: homeTeam } = values;
  if (
    enabled &&
    clientId !== undefined &&
    clientSecret !== undefined &&
    installKey !== undefined &&
    oauthSigningSecret !== undefined &&
    homeTeam !== undefined
  ) {
    const home = Object.freeze({ ...workspace, teamId: homeTeam });
    const signingSecret = oauthSigningSecret;
    return Object.freeze({
      mode: 'oauth',
      signingSecret,
      clientId,
      clientSecret,
      installKey,
      apiUrl,
      workspace: home,
    });
  }
  // When Slack is enabled, missingSettings has already refused a bot token or a mode that is missing.
  if (!enabled || botToken === undefined) return Object.freeze({ mode: 'disabled', apiUrl });
  if (values.SLACK_APP_TOKEN !== undefined) {
    return Object.freeze({ mode: 'socket', botToken, appToken: values.SLACK_APP_TOKEN, apiUrl, workspace });
  }
  if (values.SLACK_SIGNING_SECRET !== undefined) {
    const signingSecret = values.SLACK_SIGNING_SECRET;
    return Object.freeze({ mode: 'http', botToken, signingSecret, apiUrl, workspace });
  }
  return Object.freeze({ mode: 'disabled', apiUrl });
}

function frozenPolicy(policy: RolePolicy | null): RolePolicy | null {
  if (policy === null) return null;
  return Object.freeze({
    workspace: policy.workspace,
    channels: new FrozenMap(policy.channels),
    // External people's grants (Slack Connect) and where their approvals count.
    external: new FrozenMap(policy.external ?? new Map()),
    externalApprovers: new Set(policy.externalApprovers ?? []),
  });
}

function grantsJson(grants: RoleGrants): Record<string, readonly string[]> {
  return { ...grants };
}

function policyJson(policy: RolePolicy | null): Record<string, unknown> | null {
  if (policy === null) return null;
  return {
    workspace: grantsJson(policy.workspace),
    channels: Object.fromEntries([...policy.channels].map(([id, g]) => [id, grantsJson(g)])),
    external: Object.fromEntries([...(policy.external ?? [])].map(([id, g]) => [id, grantsJson(g)])),
    externalApprovers: [...(policy.externalApprovers ?? [])],
  };
}

class LoadedConfig implements Config {
  readonly scc: { readonly timeoutMs: number };
  readonly profiles: ReadonlyMap<string, SccProfile>;
  readonly channelBindings: ReadonlyMap<string, ChannelBinding>;
  readonly policy: RolePolicy | null;
  readonly workspaces: ReadonlyMap<string, WorkspaceSettings>;
  readonly approvals: ApprovalSettings;
  readonly audit: AuditSettings;
  readonly changes: ChangeSettings;
  readonly deviceOutput: DeviceOutputSettings;
  readonly response: ResponseSettings;
  readonly accessRequests: AccessRequestPolicy;
  readonly upgrades: UpgradeSettings;
  readonly operationRoles: Readonly<Record<string, Role>>;
  readonly slack: SlackConfig;
  readonly redis: RedisConfig;
  readonly http: { readonly port: number; readonly metricsPort: number | undefined };
  readonly botWorkers: boolean;
  /** STAGED_REMINDER_MINUTES: when a change staged through fwbot and not deployed is recalled in its thread. */
  readonly stagedReminderMinutes: number;
  readonly logLevel: LogLevel;
  readonly profilesFile: string | undefined;

  constructor(
    values: EnvValues,
    file: ProfilesFileContents | undefined,
    profilesFile: string | undefined,
    slackIsEnabled: boolean,
  ) {
    const fromEnv = envProfile(values);
    const profiles = [...(fromEnv === undefined ? [] : [fromEnv]), ...(file?.profiles ?? [])];
    this.scc = Object.freeze({ timeoutMs: values.SCC_TIMEOUT_MS });
    this.profiles = new FrozenMap(profiles.map((profile) => [profile.name, profile] as const));
    this.channelBindings = new FrozenMap(file?.channels ?? []);
    this.policy = frozenPolicy(file?.policy ?? null);
    this.workspaces = new FrozenMap(
      [...(file?.workspaces ?? [])].map(([team, workspace]) => [
        team,
        Object.freeze({
          ...workspace,
          channels: new FrozenMap(workspace.channels),
          policy: frozenPolicy(workspace.policy),
        }),
      ]),
    );
    this.approvals = file?.approvals ?? defaultApprovals;
    this.audit = file?.audit ?? defaultAudit;
    this.changes = file?.changes ?? defaultChanges;
    this.deviceOutput = file?.deviceOutput ?? defaultDeviceOutput;
    this.response = file?.response ?? defaultResponse;
    this.accessRequests = file?.accessRequests ?? defaultAccessRequests;
    this.upgrades = file?.upgrades ?? defaultUpgrades;
    this.operationRoles = file?.operationRoles ?? Object.freeze({});
    this.slack = slackConfig(values, slackIsEnabled);
    this.redis = redisConfig(values);
    this.http = Object.freeze({ port: values.PORT, metricsPort: values.METRICS_PORT });
    this.botWorkers = values.BOT_WORKERS;
    this.stagedReminderMinutes = values.STAGED_REMINDER_MINUTES;
    this.logLevel = values.LOG_LEVEL;
    this.profilesFile = profilesFile;
    Object.freeze(this);
  }

  profileForChannel(channelId: string): SccProfile | undefined {
    const bound = this.channelBindings.get(channelId);
    return this.profiles.get(bound?.profile ?? 'default');
  }

  /** A plain view for logs: maps as objects, every secret as [redacted]. */
  toJSON(): Record<string, unknown> {
    return {
      scc: this.scc,
      profiles: Object.fromEntries(this.profiles),
      channelBindings: Object.fromEntries(this.channelBindings),
      policy: policyJson(this.policy),
      workspaces: Object.fromEntries(
        [...this.workspaces].map(([team, workspace]) => [
          team,
          {
            ...workspace,
            channels: Object.fromEntries(workspace.channels),
            policy: policyJson(workspace.policy),
          },
        ]),
      ),
      approvals: this.approvals,
      audit: this.audit,
      changes: this.changes,
      deviceOutput: this.deviceOutput,
      response: this.response,
      accessRequests: this.accessRequests,
      upgrades: this.upgrades,
      operationRoles: this.operationRoles,
      slack: this.slack,
      redis: this.redis,
      http: this.http,
      botWorkers: this.botWorkers,
      stagedReminderMinutes: this.stagedReminderMinutes,
      logLevel: this.logLevel,
      profilesFile: this.profilesFile,
    };
  }
}

/**
 * A loaded configuration with some of its parts replaced (the demo's own SCC profiles and policy), still a
 * Config in every other way: the same prototype, frozen like the original.
 */
export function configWith(
  config: Config,
  overrides: Partial<
    Pick<
      Config,
      | 'profiles'
      | 'policy'
      | 'channelBindings'
      | 'workspaces'
      | 'approvals'
      | 'changes'
      | 'deviceOutput'
      | 'response'
      | 'accessRequests'
      | 'upgrades'
    >
  >,
): Config {
  const copy = Object.create(Object.getPrototypeOf(config) as object) as Config;
  return Object.freeze(Object.assign(copy, config, overrides));
}
