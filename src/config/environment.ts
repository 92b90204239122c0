// The environment variables fwbot reads: each declared once with its parser and its documentation, so
// the zod schema, the error examples and the configuration page cannot drift apart. Also the rules that
// depend on which parts of fwbot a process runs (Slack, SCC).
import { z } from 'zod';
import { checkSccToken, checkSigningSecret, checkSlackAppToken, checkSlackBotToken } from './credentials.js';
import { checkRedisUrl, checkRegion, checkSccBaseUrl, checkSlackApiUrl, sccRegions } from './endpoints.js';
import { accept, type Checked, type ConfigIssue, refuse } from './issues.js';
import { checkNodeList, nodesTransport } from './redisDeployment.js';
import { Secret } from './secret.js';
import { SLACK_APP_ID, SLACK_ENTERPRISE_ID, SLACK_TEAM_ID } from './slackIds.js';

/** One row of the configuration reference. */
export interface ConfigVariable {
  readonly name: string;
  /** When the variable must be set, in plain words; 'never' when it is optional. */
  readonly requiredWhen: string;
  /** The value used when it is unset, exactly as one would write it. */
  readonly default: string | undefined;
  readonly example: string;
  readonly description: string;
  /** True when the value must never be logged (fwbot keeps it wrapped in a Secret). */
  readonly secret: boolean;
}

type VariableDoc = Omit<ConfigVariable, 'name' | 'default'>;

/** Unset and empty mean the same: `FOO=` in a compose file or .env should not count as a value. */
function presentValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A string schema whose value is checked (and converted) by a Checked-returning function. */
function checkedString<T>(check: (raw: string) => Checked<T>) {
  return z.string().transform((raw, ctx): T => {
    const result = check(raw);
    if (result.ok) return result.value;
    ctx.addIssue({ code: 'custom', message: result.problem });
    return z.NEVER;
  });
}

function optionalVariable<T>(doc: VariableDoc, check: (raw: string) => Checked<T>) {
  return { ...doc, default: undefined, schema: z.preprocess(presentValue, checkedString(check).optional()) };
}

function defaultedVariable<T>(doc: VariableDoc, defaultValue: string, check: (raw: string) => Checked<T>) {
  // The documented default goes through the same parser as a value that was set, so the two cannot differ.
  const schema = z.preprocess((value) => presentValue(value) ?? defaultValue, checkedString(check));
  return { ...doc, default: defaultValue, schema };
}

function secret(check: (raw: string) => Checked<string>): (raw: string) => Checked<Secret> {
  return (raw) => {
    const result = check(raw);
    return result.ok ? accept(new Secret(result.value)) : result;
  };
}

function integerBetween(min: number, max: number): (raw: string) => Checked<number> {
  return (raw) => {
    if (!/^\d+$/.test(raw)) return refuse(`must be a whole number from ${min} to ${max}`);
    const value = Number(raw);
    return value >= min && value <= max ? accept(value) : refuse(`must be from ${min} to ${max}`);
  };
}

function slackId(shape: RegExp, what: string): (raw: string) => Checked<string> {
  return (raw) => (shape.test(raw) ? accept(raw) : refuse(`must be ${what}`));
}

function checkSwitch(raw: string): Checked<boolean> {
  const value = raw.toLowerCase();
  if (value === 'on') return accept(true);
  if (value === 'off') return accept(false);
  return refuse('must be on or off');
}

/** A Slack client secret: 32 hexadecimal characters in every app seen; only white space is refused outright. */
function checkClientSecret(raw: string): Checked<string> {
  if (/\s/.test(raw)) return refuse('contains white space; a secret is one unbroken string');
  return raw.length >= 16
    ? accept(raw)
    : refuse('is too short for a Slack client secret (Basic Information → App Credentials)');
}

/** FWBOT_INSTALL_KEY: base64 of exactly 32 bytes (AES-256). The message never quotes the value. */
export function checkInstallKey(raw: string): Checked<string> {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || raw.length % 4 !== 0)
    return refuse('must be base64 (e.g. the output of `openssl rand -base64 32`)');
  const bytes = Buffer.from(raw, 'base64').length;
  return bytes === 32
    ? accept(raw)
    : refuse(`must be 32 bytes once decoded (it is ${bytes}); make one with \`openssl rand -base64 32\``);
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

function checkLogLevel(raw: string): Checked<LogLevel> {
  const level = raw.toLowerCase();
  const known = logLevels.find((candidate) => candidate === level);
  return known === undefined ? refuse(`must be one of ${logLevels.join(', ')}`) : accept(known);
}

export const SCC_TIMEOUT_MAX_MS = 600_000;

const variables = {
  SCC_API_TOKEN: optionalVariable(
    {
      requiredWhen: 'SCC is needed (the bot, the CLI) and FWBOT_PROFILES defines no profile',
      example: 'eyJhbGciOi…',
      description:
        'API token of an SCC API-only user (sent as a bearer token). Together with SCC_REGION or SCC_BASE_URL it defines ' +
        'the profile named `default`, used in every channel without a binding.',
      secret: true,
    },
    secret(checkSccToken),
  ),
  SCC_REGION: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'eu',
      description: `Region of the \`default\` profile: ${sccRegions.join(', ')} (any case); selects \`https://api.<region>.security.cisco.com/firewall\`.`,
      secret: false,
    },
    'us',
    checkRegion,
  ),
  SCC_BASE_URL: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'http://127.0.0.1:4010',
      description:
        'Base URL of the `default` profile, overriding SCC_REGION (simulator, proxy, tests). https://, or ' +
        'http:// to a loopback address only (127.0.0.0/8, ::1, localhost). A trailing slash is ignored.',
      secret: false,
    },
    checkSccBaseUrl,
  ),
  SCC_TIMEOUT_MS: defaultedVariable(
    {
      requiredWhen: 'never',
      example: '75000',
      description: `Time limit of one SCC API request, in milliseconds (1–${SCC_TIMEOUT_MAX_MS}).`,
      secret: false,
    },
    '30000',
    integerBetween(1, SCC_TIMEOUT_MAX_MS),
  ),
  FWBOT_PROFILES: optionalVariable(
    {
      requiredWhen: 'never',
      example: '/etc/fwbot/profiles.yaml',
      description:
        'Path of a YAML file with named SCC profiles, channel bindings, the role policy, approval and audit ' +
        'settings (see "Profiles and policy file").',
      secret: false,
    },
    (raw) => accept(raw),
  ),
  SLACK_BOT_TOKEN: optionalVariable(
    {
      requiredWhen:
        'Slack is enabled: in the bot, or whenever any SLACK_*_TOKEN or SLACK_SIGNING_SECRET is set',
      example: 'xoxb-…',
      description: 'Bot User OAuth Token (OAuth & Permissions).',
      secret: true,
    },
    secret(checkSlackBotToken),
  ),
  SLACK_APP_TOKEN: optionalVariable(
    {
      requiredWhen: 'Slack is enabled and SLACK_SIGNING_SECRET is not set',
      example: 'xapp-…',
      description:
        'App-level token with `connections:write` (Basic Information). When set, fwbot uses Socket Mode.',
      secret: true,
    },
    secret(checkSlackAppToken),
  ),
  SLACK_SIGNING_SECRET: optionalVariable(
    {
      requiredWhen: 'Slack is enabled and SLACK_APP_TOKEN is not set (HTTP mode)',
      example: '8f742231b10e8888abcd99yyyzzz85a5',
      description: 'Signing Secret (Basic Information → App Credentials); verifies requests in HTTP mode.',
      secret: true,
    },
    secret(checkSigningSecret),
  ),
  SLACK_API_URL: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'http://127.0.0.1:5005/api/',
      description:
        'Base URL of the Slack Web API, for tests against a fake Slack. Normalised to end in `/`; a bare host ' +
        'means its `/api/`. Same https/loopback rule as SCC_BASE_URL.',
      secret: false,
    },
    'https://slack.com/api/',
    checkSlackApiUrl,
  ),
  SLACK_TEAM_ID: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'T0123ABCDEF',
      description:
        'The Slack workspace fwbot serves: requests from any other team_id are refused and audited. Unset: the ' +
        "bot token's own workspace (auth.test at start-up).",
      secret: false,
    },
    slackId(SLACK_TEAM_ID, 'a Slack workspace id: T and 8 to 20 upper-case letters or digits'),
  ),
  SLACK_ENTERPRISE_ID: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'E0123ABCDEF',
      description:
        'The Enterprise Grid organization fwbot serves: requests from any other enterprise_id are refused and ' +
        'audited. Set alone (without SLACK_TEAM_ID) for an org-wide install: then every workspace of the ' +
        "organization is served. Unset: the bot token's own organization when it has one (auth.test).",
      secret: false,
    },
    slackId(SLACK_ENTERPRISE_ID, 'a Slack organization id: E and 8 to 20 upper-case letters or digits'),
  ),
  SLACK_APP_ID: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'A0123ABCDEF',
      description:
        'The Slack app fwbot is (Basic Information → App ID): requests with any other api_app_id are refused ' +
        'and audited. Unset, the app id is checked only if auth.test reports it, which its documented answer ' +
        'for a bot token does not (bots.info would, but needs the users:read scope fwbot does not ask for).',
      secret: false,
    },
    slackId(SLACK_APP_ID, 'a Slack app id: A and 8 to 20 upper-case letters or digits'),
  ),
  SLACK_CLIENT_ID: optionalVariable(
    {
      requiredWhen:
        'fwbot is installed in several workspaces (OAuth mode): with SLACK_CLIENT_SECRET and FWBOT_INSTALL_KEY',
      example: '1234567890.1234567890123',
      description:
        'Client ID (Basic Information → App Credentials). Setting it turns on OAuth mode: each workspace installs ' +
        'fwbot at /slack/install and its calls use its own bot token. HTTP mode only; SLACK_TEAM_ID (the home ' +
        'workspace) is required, and SLACK_BOT_TOKEN and SLACK_APP_TOKEN must be unset.',
      secret: false,
    },
    slackId(/^\d{4,20}\.\d{4,20}$/, 'a Slack client id: two groups of digits joined by a dot'),
  ),
  SLACK_CLIENT_SECRET: optionalVariable(
    {
      requiredWhen: 'SLACK_CLIENT_ID is set (OAuth mode)',
      example: '3c1f0b3a9d2e4f5a6b7c8d9e0f1a2b3c',
      description:
        'Client Secret (Basic Information → App Credentials): exchanges an install for its bot token.',
      secret: true,
    },
    secret(checkClientSecret),
  ),
  FWBOT_INSTALL_KEY: optionalVariable(
    {
      requiredWhen: 'SLACK_CLIENT_ID is set (OAuth mode)',
      example: 'q3Zy0r1m3n9YkS7wV5pQ2cL8xT4uH6dJ0aB1eF2gI3k=',
      description:
        'The key the installations are encrypted with in Redis (AES-256-GCM): 32 random bytes, base64-encoded ' +
        '(`openssl rand -base64 32`). Every fwbot process of the deployment needs the same key; without it the ' +
        'stored installations cannot be read, and each workspace must install fwbot again.',
      secret: true,
    },
    secret(checkInstallKey),
  ),
  REDIS_URL: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'rediss://:password@redis.internal:6380/0',
      description:
        'Redis for approvals, tracked work and audit records: redis:// or rediss:// (TLS). Treated as a ' +
        'secret because it may hold a password.',
      secret: true,
    },
    'redis://127.0.0.1:6379',
    checkRedisUrl,
  ),
  REDIS_ALLOW_PLAINTEXT: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'on',
      description:
        'Whether a redis:// (clear text) REDIS_URL may point at a public address or a DNS name: `on` or `off`. ' +
        'Clear text is accepted to loopback, and to private addresses and single-label hosts with a warning; ' +
        'anywhere else use rediss://, or turn this on if that network is yours.',
      secret: false,
    },
    'off',
    checkSwitch,
  ),
  REDIS_SENTINELS: optionalVariable(
    {
      requiredWhen: 'never',
      example: '10.0.0.11:26379,10.0.0.12:26379,10.0.0.13:26379',
      description:
        'Redis behind Sentinel: the sentinels as host:port pairs, comma-separated. fwbot asks them for the ' +
        'primary of REDIS_SENTINEL_MASTER and follows a failover. Instead of REDIS_URL (leave it unset).',
      secret: false,
    },
    checkNodeList,
  ),
  REDIS_SENTINEL_MASTER: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'fwbot',
      description:
        'The name the sentinels monitor the primary under. Unset: `mymaster`. Only with REDIS_SENTINELS.',
      secret: false,
    },
    (raw) =>
      /^[\w.-]{1,64}$/.test(raw)
        ? accept(raw)
        : refuse<string>('must be a Sentinel master name: letters, digits, . _ -'),
  ),
  REDIS_SENTINEL_PASSWORD: optionalVariable(
    {
      requiredWhen: 'never',
      example: 's3ntinel-pa55',
      description:
        "The sentinels' own password (their `requirepass`), when they have one. Only with REDIS_SENTINELS.",
      secret: true,
    },
    secret((raw) => accept(raw)),
  ),
  REDIS_CLUSTER_NODES: optionalVariable(
    {
      requiredWhen: 'never',
      example: '10.0.0.21:6379,10.0.0.22:6379,10.0.0.23:6379',
      description:
        'Redis Cluster: some of its nodes as host:port pairs, comma-separated (fwbot learns the rest from them). ' +
        'Instead of REDIS_URL (leave it unset). fwbot then keeps all its keys under the hash tag `{fwbot}`.',
      secret: false,
    },
    checkNodeList,
  ),
  REDIS_PASSWORD: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'data-pa55word',
      description:
        'Password of the Redis data nodes with REDIS_SENTINELS or REDIS_CLUSTER_NODES (with REDIS_URL it goes in the URL).',
      secret: true,
    },
    secret((raw) => accept(raw)),
  ),
  REDIS_TLS: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'on',
      description:
        'TLS to every node (and sentinel) with REDIS_SENTINELS or REDIS_CLUSTER_NODES: `on` or `off`. Unset: ' +
        '`off`, under the same clear-text rule as a redis:// REDIS_URL, applied to each address given.',
      secret: false,
    },
    checkSwitch,
  ),
  REDIS_WAIT_REPLICAS: optionalVariable(
    {
      requiredWhen: 'never',
      example: '1',
      description:
        'How many replicas must acknowledge (WAIT) an approval transition or an exactly-once mark before fwbot ' +
        'acts on it (0–5). Unset: 1 with REDIS_SENTINELS or REDIS_CLUSTER_NODES, 0 with REDIS_URL.',
      secret: false,
    },
    integerBetween(0, 5),
  ),
  REDIS_WAIT_TIMEOUT_MS: defaultedVariable(
    {
      requiredWhen: 'never',
      example: '2000',
      description:
        'How long fwbot waits for those acknowledgements, in milliseconds (1–60000); when they do not come ' +
        'it does not act, and says so.',
      secret: false,
    },
    '1000',
    integerBetween(1, 60_000),
  ),
  PORT: defaultedVariable(
    {
      requiredWhen: 'never',
      example: '8080',
      description:
        'HTTP port: Slack events in HTTP mode, health and metrics in both modes and in `npm run worker` ' +
        '(each process on one host needs its own) (1–65535).',
      secret: false,
    },
    '3000',
    integerBetween(1, 65_535),
  ),
  METRICS_PORT: optionalVariable(
    {
      requiredWhen: 'never',
      example: '9464',
      description:
        "/metrics and the detailed /readyz (each check's reason, which may name hosts and ports) on a port of " +
        'their own (a server on 0.0.0.0 that answers nothing else), in the bot and in each worker, so the public ' +
        'PORT need not expose them: PORT then answers /metrics with 404, and its /healthz and /readyz stay (that ' +
        '/readyz names the checks and whether each passes, nothing more). Must differ from PORT (1–65535). ' +
        "Unset: /metrics is on PORT, and the checks' reasons are only logged.",
      secret: false,
    },
    integerBetween(1, 65_535),
  ),
  BOT_WORKERS: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'off',
      description:
        'Whether the bot process also does the work behind Slack (running commands, following transactions, ' +
        'posting outcomes): `on` or `off`. `off` makes it a front that only acknowledges Slack, opens modals and ' +
        'handles buttons, and leaves the work to `npm run worker` processes (as many as you like).',
      secret: false,
    },
    'on',
    checkSwitch,
  ),
  STAGED_REMINDER_MINUTES: defaultedVariable(
    {
      requiredWhen: 'never',
      example: '120',
      description:
        'Minutes after an interface change made through fwbot before its thread is reminded, once, that the ' +
        'device still has not been deployed (its configState is NOT_SYNCED), 1–10080.',
      secret: false,
    },
    '60',
    integerBetween(1, 10_080),
  ),
  LOG_LEVEL: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'debug',
      description: `Log level: ${logLevels.join(', ')} (any case).`,
      secret: false,
    },
    'info',
    checkLogLevel,
  ),
};

export type VariableName = keyof typeof variables;

type SchemaShape = { [K in VariableName]: (typeof variables)[K]['schema'] };

function schemaShape(): SchemaShape {
  const entries = Object.entries(variables).map(([name, variable]) => [name, variable.schema]);
  // Object.fromEntries loses the per-key types; the mapped type above restores exactly what it built.
  return Object.fromEntries(entries) as SchemaShape;
}

/** The one schema over the environment. Each value is trimmed, and an empty value counts as unset. */
export const EnvSchema = z.object(schemaShape());
export type EnvValues = z.output<typeof EnvSchema>;

/** Every variable fwbot reads, in the order the configuration page lists them. */
export const configVariables: readonly ConfigVariable[] = Object.freeze(
  Object.entries(variables).map(([name, { schema: _schema, ...doc }]) => Object.freeze({ name, ...doc })),
);

// Object.keys widens to string[]; these are exactly the keys of the object literal above.
export const variableNames = Object.keys(variables) as readonly VariableName[];

export const secretVariableNames: readonly VariableName[] = variableNames.filter(
  (name) => variables[name].secret,
);

function isVariableName(name: string): name is VariableName {
  return Object.hasOwn(variables, name);
}

export function exampleFor(name: VariableName): string {
  return `${name}=${variables[name].example}`;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/** The raw values fwbot reads, copied once so that everything after works on one consistent snapshot. */
export type EnvSnapshot = Readonly<Record<VariableName, string | undefined>>;

export function snapshotEnvironment(env: Environment): EnvSnapshot {
  const entries = variableNames.map((name) => [name, env[name]] as const);
  // Object.fromEntries loses the key type; the entries are exactly one per variable name.
  return Object.fromEntries(entries) as Record<VariableName, string | undefined>;
}

export function isSet(snapshot: EnvSnapshot, name: VariableName): boolean {
  return presentValue(snapshot[name]) !== undefined;
}

export type ParsedEnvironment = { ok: true; values: EnvValues } | { ok: false; issues: ConfigIssue[] };

export function parseEnvironment(snapshot: EnvSnapshot): ParsedEnvironment {
  const result = EnvSchema.safeParse(snapshot);
  if (result.success) return { ok: true, values: result.data };
  const issues = result.error.issues.map((issue): ConfigIssue => {
    const name = String(issue.path[0]);
    // Custom messages come from the checks above; anything else is a value that was not text at all.
    const problem = issue.code === 'custom' ? issue.message : 'must be text';
    return isVariableName(name)
      ? { source: name, problem, example: exampleFor(name) }
      : { source: name, problem };
  });
  return { ok: false, issues };
}

/** Which parts of fwbot this process runs; each one it runs must be fully configured. */
export interface Requirements {
  /** The Slack surface (the bot). */
  readonly slack: boolean;
  /** At least one SCC profile (the bot, the CLI). */
  readonly scc: boolean;
}

const SLACK_CREDENTIALS = ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET'] as const;

/** Slack is on when the process needs it, or when any Slack credential is set: half a setup is a mistake. */
export function slackEnabled(snapshot: EnvSnapshot, require: Requirements): boolean {
  return require.slack || SLACK_CREDENTIALS.some((name) => isSet(snapshot, name)) || oauthMode(snapshot);
}

const OAUTH_SETTINGS = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'FWBOT_INSTALL_KEY'] as const;

/** OAuth mode (installed in many workspaces): any of its settings is set; the others must be too. */
export function oauthMode(snapshot: EnvSnapshot): boolean {
  return OAUTH_SETTINGS.some((name) => isSet(snapshot, name));
}

/** What OAuth mode needs and what it cannot go with: the home workspace, HTTP mode, no single bot token. */
function oauthIssues(snapshot: EnvSnapshot): ConfigIssue[] {
  const issues: ConfigIssue[] = OAUTH_SETTINGS.filter((name) => !isSet(snapshot, name)).map((name) => ({
    source: name,
    problem: `is not set; OAuth mode needs ${OAUTH_SETTINGS.join(', ')} together`,
    example: exampleFor(name),
  }));
  if (!isSet(snapshot, 'SLACK_TEAM_ID'))
    issues.push({
      source: 'SLACK_TEAM_ID',
      problem:
        "is not set; in OAuth mode it names the home workspace (your own), whose people the profiles file's top-level policy grants roles to",
      example: exampleFor('SLACK_TEAM_ID'),
    });
  if (isSet(snapshot, 'SLACK_APP_TOKEN'))
    issues.push({
      source: 'SLACK_APP_TOKEN',
      problem:
        "is set together with SLACK_CLIENT_ID: Socket Mode serves one workspace (Slack's rule), so installing fwbot in many needs HTTP mode; unset SLACK_APP_TOKEN and set SLACK_SIGNING_SECRET",
      example: exampleFor('SLACK_SIGNING_SECRET'),
    });
  else if (!isSet(snapshot, 'SLACK_SIGNING_SECRET'))
    issues.push({
      source: 'SLACK_SIGNING_SECRET',
      problem:
        'is not set; OAuth mode runs in HTTP mode (installs come back to /slack/oauth_redirect), which needs it',
      example: exampleFor('SLACK_SIGNING_SECRET'),
    });
  if (isSet(snapshot, 'SLACK_BOT_TOKEN'))
    issues.push({
      source: 'SLACK_BOT_TOKEN',
      problem:
        "is set together with SLACK_CLIENT_ID: in OAuth mode each workspace's bot token comes from its install, the home workspace's too; install fwbot there at /slack/install and unset SLACK_BOT_TOKEN",
      example: exampleFor('SLACK_CLIENT_ID'),
    });
  return issues;
}

/** Settings that are each valid but cannot go together: two servers cannot listen on one port. */
export function conflictingSettings(values: EnvValues): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (values.METRICS_PORT !== undefined && values.METRICS_PORT === values.PORT)
    issues.push({
      source: 'METRICS_PORT',
      problem: `is PORT's port (${values.PORT}); /metrics needs a port of its own, or leave METRICS_PORT unset`,
      example: exampleFor('METRICS_PORT'),
    });
  if (values.REDIS_URL.transport === 'public' && !values.REDIS_ALLOW_PLAINTEXT)
    issues.push({
      source: 'REDIS_URL',
      problem:
        "is redis:// (clear text) to an address that is not loopback or private: fwbot's state and the password " +
        'would cross that network unencrypted; use rediss://, or set REDIS_ALLOW_PLAINTEXT=on if the network is yours',
      example: exampleFor('REDIS_URL'),
    });
  return issues;
}

const SENTINEL_ONLY = ['REDIS_SENTINEL_MASTER', 'REDIS_SENTINEL_PASSWORD'] as const;
const NODE_LIST_ONLY = ['REDIS_PASSWORD', 'REDIS_TLS'] as const;

/**
 * One Redis deployment at a time: REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES, and the settings that
 * belong to another form refused rather than silently ignored. Clear text to a public address is refused
 * for a node list as for REDIS_URL.
 */
export function redisDeploymentIssues(snapshot: EnvSnapshot, values: EnvValues): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const sentinels = isSet(snapshot, 'REDIS_SENTINELS');
  const cluster = isSet(snapshot, 'REDIS_CLUSTER_NODES');
  if (sentinels && cluster)
    issues.push({
      source: 'REDIS_CLUSTER_NODES',
      problem: 'is set together with REDIS_SENTINELS; fwbot uses one Redis deployment: keep one of the two',
      example: exampleFor('REDIS_CLUSTER_NODES'),
    });
  const list = sentinels ? 'REDIS_SENTINELS' : cluster ? 'REDIS_CLUSTER_NODES' : undefined;
  if (list !== undefined && isSet(snapshot, 'REDIS_URL'))
    issues.push({
      source: 'REDIS_URL',
      problem: `is set together with ${list}; the nodes come from ${list}: unset REDIS_URL (the password goes in REDIS_PASSWORD, TLS in REDIS_TLS)`,
      example: exampleFor(list),
    });
  if (!sentinels)
    for (const name of SENTINEL_ONLY.filter((n) => isSet(snapshot, n)))
      issues.push({
        source: name,
        problem: 'is set but REDIS_SENTINELS is not; it only applies to Redis behind Sentinel',
        example: exampleFor('REDIS_SENTINELS'),
      });
  if (list === undefined)
    for (const name of NODE_LIST_ONLY.filter((n) => isSet(snapshot, n)))
      issues.push({
        source: name,
        problem:
          'is set but neither REDIS_SENTINELS nor REDIS_CLUSTER_NODES is; with REDIS_URL put the password in the URL and use rediss:// for TLS',
        example: exampleFor('REDIS_URL'),
      });
  const nodes = values.REDIS_SENTINELS ?? values.REDIS_CLUSTER_NODES;
  if (list !== undefined && nodes !== undefined && !values.REDIS_ALLOW_PLAINTEXT) {
    const exposed = nodesTransport(nodes, values.REDIS_TLS ?? false) === 'public';
    if (exposed)
      issues.push({
        source: list,
        problem:
          "names an address that is not loopback or private, without TLS: fwbot's state and the password " +
          'would cross that network unencrypted; set REDIS_TLS=on, or REDIS_ALLOW_PLAINTEXT=on if the network is yours',
        example: exampleFor(list),
      });
  }
  return issues;
}

/** Settings missing for what this process runs (values that are set but wrong are parseEnvironment's). */
export function missingSettings(
  snapshot: EnvSnapshot,
  require: Requirements,
  fileDefinesProfiles: boolean,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (require.scc && !isSet(snapshot, 'SCC_API_TOKEN') && !fileDefinesProfiles) {
    issues.push({
      source: 'SCC_API_TOKEN',
      problem: 'is not set, and no FWBOT_PROFILES file defines a profile; fwbot needs an SCC API token',
      example: exampleFor('SCC_API_TOKEN'),
    });
  }
  if (oauthMode(snapshot)) {
    issues.push(...oauthIssues(snapshot));
  } else if (slackEnabled(snapshot, require)) {
    const why = require.slack ? 'Slack is enabled' : 'another Slack credential is set';
    if (!isSet(snapshot, 'SLACK_BOT_TOKEN')) {
      issues.push({
        source: 'SLACK_BOT_TOKEN',
        problem: `is not set (${why})`,
        example: exampleFor('SLACK_BOT_TOKEN'),
      });
    }
    if (!isSet(snapshot, 'SLACK_APP_TOKEN') && !isSet(snapshot, 'SLACK_SIGNING_SECRET')) {
      issues.push({
        source: 'SLACK_SIGNING_SECRET',
        problem: `is not set, and neither is SLACK_APP_TOKEN (${why}); set SLACK_APP_TOKEN for Socket Mode or this for HTTP mode`,
        example: exampleFor('SLACK_SIGNING_SECRET'),
      });
    }
  }
  return issues;
}
