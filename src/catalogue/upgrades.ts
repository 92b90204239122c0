// Firewall software upgrades (../shared/reference/scc-openapi-upgrades.yaml): so far, the versions each ASA
// or FTD can move to. With the MSP portal's token it reads across the managed tenants (SCC answers ASAs at
// once and calculates FTDs); with a tenant's own token, as in a customer channel, it reads that tenant's
// devices one by one, so SCC itself keeps it inside the tenant. Devices are named, given by UUID, or selected
// by a Lucene query; at most 50, each once.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { renderUpgradeVersions, type UpgradeVersionsRow } from '../render/upgrades.js';
import type { CdoTransaction, Device, MspManagedDevice } from '../scc/generated/models.js';
import { deviceKind } from '../scc/kinds.js';
import { allOf, toLucene, typedLucene } from '../scc/lucene.js';
import { isUuid, list } from './args.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { boundedPaginate, resolveDevice, type SccReader } from './resolve.js';
import { isNotFound } from './sccErrors.js';
import { isMspPortal } from './watches.js';

/** SCC's version reads take at most 50 devices. */
const MAX_DEVICES = 50;
/** SCC's cross-tenant FTD calculation takes seconds. */
const CALCULATION = { intervalMs: 250, maxIntervalMs: 2_000, maxWaitMs: 60_000 } as const;
const UPGRADABLE = '(deviceType:ASA OR deviceType:CDFMC_MANAGED_FTD)';

/** A device whose software can be upgraded, as both kinds of token describe it. */
export interface Upgradable {
  uid: string;
  name: string;
  kind: 'ASA' | 'FTD';
  model: string;
  running: string;
  tenant?: string;
  /** The managed tenant's UID, for a device of the MSP portal's tenants. */
  tenantUid?: string;
}

function upgradable(device: Device | MspManagedDevice, tenant?: string): Upgradable {
  const kind = device.deviceType ? deviceKind({ deviceType: device.deviceType }) : 'other';
  if (kind !== 'asa' && kind !== 'ftd')
    throw new UserError(
      `${device.name} is ${device.deviceType ?? 'a device of unknown type'}: SCC upgrades the software of ASAs and FTDs only.`,
    );
  return {
    uid: device.uid ?? '',
    name: device.name,
    kind: kind === 'asa' ? 'ASA' : 'FTD',
    model: device.hardwareModel ?? 'unknown model',
    running: device.softwareVersion ?? '?',
    ...(tenant === undefined ? {} : { tenant }),
    ...('managedTenantUid' in device && typeof device.managedTenantUid === 'string'
      ? { tenantUid: device.managedTenantUid }
      : {}),
  };
}

/** One word across the portal's tenants: a UUID, a Lucene query (ASAs and FTDs it matches) or a name. */
async function selectInPortal(scc: SccReader, word: string): Promise<Upgradable[]> {
  const tenantOf = (d: MspManagedDevice) => d.managedTenantName ?? d.managedTenantDisplayName ?? '?';
  if (isUuid(word)) {
    try {
      const { data } = await scc.call('getMspManagedDevice', { path: { deviceUid: word } });
      return [upgradable(data, tenantOf(data))];
    } catch (error) {
      if (isNotFound(error))
        throw new UserError(`No device of a tenant in the MSP portal has the UUID ${word}.`);
      throw error;
    }
  }
  if (word.includes(':')) {
    const q = allOf(typedLucene(word).q, UPGRADABLE) ?? UPGRADABLE;
    const found = await boundedPaginate(
      scc,
      'getMspManagedDevices',
      { query: { q } },
      `devices matching “${word}”`,
    );
    if (found.length === 0)
      throw new UserError(
        `No ASA or FTD of a tenant in the MSP portal matches \`${word}\` (searched \`${q}\`).`,
      );
    return found.map((d) => upgradable(d, tenantOf(d)));
  }
  const listed = await boundedPaginate(
    scc,
    'getMspManagedDevices',
    { query: { q: toLucene(word) } },
    `devices matching “${word}”`,
  );
  const wanted = word.toLowerCase();
  const exact = listed.filter((d) => d.name.toLowerCase() === wanted);
  const candidates = exact.length > 0 ? exact : listed.filter((d) => d.name.toLowerCase().includes(wanted));
  const [only] = candidates;
  if (candidates.length === 1 && only) return [upgradable(only, tenantOf(only))];
  if (candidates.length > 1) {
    const shown = candidates.slice(0, 10).map((d) => `${d.name} (${tenantOf(d)})`);
    throw new UserError(
      `“${word}” matches ${candidates.length} devices of managed tenants: ${shown.join(', ')}. Which one?`,
      candidates.slice(0, 10).map((d) => d.name),
    );
  }
  throw new UserError(
    `No device named “${word}” in the tenants of the MSP portal (searched device names containing it).`,
  );
}

/** One word in the token's own tenant: a query selects its ASAs and FTDs, anything else names one device. */
export async function selectInTenant(scc: SccReader, word: string): Promise<Upgradable[]> {
  if (word.includes(':') && !isUuid(word)) {
    const q = allOf(typedLucene(word).q, UPGRADABLE) ?? UPGRADABLE;
    const found = await boundedPaginate(scc, 'getDevices', { query: { q } }, `devices matching “${word}”`);
    if (found.length === 0) throw new UserError(`No ASA or FTD matches \`${word}\` (searched \`${q}\`).`);
    return found.map((d) => upgradable(d));
  }
  const { device } = await resolveDevice(scc, word, {
    kinds: ['asa', 'ftd'],
    why: 'SCC upgrades the software of ASAs and FTDs only',
  });
  return [upgradable(device)];
}

/**
 * With the portal's token a word is looked for in the managed tenants first, then in the portal's own
 * inventory (its devices have no tenant column); with a tenant's token, in that tenant only.
 */
export async function selectWord(scc: SccReader, word: string, portal: boolean): Promise<Upgradable[]> {
  if (!portal) return selectInTenant(scc, word);
  try {
    return await selectInPortal(scc, word);
  } catch (error) {
    if (!(error instanceof UserError) || !/^No (device|ASA)/.test(error.message)) throw error;
    return selectInTenant(scc, word).catch((own: unknown) => {
      throw own instanceof UserError && /^No (device|ASA)/.test(own.message) ? error : own;
    });
  }
}

async function select(
  ctx: OperationContext,
  words: readonly string[],
  portal: boolean,
): Promise<Upgradable[]> {
  const chosen = new Map<string, Upgradable>();
  for (const word of words) {
    for (const device of await selectWord(ctx.scc, word.trim(), portal)) chosen.set(device.uid, device);
  }
  if (chosen.size > MAX_DEVICES)
    throw new UserError(
      `That selects ${chosen.size} devices; SCC reads versions for at most ${MAX_DEVICES} at a time. Narrow it down.`,
    );
  return [...chosen.values()];
}

/** The compatible-versions UID a calculation's transaction names (its entity, or the entity URL's end). */
function calculationUid(transaction: CdoTransaction): string | undefined {
  if (transaction.entityUid) return transaction.entityUid;
  const last = transaction.entityUrl?.split('/').pop();
  return last && isUuid(last) ? last : undefined;
}

/** Versions per device UID, across tenants: ASAs answered at once, FTDs calculated by SCC. */
export async function portalVersions(
  ctx: OperationContext,
  devices: readonly Upgradable[],
): Promise<Map<string, string[]>> {
  const versions = new Map<string, string[]>(devices.map((d) => [d.uid, []]));
  const add = (uid: string | undefined, version: string) => versions.get(uid ?? '')?.push(version);
  const asas = devices.filter((d) => d.kind === 'ASA').map((d) => d.uid);
  if (asas.length > 0) {
    const { data } = await ctx.scc.call('getMspAsaCompatibleUpgradeVersions', {
      query: { deviceUids: asas },
    });
    for (const v of data.compatibleVersions)
      for (const d of v.compatibleDevices) add(d.uid, v.softwareVersion);
  }
  const ftds = devices.filter((d) => d.kind === 'FTD').map((d) => d.uid);
  if (ftds.length > 0) {
    const { data: started } = await ctx.scc.call('calculateMspFtdCompatibleUpgradeVersions', {
      body: { deviceUids: ftds },
    });
    const uid = calculationUid(started);
    if (!started.transactionUid || !uid)
      throw new Error('calculateMspFtdCompatibleUpgradeVersions: SCC named no transaction or result');
    const ended = await ctx.scc.transactions.follow(started.transactionUid, {
      ...CALCULATION,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    const { data } = await ctx.scc.call('getMspFtdCompatibleUpgradeVersions', {
      path: { upgradeVersionUid: uid },
    });
    if (ended.cdoTransactionStatus !== 'DONE' || data.status !== 'DONE') {
      const said = data.errorMessage ?? ended.errorMessage;
      throw new UserError(
        `SCC could not calculate the FTD versions (${data.status === 'DONE' ? ended.cdoTransactionStatus : data.status})${said ? `: ${said}` : '.'}`,
      );
    }
    for (const v of data.compatibleVersions ?? [])
      for (const d of v?.compatibleDevices ?? [])
        add(d.uid, v?.isSuggestedVersion ? `${v.softwareVersion} (suggested)` : (v?.softwareVersion ?? '?'));
  }
  return versions;
}

/** Versions per device UID in the token's own tenant: one read per device. */
async function tenantVersions(
  ctx: OperationContext,
  devices: readonly Upgradable[],
): Promise<Map<string, string[]>> {
  const pairs = await Promise.all(
    devices.map(async (d): Promise<[string, string[]]> => {
      if (d.kind === 'ASA') {
        const { data } = await ctx.scc.call('getAsaUpgradeVersions', { path: { deviceUid: d.uid } });
        return [d.uid, (data.items ?? []).map((v) => v.softwareVersion ?? '?')];
      }
      const { data } = await ctx.scc.call('getCompatibleFtdVersions', { path: { deviceUid: d.uid } });
      return [
        d.uid,
        (data.items ?? []).map(
          (v) => `${v.softwareVersion ?? '?'}${v.isSuggestedVersion ? ' (suggested)' : ''}`,
        ),
      ];
    }),
  );
  return new Map(pairs);
}

export const upgradeVersions = defineOperation({
  id: 'upgrades.versions',
  words: ['upgrades', 'versions'],
  area: 'upgrades',
  failure: 'Could not read the software versions the devices can move to',
  summary:
    'Show the ASA or FTD software versions each device can move to, grouped by model (across tenants for an MSP)',
  params: [
    {
      name: 'device',
      kind: 'word',
      variadic: true,
      description:
        'device names or UUIDs, or a Lucene query with field:value that selects ASAs and FTDs (quote it when it has spaces); at most 50 devices',
    },
  ],
  args: z.object({ device: list({ min: 1, max: MAX_DEVICES, what: 'devices' }) }),
  role: 'viewer',
  approval: 'never',
  scc: [
    'getMspManagedTenants',
    'getMspManagedDevices',
    'getMspManagedDevice',
    'getMspAsaCompatibleUpgradeVersions',
    'calculateMspFtdCompatibleUpgradeVersions',
    'getTransaction',
    'getMspFtdCompatibleUpgradeVersions',
    'getDevices',
    'getDevice',
    'getAsaUpgradeVersions',
    'getCompatibleFtdVersions',
  ],
  examples: [
    'upgrades versions nw-asa-hq globex-asa-01 nw-ftd-edge',
    'upgrades versions asa-branch-02 ftd-edge-02',
    'upgrades versions deviceType:ASA',
  ],
  run: async (ctx, args) => {
    const portal = (await isMspPortal(ctx)) === true;
    const devices = await select(ctx, args.device, portal);
    // The portal's own devices (no tenant) are read as a tenant's are.
    const managed = devices.filter((d) => portal && d.tenant !== undefined);
    const own = devices.filter((d) => !(portal && d.tenant !== undefined));
    const versions = new Map([
      ...(managed.length > 0 ? await portalVersions(ctx, managed) : []),
      ...(own.length > 0 ? await tenantVersions(ctx, own) : []),
    ]);
    const rows: UpgradeVersionsRow[] = devices.map((d) => ({ ...d, versions: versions.get(d.uid) ?? [] }));
    return { acrossTenants: portal, rows };
  },
  render: ({ acrossTenants, rows }) => renderUpgradeVersions(rows, acrossTenants),
});

export const UPGRADE_OPERATIONS: readonly Operation[] = [upgradeVersions];
