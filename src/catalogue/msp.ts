// The MSP's upgrade day: devices across every managed tenant, the Secure Client packages on one of them,
// the Secure Client versions every selected tenant offers, one Secure Client upgrade across tenants (after
// a second person approves it) and the runs of such upgrades. SCC's cross-tenant operations take ASAs
// only, at most 50 devices per managed tenant, each once (../shared/reference/scc-openapi-msp.yaml); fwbot
// enforces those limits, and the per-device conditions SCC would otherwise report only after an
// asynchronous validation, before calling.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { pageInfo } from '../render/list.js';
import {
  type MspDeviceFacts,
  renderMspDevices,
  renderMspPackages,
  renderMspRun,
  renderMspRunFields,
  renderMspRuns,
  renderMspVersions,
  tenantGroups,
} from '../render/msp.js';
import { PAGE_SIZE } from '../render/paging.js';
import { untrusted } from '../render/untrusted.js';
import type { CdoTransaction, MspManagedDevice } from '../scc/generated/models.js';
import { allOf, toLucene, typedLucene } from '../scc/lucene.js';
import { isUuid, list, offset, optionalText, text, uuid } from './args.js';
import { listArgs, OFFSET, pageQuery, queryParam } from './common.js';
import { defineOperation, type Operation, type OperationContext, type TargetRead } from './operation.js';
import { boundedPaginate, type SccReader } from './resolve.js';
import { isNotFound } from './sccErrors.js';

/** SCC takes at most 50 devices per managed tenant; fwbot asks for at most 50 per request. */
export const MAX_MSP_DEVICES = 50;

/** SCC's calculation of compatible versions takes seconds. */
const CALCULATION = { intervalMs: 250, maxIntervalMs: 2_000, maxWaitMs: 60_000 } as const;

const DEVICES = {
  name: 'device',
  kind: 'word' as const,
  variadic: true,
  description:
    'device names or UUIDs of managed tenants, or a Lucene query with field:value that selects ASAs ' +
    '(quote it when it has spaces); at most 50 devices',
};
const devices = () => list({ min: 1, max: MAX_MSP_DEVICES, what: 'devices' });

const MspDeviceFactsSchema = z.object({
  uid: z.string(),
  name: z.string(),
  tenantUid: z.string(),
  tenantName: z.string(),
});

function factsOf(device: MspManagedDevice): MspDeviceFacts {
  return {
    uid: device.uid ?? '',
    name: device.name,
    tenantUid: device.managedTenantUid ?? '',
    tenantName: device.managedTenantName ?? device.managedTenantDisplayName ?? '?',
  };
}

const where = (device: MspManagedDevice) => `${device.name} (${device.managedTenantName ?? '?'})`;

/** Candidates whose name equals the typed text (ignoring case), else those whose name contains it. */
function byName(typed: string, items: readonly MspManagedDevice[]): MspManagedDevice[] {
  const wanted = typed.toLowerCase();
  const exact = items.filter((d) => d.name.toLowerCase() === wanted);
  return exact.length > 0 ? exact : items.filter((d) => d.name.toLowerCase().includes(wanted));
}

/** What one word of the selection picks: one device (a name or UUID) or every ASA a query matches. */
async function select(scc: SccReader, typed: string): Promise<{ typed: string; found: MspManagedDevice[] }> {
  const word = typed.trim();
  if (isUuid(word)) {
    try {
      const { data } = await scc.call('getMspManagedDevice', { path: { deviceUid: word } });
      return { typed: word, found: [data] };
    } catch (error) {
      if (isNotFound(error))
        throw new UserError(`No device of a tenant in the MSP portal has the UUID ${word}.`);
      throw error;
    }
  }
  if (word.includes(':')) {
    // A query selects the ASAs it matches: the cross-tenant Secure Client operations take ASAs only.
    const q = allOf(typedLucene(word).q, 'deviceType:ASA') ?? 'deviceType:ASA';
    const found = await boundedPaginate(
      scc,
      'getMspManagedDevices',
      { query: { q } },
      `ASAs matching “${word}”`,
    );
    if (found.length === 0)
      throw new UserError(`No ASA of a tenant in the MSP portal matches \`${word}\` (searched \`${q}\`).`);
    return { typed: word, found };
  }
  const listed = await boundedPaginate(
    scc,
    'getMspManagedDevices',
    { query: { q: toLucene(word) } },
    `devices matching “${word}”`,
  );
  const candidates = byName(word, listed);
  const [only] = candidates;
  if (candidates.length === 1 && only) return { typed: word, found: [only] };
  if (candidates.length > 1) {
    const shown = candidates.slice(0, 10).map(where);
    const more = candidates.length > shown.length ? ` and ${candidates.length - shown.length} more` : '';
    throw new UserError(
      `“${word}” matches ${candidates.length} devices of managed tenants: ${shown.join(', ')}${more}. Which one?`,
      candidates.slice(0, 10).map((d) => d.name),
    );
  }
  throw new UserError(
    `No device named “${word}” in the tenants of the MSP portal (searched device names containing it).`,
  );
}

/**
 * One device of a managed tenant, by name or UUID, as `select` finds it (a query selects many, so it is
 * refused here). Only ASAs and FTDs have Secure Client packages; SCC answers 405 for the others.
 */
async function selectPackageHolder(scc: SccReader, typed: string): Promise<MspManagedDevice> {
  if (typed.includes(':'))
    throw new UserError(
      `\`msp vpn packages\` takes one device, by name or UUID, not a query (\`${typed}\`).`,
    );
  const { found } = await select(scc, typed);
  const [device] = found;
  if (!device) throw new Error(`no device was selected by “${typed}”`); // select() found one or threw
  const type = device.deviceType ?? '';
  if (type !== 'ASA' && !type.endsWith('FTD'))
    throw new UserError(
      `${where(device)} is ${type || 'of an unknown type'}: only ASAs and FTDs have Secure Client packages.`,
    );
  return device;
}

/** Why SCC would refuse a device in a cross-tenant Secure Client request (the reference's list). */
function ineligibility(device: MspManagedDevice): string | undefined {
  if (device.deviceType !== 'ASA') return `is ${device.deviceType ?? 'of an unknown type'}, not an ASA`;
  if (!(device.deviceRoles ?? []).includes('ASA_RA_VPN_HEADEND'))
    return 'lacks the ASA_RA_VPN_HEADEND role (no remote-access VPN)';
  if (device.connectivityState !== 'ONLINE') return `is ${device.connectivityState ?? 'UNKNOWN'}, not ONLINE`;
  if (device.configState !== 'SYNCED')
    return `is ${device.configState ?? 'UNKNOWN'}, not SYNCED (deploy or discard its staged changes first)`;
  if (!device.softwareVersion) return 'has no known software version';
  return undefined;
}

/**
 * The devices a selection picks across the portal's tenants, checked against SCC's limits before any
 * call that changes or calculates anything: each device once, at most 50, every one an eligible ASA.
 */
export async function selectMspDevices(
  scc: SccReader,
  typed: readonly string[],
): Promise<MspManagedDevice[]> {
  const picks = await Promise.all(typed.map((word) => select(scc, word)));
  const seen = new Map<string, string>();
  const chosen: MspManagedDevice[] = [];
  for (const { typed: word, found } of picks) {
    for (const device of found) {
      const uid = (device.uid ?? '').toLowerCase();
      const before = seen.get(uid);
      if (before !== undefined) {
        const how = before === word ? `by “${word}” twice` : `by “${before}” and by “${word}”`;
        throw new UserError(`${where(device)} is selected ${how}: SCC takes each device once.`);
      }
      seen.set(uid, word);
      chosen.push(device);
    }
  }
  if (chosen.length > MAX_MSP_DEVICES) {
    throw new UserError(
      `That selects ${chosen.length} devices; SCC takes at most ${MAX_MSP_DEVICES} devices per request (and per ` +
        'managed tenant). Narrow the selection, or split it into several requests.',
    );
  }
  const refused = chosen.flatMap((device) => {
    const why = ineligibility(device);
    return why ? [`${where(device)} ${why}`] : [];
  });
  if (refused.length > 0) {
    throw new UserError(
      `SCC would refuse ${refused.length === 1 ? 'this device' : 'these devices'}: ${refused.join('; ')}. ` +
        'Leave them out, or fix them first.',
    );
  }
  return chosen;
}

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

const UpgradeFacts = z.object({
  devices: z.array(MspDeviceFactsSchema).min(1).max(MAX_MSP_DEVICES),
  version: z.string(),
  name: z.string().nullable(),
});
type UpgradeFacts = z.infer<typeof UpgradeFacts>;

async function rereadMspDevice(scc: SccReader, before: MspDeviceFacts): Promise<TargetRead<MspDeviceFacts>> {
  try {
    const { data } = await scc.call('getMspManagedDevice', { path: { deviceUid: before.uid } });
    return { found: true, facts: factsOf(data) };
  } catch (error) {
    if (isNotFound(error))
      return {
        found: false,
        reason: `device ${before.name} (${before.tenantName}) is no longer in a tenant of the MSP portal`,
      };
    throw error;
  }
}

function spread(devices: readonly MspDeviceFacts[]): string {
  const tenants = tenantGroups(devices).length;
  return `${counted(devices.length, 'device')} in ${counted(tenants, 'tenant')}`;
}

export const mspVpnUpgrade = defineOperation({
  id: 'msp.vpn.upgrade',
  words: ['msp', 'vpn', 'upgrade'],
  area: 'msp',
  failure: 'Could not start the Secure Client upgrade across tenants',
  summary:
    'Upgrade Secure Client on ASAs across managed tenants, in one run (after a second person approves)',
  params: [
    DEVICES,
    {
      name: 'version',
      kind: 'word',
      flag: true,
      description: 'the Secure Client version, see `msp vpn versions`',
    },
    { name: 'name', kind: 'word', flag: true, optional: true, description: 'a name to find the run by' },
  ],
  args: z.object({ device: devices(), version: text(), name: optionalText() }),
  role: 'operator',
  tenancy: 'portal',
  // One command reaches many customers' firewalls at once: a second person looks first unless the policy
  // file says otherwise (approvals.operations.msp.vpn.upgrade).
  approval: { default: 'four-eyes' },
  scc: ['getMspManagedDevices', 'getMspManagedDevice', 'upgradeMspManagedAsaSecureClientPackages'],
  examples: [
    'msp vpn upgrade nw-asa-hq globex-asa-01 --version 5.1.8.105',
    'msp vpn upgrade "managedTenantName:northwind-us" --version 5.1.8.105 --name "June refresh"',
  ],
  target: {
    facts: UpgradeFacts,
    resolve: async (ctx, args) => {
      const chosen = (await selectMspDevices(ctx.scc, args.device)).map(factsOf);
      return {
        facts: { devices: chosen, version: args.version, name: args.name ?? null },
        raw: {
          device: chosen.map((d) => d.uid),
          version: args.version,
          ...(args.name ? { name: args.name } : {}),
        },
      };
    },
    reread: async (ctx, facts) => {
      const reads = await Promise.all(facts.devices.map((device) => rereadMspDevice(ctx.scc, device)));
      const gone = reads.find((read) => !read.found);
      if (gone && !gone.found) return gone;
      return {
        found: true,
        facts: { ...facts, devices: reads.flatMap((read) => (read.found ? [read.facts] : [])) },
      };
    },
    compare: (before: UpgradeFacts, after: UpgradeFacts) =>
      before.devices.flatMap((device, i) => {
        const now = after.devices[i];
        if (!now) return [`device ${device.name} is missing`];
        const changes: string[] = [];
        if (now.name !== device.name) changes.push(`device ${device.name} is now named ${now.name}`);
        if (now.tenantUid !== device.tenantUid)
          changes.push(`${now.name} is now in tenant ${now.tenantName}, not ${device.tenantName}`);
        return changes;
      }),
    describe: ({ devices: chosen, version, name }) => ({
      action: `upgrade Secure Client to ${code(version)} on ${spread(chosen)}`,
      line: `Secure Client ${untrusted(version)} on ${chosen.map((d) => untrusted(`${d.name} (${d.tenantName})`)).join(', ')}`,
      fields: [
        {
          // One value on one line: the card shows a field value as typed, line breaks as `\n`.
          label: 'Tenants',
          value: tenantGroups(chosen)
            .map((g) => `${g.tenantName}: ${g.devices.length} (${g.devices.map((d) => d.name).join(', ')})`)
            .join('; '),
        },
        { label: 'Version', value: version },
        ...(name === null ? [] : [{ label: 'Run name', value: name }]),
      ],
      warnings: [
        `Remote-access VPN users of ${tenantGroups(chosen).length === 1 ? 'this customer' : 'every customer listed'} get the new Secure Client at their next connection.`,
      ],
    }),
  },
  run: async (ctx, _args, { devices: chosen, version, name }) => {
    const body = { deviceUids: chosen.map((d) => d.uid), version, ...(name ? { name } : {}) };
    const { data } = await ctx.scc.call('upgradeMspManagedAsaSecureClientPackages', { body });
    return { devices: chosen, transaction: data };
  },
  render: ({ devices: chosen, transaction }, args, meta) =>
    announcement(
      {
        sentence: `upgrade Secure Client to *${args.version}* on ${spread(chosen)}: ${tenantGroups(chosen)
          .map((g) => `${g.tenantName} (${g.devices.map((d) => d.name).join(', ')})`)
          .join(', ')}`,
        tense: 'asked',
        transaction,
        details: [['Run name', args.name]],
        next: 'fwbot follows the upgrade run and reports its progress here, tenant by tenant.',
      },
      meta,
    ),
  track: ({ devices: chosen, transaction }, args) =>
    transaction.transactionUid
      ? [
          {
            kind: 'mspUpgradeRun',
            transactionUid: transaction.transactionUid,
            label: `upgrade Secure Client to ${args.version} on ${spread(chosen)}`,
          },
        ]
      : [],
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
