// `policy:` of the FWBOT_PROFILES file: who holds which role, in every channel of the workspace and in one
// channel, what external people (Slack Connect) hold there, and the role an operation needs in this
// deployment when it is raised above its declared one. The same keys are a workspace's own policy
// (workspaces.ts). Its schema, its rows of the configuration reference, and the RolePolicy it yields.
import { z } from 'zod';
import { EVERYONE, isPrincipal, type Role, type RoleGrants, type RolePolicy, roles } from '../policy.js';
import { channelId, closedObject, operationId, type ProfilesFileKey } from './schemaParts.js';

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
type PolicyData = z.output<typeof PolicySchema>;
type GrantsData = NonNullable<PolicyData['workspace']>;

export const policyKeys: readonly ProfilesFileKey[] = [
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

function grantsFrom(data: GrantsData | undefined): RoleGrants {
  const list = (role: Role): readonly string[] => Object.freeze([...(data?.[role] ?? [])]);
  return Object.freeze({
    viewer: list('viewer'),
    operator: list('operator'),
    approver: list('approver'),
    admin: list('admin'),
  });
}

/** The grants of a policy as written; null when the file (or the workspace) has no policy. */
export function policyFrom(data: PolicyData | undefined): RolePolicy | null {
  if (data === undefined) return null;
  const channels = Object.entries(data.channels ?? {}).map(
    ([channel, grants]) => [channel, grantsFrom(grants)] as const,
  );
  // External people's grants, and the channels where their approvals count (allow_external_approvers).
  const external = Object.entries(data.channels ?? {}).flatMap(([channel, grants]) =>
    grants.external === undefined ? [] : [[channel, grantsFrom({ ...grants.external, admin: [] })] as const],
  );
  const externalApprovers = Object.entries(data.channels ?? {})
    .filter(([, grants]) => grants.allow_external_approvers === true)
    .map(([channel]) => channel);
  return {
    workspace: grantsFrom(data.workspace),
    channels: new Map(channels),
    external: new Map(external),
    externalApprovers: new Set(externalApprovers),
  };
}

/** Operation id → the role it needs here (`policy.operations`), raised above its declared one. */
export function operationRolesFrom(data: PolicyData | undefined): Readonly<Record<string, Role>> {
  return Object.freeze({ ...(data?.operations ?? {}) });
}
