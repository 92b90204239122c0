// `/fw upgrade` through the MSP portal, across its managed tenants (issue 37, item 7): the parts that differ
// from one tenant's upgrade (deviceUpgrade.ts keeps the operation and calls these; upgradeSteps.ts holds one
// tenant's steps). The devices are read
// from the MSP inventory in bulk (one read per 50), their versions asked per 50 (ASAs at once, FTDs by
// SCC's calculation), the runs in progress read once; the checks are those of one tenant's upgrade. SCC's
// MSP ASA and FTD upgrades take at most 50 devices per hardware model per managed tenant in one request:
// the devices are split into requests deterministically (mspBatches), each one MSP run, each followed by
// the mspDeviceUpgradeRun kind.
import { isDeviceUpgradeEnded } from '../follow/deviceUpgradeWords.js';
import type { RunDevice } from '../follow/mspDeviceUpgradeRun.js';
import type { MspManagedDevice, MspUpgradeRunDto } from '../scc/generated/models.js';
import type { OperationContext } from './operation.js';
import { boundedPaginate, LOOKUP_BUDGET } from './resolve.js';
import { upgradeChecks } from './upgradeSteps.js';
import { portalVersions, type Upgradable } from './upgrades.js';

/** SCC's limit on the MSP ASA and FTD upgrades: per hardware model, per managed tenant, per request. */
export const PER_MODEL_PER_TENANT = 50;
/** Devices one command upgrades across tenants at most: what one lookup reads (LOOKUP_BUDGET). */
export const MAX_MSP_UPGRADE = LOOKUP_BUDGET.items;
/** Devices asked about per inventory or versions read (SCC's MSP reads take at most 50). */
const PER_READ = 50;

/** The statuses of an MSP run still going (a staged run that is not stage-only still waits to upgrade). */
const LIVE = [
  'IN_PROGRESS',
  'REBUILDING_UPGRADE_CACHE',
  'UPLOADING_IMAGE',
  'PERFORMING_READINESS_CHECK',
  'UPGRADE_STAGED',
  'PERFORMING_UPGRADE',
];

interface Check {
  check: string;
  ok: boolean;
  said: string;
}

/** The HA check of one tenant's upgrade (upgradeSteps.ts), which reads the same fields of either record. */
export type HaCheck = (device: MspManagedDevice) => { ha?: string; check: Check };

/** What batching needs of a device. */
export interface Batchable {
  uid: string;
  name: string;
  kind: 'ASA' | 'FTD';
  model: string;
  tenantUid?: string | undefined;
  tenant?: string | undefined;
}

const byName = (a: Batchable, b: Batchable) => a.name.localeCompare(b.name) || a.uid.localeCompare(b.uid);

/**
 * The requests to make: ASAs and FTDs apart (two operations), and within each, every (tenant, model) group
 * cut into pieces of at most 50; request i takes piece i of every group. Groups are ordered by tenant name
 * and model, devices by name, so the same devices always give the same requests.
 */
export function mspBatches<D extends Batchable>(devices: readonly D[]): D[][] {
  const requests: D[][] = [];
  for (const kind of ['ASA', 'FTD'] as const) {
    const groups = new Map<string, D[]>();
    for (const d of devices.filter((d) => d.kind === kind)) {
      const key = `${d.tenant ?? ''}\u0000${d.tenantUid ?? ''}\u0000${d.model}`;
      groups.set(key, [...(groups.get(key) ?? []), d]);
    }
    const ordered = [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, group]) => [...group].sort(byName));
    const count = Math.max(0, ...ordered.map((g) => Math.ceil(g.length / PER_MODEL_PER_TENANT)));
    for (let i = 0; i < count; i += 1)
      requests.push(
        ordered.flatMap((g) => g.slice(i * PER_MODEL_PER_TENANT, (i + 1) * PER_MODEL_PER_TENANT)),
      );
  }
  return requests;
}

/** The MSP inventory's records of these devices: one read per 50. */
export async function readManaged(
  ctx: OperationContext,
  uids: readonly string[],
): Promise<Map<string, MspManagedDevice>> {
  const found = new Map<string, MspManagedDevice>();
  for (let start = 0; start < uids.length; start += PER_READ) {
    const chunk = uids.slice(start, start + PER_READ);
    const { data } = await ctx.scc.call('getMspManagedDevices', {
      query: { q: chunk.map((uid) => `uid:"${uid}"`).join(' OR '), limit: PER_READ },
    });
    for (const device of data.items ?? []) if (device.uid) found.set(device.uid.toLowerCase(), device);
  }
  return found;
}

/** The devices of MSP upgrade runs still going, each with its run's name: the runs read once. */
async function upgrading(ctx: OperationContext): Promise<Map<string, string>> {
  const runs = await boundedPaginate(
    ctx.scc,
    'getMspDeviceUpgradeRuns',
    { query: { q: `upgradeRunStatus:(${LIVE.join(' OR ')})` } },
    'upgrade runs across tenants in progress',
  );
  const devices = new Map<string, string>();
  for (const run of runs.filter((r) => !isDeviceUpgradeEnded(r)))
    for (const d of run.metadata?.devices ?? [])
      if (d.uid) devices.set(d.uid.toLowerCase(), run.name ?? run.uid ?? '?');
  return devices;
}

/** The versions SCC offers each device across tenants, per 50 (FTD versions without their "suggested"). */
async function offeredAcross(
  ctx: OperationContext,
  devices: readonly Upgradable[],
): Promise<Map<string, string[]>> {
  const offered = new Map<string, string[]>();
  for (const kind of ['ASA', 'FTD'] as const) {
    const same = devices.filter((d) => d.kind === kind);
    for (let start = 0; start < same.length; start += PER_READ)
      for (const [uid, versions] of await portalVersions(ctx, same.slice(start, start + PER_READ)))
        offered.set(
          uid.toLowerCase(),
          versions.map((v) => v.replace(/ \(suggested\)$/, '')),
        );
  }
  return offered;
}

/** One device of the MSP portal's tenants, checked: the same fields as one tenant's UpgradeDevice. */
export interface MspChecked {
  uid: string;
  name: string;
  kind: 'ASA' | 'FTD';
  model: string;
  running: string;
  tenantUid: string;
  tenant: string;
  ha?: string;
  checks: Check[];
}

/**
 * Every check of each device across tenants, read now: ONLINE; SYNCED with no conflict; in no MSP upgrade
 * run still going; an HA pair's units as expected; the version among those SCC offers it. A device the
 * MSP inventory no longer lists fails with that said.
 */
export async function checkAcross(
  ctx: OperationContext,
  chosen: readonly Upgradable[],
  version: string,
  haCheck: HaCheck,
): Promise<MspChecked[]> {
  const records = await readManaged(
    ctx,
    chosen.map((d) => d.uid),
  );
  const busy = await upgrading(ctx);
  const present = chosen.filter((d) => records.has(d.uid.toLowerCase()));
  const offered = await offeredAcross(ctx, present);
  return chosen.map((d): MspChecked => {
    const record = records.get(d.uid.toLowerCase());
    const base = {
      uid: d.uid,
      name: record?.name ?? d.name,
      kind: d.kind,
      model: record?.hardwareModel ?? d.model,
      running: record?.softwareVersion ?? d.running,
      tenantUid: record?.managedTenantUid ?? d.tenantUid ?? '',
      tenant: record?.managedTenantName ?? record?.managedTenantDisplayName ?? d.tenant ?? '?',
    };
    if (!record)
      return {
        ...base,
        checks: [{ check: 'present', ok: false, said: 'no longer in a tenant of the MSP portal' }],
      };
    const run = busy.get(d.uid.toLowerCase());
    const { ha, check } = haCheck(record);
    const checks = upgradeChecks(
      {
        record,
        runs: run === undefined ? [] : [run],
        ha: check,
        offered: offered.get(d.uid.toLowerCase()) ?? [],
        model: base.model,
        running: base.running,
      },
      version,
    );
    return { ...base, ...(ha ? { ha } : {}), checks };
  });
}

/** The name of request `i`'s MSP run: unique, carrying the request's id (found again after a crash). */
export const mspRunName = (requestId: string, i: number) => `fwbot ${requestId} msp ${i + 1}`;

/** Starts one MSP run for one request's devices (all ASAs or all FTDs): its transaction. */
export async function startMspRun(
  ctx: OperationContext,
  devices: readonly Batchable[],
  options: { version: string; stageOnly: boolean; name: string; ignoreMaintenanceWindow?: boolean },
): Promise<string | undefined> {
  const [first] = devices;
  if (!first) return undefined;
  const body = {
    deviceUids: devices.map((d) => d.uid),
    softwareVersion: options.version,
    stageUpgradeOnly: options.stageOnly,
    name: options.name,
    // fwbot timed it into the device's own (fwbot) change window: SCC's maintenance window must not stop it.
    ...(options.ignoreMaintenanceWindow ? { ignoreMaintenanceWindow: true } : {}),
  };
  const { data } =
    first.kind === 'ASA'
      ? await ctx.scc.call('upgradeMspManagedAsaDevices', { body })
      : await ctx.scc.call('upgradeMspManagedFtdDevices', { body });
  return data.transactionUid ?? undefined;
}

/** The MSP run of this exact name, if SCC has one. */
export async function mspRunNamed(
  ctx: OperationContext,
  name: string,
): Promise<MspUpgradeRunDto | undefined> {
  const { data } = await ctx.scc.call('getMspDeviceUpgradeRuns', {
    query: { q: `name:"${name}"`, limit: '1' },
  });
  return data.items?.find((run) => run.name === name);
}

/** The MSP runs a request started before a crash, by their exact names: one read per request. */
export async function startedMspRuns(
  ctx: OperationContext,
  count: number,
): Promise<{ name: string; transactionUid: string; deviceUids: string[] }[]> {
  const runs = [];
  for (let i = 0; i < count; i += 1) {
    const name = mspRunName(ctx.requestId, i);
    const { data } = await ctx.scc.call('getMspDeviceUpgradeRuns', {
      query: { q: `name:"${name}"`, limit: '1' },
    });
    const run = data.items?.find((item) => item.name === name && item.transactionUid);
    if (run?.transactionUid)
      runs.push({
        name,
        transactionUid: run.transactionUid,
        deviceUids: (run.metadata?.devices ?? []).flatMap((d) => (d.uid ? [d.uid] : [])),
      });
  }
  return runs;
}

/** A run's devices as its follow request carries them: name and tenant. */
export const runDevices = (devices: readonly Batchable[]): RunDevice[] =>
  devices.map((d) => ({ uid: d.uid, name: d.name, tenant: d.tenant ?? '?' }));

/** The card's one line per tenant and model: how many devices, from which versions. */
export function tenantModelLines(devices: readonly (Batchable & { running: string })[]): string[] {
  const groups = new Map<
    string,
    { tenant: string; model: string; kind: string; running: Set<string>; n: number }
  >();
  for (const d of devices) {
    const key = `${d.tenant ?? ''}\u0000${d.model}`;
    const g = groups.get(key) ?? {
      tenant: d.tenant ?? '?',
      model: d.model,
      kind: d.kind,
      running: new Set(),
      n: 0,
    };
    g.n += 1;
    g.running.add(d.running);
    groups.set(key, g);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, g]) => `${g.tenant}: ${g.n} × ${g.kind} ${g.model} (now ${[...g.running].sort().join(', ')})`);
}
