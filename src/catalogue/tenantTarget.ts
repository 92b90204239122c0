// A tenant of the MSP portal as (part of) the target of a governed call: the facts an approver judges
// (name, display name, how many devices it manages), read again by UUID right before executing, and the
// usernames of its people for calls that act on some of them.
import { z } from 'zod';
import { tenantLabel } from '../render/tenants.js';
import type { MspManagedTenantDto } from '../scc/generated/models.js';
import type { OperationContext, TargetRead } from './operation.js';
import { boundedPaginate, resolveTenant, type SccReader } from './resolve.js';
import { isNotFound } from './sccErrors.js';

export const TenantFacts = z.object({
  uid: z.string(),
  name: z.string(),
  displayName: z.string(),
  deviceCount: z.number().int().nullable(),
});
export type TenantFacts = z.infer<typeof TenantFacts>;

export function tenantFacts(tenant: MspManagedTenantDto): TenantFacts {
  return {
    uid: tenant.uid,
    name: tenant.name,
    displayName: tenant.displayName,
    deviceCount: tenant.deviceCount ?? null,
  };
}

/** The tenant people typed (a name, display name or UUID), as facts. */
export async function resolveTenantFacts(ctx: OperationContext, typed: string): Promise<TenantFacts> {
  return tenantFacts(await resolveTenant(ctx.scc, typed));
}

/** The tenant read again by its UUID, or why it is gone. */
export async function rereadTenant(scc: SccReader, before: TenantFacts): Promise<TargetRead<TenantFacts>> {
  try {
    const { data } = await scc.call('getMspManagedTenant', { path: { managedTenantUid: before.uid } });
    return { found: true, facts: tenantFacts(data) };
  } catch (error) {
    if (isNotFound(error))
      return { found: false, reason: `tenant ${before.name} is no longer in the MSP portal` };
    throw error;
  }
}

const show = (value: number | null) => (value === null ? 'unknown' : String(value));

export function compareTenants(before: TenantFacts, after: TenantFacts): string[] {
  const changes: string[] = [];
  if (before.name !== after.name) changes.push(`name changed from ${before.name} to ${after.name}`);
  if (before.displayName !== after.displayName)
    changes.push(`display name changed from ${before.displayName} to ${after.displayName}`);
  if (before.deviceCount !== after.deviceCount)
    changes.push(`device count changed from ${show(before.deviceCount)} to ${show(after.deviceCount)}`);
  return changes;
}

/** `globex-apj` or `Globex (globex-apj)`, as the rest of fwbot names tenants. */
export function factsLabel(tenant: TenantFacts): string {
  return tenantLabel(tenant);
}

/** Usernames of the tenant's people (names and e-mail addresses, lower-cased), within the lookup budget. */
export async function tenantUsernames(scc: SccReader, tenantUid: string): Promise<Set<string>> {
  const users = await boundedPaginate(
    scc,
    'getHumanUsersInMspManagedTenant',
    { path: { tenantUid } },
    'users in the tenant',
  );
  const names = new Set<string>();
  for (const user of users) {
    if (user.name) names.add(user.name.toLowerCase());
    if (user.emailAddress) names.add(user.emailAddress.toLowerCase());
  }
  return names;
}
