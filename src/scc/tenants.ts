// MSP portal operations on managed tenants and their users, named as the bot talks about them. Creation,
// adding, user changes, multicloud defense and cdFMC provisioning answer a CdoTransaction to follow.
import type { CallOptions, SccCaller, SearchQuery } from './call.js';
import type * as Input from './generated/inputs.js';
import type * as Model from './generated/models.js';

export interface TenantsArea {
  /** One page of the tenants the MSP portal manages. */
  list(query?: SearchQuery, options?: CallOptions): Promise<Model.MspManagedTenantDtoPage>;
  /** Every managed tenant, page after page. */
  iterate(
    query?: Omit<SearchQuery, 'limit' | 'offset'>,
    options?: CallOptions,
  ): AsyncIterable<Model.MspManagedTenantDto>;
  get(tenantUid: string, options?: CallOptions): Promise<Model.MspManagedTenantDto>;
  /** Creates a tenant (SCC allows one every 30 s, 100 in all). */
  create(input: Input.MspCreateTenantInput, options?: CallOptions): Promise<Model.CdoTransaction>;
  /** Adds an existing tenant to the portal with that tenant's API token. */
  addByToken(apiToken: string, options?: CallOptions): Promise<Model.StatusInfo>;
  /** Adds an existing tenant the caller belongs to (deprecated by SCC, still served). */
  addExisting(tenantUid: string, options?: CallOptions): Promise<Model.CdoTransaction>;
  /** Removes a tenant from the portal (deprecated by SCC: may take over 30 s). */
  remove(tenantUid: string, options?: CallOptions): Promise<void>;
  users: {
    /** Human (non-API-only) users of a managed tenant. */
    list(
      tenantUid: string,
      query?: Omit<SearchQuery, 'sort'>,
      options?: CallOptions,
    ): Promise<Model.UserPage>;
    /** Adds up to 50 users. */
    add(tenantUid: string, users: Input.UserInput[], options?: CallOptions): Promise<Model.CdoTransaction>;
    /** Removes up to 50 users by username. */
    remove(tenantUid: string, usernames: string[], options?: CallOptions): Promise<Model.CdoTransaction>;
  };
  /** A new API token for an API-only user of a managed tenant (the answer holds a secret). */
  generateApiToken(tenantUid: string, apiUserUid: string, options?: CallOptions): Promise<Model.ApiTokenInfo>;
  enableMulticloudDefense(tenantUid: string, options?: CallOptions): Promise<Model.CdoTransaction>;
  /** Provisions cdFMC; follow the answer with followCdFmcProvisioning (cdFmc.ts). */
  provisionCdFmc(
    tenantUid: string,
    input: Input.EnableCdFmcForTenantRequest,
    options?: CallOptions,
  ): Promise<Model.CdoTransaction>;
}

export function createTenantsArea({ call, paginate }: SccCaller): TenantsArea {
  return {
    list: async (query = {}, options = {}) =>
      (await call('getMspManagedTenants', { query, ...options })).data,
    iterate: (query = {}, options = {}) => paginate('getMspManagedTenants', { query, ...options }),
    get: async (tenantUid, options = {}) =>
      (await call('getMspManagedTenant', { path: { managedTenantUid: tenantUid }, ...options })).data,
    create: async (input, options = {}) => (await call('createTenant', { body: input, ...options })).data,
    addByToken: async (apiToken, options = {}) =>
      (await call('addMspTenant', { body: { apiToken }, ...options })).data,
    addExisting: async (tenantUid, options = {}) =>
      (await call('addTenantToMspPortal', { path: { tenantUid }, ...options })).data,
    remove: async (tenantUid, options = {}) => {
      await call('removeTenantFromMspPortal', { path: { tenantUid }, ...options });
    },
    users: {
      list: async (tenantUid, query = {}, options = {}) =>
        (await call('getHumanUsersInMspManagedTenant', { path: { tenantUid }, query, ...options })).data,
      add: async (tenantUid, users, options = {}) =>
        (await call('addUsersToTenantInMspPortal', { path: { tenantUid }, body: { users }, ...options }))
          .data,
      remove: async (tenantUid, usernames, options = {}) =>
        (
          await call('deleteUsersFromTenantInMspPortal', {
            path: { tenantUid },
            body: { usernames },
            ...options,
          })
        ).data,
    },
    generateApiToken: async (tenantUid, apiUserUid, options = {}) =>
      (await call('generateApiTokenForUserInTenant', { path: { tenantUid, apiUserUid }, ...options })).data,
    enableMulticloudDefense: async (tenantUid, options = {}) =>
      (await call('enableMulticloudDefenseForTenantInMspPortal', { path: { tenantUid }, ...options })).data,
    provisionCdFmc: async (tenantUid, input, options = {}) =>
      (await call('provisionCdFmcForTenantInMspPortal', { path: { tenantUid }, body: input, ...options }))
        .data,
  };
}
