// The format of the FWBOT_PROFILES file: its zod schema and, next to it, the documentation of every key
// (used for the configuration page and for the examples in error messages). Unknown keys are errors, so a typo
// never silently turns a setting off.
import { z } from 'zod';
import { checkRegion, checkSccBaseUrl } from './endpoints.js';
import { variableNames } from './environment.js';
import type { Checked } from './issues.js';
import { EVERYONE, isPrincipal, type Role, type RolePolicy, roles } from './policy.js';
import { SLACK_CHANNEL_ID, SLACK_ENTERPRISE_ID, SLACK_TEAM_ID } from './slackIds.js';

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

/** A workspace (T…) or, for an Enterprise Grid org-wide install, the organization (E…). */
const teamId = z.string().refine((id) => SLACK_TEAM_ID.test(id) || SLACK_ENTERPRISE_ID.test(id), {
  message:
    'is not a Slack team id (T…, or E… for an Enterprise Grid organization, then 8–20 capital letters and digits)',
});

const tenantName = z.string().trim().min(1, 'is empty; give a managed tenant’s name');

/**
 * The object form of a channel binding: a customer channel, scoped to one managed tenant of an MSP profile
 * (`tenant_profile`: the profile whose token acts inside that tenant, for device commands).
 */
const ChannelBindingObjectSchema = closedObject({
  profile: profileName,
  tenant: tenantName.optional(),
  tenant_profile: profileName.optional(),
}).superRefine(
  (binding, ctx) => {
    if (binding.tenant_profile !== undefined && binding.tenant === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['tenant_profile'],
        message:
          'is set without tenant; tenant_profile is the profile of the channel’s tenant, so name the tenant too',
      });
  },
  { when: (payload) => isObject(payload.value) },
);
export type ChannelBindingData = z.output<typeof ChannelBindingObjectSchema>;

/**
 * A channel binding as written: a profile name (`C0123ABCD: acme`) or the object form. The form is chosen by
 * the value's type, so an error speaks about the form that was written (a union would report both).
 */
const ChannelBindingSchema = z.unknown().transform((value, ctx): ChannelBindingData => {
  if (typeof value === 'string') {
    const name = profileName.safeParse(value);
    if (name.success) return { profile: name.data };
    ctx.addIssue({ code: 'custom', message: PROFILE_NAME_RULE });
    return z.NEVER;
  }
  if (!isObject(value)) {
    const empty = value === null || value === undefined;
    ctx.addIssue({
      code: 'custom',
      message:
        `${empty ? 'is empty; it' : ''} must be a profile name, or a mapping such as { profile: msp, tenant: contoso-eu }`.trim(),
    });
    return z.NEVER;
  }
  const binding = ChannelBindingObjectSchema.safeParse(value, { error: plainWords });
  if (binding.success) return binding.data;
  for (const issue of binding.error.issues) ctx.addIssue({ ...issue, input: undefined });
  return z.NEVER;
});

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

/**
 * A channel's grants, and what it grants external people (Slack Connect: people of another organization):
 * `external` holds every role but admin; their approver grant counts only with `allow_external_approvers`.
 */
const ChannelGrantsSchema = closedObject({
  viewer: principals('viewer'),
  operator: principals('operator'),
  approver: principals('approver'),
  admin: principals('admin'),
  external: closedObject({
    viewer: principals('viewer'),
    operator: principals('operator'),
    approver: principals('approver'),
  }).optional(),
  allow_external_approvers: z.boolean().optional(),
});

export const PolicySchema = closedObject({
  workspace: GrantsSchema.optional(),
  channels: z.record(channelId, ChannelGrantsSchema).optional(),
  /** Per operation id: the role it needs here, raised above its declared one (never lowered). */
  operations: z.record(operationId, z.enum(roles as unknown as [Role, ...Role[]])).optional(),
});

export const APPROVAL_EXPIRY_MAX_MINUTES = 10_080;
export const AUDIT_RETENTION_MAX_DAYS = 3_650;

/** Most approvers one request may need: more would rarely all be awake at once. */
export const MIN_APPROVERS_MAX = 5;

const approverPrincipal = z.string().refine((p) => isPrincipal(p) && p !== EVERYONE, {
  message: 'is not a Slack user id (U…/W…) or a user-group id (S…)',
});

/**
 * `approvals.approvers[]`: who approves requests on some devices, a profile or a managed tenant instead of
 * the channel's approver role, and how many of them must.
 */
const ApproverRuleSchema = closedObject({
  devices: z.string().trim().min(1, 'is empty; give a device query such as name:asa-hq-*').optional(),
  profile: profileName.optional(),
  tenant: z.string().trim().min(1, 'is empty; give a managed tenant’s name').optional(),
  approvers: z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z.array(approverPrincipal).min(1, 'names nobody; list the Slack user ids or user-group ids who approve'),
  ),
  min_approvers: z.number().int().min(1).max(MIN_APPROVERS_MAX).optional(),
  /**
   * The customer's side (issue 29): Slack user ids and user-group ids of the customer's own people. With it,
   * a request on the rule's tenant needs one approval from `approvers` and one from these; being named here
   * is the grant (no `allow_external_approvers` needed), but their click counts only on the card in the
   * tenant's customer channel.
   */
  customer_approvers: z
    .preprocess(
      (value) => (typeof value === 'string' ? [value] : value),
      z
        .array(approverPrincipal)
        .min(1, 'names nobody; list the Slack user ids or user-group ids of the customer’s approvers'),
    )
    .optional(),
}).superRefine(
  (rule, ctx) => {
    if (rule.devices === undefined && rule.profile === undefined && rule.tenant === undefined)
      ctx.addIssue({
        code: 'custom',
        message: 'needs devices, profile or tenant: what its approvers approve',
      });
    const customers = Array.isArray(rule.customer_approvers) ? rule.customer_approvers : [];
    if (rule.customer_approvers !== undefined && rule.tenant === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['customer_approvers'],
        message: 'needs tenant: the customer’s approvers approve for one managed tenant; name it with tenant',
      });
    const both = customers.filter((p) => Array.isArray(rule.approvers) && rule.approvers.includes(p));
    if (both.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['customer_approvers'],
        message: `names ${[...new Set(both)].join(', ')} on both sides; one person cannot approve for the MSP and for the customer`,
      });
    const people = [...(Array.isArray(rule.approvers) ? rule.approvers : []), ...customers];
    const onlyUsers = people.every((p) => !p.startsWith('S'));
    if (onlyUsers && rule.min_approvers !== undefined && rule.min_approvers > new Set(people).size)
      ctx.addIssue({
        code: 'custom',
        path: ['min_approvers'],
        message: `asks for ${rule.min_approvers} approvers but the rule names ${new Set(people).size}`,
      });
  },
  { when: (payload) => isObject(payload.value) },
);

const ApprovalsSchema = closedObject({
  expiry_minutes: z.number().int().min(1).max(APPROVAL_EXPIRY_MAX_MINUTES).optional(),
  allow_self_approval: z.boolean().optional(),
  deploy_with_change: z.boolean().optional(),
  require_for_vpn_upgrades: z.boolean().optional(),
  /** Per operation id: `four-eyes`, `none`, or a role that may run it alone (e.g. `admin`). */
  operations: z
    .record(operationId, z.enum(['four-eyes', 'none', ...roles] as [string, ...string[]]))
    .optional(),
  approvers: z.array(ApproverRuleSchema).optional(),
});

const AuditSchema = closedObject({
  retention_days: z.number().int().min(1).max(AUDIT_RETENTION_MAX_DAYS).optional(),
});

/** The days a change window may name, in the order the week runs (ISO: Monday first). */
export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];

export const SNAPSHOT_RETENTION_MAX_DAYS = 3_650;
const TIME_OF_DAY = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** Minutes after midnight of an `HH:MM` the schema accepted. */
function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** Whether the runtime knows the IANA zone (Intl throws a RangeError for an unknown one). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const timeOfDay = z
  .string()
  .regex(TIME_OF_DAY, 'must be a time of day as HH:MM on a 24-hour clock, e.g. 22:00');

const OpenPeriodSchema = closedObject({
  days: z
    .preprocess(
      (value) => (typeof value === 'string' ? [value] : value),
      z.array(z.enum(weekdays, { error: `must be a day: ${weekdays.join(', ')}` })).min(1, 'names no day'),
    )
    .transform((days) => [...new Set(days)]),
  from: timeOfDay,
  to: timeOfDay,
}).superRefine(
  (period, ctx) => {
    if (period.from === period.to)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'is the same time as from; a window that never closes is not a window (leave it out)',
      });
  },
  { when: (payload) => isObject(payload.value) },
);

const WindowSchema = closedObject({
  /** A device query (the Lucene syntax of /fw devices); absent: every device (of the profile, if given). */
  devices: z.string().trim().min(1, 'is empty; give a device query such as name:asa-*').optional(),
  profile: profileName.optional(),
  time_zone: z.string().refine(isTimeZone, {
    message: 'is not a time zone this system knows; use an IANA name such as Europe/Berlin or UTC',
  }),
  open: z.array(OpenPeriodSchema).min(1, 'lists no opening; give at least one { days, from, to }'),
});

/** Whether `source` compiles as a JavaScript regular expression. */
function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const TICKET_PLACEHOLDER = '{ticket}';

const ChangesSchema = closedObject({
  ticket: z.enum(['required', 'optional', 'off'], { error: 'must be required, optional or off' }).optional(),
  ticket_pattern: z
    .string()
    .min(1, 'is empty; give a regular expression such as ^CHG[0-9]{7}$, or leave the key out')
    .refine(isRegExp, { message: 'is not a valid regular expression' })
    .optional(),
  ticket_url: z
    .string()
    .refine((url) => /^https?:\/\/[^\s]+$/.test(url), { message: 'must be an http(s) URL' })
    .refine((url) => url.includes(TICKET_PLACEHOLDER), {
      message: `has no ${TICKET_PLACEHOLDER}, where the ticket goes`,
    })
    .optional(),
  windows: z.array(WindowSchema).optional(),
  snapshots: closedObject({
    retention_days: z.number().int().min(1).max(SNAPSHOT_RETENTION_MAX_DAYS).optional(),
  }).optional(),
});

/** `device_output`: what fwbot shows of what devices answer. */
const DeviceOutputSchema = closedObject({
  serial_numbers: z.enum(['masked', 'shown'], { error: 'must be masked or shown' }).optional(),
});

/**
 * `workspaces.<team>`: another workspace (or Grid organization) that installed fwbot (OAuth mode): the
 * profile and tenant its channels use when not bound below, its own channel bindings, and its own policy
 * (the top-level policy is the home workspace's and does not apply there).
 */
const WorkspaceSchema = closedObject({
  profile: profileName,
  tenant: tenantName.optional(),
  tenant_profile: profileName.optional(),
  channels: z.record(channelId, ChannelBindingSchema).optional(),
  policy: PolicySchema.optional(),
}).superRefine(
  (workspace, ctx) => {
    if (workspace.tenant_profile !== undefined && workspace.tenant === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['tenant_profile'],
        message:
          'is set without tenant; tenant_profile is the profile of the workspace’s tenant, so name the tenant too',
      });
  },
  { when: (payload) => isObject(payload.value) },
);

export const ProfilesFileSchema = closedObject({
  profiles: z.record(profileName, ProfileSchema).optional(),
  channels: z.record(channelId, ChannelBindingSchema).optional(),
  policy: PolicySchema.optional(),
  workspaces: z.record(teamId, WorkspaceSchema).optional(),
  approvals: ApprovalsSchema.optional(),
  audit: AuditSchema.optional(),
  changes: ChangesSchema.optional(),
  device_output: DeviceOutputSchema.optional(),
});
export type ProfilesFileData = z.output<typeof ProfilesFileSchema>;

/**
 * Where a channel's commands go: an SCC profile and, for a customer channel, the managed tenant it is scoped
 * to (a tenant of that MSP profile) and the profile that acts inside that tenant.
 */
export interface ChannelBinding {
  readonly profile: string;
  /** A managed tenant's name: the channel is a customer channel of that tenant. */
  readonly tenant?: string | undefined;
  /** The profile whose token acts inside the tenant (device commands); only with `tenant`. */
  readonly tenantProfile?: string | undefined;
}

/** `workspaces.<team>`: a workspace other than the home workspace that installed fwbot (OAuth mode). */
export interface WorkspaceSettings {
  /** The team id (T…) or, for an org-wide install, the Enterprise Grid organization id (E…). */
  readonly teamId: string;
  /** What its channels use when they are not bound in `channels`. */
  readonly binding: ChannelBinding;
  /** Its own channel bindings. */
  readonly channels: ReadonlyMap<string, ChannelBinding>;
  /** Its own grants; null: nobody holds a role there. The home workspace's policy never applies. */
  readonly policy: RolePolicy | null;
}

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
  /** Scoped approvers (`approvals.approvers`), in the file's order. */
  readonly approvers: readonly ApproverRule[];
}

/** One `approvals.approvers` rule: what it covers (every given scope must match) and who approves. */
export interface ApproverRule {
  /** How the rule is named on cards and in errors: `approvals.approvers[0]`. */
  readonly key: string;
  /** A device query (Lucene, as SCC's `q` and /fw devices take it). */
  readonly devices?: string | undefined;
  readonly profile?: string | undefined;
  /** A managed tenant's name (MSP portal). */
  readonly tenant?: string | undefined;
  /** Slack user ids and user-group ids. */
  readonly approvers: readonly string[];
  readonly minApprovers: number;
  /** The customer's side (`customer_approvers`, only with `tenant`): one of them must approve as well. */
  readonly customerApprovers?: readonly string[] | undefined;
}

export interface AuditSettings {
  /** Audit records older than this are deleted. */
  readonly retentionDays: number;
}

/** One opening of a change window: on each of `days`, from `from` to `to` in the window's zone. */
export interface OpenPeriod {
  readonly days: readonly Weekday[];
  /** `HH:MM` as written. */
  readonly from: string;
  readonly to: string;
  /** The same as minutes after midnight; `toMinute <= fromMinute` means the opening crosses midnight. */
  readonly fromMinute: number;
  readonly toMinute: number;
}

/** A change window from the policy (`changes.windows`), beside SCC's own deviceMaintenanceWindow. */
export interface PolicyWindow {
  /** The device query it covers; undefined: every device (of `profile`, when set). */
  readonly devices: string | undefined;
  /** The profile it covers; undefined: every profile. */
  readonly profile: string | undefined;
  /** An IANA zone the runtime knows (checked at start). */
  readonly timeZone: string;
  readonly open: readonly OpenPeriod[];
}

export type TicketRule = 'required' | 'optional' | 'off';

export interface ChangeSettings {
  /** Whether operations that change SCC or a device take a change ticket (`--ticket`). */
  readonly ticket: TicketRule;
  /** The source of the regular expression a ticket must match (checked to compile at start). */
  readonly ticketPattern: string | undefined;
  /** A link to the ticket, with `{ticket}` where the (URL-encoded) ticket goes. */
  readonly ticketUrl: string | undefined;
  readonly windows: readonly PolicyWindow[];
  /** Running-configuration snapshots older than this are deleted. */
  readonly snapshotRetentionDays: number;
}

/** What fwbot shows of devices' answers (the file's `device_output`). */
export interface DeviceOutputSettings {
  /**
   * Serial numbers in show answers (`show version`, `show failover`): masked, or shown as the device
   * printed them. An activation key is masked either way.
   */
  readonly serialNumbers: 'masked' | 'shown';
}

export const defaultDeviceOutput: DeviceOutputSettings = Object.freeze({ serialNumbers: 'masked' });

export function openPeriod(days: readonly Weekday[], from: string, to: string): OpenPeriod {
  return Object.freeze({
    days: Object.freeze([...days]),
    from,
    to,
    fromMinute: minutesOf(from),
    toMinute: minutesOf(to),
  });
}

export const defaultApprovals: ApprovalSettings = Object.freeze({
  expiryMinutes: 30,
  allowSelfApproval: false,
  deployWithChange: false,
  requireForVpnUpgrades: false,
  operations: Object.freeze({}),
  approvers: Object.freeze([]),
});

export const defaultAudit: AuditSettings = Object.freeze({ retentionDays: 90 });

export const defaultChanges: ChangeSettings = Object.freeze({
  ticket: 'off',
  ticketPattern: undefined,
  ticketUrl: undefined,
  windows: Object.freeze([]),
  snapshotRetentionDays: 30,
});

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
  ...(['viewer', 'operator', 'approver'] as const).map((role) => ({
    key: `policy.channels.<channel>.external.${role}`,
    description: `who among external people (Slack Connect: people of another organization in a shared channel) is ${role} in that channel; they get no other grant${role === 'approver' ? ', and this one counts only with allow_external_approvers' : ''}`,
    default: 'nobody',
    example: `${role}: [U0CUST0001]`,
  })),
  {
    key: 'policy.channels.<channel>.allow_external_approvers',
    description:
      'whether external people granted approver in that channel may approve; without it they never do',
    default: 'false',
    example: 'allow_external_approvers: true',
  },
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
      'the profile used in that Slack channel (channels without a binding use the profile `default`), or a customer channel: `{ profile, tenant, tenant_profile }` scopes every command there to one managed tenant of that MSP profile; `tenant_profile` (else a profile named as the tenant, case aside) runs its device commands. See docs/operating/msp.md',
    default: undefined,
    example: 'C0123ABCD: acme',
  },
  ...roleKeys,
  {
    key: 'workspaces.<team>.profile',
    description:
      'OAuth mode: the profile used in the channels of another workspace (T…, or E… for an Enterprise Grid org-wide install) that installed fwbot, when they are not bound under its `channels`. A workspace with no entry gets nobody’s roles',
    default: undefined,
    example: 'profile: msp',
  },
  {
    key: 'workspaces.<team>.tenant',
    description:
      'the managed tenant (of that profile) every channel of the workspace is scoped to, as in `channels`',
    default: 'none: not scoped to a tenant',
    example: 'tenant: contoso-eu',
  },
  {
    key: 'workspaces.<team>.tenant_profile',
    description: 'the profile that runs device commands inside the workspace’s tenant, as in `channels`',
    default: 'a profile named as the tenant',
    example: 'tenant_profile: contoso',
  },
  {
    key: 'workspaces.<team>.channels.<channel>',
    description: 'a channel binding in that workspace, in the same two forms as `channels.<channel>`',
    default: 'the workspace’s profile and tenant',
    example: 'C0123ABCD: { profile: msp, tenant: contoso-eu }',
  },
  {
    key: 'workspaces.<team>.policy',
    description:
      'the grants in that workspace, with the same keys as `policy`; the top-level `policy` is the home workspace’s and does not apply there',
    default: 'nobody holds a role',
    example: "policy: { workspace: { viewer: ['*'] } }",
  },
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
    key: 'approvals.approvers',
    description: `scoped approvers: each rule gives \`devices\` (a device query, as /fw devices takes), \`profile\`, \`tenant\` (a managed tenant’s name) or several of them (all must match), and \`approvers\` (Slack user ids or user-group ids, at least one). A request on what a rule covers is approved by its approvers instead of the channel’s approver role; \`min_approvers\` (1–${MIN_APPROVERS_MAX}, default 1) of them, other than the requester, must approve. When several rules match, any of their approvers may, and the largest min_approvers counts. A rule that names a \`tenant\` may add \`customer_approvers\` (the customer’s people): a request on that tenant then needs one approval from \`approvers\` and one from \`customer_approvers\` besides (at least 2 in all). Being named there is the customer’s grant (allow_external_approvers is not needed for it), but their click counts only on the card in the tenant’s customer channel, where such requests must be asked; nobody may be on both sides`,
    default: 'none: the channel’s approver role approves',
    example:
      "approvers: [{ devices: 'name:asa-hq-*', approvers: [U0LEAD00001, S0NETSEC01], min_approvers: 2 }]",
  },
  {
    key: 'audit.retention_days',
    description: `days audit records are kept (1–${AUDIT_RETENTION_MAX_DAYS})`,
    default: String(defaultAudit.retentionDays),
    example: 'retention_days: 90',
  },
  {
    key: 'changes.ticket',
    description:
      'whether operations that change SCC or a device take a change ticket (`--ticket`, a field in Slack forms): `required`, `optional` or `off`',
    default: defaultChanges.ticket,
    example: 'ticket: required',
  },
  {
    key: 'changes.ticket_pattern',
    description: 'a regular expression every ticket must match (checked when the bot starts)',
    default: 'any ticket',
    example: "ticket_pattern: '^CHG[0-9]{7}$'",
  },
  {
    key: 'changes.ticket_url',
    description:
      'a link to a ticket, `{ticket}` standing for it (URL-encoded); the approval card links the ticket with it',
    default: 'no link',
    example: "ticket_url: 'https://acme.service-now.com/change_request.do?number={ticket}'",
  },
  {
    key: 'changes.windows',
    description:
      'change windows of the policy, besides the maintenance window SCC keeps per device. Each has `devices` (a device query, as /fw devices takes), `profile`, both, or neither (every device); `time_zone` (an IANA zone); and `open`, a list of `{ days: [mon … sun], from: HH:MM, to: HH:MM }` (`to` before `from` crosses midnight into the next day)',
    default: 'none',
    example:
      "windows: [{ profile: acme, time_zone: Europe/Berlin, open: [{ days: [sat, sun], from: '22:00', to: '04:00' }] }]",
  },
  {
    key: 'device_output.serial_numbers',
    description:
      'whether the answers of show commands (`show version`, `show failover`) keep the devices’ serial numbers (`shown`) or mask them (`masked`); an answer can be shared in the channel, and an activation key is masked either way',
    default: defaultDeviceOutput.serialNumbers,
    example: 'serial_numbers: shown',
  },
  {
    key: 'changes.snapshots.retention_days',
    description: `days the running configuration kept before each deploy is retained (1–${SNAPSHOT_RETENTION_MAX_DAYS})`,
    default: String(defaultChanges.snapshotRetentionDays),
    example: 'retention_days: 30',
  },
]);

/** The documentation pattern of a concrete key path: profiles.acme.region → profiles.<name>.region. */
export function keyPattern(path: readonly PropertyKey[]): string {
  const keys = path.filter((segment): segment is string => typeof segment === 'string');
  if (keys[0] === 'profiles' && keys.length > 1) keys[1] = '<name>';
  if (keys[0] === 'channels' && keys.length > 1) keys[1] = '<channel>';
  if (keys[0] === 'workspaces' && keys.length > 1) {
    keys[1] = '<team>';
    // A workspace's bindings and policy are read as the top-level ones are.
    if (keys[2] === 'channels' && keys.length > 3) keys[3] = '<channel>';
    if (keys[2] === 'policy' && keys[3] === 'channels' && keys.length > 4) keys[4] = '<channel>';
    if (keys[2] === 'policy' && keys[3] === 'operations' && keys.length > 4) keys[4] = '<operation>';
  }
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
  if (inside !== undefined) return inside.example;
  // Inside a list of mappings (changes.windows), the list's own example shows every key.
  const above = profilesFileKeys.find((row) => pattern.startsWith(`${row.key}.`));
  return above?.example;
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
