// The scope of a request (issue 29): the SCC profile a channel's commands use and, in a customer channel,
// the managed tenant they are confined to and the profile that acts inside it. AccessControl.scopeFor
// reads it from the channel's binding in the workspace the request came from; the dispatcher applies it
// to each operation as the operation's declared tenancy says (src/dispatch/tenancy.ts).

/** Where a request's commands go. */
export interface Scope {
  /** The channel's profile (for a customer channel: the MSP profile whose portal holds the tenant). */
  readonly profile: string;
  /** A customer channel's managed tenant (its name in the MSP portal). */
  readonly tenant?: string | undefined;
  /** The profile written as `tenant_profile`, which acts inside the tenant. */
  readonly tenantProfile?: string | undefined;
  /** Where the binding is written, as sentences name it: `channels.C0123ABCD`, `workspaces.T0…`. */
  readonly bindingKey: string;
}

/** A name without case and punctuation: `Contoso_EU` and `contoso-eu` are the same tenant. */
function plain(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The configured profile named like a tenant (`contoso-eu` for the tenant Contoso_EU), other than the
 * MSP's own: the one rule for "whose token acts inside this tenant" when the file does not say.
 */
export function profileNamedLike(
  tenant: string,
  profiles: readonly string[],
  except?: string,
): string | undefined {
  return profiles.find((name) => name !== except && plain(name) === plain(tenant));
}

/** Whether a tenant SCC returned is the one a scope names (by name, case aside, or by UUID). */
export function isScopeTenant(scope: Scope, tenant: { name?: string; uid?: string }): boolean {
  const wanted = scope.tenant;
  if (wanted === undefined) return true;
  return (
    (tenant.name !== undefined && plain(tenant.name) === plain(wanted)) ||
    (tenant.uid !== undefined && tenant.uid.toLowerCase() === wanted.toLowerCase())
  );
}
