// `access:` of the FWBOT_PROFILES file: the risk policy every access request is checked against before
// anything is staged (issue 36, item 4). Each rule
// says what it checks and its `action`: `refuse` (the request is refused in one sentence naming the rule) or
// `extra-approval` (it needs the rule's own approvers besides the usual ones, as `approvals.approvers`
// rules name them). Its schema, settings, defaults, rows of the configuration reference, and the settings
// it yields; src/access/risk.ts applies them. It also sets the recertification of permanent rules
// (`recertify_every`, `recertify_grace`: src/catalogue/timed/accessRecertify.ts asks, item 7).
import { z } from 'zod';
import { type Network, parseNetwork } from '../../model/networks.js';
import { EVERYONE, isPrincipal } from '../policy.js';
import type { ApproverRule } from './approvals.js';
import { MIN_APPROVERS_MAX } from './approvals.js';
import { parseDuration } from './response.js';
import { closedObject, isObject, type ProfilesFileKey } from './schemaParts.js';

const DAY = 24 * 60 * 60 * 1000;
/** The longest `at_most` the file may give: three years. */
const MAX_DAYS = 1095;

export type RiskAction = 'refuse' | 'extra-approval';
export type AccessProtocol = 'tcp' | 'udp' | 'icmp' | 'ip';

/** What every rule has: its key as errors and sentences name it, its action, and its approvers (extra-approval). */
interface RiskRule {
  /** `access.forbidden_services[0]`. */
  readonly key: string;
  readonly action: RiskAction;
  /** Who approves besides the usual approvers when the action is `extra-approval`. */
  readonly approvers?: ApproverRule | undefined;
}

export interface ForbiddenService extends RiskRule {
  /** How sentences name it: `telnet`, `SMB`. */
  readonly name: string;
  readonly protocol: AccessProtocol;
  /** Ports (tcp/udp); empty: every port of the protocol. */
  readonly ports: readonly number[];
  /** `anywhere`, or only from sources outside the organisation's networks. */
  readonly from: 'anywhere' | 'outside';
}

export interface PrefixLimit extends RiskRule {
  /** The shortest prefix allowed for an IPv4 network (a host is /32). */
  readonly ipv4: number;
  /** The same for IPv6; absent: IPv6 networks are not checked. */
  readonly ipv6?: number | undefined;
}

export interface ProtectedDestination extends RiskRule {
  readonly name: string;
  readonly networks: readonly Network[];
}

export interface OutsideSources extends RiskRule {
  /** The longest an access from outside may last (ms); absent: any expiry, as long as there is one. */
  readonly atMostMs?: number | undefined;
}

export interface AccessRiskPolicy {
  /** The organisation's own networks: a source not wholly inside them is from outside. */
  readonly organisationNetworks: readonly Network[];
  readonly forbiddenServices: readonly ForbiddenService[];
  readonly minSourcePrefix?: PrefixLimit | undefined;
  readonly minDestinationPrefix?: PrefixLimit | undefined;
  /** A source of `any` to a protected destination; its approvers are the destination's. */
  readonly anySourceToProtected?: Omit<RiskRule, 'approvers'> | undefined;
  readonly protectedDestinations: readonly ProtectedDestination[];
  readonly outsideSources?: OutsideSources | undefined;
}

/**
 * Every `everyMs` from a permanent rule's creation its requester is asked whether it is still needed; a
 * question unanswered for `graceMs` is overdue (`/fw access recertification`).
 */
export interface Recertification {
  readonly everyMs: number;
  readonly graceMs: number;
}

/** The grace an unanswered recertification has before it is overdue, unless `recertify_grace` says. */
export const DEFAULT_RECERTIFY_GRACE_MS = 7 * DAY;

/** The file's `access:` section as fwbot reads it: the risk policy and the lifecycle's settings. */
export interface AccessRequestPolicy extends AccessRiskPolicy {
  /** Absent: permanent rules are not recertified. */
  readonly recertification?: Recertification | undefined;
  /**
   * A request with `--expires` gets an ASA time-range ending at the expiry on its rule, so the device
   * itself stops matching it then, whether or not fwbot's removal has run yet.
   */
  readonly timeRangeForExpiry?: boolean | undefined;
}

export const defaultAccessRequests: AccessRequestPolicy = Object.freeze({
  organisationNetworks: Object.freeze([]),
  forbiddenServices: Object.freeze([]),
  protectedDestinations: Object.freeze([]),
});

const principal = z.string().refine((p) => isPrincipal(p) && p !== EVERYONE, {
  message: 'is not a Slack user id (U…/W…) or a user-group id (S…)',
});
const principals = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z.array(principal).min(1, 'names nobody; list the Slack user ids or user-group ids who approve'),
);

const network = z.string().transform((text, ctx) => {
  const parsed = parseNetwork(text);
  if (parsed === undefined || text.trim().toLowerCase() === 'any') {
    ctx.addIssue({ code: 'custom', message: 'must be a host or a CIDR such as 10.0.0.0/8 or 2001:db8::/32' });
    return z.NEVER;
  }
  return parsed;
});
const networks = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z.array(network).min(1, 'is empty; list hosts or CIDRs'),
);

const days = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined || ms % DAY !== 0 || ms > MAX_DAYS * DAY) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a number of days such as 30d or 90d (at most ${MAX_DAYS}d)`,
    });
    return z.NEVER;
  }
  return ms;
});

const action = z.enum(['refuse', 'extra-approval'], { message: 'must be refuse or extra-approval' });
const port = z.number().int().min(1).max(65_535);

/** The parts every rule may have: its action and, for extra-approval, who approves. */
const ruleParts = {
  action,
  approvers: principals.optional(),
  min_approvers: z.number().int().min(1).max(MIN_APPROVERS_MAX).optional(),
};

/** A rule whose action is extra-approval names who approves; a refusing one needs nobody. */
function needsApprovers(rule: Record<string, unknown>, ctx: z.RefinementCtx, own = true): void {
  if (rule.action === 'extra-approval' && rule.approvers === undefined && own)
    ctx.addIssue({
      code: 'custom',
      path: ['approvers'],
      message: 'is missing: an extra-approval rule names who approves (Slack user ids or user-group ids)',
    });
  if (rule.action === 'refuse' && rule.approvers !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['approvers'],
      message: 'is given to a rule that refuses; approvers belong to extra-approval rules',
    });
}

const ForbiddenServiceSchema = closedObject({
  name: z.string().trim().min(1, 'is empty; give the service’s name, such as telnet'),
  protocol: z.enum(['tcp', 'udp', 'icmp', 'ip'], { message: 'must be tcp, udp, icmp or ip' }),
  ports: z
    .preprocess((value) => (typeof value === 'number' ? [value] : value), z.array(port).min(1))
    .optional(),
  from: z.enum(['anywhere', 'outside'], { message: 'must be anywhere or outside' }).optional(),
  ...ruleParts,
}).superRefine(
  (rule, ctx) => {
    needsApprovers(rule, ctx);
    if (rule.ports !== undefined && (rule.protocol === 'icmp' || rule.protocol === 'ip'))
      ctx.addIssue({
        code: 'custom',
        path: ['ports'],
        message: 'is given for a protocol without ports (tcp or udp have them)',
      });
  },
  { when: (payload) => isObject(payload.value) },
);

const prefixBits = (bits: number) => z.number().int().min(0).max(bits);
const PrefixLimitSchema = closedObject({
  ipv4: prefixBits(32),
  ipv6: prefixBits(128).optional(),
  ...ruleParts,
}).superRefine((rule, ctx) => needsApprovers(rule, ctx), { when: (payload) => isObject(payload.value) });

const ProtectedDestinationSchema = closedObject({
  name: z.string().trim().min(1, 'is empty; give the destination’s name, such as pci'),
  networks,
  approvers: principals.optional(),
  min_approvers: z.number().int().min(1).max(MIN_APPROVERS_MAX).optional(),
  action: action.optional(),
}).superRefine(
  (rule, ctx) => {
    if ((rule.action ?? 'extra-approval') === 'extra-approval')
      needsApprovers({ ...rule, action: 'extra-approval' }, ctx);
    else needsApprovers(rule, ctx);
  },
  { when: (payload) => isObject(payload.value) },
);

const OutsideSourcesSchema = closedObject({ at_most: days.optional(), ...ruleParts }).superRefine(
  (rule, ctx) => needsApprovers(rule, ctx),
  { when: (payload) => isObject(payload.value) },
);

export const AccessSchema = closedObject({
  organisation_networks: networks.optional(),
  forbidden_services: z.array(ForbiddenServiceSchema).optional(),
  min_source_prefix: PrefixLimitSchema.optional(),
  min_destination_prefix: PrefixLimitSchema.optional(),
  any_source_to_protected: action.optional(),
  protected_destinations: z.array(ProtectedDestinationSchema).optional(),
  outside_sources: OutsideSourcesSchema.optional(),
  recertify_every: days.optional(),
  recertify_grace: days.optional(),
  time_range_for_expiry: z.boolean().optional(),
}).superRefine(
  (access, ctx) => {
    if (access.recertify_grace !== undefined && access.recertify_every === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['recertify_grace'],
        message: 'needs access.recertify_every: say how often permanent rules are recertified',
      });
    if (
      typeof access.recertify_grace === 'number' &&
      typeof access.recertify_every === 'number' &&
      access.recertify_grace >= access.recertify_every
    )
      ctx.addIssue({
        code: 'custom',
        path: ['recertify_grace'],
        message:
          'must be shorter than access.recertify_every, or the next question comes before this one is late',
      });
    // What "outside" means is the organisation's networks: a rule about outside needs them listed.
    if (access.organisation_networks !== undefined) return;
    const services = Array.isArray(access.forbidden_services) ? access.forbidden_services : [];
    services.forEach((service, index) => {
      if (isObject(service) && service.from === 'outside')
        ctx.addIssue({
          code: 'custom',
          path: ['forbidden_services', index, 'from'],
          message:
            'is outside, but access.organisation_networks is not given: list the organisation’s networks',
        });
    });
    if (access.outside_sources !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['outside_sources'],
        message: 'needs access.organisation_networks: list the organisation’s networks',
      });
  },
  { when: (payload) => isObject(payload.value) },
);
type AccessData = z.output<typeof AccessSchema>;

/** The keys of a breadth limit (`min_source_prefix`, `min_destination_prefix`). */
function prefixKeys(side: 'source' | 'destination', example: string): ProfilesFileKey[] {
  const key = `access.min_${side}_prefix`;
  return [
    {
      key: `${key}.ipv4`,
      description: `the broadest ${side} an access request may name, as an IPv4 prefix length (0–32; \`any\` is /0)`,
      default: 'none',
      example,
    },
    {
      key: `${key}.ipv6`,
      description: `the same for IPv6 ${side}s (0–128; absent: IPv6 ${side}s are not checked)`,
      default: 'not checked',
      example: `min_${side}_prefix: { ipv4: 16, ipv6: 48, action: refuse }`,
    },
    ...ruleActionKeys(key, `a ${side} broader than the limit`),
  ];
}

/** `action`, `approvers` and `min_approvers` of an `access` rule. */
function ruleActionKeys(key: string, what: string): ProfilesFileKey[] {
  return [
    {
      key: `${key}.action`,
      description: `what ${what} gets: \`refuse\` (refused before anything is staged, in one sentence naming the rule) or \`extra-approval\` (its \`approvers\` approve besides the usual approvers; the card says why)`,
      default: 'required',
      example: `${key.slice('access.'.length)}: { action: refuse }`,
    },
    {
      key: `${key}.approvers`,
      description:
        'with `extra-approval`: Slack user ids or user-group ids, as `approvals.approvers` rules name them',
      default: 'none',
      example: `${key.slice('access.'.length)}: { action: extra-approval, approvers: [S0NETSEC01] }`,
    },
    {
      key: `${key}.min_approvers`,
      description: `with \`extra-approval\`: how many of its approvers (1–${MIN_APPROVERS_MAX})`,
      default: '1',
      example: `${key.slice('access.'.length)}: { action: extra-approval, approvers: [S0NETSEC01], min_approvers: 1 }`,
    },
  ];
}

export const accessKeys: readonly ProfilesFileKey[] = [
  {
    key: 'access.organisation_networks',
    description:
      'the organisation’s own networks (hosts or CIDRs, IPv4 or IPv6): an access request whose source is not wholly inside them comes from outside (`forbidden_services[].from: outside`, `outside_sources`)',
    default: 'none',
    example: 'organisation_networks: [10.0.0.0/8, 192.168.0.0/16]',
  },
  {
    key: 'access.forbidden_services',
    description:
      'services an access request may not open: each has `name` (how the refusal names it), `protocol` (tcp, udp, icmp, ip), `ports` (tcp/udp; absent: every port), `from` (`anywhere`, the default, or `outside`: only from sources outside the organisation’s networks) and `action`. A request of protocol `ip`, or without a port, opens every service and matches too. Every `access` rule has `action`: `refuse` (refused before anything is staged, in one sentence naming the rule) or `extra-approval` (its `approvers`, Slack user ids or user-group ids, and `min_approvers` of them, approve besides the usual approvers; the card says why)',
    default: 'none',
    example:
      'forbidden_services: [{ name: telnet, protocol: tcp, ports: [23], action: refuse }, { name: SMB, protocol: tcp, ports: [445, 139], from: outside, action: refuse }]',
  },
  ...prefixKeys('source', 'min_source_prefix: { ipv4: 16, action: refuse }'),
  ...prefixKeys(
    'destination',
    'min_destination_prefix: { ipv4: 24, action: extra-approval, approvers: [S0NETSEC01] }',
  ),
  {
    key: 'access.protected_destinations',
    description: `destinations that need their own approvers: each has \`name\`, \`networks\` (hosts or CIDRs), \`approvers\` and \`min_approvers\` (1–${MIN_APPROVERS_MAX}, default 1) as \`approvals.approvers\` rules name them, and \`action\` (default \`extra-approval\`; \`refuse\` closes the destination to requests). A request whose destination overlaps the networks matches`,
    default: 'none',
    example:
      'protected_destinations: [{ name: pci, networks: [10.20.0.0/16], approvers: [S0PCIOWNER1], min_approvers: 1 }]',
  },
  {
    key: 'access.any_source_to_protected',
    description:
      'what a request with the source `any` to a protected destination gets: `refuse` or `extra-approval` (by the destination’s approvers)',
    default: 'not checked (the destination’s own rule applies)',
    example: 'any_source_to_protected: refuse',
  },
  {
    key: 'access.outside_sources.at_most',
    description:
      'an access from outside the organisation’s networks must expire (`--expires`), at most this far away (days, such as 90d; absent: any expiry); `outside_sources` needs an `action`',
    default: 'none',
    example: 'outside_sources: { at_most: 90d, action: refuse }',
  },
  ...ruleActionKeys(
    'access.outside_sources',
    'an access from outside the organisation’s networks without an expiry (or one past `at_most`)',
  ),
  {
    key: 'access.recertify_every',
    description:
      'how often the requester of a permanent access rule (one without `--expires`) is asked, in the request’s thread and directly, whether it is still needed (days, such as 90d, counted from the rule’s creation): *Still needed* records the answer, *Remove…* asks for its governed removal (`/fw access recertification` lists them)',
    default: 'not recertified',
    example: 'recertify_every: 90d',
  },
  {
    key: 'access.recertify_grace',
    description:
      'how long a recertification question may stay unanswered before the rule is flagged overdue (days, shorter than `recertify_every`)',
    default: '7d',
    example: 'recertify_grace: 14d',
  },
  {
    key: 'access.time_range_for_expiry',
    description:
      'a request with `--expires` puts an ASA time-range ending at the expiry on its rule (`time-range fwbot-until-YYYYMMDD-HHMM`, `absolute end …`, in the device’s clock), so the device stops matching the rule then even before fwbot removes it; `/fw access extend` changes it in SCC (deployed with `/fw deploy`)',
    default: 'false (the rule has no time-range; fwbot removes it at the expiry)',
    example: 'time_range_for_expiry: true',
  },
];

function approverRule(
  key: string,
  rule: { approvers?: string[] | undefined; min_approvers?: number | undefined },
) {
  if (rule.approvers === undefined) return undefined;
  return Object.freeze({
    key,
    approvers: Object.freeze([...new Set(rule.approvers)]),
    minApprovers: rule.min_approvers ?? 1,
  });
}

type RulePartsData = {
  action: RiskAction;
  approvers?: string[] | undefined;
  min_approvers?: number | undefined;
};

function riskRule(key: string, rule: RulePartsData): RiskRule {
  const approvers = rule.action === 'extra-approval' ? approverRule(key, rule) : undefined;
  return { key, action: rule.action, ...(approvers ? { approvers } : {}) };
}

export function accessFrom(data: AccessData | undefined): AccessRequestPolicy {
  if (data === undefined) return defaultAccessRequests;
  const recertification =
    data.recertify_every === undefined
      ? undefined
      : Object.freeze({
          everyMs: data.recertify_every,
          graceMs: data.recertify_grace ?? DEFAULT_RECERTIFY_GRACE_MS,
        });
  const prefix = (key: string, limit: AccessData['min_source_prefix']) =>
    limit === undefined
      ? undefined
      : Object.freeze({
          ...riskRule(key, limit),
          ipv4: limit.ipv4,
          ...(limit.ipv6 === undefined ? {} : { ipv6: limit.ipv6 }),
        });
  return Object.freeze({
    ...(recertification ? { recertification } : {}),
    organisationNetworks: Object.freeze((data.organisation_networks ?? []).flat()),
    forbiddenServices: Object.freeze(
      (data.forbidden_services ?? []).map((service, index) =>
        Object.freeze({
          ...riskRule(`access.forbidden_services[${index}]`, service),
          name: service.name,
          protocol: service.protocol,
          ports: Object.freeze(service.ports ?? []),
          from: service.from ?? 'anywhere',
        }),
      ),
    ),
    minSourcePrefix: prefix('access.min_source_prefix', data.min_source_prefix),
    minDestinationPrefix: prefix('access.min_destination_prefix', data.min_destination_prefix),
    anySourceToProtected:
      data.any_source_to_protected === undefined
        ? undefined
        : Object.freeze({ key: 'access.any_source_to_protected', action: data.any_source_to_protected }),
    protectedDestinations: Object.freeze(
      (data.protected_destinations ?? []).map((destination, index) =>
        Object.freeze({
          ...riskRule(`access.protected_destinations[${index}]`, {
            ...destination,
            action: destination.action ?? 'extra-approval',
          }),
          name: destination.name,
          networks: Object.freeze(destination.networks.flat()),
        }),
      ),
    ),
    outsideSources:
      data.outside_sources === undefined
        ? undefined
        : Object.freeze({
            ...riskRule('access.outside_sources', data.outside_sources),
            ...(data.outside_sources.at_most === undefined ? {} : { atMostMs: data.outside_sources.at_most }),
          }),
    ...(data.time_range_for_expiry === true ? { timeRangeForExpiry: true } : {}),
  });
}
