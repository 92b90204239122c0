// MSP portal tenants: list, show, create, add (by API token or as an associated tenant), remove
// (revoked from the portal, not deleted), multicloud defense and cdFMC. Users and API tokens are in
// tenantUsers.ts. Calls the vendor deprecated stay reachable, and their help and outcome say so.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { pageInfo } from '../render/list.js';
import {
  renderTenant,
  renderTenantCreationQueued,
  renderTenantList,
  tenantLabel,
} from '../render/tenants.js';
import { untrusted } from '../render/untrusted.js';
import { flag, optionalText, text, uuid } from './args.js';
import { listArgs, OFFSET, pageQuery, queryParam, TENANT, transactionTrack } from './common.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { boundedPaginate, resolveTenant } from './resolve.js';
import { compareTenants, rereadTenant, resolveTenantFacts, TenantFacts } from './tenantTarget.js';

/** The reference's rule for tenant names (its pattern is not anchored in the file; this one is). */
export const TENANT_NAME = /^[a-zA-Z0-9_-]{1,50}$/;

export const tenantsList = defineOperation({
  id: 'tenants.list',
  words: ['tenants', 'list'],
  area: 'tenants',
  failure: 'Could not list the tenants',
  summary: 'List the tenants of the MSP portal',
  params: [queryParam('tenant'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  tenancy: 'portal',
  approval: 'never',
  scc: ['getMspManagedTenants'],
  examples: ['tenants list', 'tenants list contoso', 'tenants list region:EU'],
  run: async (ctx, args) => {
    const asked = pageQuery(args);
    const { data } = await ctx.scc.call('getMspManagedTenants', { query: { ...asked, sort: ['name:ASC'] } });
    return data;
  },
  render: (data, args, meta) =>
    renderTenantList(data.items ?? [], pageInfo(data, pageQuery(args)), args.query, meta),
});

export const tenantsShow = defineOperation({
  id: 'tenants.show',
  words: ['tenants', 'show'],
  area: 'tenants',
  failure: 'Could not show the tenant',
  summary: 'Show one tenant of the MSP portal',
  params: [TENANT],
  args: z.object({ tenant: text() }),
  role: 'viewer',
  tenancy: { tenantArg: 'tenant' },
  approval: 'never',
  scc: ['getMspManagedTenant'],
  examples: ['tenants show contoso-eu'],
  run: async (ctx, args) => {
    const found = await resolveTenant(ctx.scc, args.tenant);
    const { data } = await ctx.scc.call('getMspManagedTenant', { path: { managedTenantUid: found.uid } });
    return data;
  },
  render: (tenant) => renderTenant(tenant),
});

/**
 * SCC refuses a tenant name that is taken (409), comparing without regard to case, but only when the
 * creation's turn comes, up to minutes after it was queued: a read of the portal's tenants says it now
 * (the dispatcher reads it before queuing, and before a direct run). A name taken outside the portal, or
 * by a creation still under way, is left to SCC's 409.
 */
async function refuseTakenName(ctx: OperationContext, name: string): Promise<void> {
  const tenants = await boundedPaginate(
    ctx.scc,
    'getMspManagedTenants',
    { query: {} },
    'tenants in the MSP portal',
  );
  const taken = tenants.find((tenant) => tenant.name?.toLowerCase() === name.toLowerCase());
  if (!taken?.name) return;
  const as = taken.name === name ? '' : ` as ${code(taken.name)} (SCC compares names without regard to case)`;
  throw new UserError(
    `A tenant named ${code(name)} already exists in the MSP portal${as}. Choose another name.`,
  );
}

export const tenantsCreate = defineOperation({
  id: 'tenants.create',
  words: ['tenants', 'create'],
  area: 'tenants',
  failure: 'Could not create the tenant',
  summary: 'Create a tenant in the MSP portal (one every 30 seconds)',
  params: [
    {
      name: 'name',
      kind: 'word',
      optional: true,
      description: 'tenant name: letters, digits, - and _, up to 50',
    },
    {
      name: 'display-name',
      kind: 'word',
      flag: true,
      optional: true,
      description: 'a friendlier name to show',
    },
    {
      name: 'sales-order',
      kind: 'word',
      flag: true,
      optional: true,
      description: 'sales order number; without one the tenant is a trial',
    },
  ],
  args: z.object({
    name: text().pipe(
      z.string().regex(TENANT_NAME, 'may hold only letters, digits, - and _, at most 50 of them.'),
    ),
    'display-name': optionalText(),
    'sales-order': optionalText(),
  }),
  role: 'operator',
  tenancy: 'portal',
  approval: 'never',
  scc: ['getMspManagedTenants', 'createTenant'],
  examples: ['tenants create', 'tenants create acme-eu --display-name "Acme Europe"'],
  modal: {
    title: 'Create a tenant',
    submit: 'Create',
    when: 'empty',
    fields: [
      {
        name: 'name',
        label: 'Tenant name',
        input: 'text',
        hint: 'Letters, digits, - and _ only; at most 50.',
      },
      { name: 'display-name', label: 'Display name', input: 'text', optional: true },
      {
        name: 'sales-order',
        label: 'Sales order number',
        input: 'text',
        optional: true,
        hint: 'Leave empty to create a trial tenant.',
      },
    ],
  },
  // SCC creates at most one tenant every 30 seconds: where the queue runs, creations wait their turn in it.
  queue: {
    name: 'tenant-creation',
    limit: { max: 1, perMs: 30_000 },
    key: {
      of: (args) => args.name,
      compare: 'ignore-case',
      taken: (args) =>
        `A creation of tenant \`${args.name}\` is already queued or under way (names are compared without regard to case): its thread will say how it ends.`,
      // By then the portal lists the tenant, and the read before queuing refuses the name.
      heldAfterAcceptMs: 10 * 60_000,
    },
    // SCC refuses a second tenant of the same name (409): calling again after a crash creates none twice.
    afterInterruption: 'call-again',
    words: {
      call: (args) => `the creation of tenant *${args.name}*`,
      pace: 'SCC creates at most one tenant every 30 seconds',
      check: 'Check `/fw tenants list`',
    },
    announce: (args, actor) => renderTenantCreationQueued(args.name, actor),
    check: (ctx, args) => refuseTakenName(ctx, args.name),
  },
  run: async (ctx, args) => {
    const body = {
      tenantName: args.name,
      ...(args['display-name'] ? { displayName: args['display-name'] } : {}),
      ...(args['sales-order'] ? { salesOrderNumber: args['sales-order'] } : {}),
    };
    return (await ctx.scc.call('createTenant', { body })).data;
  },
  render: (transaction, args, meta) =>
    announcement(
      {
        sentence: `create tenant *${args.name}*`,
        tense: 'asked',
        transaction,
        details: [
          ['Display name', args['display-name']],
          ['Sales order', args['sales-order'] ?? 'none (trial tenant)'],
        ],
      },
      meta,
    ),
  track: (transaction, args) => transactionTrack(transaction, `create tenant ${args.name}`),
});

/** Said in the help and the outcome of the calls Cisco deprecated, with what to use instead where there is something. */
const ADD_BY_UUID_DEPRECATED =
  'Adding a tenant by UUID uses a call Cisco has deprecated (addTenantToMspPortal); add it with its API token instead: `/fw tenants add` opens the form.';
const MCD_DEPRECATED =
  'Cisco has deprecated this call (enableMulticloudDefenseForTenantInMspPortal) and names no replacement in the API; it may stop working.';

export const tenantsAdd = defineOperation({
  id: 'tenants.add',
  words: ['tenants', 'add'],
  area: 'tenants',
  failure: 'Could not add the tenant to the MSP portal',
  summary:
    'Add a tenant to the MSP portal: by its API token, or by UUID if you belong to it (Cisco deprecated adding by UUID)',
  params: [
    {
      name: 'tenant-uid',
      kind: 'uuid',
      optional: true,
      description: 'UUID of a tenant you are associated with (leave out to give an API token in a form)',
    },
  ],
  // `api-token` is not a param: the grammar cannot bind it, so a token never travels in command text.
  args: z
    .object({ 'tenant-uid': uuid().optional(), 'api-token': optionalText() })
    .refine((a) => (a['tenant-uid'] === undefined) !== (a['api-token'] === undefined), {
      message: 'give either a tenant UUID or, in the form, an API token.',
    }),
  role: 'operator',
  tenancy: 'portal',
  approval: 'never',
  scc: ['addMspTenant', 'addTenantToMspPortal'],
  examples: ['tenants add', 'tenants add 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  modal: {
    title: 'Add a tenant by token',
    submit: 'Add',
    when: 'empty',
    fields: [
      {
        name: 'api-token',
        label: 'API token of the tenant',
        input: 'secret',
        hint: 'An API token of a super-admin of that tenant. fwbot sends it to SCC once and keeps no copy.',
      },
    ],
  },
  run: async (ctx, args) => {
    const token = args['api-token'];
    if (token !== undefined) {
      const { data } = await ctx.scc.call('addMspTenant', { body: { apiToken: token } });
      return { via: 'token' as const, status: data.status ?? undefined };
    }
    const tenantUid = args['tenant-uid'] ?? '';
    const { data } = await ctx.scc.call('addTenantToMspPortal', { path: { tenantUid } });
    return { via: 'uid' as const, tenantUid, transaction: data };
  },
  render: (result, _args, meta) =>
    result.via === 'token'
      ? announcement(
          {
            sentence: 'added a tenant to the MSP portal with its API token',
            tense: 'done',
            details: [['SCC says', result.status]],
          },
          meta,
        )
      : announcement(
          {
            sentence: `add tenant \`${result.tenantUid}\` to the MSP portal`,
            tense: 'asked',
            transaction: result.transaction,
            next: `fwbot follows the transaction and reports here when SCC is done. ${ADD_BY_UUID_DEPRECATED}`,
          },
          meta,
        ),
  track: (result) =>
    result.via === 'uid' ? transactionTrack(result.transaction, `add tenant ${result.tenantUid}`) : [],
});

export const tenantsRemove = defineOperation({
  id: 'tenants.remove',
  words: ['tenants', 'remove'],
  area: 'tenants',
  failure: 'Could not remove the tenant from the MSP portal',
  summary: 'Remove a tenant from the MSP portal (revoked from the portal; the tenant itself is not deleted)',
  params: [TENANT],
  args: z.object({ tenant: text() }),
  role: 'operator',
  tenancy: { tenantArg: 'tenant' },
  approval: 'always',
  // The deprecated DELETE only where a profile says its SCC lacks the revoke (legacy_tenant_removal).
  scc: ['revokeTenantFromMspPortal', 'removeTenantFromMspPortal', 'getMspManagedTenant'],
  examples: ['tenants remove globex-apj'],
  target: {
    facts: z.object({ tenant: TenantFacts }),
    resolve: async (ctx, args) => {
      const tenant = await resolveTenantFacts(ctx, args.tenant);
      return { facts: { tenant }, raw: { tenant: tenant.uid } };
    },
    reread: async (ctx, facts) => {
      const read = await rereadTenant(ctx.scc, facts.tenant);
      return read.found ? { found: true, facts: { tenant: read.facts } } : read;
    },
    compare: (before, after) => compareTenants(before.tenant, after.tenant),
    describe: ({ tenant }) => ({
      action: `remove tenant ${code(tenant.name)} from the MSP portal`,
      line: `tenant ${untrusted(tenant.name)}`,
      fields: [
        { label: 'Tenant', value: tenant.name },
        { label: 'Display name', value: tenant.displayName },
        {
          label: 'Devices in tenant',
          value: tenant.deviceCount === null ? 'unknown' : String(tenant.deviceCount),
        },
      ],
      warnings: [
        ':information_source: This removes the tenant from the MSP portal; it does not delete the tenant. Its devices, users and tokens stay, and it can be added back. Deleting a tenant is done by Cisco TAC.',
        ...(tenant.deviceCount
          ? [
              `:warning: The tenant manages ${counted(tenant.deviceCount, 'device')}; the portal loses access to ${tenant.deviceCount === 1 ? 'that device' : 'all of them'}.`,
            ]
          : []),
      ],
    }),
    // Gone from the portal means the call took effect. A revoke still running when fwbot restarted leaves
    // the tenant listed, and the call is sent again: revoking twice ends the same way as once.
    removes: true,
  },
  run: async (ctx, _args, { tenant }) => {
    if (!ctx.scc.offers('revokeTenantFromMspPortal')) {
      await ctx.scc.call('removeTenantFromMspPortal', { path: { tenantUid: tenant.uid } });
      return { tenant, via: 'legacy' as const };
    }
    const { data } = await ctx.scc.call('revokeTenantFromMspPortal', { path: { tenantUid: tenant.uid } });
    return { tenant, via: 'revoke' as const, transaction: data };
  },
  render: (result, _args, meta) =>
    result.via === 'revoke'
      ? announcement(
          {
            sentence: `remove tenant ${tenantLabel(result.tenant)} from the MSP portal`,
            tense: 'asked',
            transaction: result.transaction,
            details: [['UUID', result.tenant.uid]],
            next: 'SCC revokes the portal’s management of the tenant; the tenant itself is not deleted. fwbot follows the transaction and reports here when SCC is done.',
          },
          meta,
        )
      : announcement(
          {
            sentence: `removed tenant ${tenantLabel(result.tenant)} from the MSP portal`,
            tense: 'done',
            details: [['UUID', result.tenant.uid]],
            next: 'The tenant itself is not deleted. This profile’s SCC has no revoke call, so fwbot used the removal Cisco has deprecated (legacy_tenant_removal).',
          },
          meta,
        ),
  track: (result) =>
    result.via === 'revoke'
      ? transactionTrack(result.transaction, `remove tenant ${result.tenant.name} from the MSP portal`)
      : [],
});

export const tenantsMcdEnable = defineOperation({
  id: 'tenants.mcd.enable',
  words: ['tenants', 'mcd', 'enable'],
  area: 'tenants',
  failure: 'Could not enable Multicloud Defense',
  summary: 'Enable Multicloud Defense for a tenant (deprecated by Cisco)',
  params: [TENANT],
  args: z.object({ tenant: text() }),
  role: 'operator',
  tenancy: { tenantArg: 'tenant' },
  approval: 'never',
  scc: ['enableMulticloudDefenseForTenantInMspPortal'],
  examples: ['tenants mcd enable contoso-eu'],
  run: async (ctx, args) => {
    const tenant = await resolveTenant(ctx.scc, args.tenant);
    const { data } = await ctx.scc.call('enableMulticloudDefenseForTenantInMspPortal', {
      path: { tenantUid: tenant.uid },
    });
    return { tenant, transaction: data };
  },
  render: ({ tenant, transaction }, _args, meta) =>
    announcement(
      {
        sentence: `enable Multicloud Defense for tenant ${tenantLabel(tenant)}`,
        tense: 'asked',
        transaction,
        next: `fwbot follows the transaction and reports here when SCC is done. ${MCD_DEPRECATED}`,
      },
      meta,
    ),
  track: ({ tenant, transaction }) =>
    transactionTrack(transaction, `enable Multicloud Defense for ${tenant.name}`),
});

export const tenantsCdfmcProvision = defineOperation({
  id: 'tenants.cdfmc.provision',
  words: ['tenants', 'cdfmc', 'provision'],
  area: 'tenants',
  failure: 'Could not provision the cloud-delivered FMC',
  summary: 'Provision a cloud-delivered FMC for a tenant',
  params: [
    TENANT,
    {
      name: 'dedicated',
      kind: 'word',
      flag: true,
      boolean: true,
      description: 'a dedicated instance, not a shared one',
    },
  ],
  args: z.object({ tenant: text(), dedicated: flag() }),
  role: 'operator',
  tenancy: { tenantArg: 'tenant' },
  approval: 'never',
  scc: ['provisionCdFmcForTenantInMspPortal'],
  examples: ['tenants cdfmc provision globex-apj', 'tenants cdfmc provision globex-apj --dedicated'],
  run: async (ctx, args) => {
    const tenant = await resolveTenant(ctx.scc, args.tenant);
    const { data } = await ctx.scc.call('provisionCdFmcForTenantInMspPortal', {
      path: { tenantUid: tenant.uid },
      body: { dedicatedCdFmcInstance: args.dedicated },
    });
    return { tenant, transaction: data };
  },
  render: ({ tenant, transaction }, args, meta) =>
    announcement(
      {
        sentence: `provision a ${args.dedicated ? 'dedicated' : 'shared'} cdFMC for tenant ${tenantLabel(tenant)}`,
        tense: 'asked',
        transaction,
        next: 'fwbot follows the portal transaction, then the provisioning on the tenant, and reports here.',
      },
      meta,
    ),
  track: ({ tenant, transaction }) =>
    transaction.transactionUid
      ? [
          {
            kind: 'cdfmc',
            transactionUid: transaction.transactionUid,
            tenantUid: tenant.uid,
            tenantName: tenant.name,
            label: `provision cdFMC for ${tenant.name}`,
          },
        ]
      : [],
});

/** Tenants of the MSP portal: this area's operations, in the order help and the command table list them (index.ts). */
export const TENANT_OPERATIONS: readonly Operation[] = [
  tenantsList,
  tenantsShow,
  tenantsCreate,
  tenantsAdd,
  tenantsRemove,
  tenantsMcdEnable,
  tenantsCdfmcProvision,
];
