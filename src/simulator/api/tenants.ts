// MSP portal tenant operations: list and read managed tenants, create tenants (name rules, 409 on a
// duplicate, one creation per 30 simulated seconds, at most 100), add tenants by API token or as an
// existing associated tenant, remove them, and provision Multicloud Defense and cdFMC (two legs).

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requirePortal, requireSuperAdmin, requireWrite } from '../auth.js';
import { badRequest, conflict, forbidden, invalidInput, SimError, tooManyRequests } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { parseBody, requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import type { TenantRecord } from '../state/model.js';
import { failsProvisioning, inFlight, managedTenant, tenantDto } from './mspCommon.js';
import { accepted, openTransaction, startTransaction } from './transactions.js';

export const TENANT_CREATION_INTERVAL_MS = 30_000;
export const MAX_CREATED_TENANTS = 100;

const tenantFields: FieldTable<Model.MspManagedTenantDto> = {
  uid: { kind: 'string', get: (t) => t.uid },
  name: { kind: 'string', get: (t) => t.name },
  displayName: { kind: 'string', get: (t) => t.displayName },
  region: { kind: 'string', get: (t) => t.region },
  cdFmcType: { kind: 'string', get: (t) => t.cdFmcType },
  complianceStatus: { kind: 'string', get: (t) => t.complianceStatus },
  tenantPayType: { kind: 'string', get: (t) => t.tenantPayType },
  deviceCount: { kind: 'number', get: (t) => t.deviceCount },
};

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const getMspManagedTenants: Handler = (ctx) => {
  requirePortal(ctx.principal);
  const tenants = [...ctx.state.tenants.values()].filter((t) => t.inPortal).map(tenantDto);
  return {
    status: 200,
    body: listPage(ctx.query, tenants, { fields: tenantFields, search: true, sort: true }),
  };
};

export const getMspManagedTenant: Handler = (ctx) => ({
  status: 200,
  body: tenantDto(managedTenant(ctx, 'managedTenantUid')),
});

export const createTenant: Handler = (ctx) => {
  requireSuperAdmin(ctx.principal);
  const input = requireBody(ctx, Input.MspCreateTenantInput);
  const { state } = ctx;
  if (state.tenantsCreated >= MAX_CREATED_TENANTS) {
    throw badRequest(
      `This MSP portal has created ${MAX_CREATED_TENANTS} tenants, the limit; contact support to raise it`,
      {
        tenantName: { limit: MAX_CREATED_TENANTS },
      },
    );
  }
  const last = state.lastTenantCreationAt;
  // At --speed N the 30 s are N times shorter, and Retry-After (whole seconds) says so.
  const interval = ctx.sim.clock.span(TENANT_CREATION_INTERVAL_MS);
  if (last !== undefined && ctx.now - last < interval) {
    const seconds = Math.max(1, Math.ceil((interval - (ctx.now - last)) / 1000));
    throw tooManyRequests('You can create no more than 1 tenant every 30 seconds', seconds);
  }
  const taken =
    [...state.tenants.values()].some((t) => sameName(t.name, input.tenantName)) ||
    [...state.pendingTenantNames].some((n) => sameName(n, input.tenantName));
  if (taken) {
    throw conflict(`A tenant named ${input.tenantName} already exists`, {
      tenantName: { value: input.tenantName },
    });
  }

  state.lastTenantCreationAt = ctx.now;
  state.tenantsCreated += 1;
  state.pendingTenantNames.add(input.tenantName);
  const newUid = state.rng.uuid();
  const creator = ctx.principal.tenant.users.find((u) => u.username === ctx.principal.username);
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_CREATE_TENANT',
    entityUid: newUid,
    entityUrl: `${ctx.sim.baseUrl}/v1/msp/tenants/${newUid}`,
    details: { tenantName: input.tenantName },
    pendingMs: 2_000,
    runningMs: state.rng.int(25_000, 45_000),
    finish: () => {
      state.pendingTenantNames.delete(input.tenantName);
      if (failsProvisioning(input.tenantName)) {
        return {
          ok: false,
          errorMessage: `Provisioning of tenant ${input.tenantName} failed`,
          errorDetails: { tenantName: input.tenantName },
        };
      }
      const tenant: TenantRecord = {
        uid: newUid,
        name: input.tenantName,
        displayName: input.displayName ?? input.tenantName,
        region: ctx.principal.tenant.region,
        isPortal: false,
        inPortal: true,
        associated: true,
        cdFmcType: 'UNPROVISIONED',
        complianceStatus: 'UNKNOWN',
        tenantPayType: input.salesOrderNumber === undefined ? 'TRIAL' : 'PAYING',
        deviceCount: 0,
        sccOrganizationUid: state.rng.uuid(),
        virtualAccounts: [],
        mcdEnabled: false,
        // The creator joins the new tenant unless it is an API-only user, as SCC documents.
        users: creator !== undefined && !creator.apiOnly ? [{ ...creator, uid: state.rng.uuid() }] : [],
      };
      state.tenants.set(tenant.uid, tenant);
      return { ok: true, details: { tenantUid: tenant.uid } };
    },
  });
  return accepted(ctx.sim, tx);
};

export const addMspTenant: Handler = (ctx) => {
  requireSuperAdmin(ctx.principal);
  const input = requireBody(ctx, Input.MspAddTenantInput);
  const token = ctx.state.tokens.get(input.apiToken);
  const tenant = token === undefined ? undefined : ctx.state.tenants.get(token.tenantUid);
  if (tenant === undefined) {
    throw invalidInput('apiToken is not a valid API token of a Security Cloud Control tenant', {
      apiToken: { message: 'invalid token' },
    });
  }
  if (tenant.isPortal)
    throw invalidInput('An MSP portal cannot manage itself', { apiToken: { tenantUid: tenant.uid } });
  if (tenant.inPortal) throw conflict(`Tenant ${tenant.name} is already managed by this MSP portal`);
  tenant.inPortal = true;
  return { status: 201, body: { status: 'OK' } satisfies Model.StatusInfo };
};

export const addTenantToMspPortal: Handler = (ctx) => {
  requireSuperAdmin(ctx.principal);
  const uid = uuidParam(ctx, 'tenantUid');
  const tenant = ctx.state.tenants.get(uid);
  if (tenant === undefined || !tenant.associated || tenant.isPortal) {
    throw forbidden(`User ${ctx.principal.username} is not associated with tenant ${uid}`);
  }
  if (tenant.inPortal || inFlight(ctx, 'MSP_ADD_EXISTING_TENANT', uid)) {
    throw conflict(`Tenant ${tenant.name} is already in this MSP portal`, { tenantUid: { value: uid } });
  }
  const { state } = ctx;
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_ADD_EXISTING_TENANT',
    entityUid: uid,
    entityUrl: `${ctx.sim.baseUrl}/v1/msp/tenants/${uid}`,
    pendingMs: 1_000,
    runningMs: state.rng.int(8_000, 15_000),
    finish: () => {
      tenant.inPortal = true;
      // SCC adds an API-only user for the portal and keeps its token.
      if (!tenant.users.some((u) => u.username === `${tenant.name}-msp-portal`)) {
        tenant.users.push({
          uid: state.rng.uuid(),
          username: `${tenant.name}-msp-portal`,
          role: 'ROLE_SUPER_ADMIN',
          apiOnly: true,
        });
      }
      return { ok: true };
    },
  });
  return accepted(ctx.sim, tx);
};

export const removeTenantFromMspPortal: Handler = (ctx) => {
  requireSuperAdmin(ctx.principal);
  const tenant = managedTenant(ctx);
  tenant.inPortal = false;
  return { status: 204 };
};

export const enableMulticloudDefenseForTenantInMspPortal: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const tenant = managedTenant(ctx);
  if (inFlight(ctx, 'MSP_ENABLE_MULTICLOUD_DEFENSE', tenant.uid)) {
    throw conflict(`Multicloud Defense is already being enabled for ${tenant.name}`);
  }
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_ENABLE_MULTICLOUD_DEFENSE',
    entityUid: tenant.uid,
    entityUrl: `${ctx.sim.baseUrl}/v1/msp/tenants/${tenant.uid}`,
    pendingMs: 2_000,
    runningMs: ctx.state.rng.int(60_000, 120_000),
    finish: () => {
      if (failsProvisioning(tenant.name)) {
        return { ok: false, errorMessage: `Multicloud Defense provisioning failed for ${tenant.name}` };
      }
      if (tenant.mcdEnabled)
        return { ok: false, errorMessage: `Multicloud Defense is already enabled for ${tenant.name}` };
      tenant.mcdEnabled = true;
      return { ok: true };
    },
  });
  return accepted(ctx.sim, tx);
};

/** Simulated duration of the cdFMC provisioning on the target tenant. */
export const CDFMC_TARGET_MS = { pending: 5_000, running: 12 * 60_000 } as const;

export const provisionCdFmcForTenantInMspPortal: Handler = (ctx: RequestContext) => {
  requireWrite(ctx.principal);
  const tenant = managedTenant(ctx);
  const input = parseBody(ctx, Input.EnableCdFmcForTenantRequest, false);
  const dedicated = input?.dedicatedCdFmcInstance ?? false;
  if (inFlight(ctx, 'MSP_PROVISION_CDFMC', tenant.uid)) {
    throw new SimError(409, 'CONFLICT', `cdFMC provisioning is already running for ${tenant.name}`);
  }
  // The second leg runs on the target tenant, visible only with that tenant's token.
  const target = startTransaction(ctx.sim, {
    tenantUid: tenant.uid,
    type: 'MSP_PROVISION_CDFMC',
    entityUid: tenant.uid,
    details: { dedicatedCdFmcInstance: String(dedicated) },
    pendingMs: CDFMC_TARGET_MS.pending,
    runningMs: CDFMC_TARGET_MS.running,
    finish: () => {
      if (failsProvisioning(tenant.name))
        return { ok: false, errorMessage: `cdFMC provisioning failed for ${tenant.name}` };
      if (tenant.cdFmcType !== 'UNPROVISIONED') {
        return {
          ok: false,
          errorMessage: `A cdFMC (${tenant.cdFmcType}) is already provisioned for ${tenant.name}`,
        };
      }
      tenant.cdFmcType = dedicated ? 'DEDICATED' : 'SHARED';
      return { ok: true };
    },
  });
  // The portal's own transaction is DONE as soon as provisioning is triggered.
  const portalTx = openTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_PROVISION_CDFMC',
    entityUid: tenant.uid,
    entityUrl: `${ctx.sim.baseUrl}/v1/msp/tenants/${tenant.uid}`,
    status: 'DONE',
    details: { TRANSACTION_UID_IN_TARGET_TENANT: target.uid },
  });
  return accepted(ctx.sim, portalTx);
};

/** The MSP portal's tenants: this file's handlers, which the table (operations.ts) spreads. */
export const tenantHandlers = {
  getMspManagedTenants,
  getMspManagedTenant,
  createTenant,
  addMspTenant,
  addTenantToMspPortal,
  removeTenantFromMspPortal,
  enableMulticloudDefenseForTenantInMspPortal,
  provisionCdFmcForTenantInMspPortal,
} satisfies Partial<OperationHandlers>;
