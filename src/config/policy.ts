// The role policy's model: the four roles, who holds them (workspace-wide and per channel), and how to
// read a user's roles out of it. Enforcement (what each role may run) belongs to the catalogue and the
// Slack surface; this module only says who holds what.
import { ROLES, type Role } from '../model/types.js';
import { isSlackUserGroupId, isSlackUserId } from './slackIds.js';

export { ROLES as roles, type Role };

export const roleDescriptions: Readonly<Record<Role, string>> = {
  viewer: 'runs read-only operations',
  operator: 'runs operations that change SCC (governed ones still wait for an approver); includes viewer',
  approver: 'approves or rejects requests made by someone else; includes viewer',
  admin: 'everything, including choosing another profile than the channel’s; includes every other role',
};

/** Everyone in the workspace. Allowed for every role but admin. */
export const EVERYONE = '*';

/** `*`, a Slack user id (U…/W…) or a user-group id (S…). */
export type Principal = string;

export function isPrincipal(text: string): boolean {
  return text === EVERYONE || isSlackUserId(text) || isSlackUserGroupId(text);
}

/** Who holds each role in one scope. Every role is present; an empty list grants it to nobody. */
export type RoleGrants = Readonly<Record<Role, readonly Principal[]>>;

export interface RolePolicy {
  /** Grants that hold in every channel. */
  readonly workspace: RoleGrants;
  /** Grants that hold only in one channel (by channel id), on top of the workspace's. */
  readonly channels: ReadonlyMap<string, RoleGrants>;
  /**
   * Grants to external people (Slack Connect: people of another organization) in one channel
   * (`policy.channels.<id>.external`). They are the only grants an external person ever gets: neither the
   * workspace's nor the channel's own grants reach them. Absent: nobody external holds a role anywhere.
   */
  readonly external?: ReadonlyMap<string, RoleGrants>;
  /**
   * Channels whose external approvers count (`allow_external_approvers: true`); elsewhere an `approver`
   * grant to external people is ignored, so a customer never approves by accident.
   */
  readonly externalApprovers?: ReadonlySet<string>;
}

const IMPLIED: Readonly<Record<Role, readonly Role[]>> = {
  viewer: ['viewer'],
  operator: ['operator', 'viewer'],
  approver: ['approver', 'viewer'],
  admin: ROLES,
};

export interface PolicySubject {
  readonly userId: string;
  /** The user's user groups, if known (user groups need a paid plan, so this may be empty). */
  readonly groupIds?: readonly string[];
  readonly channelId: string;
  /** An external person (Actor.external): only the channel's `external` grants apply. */
  readonly external?: boolean | undefined;
}

/** The grants that apply to the subject: its channel's `external` ones for an external person. */
function grantsFor(policy: RolePolicy, subject: PolicySubject): (RoleGrants | undefined)[] {
  if (subject.external === true) return [policy.external?.get(subject.channelId)];
  return [policy.workspace, policy.channels.get(subject.channelId)];
}

/**
 * The roles a user holds in a channel: workspace and channel grants together, implied roles included. An
 * external person holds only what the channel grants external people, never admin, and approver only where
 * the channel allows external approvers.
 */
export function rolesOf(policy: RolePolicy, subject: PolicySubject): ReadonlySet<Role> {
  const held = grantedRoles(grantsFor(policy, subject), subject);
  if (subject.external === true) {
    held.delete('admin');
    if (!policy.externalApprovers?.has(subject.channelId)) held.delete('approver');
  }
  return held;
}

function grantedRoles(scopes: (RoleGrants | undefined)[], subject: PolicySubject): Set<Role> {
  const principals = new Set<Principal>([EVERYONE, subject.userId, ...(subject.groupIds ?? [])]);
  const held = new Set<Role>();
  for (const grants of scopes) {
    if (grants === undefined) continue;
    for (const role of ROLES) {
      if (grants[role].some((principal) => principals.has(principal))) {
        for (const implied of IMPLIED[role]) held.add(implied);
      }
    }
  }
  return held;
}
