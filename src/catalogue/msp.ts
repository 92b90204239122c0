// The MSP's upgrade day: devices across every managed tenant, the Secure Client packages on one of them,
// the Secure Client versions every selected tenant offers, one Secure Client upgrade across tenants (after
// a second person approves it: mspUpgrade.ts) and the runs of such upgrades; and the list of them all. SCC's
// cross-tenant operations take ASAs only, at most 50 devices per managed tenant, each once
// (../shared/reference/scc-openapi-msp.yaml); fwbot enforces those limits, and the per-device conditions
// SCC would otherwise report only after an asynchronous validation, before calling (mspSelection.ts).
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { pageInfo } from '../render/list.js';
import {
  renderMspDevices,
  renderMspPackages,
  renderMspRun,
  renderMspRunFields,
  renderMspRuns,
  renderMspVersions,
} from '../render/msp.js';
import { PAGE_SIZE } from '../render/paging.js';
import type { CdoTransaction } from '../scc/generated/models.js';
import { isUuid, offset, text, uuid } from './args.js';
import { listArgs, OFFSET, pageQuery, queryParam } from './common.js';
import { DEVICES, devices, factsOf, selectMspDevices, selectPackageHolder } from './mspSelection.js';
import { mspVpnUpgrade } from './mspUpgrade.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';

/** SCC's calculation of compatible versions takes seconds. */
const CALCULATION = { intervalMs: 250, maxIntervalMs: 2_000, maxWaitMs: 60_000 } as const;

/** The compatibility-info UID a calculation's transaction names (its entity, or the entity URL's end). */
function compatibilityInfoUid(transaction: CdoTransaction): string | undefined {
  if (transaction.entityUid) return transaction.entityUid;
  const last = transaction.entityUrl?.split('/').pop();
  return last && isUuid(last) ? last : undefined;
}

async function calculateVersions(ctx: OperationContext, deviceUids: string[]) {
  const { data: started } = await ctx.scc.call('calculateMspCompatibleSecureClientVersions', {
    body: { deviceUids },
  });
  const infoUid = compatibilityInfoUid(started);
  if (!started.transactionUid || !infoUid)
    throw new Error('calculateMspCompatibleSecureClientVersions: SCC named no transaction or result');
  const ended = await ctx.scc.transactions.follow(started.transactionUid, {
    ...CALCULATION,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  if (ended.cdoTransactionStatus !== 'DONE') {
    const said = ended.errorMessage ? `: ${ended.errorMessage}` : '';
    throw new UserError(
      `SCC could not calculate the compatible versions (${ended.cdoTransactionStatus}${said}).`,
    );
  }
  const { data } = await ctx.scc.call('getMspCompatibleSecureClientVersions', {
    path: { compatibilityInfoUid: infoUid },
  });
  if (data.status !== 'DONE') {
    const said = data.errorMessage ? `: ${data.errorMessage}` : '';
    throw new UserError(`SCC could not calculate the compatible versions (${data.status}${said}).`);
  }
  return data.compatibleVersions ?? [];
}

export const mspDevices = defineOperation({
  id: 'msp.devices',
  words: ['msp', 'devices'],
  area: 'msp',
  failure: 'Could not list the devices of the managed tenants',
  summary: 'List the devices of every managed tenant, with tenant, type, version and state',
  params: [queryParam('device'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  tenancy: 'portal',
  approval: 'never',
  scc: ['getMspManagedDevices'],
  examples: ['msp devices', 'msp devices asa', 'msp devices managedTenantName:globex-apj'],
  run: async (ctx, args) => {
    const query = {
      ...pageQuery(args),
      sort: ['managedTenantName:ASC' as const, 'name:ASC' as const],
    };
    return (await ctx.scc.call('getMspManagedDevices', { query })).data;
  },
  render: (data, args, meta) =>
    renderMspDevices(data.items ?? [], pageInfo(data, pageQuery(args)), args.query, meta),
});

export const mspVpnPackages = defineOperation({
  id: 'msp.vpn.packages',
  words: ['msp', 'vpn', 'packages'],
  area: 'msp',
  failure: 'Could not list the Secure Client packages of the managed device',
  summary: 'List the Secure Client packages on an ASA or FTD of a managed tenant',
  params: [
    { name: 'device', kind: 'word', description: 'name or UUID of a device of a managed tenant' },
    OFFSET,
  ],
  args: z.object({ device: text(), offset: offset() }),
  role: 'viewer',
  tenancy: 'portal',
  approval: 'never',
  scc: ['getMspManagedDevices', 'getMspManagedDevice', 'getMspDeviceSecureClientPackages'],
  examples: ['msp vpn packages nw-asa-hq', 'msp vpn packages hooli-ftd-01'],
  run: async (ctx, args) => {
    const device = await selectPackageHolder(ctx.scc, args.device);
    const query = { limit: PAGE_SIZE, offset: args.offset };
    const { data } = await ctx.scc.call('getMspDeviceSecureClientPackages', {
      path: { deviceUid: factsOf(device).uid },
      query,
    });
    return { device, data, query };
  },
  render: ({ device, data, query }, _args, meta) =>
    renderMspPackages(device, data.items ?? [], pageInfo(data, query), meta),
});

export const mspVpnVersions = defineOperation({
  id: 'msp.vpn.versions',
  words: ['msp', 'vpn', 'versions'],
  area: 'msp',
  failure: 'Could not list the Secure Client versions across tenants',
  summary: 'List the Secure Client versions that ASAs across tenants can take and every tenant offers',
  params: [DEVICES],
  args: z.object({ device: devices() }),
  role: 'viewer',
  tenancy: 'portal',
  approval: 'never',
  scc: [
    'getMspManagedDevices',
    'getMspManagedDevice',
    'calculateMspCompatibleSecureClientVersions',
    'getTransaction',
    'getMspCompatibleSecureClientVersions',
  ],
  examples: ['msp vpn versions nw-asa-hq globex-asa-01', 'msp vpn versions "managedTenantName:northwind-us"'],
  run: async (ctx, args) => {
    const chosen = (await selectMspDevices(ctx.scc, args.device)).map(factsOf);
    const versions = await calculateVersions(
      ctx,
      chosen.map((d) => d.uid),
    );
    return { devices: chosen, versions };
  },
  render: ({ devices: chosen, versions }) => renderMspVersions(chosen, versions),
});

export const mspVpnRuns = defineOperation({
  id: 'msp.vpn.runs',
  words: ['msp', 'vpn', 'runs'],
  area: 'msp',
  failure: 'Could not list the upgrade runs across tenants',
  summary: 'List Secure Client upgrade runs across tenants, newest first',
  params: [queryParam('run'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  tenancy: 'portal',
  approval: 'never',
  scc: ['getMspSecureClientUpgradeRuns'],
  examples: ['msp vpn runs', 'msp vpn runs spring', 'msp vpn runs managedTenantDisplayName:Globex*'],
  run: async (ctx, args) => {
    const query = { ...pageQuery(args), sort: ['submissionTime:DESC' as const] };
    return (await ctx.scc.call('getMspSecureClientUpgradeRuns', { query })).data;
  },
  render: (data, args, meta) =>
    renderMspRuns(data.items ?? [], pageInfo(data, pageQuery(args)), args.query, meta),
});

export const mspVpnRun = defineOperation({
  id: 'msp.vpn.run',
  words: ['msp', 'vpn', 'run'],
  area: 'msp',
  failure: 'Could not show the upgrade run across tenants',
  summary: 'Show one Secure Client upgrade run across tenants, tenant by tenant and device by device',
  params: [{ name: 'run-uid', kind: 'uuid', description: 'UUID of the run (see `msp vpn runs`)' }],
  args: z.object({ 'run-uid': uuid() }),
  role: 'viewer',
  tenancy: 'portal',
  approval: 'never',
  scc: ['getMspSecureClientUpgradeRun'],
  examples: ['msp vpn run 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  run: async (ctx, args) =>
    (await ctx.scc.call('getMspSecureClientUpgradeRun', { path: { upgradeRunUid: args['run-uid'] } })).data,
  render: (run) => renderMspRun(run),
});

export const mspVpnRunFields = defineOperation({
  id: 'msp.vpn.run-fields',
  words: ['msp', 'vpn', 'run-fields'],
  area: 'msp',
  failure: 'Could not read what upgrade runs across tenants can be searched by',
  summary: 'Show the statuses, types and users that upgrade runs across tenants can be searched by',
  params: [],
  args: z.object({}),
  role: 'viewer',
  tenancy: 'portal',
  approval: 'never',
  scc: ['getMspSecureClientUpgradeRunsAttributeValues'],
  examples: ['msp vpn run-fields'],
  run: async (ctx) => (await ctx.scc.call('getMspSecureClientUpgradeRunsAttributeValues', {})).data,
  render: (values) => renderMspRunFields(values),
});

/** The MSP portal's cross-tenant operations, in the order help and the command table list them (index.ts). */
export const MSP_OPERATIONS: readonly Operation[] = [
  mspDevices,
  mspVpnPackages,
  mspVpnVersions,
  mspVpnUpgrade,
  mspVpnRuns,
  mspVpnRun,
  mspVpnRunFields,
];
