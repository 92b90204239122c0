// Applies an operation's declared tenancy (src/catalogue/operation.ts Tenancy) to the scope of a request
// (src/config/scope.ts). Outside a customer channel nothing changes. In one, an operation that spans the
// MSP portal is refused; one that names a tenant must name the channel's; everything else runs on the
// tenant's own profile, so that SCC itself keeps it inside the tenant. Naming another tenant, or a name
// that resolves to nothing, gets the same sentence, so a customer cannot probe for other customers' names.
//
// Which tenant is the channel's is decided by UID, never by comparing names: SCC tenant names may hold `-`
// and `_` and are unique only ignoring case, so `northwind_us` is another customer than `northwind-us`. The
// binding's tenant and the named one are each resolved to their UID through the MSP portal (one listing),
// and the call then runs with the argument bound to that UID: what was checked is what runs.
import type { Operation, RawArgs } from '../catalogue/operation.js';
import { pickTenant, portalTenants } from '../catalogue/resolve.js';
import { COMMAND } from '../catalogue/usage.js';
import { type Scope, scopeTenantIn, tenantProfileOf } from '../config/scope.js';
import { PermissionError, UserError } from '../model/errors.js';
import type { SccClients } from './ports.js';

function commandWords(op: Operation): string {
  return `\`${[COMMAND, ...op.words].join(' ')}\``;
}

/** A call as the scope lets it run: on which profile, with which arguments (a named tenant bound to its UID). */
export interface ScopedCall {
  profile: string;
  raw: RawArgs;
}

/** The profile and arguments of this call in this scope; throws when the scope does not allow the call. */
export async function callInScope(
  op: Operation,
  raw: RawArgs,
  scope: Scope,
  scc: SccClients,
): Promise<ScopedCall> {
  const tenant = scope.tenant;
  if (tenant === undefined) return { profile: scope.profile, raw };
  const tenancy = op.tenancy;
  if (tenancy === 'portal')
    throw new PermissionError(
      `${commandWords(op)} spans every tenant of the MSP portal, so it is not available in this channel: ` +
        `it is scoped to the tenant \`${tenant}\`.`,
      op.role,
    );
  if (tenancy === 'tenant') return { profile: tenantProfile(op, scope, tenant, scc), raw };
  const named = raw[tenancy.tenantArg];
  // A missing argument is the usage check's to report.
  if (typeof named !== 'string' || named.trim() === '') return { profile: scope.profile, raw };
  const uid = await scopeTenantNamed(named, scope, scc);
  if (uid === undefined)
    throw new PermissionError(
      `This channel is scoped to the tenant \`${tenant}\`: ${commandWords(op)} here works on that tenant only.`,
      op.role,
    );
  return { profile: scope.profile, raw: { ...raw, [tenancy.tenantArg]: uid } };
}

/**
 * The UID of the scope's tenant when the typed tenant (name, display name or UUID) is it, as the MSP portal
 * resolves both; undefined when it is another tenant, none, or several.
 */
async function scopeTenantNamed(typed: string, scope: Scope, scc: SccClients): Promise<string | undefined> {
  const tenants = await portalTenants(scc.get(scope.profile));
  const own = scopeTenantIn(scope, tenants);
  // A binding naming no tenant of the portal lets nothing through: the same answer as another tenant's name.
  if (own === undefined) return undefined;
  try {
    return pickTenant(typed, tenants).uid === own.uid ? own.uid : undefined;
  } catch (error) {
    // Not found or ambiguous: the same answer as another tenant's name (SCC's own failures go on).
    if (error instanceof UserError) return undefined;
    throw error;
  }
}

/** The profile that acts inside the tenant: `tenant_profile`, else a configured profile named as it. */
function tenantProfile(op: Operation, scope: Scope, tenant: string, scc: SccClients): string {
  const profile = tenantProfileOf(scope, scc.names());
  if (profile !== undefined) return profile;
  throw new UserError(
    `${commandWords(op)} acts inside the tenant \`${tenant}\`, which needs that tenant's own SCC profile, ` +
      `and this channel has none: an admin sets \`${scope.bindingKey}.tenant_profile\` in the profiles file ` +
      '(or defines a profile named as the tenant).',
  );
}
