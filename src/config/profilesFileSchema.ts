// The format of the FWBOT_PROFILES file: its zod schema and, next to it, the documentation of every key
// (used for the configuration page and for the examples in error messages). Unknown keys are errors, so a typo
// never silently turns a setting off.
import { z } from 'zod';
import { checkRegion, checkSccBaseUrl } from './endpoints.js';
import { variableNames } from './environment.js';
import type { Checked } from './issues.js';
import { EVERYONE, isPrincipal, type Role, roles } from './policy.js';
import { SLACK_CHANNEL_ID } from './slackIds.js';

/** Marks the issue raised for a key that the schema does not know; `known` feeds "did you mean …". */
export interface UnknownKeyParams {
  readonly unknownKey: true;
  readonly known: readonly string[];
}

export function isUnknownKeyParams(params: unknown): params is UnknownKeyParams {
  return typeof params === 'object' && params !== null && 'unknownKey' in params && 'known' in params;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object that refuses unknown keys. Unlike z.strictObject, the refusal is one issue per key, at that
 * key's path (so it gets its own line number) and carrying the allowed keys; and it is reported even when
 * other fields are wrong, so all problems show at once.
 */
function closedObject<S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.looseObject(shape).superRefine(
    (value, ctx) => {
      for (const key of Object.keys(value)) {
        if (known.includes(key)) continue;
        const params: UnknownKeyParams = { unknownKey: true, known };
        ctx.addIssue({ code: 'custom', path: [key], message: 'is not a known key', params });
      }
    },
    { when: (payload) => isObject(payload.value) },
  );
}

function checkedString<T>(check: (raw: string) => Checked<T>) {
  return z.string().transform((raw, ctx): T => {
    const result = check(raw);
    if (result.ok) return result.value;
    ctx.addIssue({ code: 'custom', message: result.problem });
    return z.NEVER;
  });
}

export const PROFILE_NAME = /^[a-z][a-z0-9_-]{0,29}$/;
const PROFILE_NAME_RULE = 'must be a profile name: a lower-case letter, then up to 29 of a-z, 0-9, - and _';
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

const profileName = z.string().regex(PROFILE_NAME, PROFILE_NAME_RULE);

const channelId = z
  .string()
  .regex(SLACK_CHANNEL_ID, 'is not a Slack channel id (C…, G… or D… then 8–20 capital letters and digits)');

/** Whether a token_env value may name the variable holding a profile's token. */
export function isTokenVariableName(name: string): boolean {
  return ENV_NAME.test(name) && !isOwnSettingOtherThanToken(name);
}

// SCC_API_TOKEN may be shared with a file profile; fwbot's other variables hold something else entirely.
function isOwnSettingOtherThanToken(name: string): boolean {
  return name !== 'SCC_API_TOKEN' && (variableNames as readonly string[]).includes(name);
}

const tokenEnv = z
  .string()
  .regex(ENV_NAME, 'must be the name of an environment variable (capital letters, digits and _), not a token')
  .refine((name) => !isOwnSettingOtherThanToken(name), {
    message: 'names one of fwbot’s own settings, which holds something other than this profile’s SCC token',
  });

const ProfileSchema = closedObject({
  region: checkedString(checkRegion).optional(),
  base_url: checkedString(checkSccBaseUrl).optional(),
  token_env: tokenEnv,
  legacy_tenant_removal: z.boolean().optional(),
}).superRefine(
  (profile, ctx) => {
    const hasRegion = profile.region !== undefined;
    const hasBaseUrl = profile.base_url !== undefined;
    if (hasRegion && hasBaseUrl)
      ctx.addIssue({ code: 'custom', message: 'sets both region and base_url; keep one' });
    if (!hasRegion && !hasBaseUrl)
      ctx.addIssue({ code: 'custom', message: 'needs either region or base_url' });
  },
  { when: (payload) => isObject(payload.value) },
);

/** A list of principals; a single one may be written without brackets (`admin: U0123ABCD`). */
function principals(role: Role) {
  const principal = z
    .string()
    .refine(isPrincipal, { message: 'is not a Slack user id (U…/W…), a user-group id (S…) or "*"' })
    .refine((p) => role !== 'admin' || p !== EVERYONE, {
      message: 'admin cannot be granted to everyone ("*")',
    });
  return z
    .preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(principal))
    .optional();
}

const GrantsSchema = closedObject({
  viewer: principals('viewer'),
  operator: principals('operator'),
  approver: principals('approver'),
  admin: principals('admin'),
});

/** An operation id as help and the command table show it: `tenants.token`, `trace`. */
const operationId = z
  .string()
  .regex(/^[a-z-]+(\.[a-z-]+)*$/, 'must be an operation id such as tenants.token');

const PolicySchema = closedObject({
  workspace: GrantsSchema.optional(),
  channels: z.record(channelId, GrantsSchema).optional(),
  /** Per operation id: the role it needs here, raised above its declared one (never lowered). */
  operations: z.record(operationId, z.enum(roles as unknown as [Role, ...Role[]])).optional(),
});

export const APPROVAL_EXPIRY_MAX_MINUTES = 10_080;
export const AUDIT_RETENTION_MAX_DAYS = 3_650;

const ApprovalsSchema = closedObject({
  expiry_minutes: z.number().int().min(1).max(APPROVAL_EXPIRY_MAX_MINUTES).optional(),
  allow_self_approval: z.boolean().optional(),
  deploy_with_change: z.boolean().optional(),
  require_for_vpn_upgrades: z.boolean().optional(),
  /** Per operation id: `four-eyes`, `none`, or a role that may run it alone (e.g. `admin`). */
  operations: z
    .record(operationId, z.enum(['four-eyes', 'none', ...roles] as [string, ...string[]]))
    .optional(),
});

const AuditSchema = closedObject({
  retention_days: z.number().int().min(1).max(AUDIT_RETENTION_MAX_DAYS).optional(),
});

export const ProfilesFileSchema = closedObject({
  profiles: z.record(profileName, ProfileSchema).optional(),
  channels: z.record(channelId, profileName).optional(),
  policy: PolicySchema.optional(),
  approvals: ApprovalsSchema.optional(),
  audit: AuditSchema.optional(),
});
export type ProfilesFileData = z.output<typeof ProfilesFileSchema>;

export interface ApprovalSettings {
  /** A pending approval expires after this many minutes. */
  readonly expiryMinutes: number;
  /** Whether the requester may approve their own request. */
  readonly allowSelfApproval: boolean;
  /**
   * An approved interface deletion on a device with nothing else pending is staged and deployed as one
   * approved unit (off: it is only staged, and deployed with its own approval).
   */
  readonly deployWithChange: boolean;
  /** Whether Secure Client (VPN) upgrades need an approval like destructive operations. */
  readonly requireForVpnUpgrades: boolean;
  /**
   * Approval rules the file sets per operation id: `four-eyes`, `none`, or a role that may run it without
   * a second person. Checked against the catalogue's declarations when the bot starts (src/dispatch/).
   */
  readonly operations: Readonly<Record<string, string>>;
}

export interface AuditSettings {
  /** Audit records older than this are deleted. */
  readonly retentionDays: number;
}

export const defaultApprovals: ApprovalSettings = Object.freeze({
  expiryMinutes: 30,
  allowSelfApproval: false,
  deployWithChange: false,
  requireForVpnUpgrades: false,
  operations: Object.freeze({}),
});

export const defaultAudit: AuditSettings = Object.freeze({ retentionDays: 90 });

/** One row of the file format's reference. `<name>`, `<channel>` and `<role>` stand for any such key. */
export interface ProfilesFileKey {
  readonly key: string;
  readonly description: string;
  readonly default: string | undefined;
  /** How the key is written, as a YAML line. */
  readonly example: string;
}

const roleKeys: ProfilesFileKey[] = [
  ...roles.map((role) => ({
    key: `policy.workspace.${role}`,
    description: `who is ${role} in every channel: Slack user ids (U…/W…), user-group ids (S…)${role === 'admin' ? '' : ' or "*" for everyone'}`,
    default: 'nobody',
    example: `${role}: [U0123ABCD, S0123ABCD]`,
  })),
  ...roles.map((role) => ({
    key: `policy.channels.<channel>.${role}`,
    description: `who is ${role} in that channel, in addition to the workspace grants`,
    default: 'nobody',
    example: `${role}: [U0123ABCD]`,
  })),
  {
    key: 'policy.operations.<operation>',
    description:
      'the role an operation needs in this deployment, raised above the one it declares (`viewer`, `operator`, `approver`, `admin`); it can never be lowered',
    default: 'the operation’s own role (help and the command table say it)',
    example: 'operations: { trace: operator, show: operator }',
  },
];

export const profilesFileKeys: readonly ProfilesFileKey[] = Object.freeze([
  {
    key: 'profiles.<name>.region',
    description: 'SCC region of the profile: us, eu, apj, au, in or uae (set this or base_url)',
    default: undefined,
    example: 'region: eu',
  },
  {
    key: 'profiles.<name>.base_url',
    description: 'SCC base URL instead of a region (https, or http to a loopback address)',
    default: undefined,
    example: 'base_url: https://scc-proxy.example.net/firewall',
  },
  {
    key: 'profiles.<name>.token_env',
    description: 'name of the environment variable that holds the profile’s SCC API token',
    default: undefined,
    example: 'token_env: ACME_SCC_TOKEN',
  },
  {
    key: 'profiles.<name>.legacy_tenant_removal',
    description:
      'the profile’s SCC lacks revokeTenantFromMspPortal: `tenants remove` uses the deprecated DELETE there (answered at once, not followed)',
    default: 'false',
    example: 'legacy_tenant_removal: true',
  },
  {
    key: 'channels.<channel>',
    description:
      'the profile used in that Slack channel; channels without a binding use the profile `default`',
    default: undefined,
    example: 'C0123ABCD: acme',
  },
  ...roleKeys,
  {
    key: 'approvals.expiry_minutes',
    description: `minutes before a pending approval expires (1–${APPROVAL_EXPIRY_MAX_MINUTES})`,
    default: String(defaultApprovals.expiryMinutes),
    example: 'expiry_minutes: 30',
  },
  {
    key: 'approvals.allow_self_approval',
    description: 'whether the requester may approve their own request',
    default: String(defaultApprovals.allowSelfApproval),
    example: 'allow_self_approval: false',
  },
  {
    key: 'approvals.deploy_with_change',
    description:
      'whether an approved interface deletion on an ASA with nothing else pending is also deployed, as one approved unit (the card says so); with other pending changes it is only staged',
    default: String(defaultApprovals.deployWithChange),
    example: 'deploy_with_change: true',
  },
  {
    key: 'approvals.require_for_vpn_upgrades',
    description: 'whether Secure Client (VPN) upgrades need an approval too',
    default: String(defaultApprovals.requireForVpnUpgrades),
    example: 'require_for_vpn_upgrades: true',
  },
  {
    key: 'approvals.operations.<operation>',
    description:
      'the approval rule of one operation: `four-eyes` (a second person approves), a role that may run it alone (`admin`, `operator`…), or `none`; operations that always need approval cannot be lowered',
    default: 'the operation’s own rule (see Approvals)',
    example: 'operations: { tenants.token: admin }',
  },
  {
    key: 'audit.retention_days',
    description: `days audit records are kept (1–${AUDIT_RETENTION_MAX_DAYS})`,
    default: String(defaultAudit.retentionDays),
    example: 'retention_days: 90',
  },
]);

/** The documentation pattern of a concrete key path: profiles.acme.region → profiles.<name>.region. */
export function keyPattern(path: readonly PropertyKey[]): string {
  const keys = path.filter((segment): segment is string => typeof segment === 'string');
  if (keys[0] === 'profiles' && keys.length > 1) keys[1] = '<name>';
  if (keys[0] === 'channels' && keys.length > 1) keys[1] = '<channel>';
  if (keys[0] === 'policy' && keys[1] === 'channels' && keys.length > 2) keys[2] = '<channel>';
  if (keys[0] === 'approvals' && keys[1] === 'operations' && keys.length > 2) keys[2] = '<operation>';
  if (keys[0] === 'policy' && keys[1] === 'operations' && keys.length > 2) keys[2] = '<operation>';
  return keys.join('.');
}

/** The example of the documented key at `path`, or of the nearest documented key below it. */
export function fileExampleFor(path: readonly PropertyKey[]): string | undefined {
  const pattern = keyPattern(path);
  const exact = profilesFileKeys.find((row) => row.key === pattern);
  if (exact !== undefined) return exact.example;
  const inside = profilesFileKeys.find((row) => row.key.startsWith(`${pattern}.`));
  return inside?.example;
}

/**
 * Plain words for zod's own issues, passed as the parse's error map (the schema's custom checks bring
 * their own messages). Never quotes the input.
 */
export function plainWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is missing';
      if (issue.input === null) return `is empty; expected ${describeType(issue.expected)}`;
      return `must be ${describeType(issue.expected)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return undefined;
  }
}

function describeType(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
    case 'record':
      return 'a mapping (key: value)';
    default:
      return expected;
  }
}
