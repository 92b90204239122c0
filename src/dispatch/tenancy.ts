// Applies an operation's declared tenancy (src/catalogue/operation.ts Tenancy) to the scope of a request
// (src/config/scope.ts). Outside a customer channel nothing changes. In one, an operation that spans the
// MSP portal is refused; one that names a tenant must name the channel's; everything else runs on the
// tenant's own profile, so that SCC itself keeps it inside the tenant. Naming another tenant, or a name
// that resolves to nothing, gets the same sentence, so a customer cannot probe for other customers' names.
import type { Operation, RawArgs } from '../catalogue/operation.js';
import { resolveTenant } from '../catalogue/resolve.js';
import { COMMAND } from '../catalogue/usage.js';
import { isScopeTenant, type Scope, tenantProfileOf } from '../config/scope.js';
import { PermissionError, UserError } from '../model/errors.js';
import type { SccClients } from './ports.js';

function commandWords(op: Operation): string {
  return `\`${[COMMAND, ...op.words].join(' ')}\``;
}

/** The profile this call runs on, in this scope; throws when the scope does not allow the call. */
export async function profileForCall(
  op: Operation,
  raw: RawArgs,
  scope: Scope,
  scc: SccClients,
): Promise<string> {
  const tenant = scope.tenant;
  if (tenant === undefined) return scope.profile;
  const tenancy = op.tenancy;
  if (tenancy === 'portal')
    throw new PermissionError(
      `${commandWords(op)} spans every tenant of the MSP portal, so it is not available in this channel: ` +
        `it is scoped to the tenant \`${tenant}\`.`,
      op.role,
    );
  if (tenancy === 'tenant') return tenantProfile(op, scope, tenant, scc);
  const named = raw[tenancy.tenantArg];
  // A missing argument is the usage check's to report.
  if (typeof named !== 'string' || named.trim() === '') return scope.profile;
  if (!(await namesScopeTenant(named, scope, scc)))
    throw new PermissionError(
      `This channel is scoped to the tenant \`${tenant}\`: ${commandWords(op)} here works on that tenant only.`,
      op.role,
    );
  return scope.profile;
}

/** Whether a typed tenant (name, display name or UUID) is the scope's tenant, as the MSP portal resolves it. */
async function namesScopeTenant(typed: string, scope: Scope, scc: SccClients): Promise<boolean> {
  try {
    return isScopeTenant(scope, await resolveTenant(scc.get(scope.profile), typed));
  } catch (error) {
    // Not found or ambiguous: the same answer as another tenant's name (SCC's own failures go on).
    if (error instanceof UserError) return false;
    throw error;
  }
}

/** The profile that acts inside the tenant: `tenant_profile`, else a configured profile named like it. */
function tenantProfile(op: Operation, scope: Scope, tenant: string, scc: SccClients): string {
  const profile = tenantProfileOf(scope, scc.names());
  if (profile !== undefined) return profile;
  throw new UserError(
    `${commandWords(op)} acts inside the tenant \`${tenant}\`, which needs that tenant's own SCC profile, ` +
      `and this channel has none: an admin sets \`${scope.bindingKey}.tenant_profile\` in the profiles file ` +
      '(or defines a profile named like the tenant).',
  );
}
