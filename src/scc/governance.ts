// SCC's governance of change: change requests (named records a tenant's changes can be tied to, when the
// tenant tracks them) and the tenant's settings, which say whether it does (`changeRequestSupport`) and
// whether it schedules deployments itself (`scheduledDeployments`).
import type { CallOptions, PageQuery, SccCaller } from './call.js';
import type * as Model from './generated/models.js';

export interface ChangeRequestQuery extends PageQuery {
  /** Lucene, e.g. `name:CHG0012345`. */
  q?: string;
}

export interface GovernanceArea {
  /** One page of the tenant's change requests. */
  changeRequests(query?: ChangeRequestQuery, options?: CallOptions): Promise<Model.ChangeRequestPage>;
  changeRequest(changeRequestUid: string, options?: CallOptions): Promise<Model.ChangeRequest>;
  /** Creates one (SCC answers 201 with it); the name is unique in the tenant. */
  createChangeRequest(
    input: { name: string; description?: string },
    options?: CallOptions,
  ): Promise<Model.ChangeRequest>;
  tenantSettings(options?: CallOptions): Promise<Model.TenantSettings>;
}

export function createGovernanceArea({ call }: SccCaller): GovernanceArea {
  return {
    changeRequests: async (query = {}, options = {}) =>
      (await call('getChangeRequests', { query, ...options })).data,
    changeRequest: async (changeRequestUid, options = {}) =>
      (await call('getChangeRequest', { path: { changeRequestUid }, ...options })).data,
    createChangeRequest: async (input, options = {}) =>
      (await call('createChangeRequest', { body: input, ...options })).data,
    tenantSettings: async (options = {}) => (await call('getTenantSettings', { ...options })).data,
  };
}
