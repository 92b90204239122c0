// The scope of a request (issue 29): the SCC profile a channel's commands use and, in a customer channel,
// the managed tenant they are confined to and the profile that acts inside it. AccessControl.scopeFor
// reads it from the channel's binding in the workspace the request came from; the dispatcher applies it
// to each operation as the operation's declared tenancy says (src/dispatch/tenancy.ts). What is told later
// without a request (alert posts) reads a channel's scope from the bindings alone (channelScopes).
import type { WorkspaceRef } from '../model/workspace.js';
import type { ChannelBinding } from './profilesFileSchema.js';

/** Where a request's commands go. */
export interface Scope {
  /** The channel's profile (for a customer channel: the MSP profile whose portal holds the tenant). */
  readonly profile: string;
  /** A customer channel's managed tenant, as the binding names it: its name in the MSP portal, or its UUID. */
  readonly tenant?: string | undefined;
  /** The profile written as `tenant_profile`, which acts inside the tenant. */
  readonly tenantProfile?: string | undefined;
  /** Where the binding is written, as sentences name it: `channels.C0123ABCD`, `workspaces.T0…`. */
  readonly bindingKey: string;
}

/**
 * Whether two tenant names are the same tenant: SCC tenant names are unique ignoring case only, and may hold
 * `-` and `_`, so `northwind-us` and `northwind_us` are two tenants; nothing but case is set aside.
 */
export function sameTenantName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * The configured profile named as a tenant (`contoso-eu` for the tenant Contoso-EU: the same name, case
 * aside), other than the MSP's own: the one rule for "whose token acts inside this tenant" when the file
 * does not say. A profile named like another tenant (`contoso_eu`) is not this tenant's.
 */
export function profileNamedLike(
  tenant: string,
  profiles: readonly string[],
  except?: string,
): string | undefined {
  return profiles.find((name) => name !== except && sameTenantName(name, tenant));
}

/**
 * The scope's tenant among tenants SCC listed: the one the binding names by UUID, or by name (case aside,
 * as SCC keeps names unique). Undefined outside a customer channel, or when none of them is it. Access is
 * then decided by this tenant's UID (src/dispatch/tenancy.ts), never by comparing names.
 */
export function scopeTenantIn<T extends { name?: string | undefined; uid?: string | undefined }>(
  scope: Scope,
  tenants: readonly T[],
): T | undefined {
  const wanted = scope.tenant;
  if (wanted === undefined) return undefined;
  const byUid = tenants.find((t) => t.uid !== undefined && t.uid.toLowerCase() === wanted.toLowerCase());
  return byUid ?? tenants.find((t) => t.name !== undefined && sameTenantName(t.name, wanted));
}

/**
 * The profile that acts inside a scope's tenant: `tenant_profile`, else a configured profile named like the
 * tenant (other than the MSP's own); undefined outside a customer channel, or when there is none.
 */
export function tenantProfileOf(scope: Scope, profiles: readonly string[]): string | undefined {
  if (scope.tenant === undefined) return undefined;
  return scope.tenantProfile ?? profileNamedLike(scope.tenant, profiles, scope.profile);
}

/** The scope a binding gives, named by the key it is written under (for the sentences that name it). */
export function scopeOfBinding(binding: ChannelBinding, bindingKey: string): Scope {
  return {
    profile: binding.profile,
    ...(binding.tenant === undefined ? {} : { tenant: binding.tenant }),
    ...(binding.tenantProfile === undefined ? {} : { tenantProfile: binding.tenantProfile }),
    bindingKey,
  };
}

/**
 * A channel's scope from the profiles file's bindings, for what is told without a request (alert posts):
 * by channel id, the home workspace's `channels`, then each workspace's. A Slack Connect channel keeps its
 * id in every workspace it is shared with, so when several bindings name it, one that makes it a customer
 * channel wins: a channel is never told more than its strictest binding allows. When what is told names
 * its workspace (a subscription made there), that workspace's own binding counts too unless it binds the
 * channel by id (`workspaces.<team>` with its `tenant`: every channel there is a customer channel, as
 * AccessControl.scopeFor says of that workspace's requests).
 * Undefined: not bound (the profile `default`).
 */
export function channelScopes(config: {
  readonly channelBindings: ReadonlyMap<string, ChannelBinding>;
  readonly workspaces: ReadonlyMap<
    string,
    { readonly channels: ReadonlyMap<string, ChannelBinding>; readonly binding?: ChannelBinding }
  >;
}): (channelId: string, workspace?: WorkspaceRef) => Scope | undefined {
  return (channelId, workspace = {}) => {
    const found: Scope[] = [];
    const home = config.channelBindings.get(channelId);
    if (home) found.push(scopeOfBinding(home, `channels.${channelId}`));
    for (const [team, settings] of config.workspaces) {
      const bound = settings.channels.get(channelId);
      if (bound) found.push(scopeOfBinding(bound, `workspaces.${team}.channels.${channelId}`));
    }
    // An org-wide install's workspaces use the organization's entry when they have none of their own.
    const team = [workspace.teamId, workspace.enterpriseId].find(
      (key) => key !== undefined && config.workspaces.has(key),
    );
    const own = team === undefined ? undefined : config.workspaces.get(team);
    if (team !== undefined && own?.binding && !own.channels.has(channelId))
      found.push(scopeOfBinding(own.binding, `workspaces.${team}`));
    return found.find((scope) => scope.tenant !== undefined) ?? found[0];
  };
}
