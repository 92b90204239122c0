// Pieces the MSP portal handlers share: finding a tenant the portal manages, the DTOs of tenants and
// users, and the deterministic failure trigger ("fail" in a tenant's name fails its provisioning).

import type * as Model from '../../scc/generated/models.js';
import { requirePortal } from '../auth.js';
import { notFound } from '../errors.js';
import type { RequestContext } from '../http/context.js';
import { uuidParam } from '../http/input.js';
import { iso } from '../runtime.js';
import type { TenantRecord, TenantUser } from '../state/model.js';

/** Documented failure trigger: any provisioning of a tenant whose name contains "fail" ends in ERROR. */
export function failsProvisioning(tenantName: string): boolean {
  return tenantName.toLowerCase().includes('fail');
}

/** The tenant named by a path parameter, which must be managed by the caller's portal (else 404). */
export function managedTenant(ctx: RequestContext, param = 'tenantUid'): TenantRecord {
  requirePortal(ctx.principal);
  const uid = uuidParam(ctx, param);
  const tenant = ctx.state.tenants.get(uid);
  if (tenant === undefined || !tenant.inPortal) {
    throw notFound(`Tenant ${uid} is not managed by this MSP portal`, { [param]: { value: uid } });
  }
  return tenant;
}

export function tenantDto(tenant: TenantRecord): Model.MspManagedTenantDto {
  return {
    uid: tenant.uid,
    name: tenant.name,
    displayName: tenant.displayName,
    region: tenant.region,
    apiTokenValid: true,
    cdFmcType: tenant.cdFmcType,
    complianceStatus: tenant.complianceStatus,
    deviceCount: tenant.deviceCount,
    sccOrganizationUid: tenant.sccOrganizationUid,
    tenantPayType: tenant.tenantPayType,
    virtualAccounts: tenant.virtualAccounts.map((v) => ({ ...v })),
  };
}

export function userDto(user: TenantUser): Model.User {
  return {
    uid: user.uid,
    name: user.username,
    ...(user.apiOnly ? {} : { emailAddress: user.username }),
    firstName: user.firstName ?? user.username,
    lastName: user.lastName ?? user.username,
    roles: [user.role],
    apiOnlyUser: user.apiOnly,
    ...(user.lastSuccessfulLogin === undefined ? {} : { lastSuccessfulLogin: iso(user.lastSuccessfulLogin) }),
  };
}

/** Whether an asynchronous operation of `type` on `entityUid` is still running (to refuse duplicates). */
export function inFlight(ctx: RequestContext, type: string, entityUid: string): boolean {
  for (const tx of ctx.state.transactions.values()) {
    if (
      tx.type === type &&
      tx.entityUid === entityUid &&
      (tx.status === 'PENDING' || tx.status === 'IN_PROGRESS')
    ) {
      return true;
    }
  }
  return false;
}
