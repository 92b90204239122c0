// Revoking a tenant from the MSP portal, the replacement of the deprecated DELETE: asynchronous (a
// transaction), super-admins only, and it ends the portal's management of the tenant without deleting
// it: the tenant, its users, devices and tokens stay, and it can be added back as an existing tenant.

import { requireSuperAdmin } from '../auth.js';
import { badRequest } from '../errors.js';
import type { Handler } from '../http/context.js';
import { uuidParam } from '../http/input.js';
import { inFlight } from './mspCommon.js';
import { accepted, startTransaction } from './transactions.js';

export const revokeTenantFromMspPortal: Handler = (ctx) => {
  requireSuperAdmin(ctx.principal);
  const uid = uuidParam(ctx, 'tenantUid');
  const tenant = ctx.state.tenants.get(uid);
  // The reference declares 400 (not 404) for this operation: a tenant outside the portal is bad input.
  if (tenant === undefined || !tenant.inPortal) {
    throw badRequest(`Tenant ${uid} is not managed by this MSP portal`, { tenantUid: { value: uid } });
  }
  if (inFlight(ctx, 'MSP_REVOKE_TENANT_MSP_PORTAL_RELATIONSHIP', uid)) {
    throw badRequest(`Tenant ${tenant.name} is already being revoked from this MSP portal`, {
      tenantUid: { value: uid },
    });
  }
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_REVOKE_TENANT_MSP_PORTAL_RELATIONSHIP',
    entityUid: uid,
    entityUrl: `${ctx.sim.baseUrl}/v1/msp/tenants/${uid}`,
    details: { tenantName: tenant.name },
    pendingMs: 1_000,
    runningMs: ctx.state.rng.int(4_000, 9_000),
    finish: () => {
      // Removed meanwhile through the deprecated DELETE: nothing left to revoke.
      if (!tenant.inPortal) {
        return { ok: false, errorMessage: `Tenant ${tenant.name} is no longer managed by this MSP portal` };
      }
      tenant.inPortal = false;
      return { ok: true };
    },
  });
  return accepted(ctx.sim, tx);
};
