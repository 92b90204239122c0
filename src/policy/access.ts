// Who may run what, where, against which SCC profile: the one check made before any SCC call, on every
// surface. The dispatcher makes it for commands, buttons and forms (Slack, the console, the CLI); Slack's
// select-option lookups, which run no operation, make it themselves. Roles come from the configured policy
// (config/policy.ts: grants to user ids, user-group ids or everyone, workspace-wide or per channel); the
// channel's binding picks the profile; `--profile` is an admin's override. With no policy configured,
// everyone may read and nobody may change anything. Refusals name the role needed and how to get it.

import { type Role, type RoleGrants, type RolePolicy, roles, rolesOf } from '../config/policy.js';
import { isSlackUserGroupId } from '../config/slackIds.js';
import { PermissionError, UserError } from '../model/errors.js';
import type { UserGroupDirectory } from './userGroups.js';

/** Where the docs explain the policy; every refusal points there. */
export const ROLES_README = 'see docs/operating/roles-and-permissions.md';

/** The profile a channel uses when the profiles file does not bind it. */
export const DEFAULT_PROFILE = 'default';

export interface AccessSettings {
  /** null when no policy is configured: everyone is a viewer, nobody more. */
  policy: RolePolicy | null;
  /** Channel id → profile name. */
  channels: ReadonlyMap<string, string>;
  /** Names of the configured SCC profiles. */
  profiles: readonly string[];
}

export interface AccessRequest {
  userId: string;
  channelId: string;
  /** The role the operation needs. */
  needs: Role;
  /** How the refusal names what was asked, e.g. "`/fw tenants create`". */
  action: string;
  /** `--profile NAME`: admins only. */
  profileOverride?: string | undefined;
}

export interface Access {
  profile: string;
  roles: ReadonlySet<Role>;
}

const ORDER: readonly Role[] = roles;

function describeRoles(held: ReadonlySet<Role>): string {
  const names = ORDER.filter((role) => held.has(role));
  return names.length === 0 ? 'you hold no role here' : `you hold ${names.join(', ')}`;
}

function groupsIn(grants: RoleGrants | undefined): string[] {
  if (!grants) return [];
  return roles.flatMap((role) => grants[role].filter(isSlackUserGroupId));
}

export class AccessControl {
  constructor(
    private readonly settings: AccessSettings,
    /** Absent when user groups are not used (no scope, or no group in the policy). */
    private readonly groups?: UserGroupDirectory,
  ) {}

  /** Whether any role policy is configured. */
  get hasPolicy(): boolean {
    return this.settings.policy !== null;
  }

  /** The profile a channel is bound to, or `default`. */
  profileFor(channelId: string): string {
    return this.settings.channels.get(channelId) ?? DEFAULT_PROFILE;
  }

  /** The roles a user holds in a channel, user-group grants included. */
  async rolesOf(userId: string, channelId: string): Promise<ReadonlySet<Role>> {
    const policy = this.settings.policy;
    if (policy === null) return new Set<Role>(['viewer']);
    const direct = rolesOf(policy, { userId, channelId });
    const groupIds = [...groupsIn(policy.workspace), ...groupsIn(policy.channels.get(channelId))];
    if (groupIds.length === 0 || !this.groups || direct.has('admin')) return direct;
    const memberOf = await this.groups.groupsOf(userId, groupIds);
    return rolesOf(policy, { userId, channelId, groupIds: memberOf });
  }

  /** Whether the user holds `role` here, looking up user groups only when direct grants do not suffice. */
  async holds(userId: string, channelId: string, role: Role): Promise<boolean> {
    const policy = this.settings.policy;
    if (policy === null) return role === 'viewer';
    if (rolesOf(policy, { userId, channelId }).has(role)) return true;
    return (await this.rolesOf(userId, channelId)).has(role);
  }

  /**
   * Whether the user is one of `principals` (user ids, or user groups they belong to): the people an
   * `approvals.approvers` rule names. No role is needed besides; an empty list names nobody.
   */
  async isAmong(userId: string, principals: readonly string[]): Promise<boolean> {
    if (principals.includes(userId)) return true;
    const groupIds = principals.filter(isSlackUserGroupId);
    if (groupIds.length === 0 || !this.groups) return false;
    return (await this.groups.groupsOf(userId, groupIds)).length > 0;
  }

  /**
   * The one check: throws a PermissionError naming the role needed, or a UserError about the profile;
   * otherwise says which profile to use.
   */
  async authorize(request: AccessRequest): Promise<Access> {
    const { channelId } = request;
    const held = await this.rolesForCheck(request);
    const override = request.profileOverride;
    if (override !== undefined && override !== this.profileFor(channelId)) {
      if (!held.has('admin')) {
        throw new PermissionError(
          `Choosing a profile with \`--profile\` needs the *admin* role; ${describeRoles(held)}. ` +
            `Without it, this channel uses the profile \`${this.profileFor(channelId)}\`. (${ROLES_README}.)`,
          'admin',
        );
      }
    }
    const profile = override ?? this.profileFor(channelId);
    if (!this.settings.profiles.includes(profile)) throw this.unknownProfile(profile, override !== undefined);
    if (!held.has(request.needs)) throw this.refusal(request, held);
    return { profile, roles: held };
  }

  private async rolesForCheck(request: AccessRequest): Promise<ReadonlySet<Role>> {
    // Group lookups cost a Tier 2 call: skip them when a direct grant already covers the request.
    const policy = this.settings.policy;
    if (policy === null) return new Set<Role>(['viewer']);
    const direct = rolesOf(policy, { userId: request.userId, channelId: request.channelId });
    const wantsAdmin = request.profileOverride !== undefined;
    if (direct.has(request.needs) && (!wantsAdmin || direct.has('admin'))) return direct;
    return this.rolesOf(request.userId, request.channelId);
  }

  private refusal(request: AccessRequest, held: ReadonlySet<Role>): PermissionError {
    if (this.settings.policy === null) {
      return new PermissionError(
        `${request.action} changes SCC, and no role policy is configured: everyone may read, nobody may ` +
          `change anything. An admin grants roles in the \`policy\` section of the profiles file ` +
          `(FWBOT_PROFILES); ${ROLES_README}.`,
        request.needs,
      );
    }
    return new PermissionError(
      `${request.action} needs the *${request.needs}* role in this channel; ${describeRoles(held)}. ` +
        `An admin can grant it in the \`policy\` section of the profiles file; ${ROLES_README}.`,
      request.needs,
    );
  }

  private unknownProfile(profile: string, named: boolean): UserError {
    const known = this.settings.profiles.map((p) => `\`${p}\``).join(', ') || 'none';
    if (named) return new UserError(`There is no SCC profile named \`${profile}\`. Profiles: ${known}.`);
    return new UserError(
      `This channel is not bound to an SCC profile and there is no \`${DEFAULT_PROFILE}\` profile. ` +
        `An admin binds channels under \`channels:\` in the profiles file (profiles: ${known}).`,
    );
  }
}
