// Who may run what, where, against which SCC profile: the one check made before any SCC call, on every
// surface. The dispatcher makes it for commands, buttons and forms (Slack, the console, the CLI); Slack's
// select-option lookups, which run no operation, make it themselves. Roles come from the configured policy
// (config/policy.ts: grants to user ids, user-group ids or everyone, workspace-wide or per channel); the
// channel's binding picks the profile; `--profile` is an admin's override. With no policy configured,
// everyone may read and nobody may change anything. Refusals name the role needed and how to get it.
//
// Roles are looked up in the policy of the workspace the request came from (issue 29): the home
// workspace's is the file's top-level `policy`; another workspace that installed fwbot has its own under
// `workspaces.<team>.policy`, and a workspace with neither gets nobody's roles (one sentence says how to
// add it). External people (Slack Connect) get only what a channel grants them under `external`.

import {
  type PolicySubject,
  type Role,
  type RoleGrants,
  type RolePolicy,
  roles,
  rolesOf,
} from '../config/policy.js';
import type { ChannelBinding } from '../config/profilesFileSchema.js';
import { type Scope, scopeOfBinding } from '../config/scope.js';
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
  /** Channel id → its binding (profile, and a customer channel's tenant) in the home workspace. */
  channels: ReadonlyMap<string, ChannelBinding>;
  /** Names of the configured SCC profiles. */
  profiles: readonly string[];
  /**
   * The home workspace's team id (SLACK_TEAM_ID), when known. Without it, every workspace not listed in
   * `workspaces` is taken for the home one (single-workspace mode: the workspace binding lets no other in).
   */
  homeTeamId?: string | undefined;
  /**
   * `workspaces.<team>`: other workspaces (team id, or Grid organization id) by key: their policies, and
   * the bindings their channels use (src/config/profilesFileSchema.ts WorkspaceSettings).
   */
  workspaces?: ReadonlyMap<
    string,
    {
      readonly policy: RolePolicy | null;
      readonly binding?: ChannelBinding;
      readonly channels?: ReadonlyMap<string, ChannelBinding>;
    }
  >;
  /**
   * Channels whose configuration makes them customer channels (bound to a managed tenant): external
   * people may be let in there by the workspace binding, as in channels with `external` grants.
   */
  customerChannels?: ReadonlySet<string>;
}

/**
 * Where a request comes from, besides the person and the channel (Actor's fields): the workspace it was
 * delivered for and whether the person is external. Absent: a home-workspace person (the console, the CLI).
 */
export interface RequestOrigin {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  external?: boolean | undefined;
}

/** The origin fields of an Actor (src/model/types.ts), as the policy reads them. */
export function originOf(actor: RequestOrigin): RequestOrigin {
  return { teamId: actor.teamId, enterpriseId: actor.enterpriseId, external: actor.external };
}

/** Which policy applies: the home workspace's, another configured workspace's, or none (unconfigured). */
type PolicyChoice =
  | { kind: 'home' | 'workspace'; policy: RolePolicy | null }
  | { kind: 'unconfigured'; teamId: string };

export interface AccessRequest extends RequestOrigin {
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
  /** Where the channel's commands go (a customer channel: its tenant); see scopeFor. */
  scope: Scope;
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
    return this.settings.channels.get(channelId)?.profile ?? DEFAULT_PROFILE;
  }

  /**
   * Whether external people (Slack Connect) may be let into this channel at all: a customer channel, or one
   * whose policy grants external people something. The workspace binding asks it (src/slack/workspaceBinding.ts).
   */
  admitsExternal(channelId: string, origin: RequestOrigin = {}): boolean {
    if (this.settings.customerChannels?.has(channelId)) return true;
    // A channel the request's workspace binds to a tenant (its own binding, or `workspaces.<team>.tenant`
    // covering every channel of that workspace) is a customer channel too.
    if (this.scopeFor({ ...origin, channelId }).tenant !== undefined) return true;
    const choice = this.#policyOf(origin);
    return choice.kind !== 'unconfigured' && choice.policy?.external?.has(channelId) === true;
  }

  /** Whether external people's approvals may count in this channel (`allow_external_approvers: true`). */
  allowsExternalApprovers(channelId: string, origin: RequestOrigin = {}): boolean {
    const choice = this.#policyOf(origin);
    return choice.kind !== 'unconfigured' && choice.policy?.externalApprovers?.has(channelId) === true;
  }

  /** The policy of the workspace a request came from (`workspaces.<team>`, or the home workspace's). */
  #policyOf(origin: RequestOrigin): PolicyChoice {
    const home: PolicyChoice = { kind: 'home', policy: this.settings.policy };
    const { teamId } = origin;
    if (teamId === undefined || teamId === this.settings.homeTeamId) return home;
    const own = this.#ownWorkspace(origin);
    if (own) return { kind: 'workspace', policy: own.settings.policy };
    if (this.settings.homeTeamId === undefined) return home;
    return { kind: 'unconfigured', teamId };
  }

  /** The `workspaces` entry of a request's workspace (not the home one), with the key it is written under. */
  #ownWorkspace(origin: RequestOrigin) {
    const { teamId, enterpriseId } = origin;
    if (teamId === undefined || teamId === this.settings.homeTeamId) return undefined;
    // An org-wide install is keyed by its organization: a workspace of it without its own entry uses that.
    for (const key of [teamId, enterpriseId]) {
      const settings = key === undefined ? undefined : this.settings.workspaces?.get(key);
      if (settings) return { key, settings };
    }
    return undefined;
  }

  /**
   * Where a channel's commands go: its binding in the workspace the request came from (the home
   * workspace's `channels`, or `workspaces.<team>.channels`, else that workspace's own profile and tenant),
   * else the profile `default`. A customer channel's scope names its tenant.
   */
  scopeFor(where: RequestOrigin & { channelId: string }): Scope {
    const { channelId } = where;
    const own = this.#ownWorkspace(where);
    if (own) {
      const bound = own.settings.channels?.get(channelId);
      if (bound) return scopeOfBinding(bound, `workspaces.${own.key}.channels.${channelId}`);
      if (own.settings.binding) return scopeOfBinding(own.settings.binding, `workspaces.${own.key}`);
    }
    const bound = this.settings.channels.get(channelId);
    if (bound) return scopeOfBinding(bound, `channels.${channelId}`);
    return { profile: DEFAULT_PROFILE, bindingKey: `channels.${channelId}` };
  }

  /** The roles in one policy; null: the home workspace without a policy, or another one without grants. */
  #direct(choice: PolicyChoice, subject: PolicySubject): ReadonlySet<Role> {
    if (choice.kind === 'unconfigured') return new Set<Role>();
    if (choice.policy !== null) return rolesOf(choice.policy, subject);
    // No policy: the home workspace's own people may read; nobody else holds anything.
    return choice.kind === 'home' && subject.external !== true ? new Set<Role>(['viewer']) : new Set<Role>();
  }

  /** The roles a user holds in a channel, user-group grants included. */
  async rolesOf(userId: string, channelId: string, origin: RequestOrigin = {}): Promise<ReadonlySet<Role>> {
    const choice = this.#policyOf(origin);
    const subject: PolicySubject = { userId, channelId, external: origin.external };
    const direct = this.#direct(choice, subject);
    if (choice.kind === 'unconfigured' || choice.policy === null) return direct;
    const { policy } = choice;
    const groupIds =
      origin.external === true
        ? groupsIn(policy.external?.get(channelId))
        : [...groupsIn(policy.workspace), ...groupsIn(policy.channels.get(channelId))];
    if (groupIds.length === 0 || !this.groups || direct.has('admin')) return direct;
    const memberOf = await this.groups.groupsOf(userId, groupIds);
    return rolesOf(policy, { ...subject, groupIds: memberOf });
  }

  /** Whether the user holds `role` here, looking up user groups only when direct grants do not suffice. */
  async holds(userId: string, channelId: string, role: Role, origin: RequestOrigin = {}): Promise<boolean> {
    const choice = this.#policyOf(origin);
    if (this.#direct(choice, { userId, channelId, external: origin.external }).has(role)) return true;
    return (await this.rolesOf(userId, channelId, origin)).has(role);
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
    const choice = this.#policyOf(request);
    if (choice.kind === 'unconfigured') throw unconfiguredWorkspace(choice.teamId);
    const held = await this.rolesForCheck(request);
    const scope = this.scopeFor(request);
    const override = request.profileOverride;
    // A customer channel is confined to its tenant: another profile would reach other customers' tenants.
    if (override !== undefined && scope.tenant !== undefined)
      throw new PermissionError(
        `\`--profile\` cannot be used in this channel, even by an admin: it is scoped to the tenant ` +
          `\`${scope.tenant}\` (\`${scope.bindingKey}\` in the profiles file); run it from an MSP channel instead.`,
        'admin',
      );
    if (override !== undefined && override !== scope.profile) {
      if (!held.has('admin')) {
        throw new PermissionError(
          `Choosing a profile with \`--profile\` needs the *admin* role; ${describeRoles(held)}. ` +
            `Without it, this channel uses the profile \`${scope.profile}\`. (${ROLES_README}.)`,
          'admin',
        );
      }
    }
    const profile = override ?? scope.profile;
    if (!this.settings.profiles.includes(profile)) throw this.unknownProfile(profile, override !== undefined);
    if (!held.has(request.needs)) throw this.refusal(request, held);
    return { profile, roles: held, scope: override === undefined ? scope : { ...scope, profile } };
  }

  private async rolesForCheck(request: AccessRequest): Promise<ReadonlySet<Role>> {
    // Group lookups cost a Tier 2 call: skip them when a direct grant already covers the request.
    const { userId, channelId, external } = request;
    const direct = this.#direct(this.#policyOf(request), { userId, channelId, external });
    const wantsAdmin = request.profileOverride !== undefined;
    if (direct.has(request.needs) && (!wantsAdmin || direct.has('admin'))) return direct;
    return this.rolesOf(userId, channelId, request);
  }

  private refusal(request: AccessRequest, held: ReadonlySet<Role>): PermissionError {
    if (request.external === true) {
      return new PermissionError(
        `${request.action} needs the *${request.needs}* role, and you are in this channel as a guest from ` +
          `another organization; ${describeRoles(held)}. Roles for guests are granted per channel by the ` +
          `channel's owners (\`policy.channels.<channel>.external\` in fwbot's profiles file).`,
        request.needs,
      );
    }
    const choice = this.#policyOf(request);
    if (choice.kind === 'home' && choice.policy === null) {
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

/** A workspace fwbot is installed in but that the profiles file does not configure: nobody holds a role. */
function unconfiguredWorkspace(teamId: string): PermissionError {
  return new PermissionError(
    `fwbot is not set up for this Slack workspace (${teamId.slice(0, 32)}), so nobody holds a role here; an ` +
      `admin of fwbot adds it under \`workspaces.${teamId.slice(0, 32)}\` in the profiles file (${ROLES_README}).`,
    'viewer',
  );
}
