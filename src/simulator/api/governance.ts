// Governance of change (scc-openapi-governance.yaml): a tenant's change requests (created, listed with
// Lucene and paging, read), its settings (whether it tracks change requests and schedules deployments,
// switched by an admin route), and cancelling a transaction SCC marks cancellable.
//
// How a change is tied to a change request is the simulator's model, since the public API does not say:
// a deploy whose description starts with the name of an OPEN change request of the tenant followed by
// `:` (`CHG0012345: open 443`) is made under it, and the change-log events the deploy writes carry that
// request's changeRequestName / changeRequestUid.
import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requireWrite } from '../auth.js';
import { invalidInput, notFound, SimError } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { governanceOf } from '../state/governance.js';
import type { ChangeRequestRecord, SimState, TenantRecord } from '../state/model.js';
import { cancelDeploymentRun } from './deployments.js';
import { isCancellable, transactionDto, updateTransaction } from './transactions.js';

export { changeRequestNamedBy, DEFAULT_GOVERNANCE, governanceOf } from '../state/governance.js';

const changeRequestFields: FieldTable<ChangeRequestRecord> = {
  uid: { kind: 'string', get: (c) => c.uid },
  name: { kind: 'string', get: (c) => c.name },
  description: { kind: 'string', get: (c) => c.description },
};

const changeRequestDto = (c: ChangeRequestRecord): Model.ChangeRequest => ({
  uid: c.uid,
  name: c.name,
  ...(c.description === undefined ? {} : { description: c.description }),
});

function tenantChangeRequests(ctx: RequestContext): ChangeRequestRecord[] {
  return [...ctx.state.changeRequests.values()].filter((c) => c.tenantUid === ctx.principal.tenant.uid);
}

const getChangeRequests: Handler = (ctx) => {
  const page = listPage(ctx.query, tenantChangeRequests(ctx), { fields: changeRequestFields, search: true });
  return { status: 200, body: { ...page, items: page.items.map(changeRequestDto) } };
};

const getChangeRequest: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'changeRequestUid');
  const record = ctx.state.changeRequests.get(uid);
  if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid)
    throw notFound(`Change request ${uid} not found`, { changeRequestUid: { value: uid } });
  return { status: 200, body: changeRequestDto(record) };
};

const createChangeRequest: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const input = requireBody(ctx, Input.ChangeRequestCreateInput);
  const name = input.name.trim();
  if (name === '') throw invalidInput('name must not be blank', { name: { message: 'must not be blank' } });
  const taken = tenantChangeRequests(ctx).find((c) => c.name === name);
  if (taken !== undefined) {
    // The reference declares no 409 for this operation: a name in use is invalid input.
    throw invalidInput(`A change request named ${name} already exists`, {
      name: { message: 'already exists', value: name, uid: taken.uid },
    });
  }
  const record: ChangeRequestRecord = {
    uid: ctx.state.rng.uuid(),
    tenantUid: ctx.principal.tenant.uid,
    name,
    ...(input.description === undefined ? {} : { description: input.description }),
    createdBy: ctx.principal.username,
    createdAt: ctx.now,
  };
  ctx.state.changeRequests.set(record.uid, record);
  return { status: 201, body: changeRequestDto(record) };
};

export function tenantSettingsDto(state: SimState, tenant: TenantRecord): Model.TenantSettings {
  const governance = governanceOf(state, tenant.uid);
  return {
    uid: tenant.uid,
    ...(tenant.isPortal || tenant.inPortal ? { mspPortalUid: state.portalUid } : {}),
    changeRequestSupport: governance.changeRequestSupport,
    scheduledDeployments: governance.scheduledDeployments,
    multicloudDefense: tenant.mcdEnabled,
    aiAssistant: false,
    allowCrossRegionTenantAddition: tenant.isPortal,
    asaHealthMetrics: false,
    autoAcceptDeviceChanges: false,
    autoDiscoverOnPremFmcs: false,
    conflictDetectionInterval: 'EVERY_HOUR',
    denyCiscoSupportAccessToTenant: false,
    objectSharingEnabled: governance.objectSharing,
    policyAnalyzer: true,
    webAnalytics: false,
  };
}

const getTenantSettings: Handler = (ctx) => ({
  status: 200,
  body: tenantSettingsDto(ctx.state, ctx.principal.tenant),
});

/**
 * Cancels a PENDING or IN_PROGRESS transaction of a cancellable type (422 for another type, 400 once it
 * has finished, 404 when the caller's tenant has no such transaction); its work is not applied.
 */
const cancelTransaction: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const uid = uuidParam(ctx, 'transactionUid');
  const tx = ctx.state.transactions.get(uid);
  if (tx === undefined || tx.tenantUid !== ctx.principal.tenant.uid)
    throw notFound(`Transaction ${uid} not found`, { transactionUid: { value: uid } });
  if (!isCancellable(tx.type)) {
    throw new SimError(422, 'UNPROCESSABLE_ENTITY', `Transactions of type ${tx.type} cannot be cancelled`, {
      transactionType: { value: tx.type },
    });
  }
  if (tx.status !== 'PENDING' && tx.status !== 'IN_PROGRESS') {
    throw invalidInput(`Transaction ${uid} is ${tx.status} and can no longer be cancelled`, {
      cdoTransactionStatus: { value: tx.status },
    });
  }
  updateTransaction(ctx.sim, tx, { status: 'CANCELLED' });
  if (tx.type === 'DEPLOY_ASA_DEVICE_CHANGES') cancelDeploymentRun(ctx.sim, tx.uid);
  return { status: 200, body: transactionDto(ctx.sim, tx) };
};

export const governanceHandlers = {
  getChangeRequests,
  getChangeRequest,
  createChangeRequest,
  getTenantSettings,
  cancelTransaction,
} satisfies Partial<OperationHandlers>;
