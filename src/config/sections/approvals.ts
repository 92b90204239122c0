// `approvals:` of the FWBOT_PROFILES file: how long a request waits, whether its requester may approve it,
// the approval rule of each operation in this deployment, and scoped approvers (who approves on some
// devices, a profile or a managed tenant, how many of them must, and the customer's own side). Its schema,
// settings, defaults, rows of the configuration reference, and the settings it yields.
import { z } from 'zod';
import { EVERYONE, isPrincipal, roles } from '../policy.js';
import { closedObject, isObject, operationId, type ProfilesFileKey, profileName } from './schemaParts.js';

export const APPROVAL_EXPIRY_MAX_MINUTES = 10_080;

/** Most approvers one request may need: more would rarely all be awake at once. */
export const MIN_APPROVERS_MAX = 5;

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

export const defaultApprovals: ApprovalSettings = Object.freeze({
  expiryMinutes: 30,
  allowSelfApproval: false,
  deployWithChange: false,
  requireForVpnUpgrades: false,
  operations: Object.freeze({}),
  approvers: Object.freeze([]),
});

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

export const ApprovalsSchema = closedObject({
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
type ApprovalsData = z.output<typeof ApprovalsSchema>;

export const approvalKeys: readonly ProfilesFileKey[] = [
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
];

export function approvalsFrom(data: ApprovalsData | undefined): ApprovalSettings {
  const approvals = data ?? {};
  return Object.freeze({
    expiryMinutes: approvals.expiry_minutes ?? defaultApprovals.expiryMinutes,
    allowSelfApproval: approvals.allow_self_approval ?? defaultApprovals.allowSelfApproval,
    deployWithChange: approvals.deploy_with_change ?? defaultApprovals.deployWithChange,
    requireForVpnUpgrades: approvals.require_for_vpn_upgrades ?? defaultApprovals.requireForVpnUpgrades,
    // The older switch is the same rule as `operations: { vpn.upgrade: four-eyes }`.
    operations: Object.freeze({
      ...(approvals.require_for_vpn_upgrades ? { 'vpn.upgrade': 'four-eyes' } : {}),
      ...(approvals.operations ?? {}),
    }),
    approvers: Object.freeze(
      (approvals.approvers ?? []).map((rule, index) =>
        Object.freeze({
          key: `approvals.approvers[${index}]`,
          devices: rule.devices,
          profile: rule.profile,
          tenant: rule.tenant,
          approvers: Object.freeze([...new Set(rule.approvers)]),
          minApprovers: rule.min_approvers ?? 1,
          ...(rule.customer_approvers === undefined
            ? {}
            : { customerApprovers: Object.freeze([...new Set(rule.customer_approvers)]) }),
        }),
      ),
    ),
  });
}
