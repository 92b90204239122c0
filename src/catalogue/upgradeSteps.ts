// The steps of a firewall software upgrade that both `/fw upgrade` (deviceUpgrade.ts) and its upgrade in the
// change window (timed/deviceUpgradeInWindow.ts) take: every check of one device read now, the SCC run
// started for devices of one kind, and the windows a device's upgrade waits for: fwbot's change windows as
// deploys use them (deployWindows.ts), or, where fwbot has none for the device, SCC's maintenance window.
import { z } from 'zod';
import { isDeviceUpgradeEnded } from '../follow/deviceUpgradeWords.js';
import { isCron } from '../model/changeWindows.js';
import type { Device } from '../scc/generated/models.js';
import { type DeviceWindowsFacts, deployWindows } from './deployWindows.js';
import type { OperationContext } from './operation.js';
import type { Upgradable } from './upgrades.js';

/** One check of one device: what it is, whether it passed, what was read. */
export const Check = z.object({ check: z.string(), ok: z.boolean(), said: z.string() });
export type Check = z.infer<typeof Check>;

export const UpgradeDevice = z.object({
  uid: z.string(),
  name: z.string(),
  kind: z.enum(['ASA', 'FTD']),
  model: z.string(),
  running: z.string(),
  /** An HA pair's units as read: `Primary - Active, Secondary - Standby Ready`. */
  ha: z.string().optional(),
  /** The FTD upgrade package of the target version for this device's model. */
  packageUid: z.string().optional(),
  /** Its managed tenant, for a device upgraded through the MSP portal (mspDeviceUpgrade.ts). */
  tenantUid: z.string().optional(),
  tenant: z.string().optional(),
  checks: z.array(Check),
});
export type UpgradeDevice = z.infer<typeof UpgradeDevice>;

/**
 * An HA pair's two units and whether they are as expected (one tenant's device record or the MSP portal's
 * record of a managed tenant's device: the same fields): the primary active, the secondary standby and
 * healthy (the state SCC's upgrade starts from and returns the pair to; a pair failed over is not).
 */
export function haCheck(
  device: Pick<Device, 'ftdHaInfo' | 'asaFailoverMode' | 'asaFailoverMate' | 'asaFailoverState'>,
): { ha?: string; check: Check } {
  if (device.ftdHaInfo?.primaryNode || device.ftdHaInfo?.secondaryNode) {
    const nodes = [device.ftdHaInfo.primaryNode, device.ftdHaInfo.secondaryNode];
    const ha = nodes
      .map((n, i) => `${i === 0 ? 'Primary' : 'Secondary'} - ${n?.role ?? '?'} (${n?.status ?? '?'})`)
      .join(', ');
    const ok =
      nodes.every((n) => n?.status === 'NORMAL') &&
      nodes[0]?.role === 'ACTIVE' &&
      nodes[1]?.role === 'STANDBY';
    return { ha, check: { check: 'HA pair', ok, said: ok ? `healthy: ${ha}` : `not healthy: ${ha}` } };
  }
  const paired =
    (device.asaFailoverMode && device.asaFailoverMode !== 'OFF') || device.asaFailoverMate !== undefined;
  if (!paired || !device.asaFailoverMate)
    return { check: { check: 'HA pair', ok: true, said: 'standalone' } };
  const own = device.asaFailoverState ?? '?';
  const mate = device.asaFailoverMate.failoverState ?? '?';
  const ha = `${own}, ${mate}`;
  const units = [own, mate].sort();
  const ok = units[0] === 'Primary - Active' && units[1] === 'Secondary - Standby Ready';
  return {
    ha,
    check: {
      check: 'HA pair',
      ok,
      said: ok
        ? `healthy: ${ha}`
        : `not in the expected failover state (primary Active, secondary Standby Ready): ${ha}`,
    },
  };
}

/** The upgrade runs of this device that have not ended, by name. */
async function liveRuns(ctx: OperationContext, uid: string): Promise<string[]> {
  const { data } = await ctx.scc.call('getDeviceUpgradeRuns', {
    query: { q: `deviceUids:"${uid}"`, limit: '50' },
  });
  return (data.items ?? [])
    .filter((run) => (run.deviceUids ?? []).includes(uid) && !isDeviceUpgradeEnded(run))
    .map((run) => run.name ?? run.uid ?? '?');
}

/** The versions SCC offers this device, and the FTD package of each. */
async function offered(ctx: OperationContext, device: Upgradable): Promise<Map<string, string | undefined>> {
  if (device.kind === 'ASA') {
    const { data } = await ctx.scc.call('getAsaUpgradeVersions', { path: { deviceUid: device.uid } });
    return new Map((data.items ?? []).map((v) => [v.softwareVersion ?? '?', undefined]));
  }
  const { data } = await ctx.scc.call('getCompatibleFtdVersions', { path: { deviceUid: device.uid } });
  return new Map((data.items ?? []).map((v) => [v.softwareVersion ?? '?', v.upgradePackageUid ?? undefined]));
}

/**
 * The checks of one device before an upgrade, in the order the card lists them, from what was read of it
 * (its record, its upgrade runs still going, its HA check, the versions SCC offers it): one tenant's devices
 * (checkDevice) and the MSP portal's (mspDeviceUpgrade.ts) read them differently and judge them alike.
 */
export function upgradeChecks(
  read: {
    record: Pick<Device, 'connectivityState' | 'conflictDetectionState' | 'configState'>;
    runs: readonly string[];
    ha: Check;
    offered: readonly string[];
    model: string;
    running: string;
  },
  version: string,
): Check[] {
  const { record, runs, offered, model, running } = read;
  const online = record.connectivityState === 'ONLINE';
  const conflict = record.conflictDetectionState === 'CONFLICT_DETECTED';
  const synced = record.configState === 'SYNCED' && !conflict;
  const fits = offered.includes(version);
  const others = offered.slice(0, 6).join(', ');
  return [
    {
      check: 'online',
      ok: online,
      said: online ? 'ONLINE' : `not ONLINE (${record.connectivityState ?? 'unknown'})`,
    },
    {
      check: 'synced',
      ok: synced,
      said: synced
        ? 'SYNCED, no conflict'
        : conflict
          ? 'a conflict is detected between SCC and the device'
          : `not SYNCED (${record.configState ?? 'unknown'}): changes are staged, deploy or discard them first`,
    },
    {
      check: 'not upgrading',
      ok: runs.length === 0,
      said: runs.length === 0 ? 'no upgrade run in progress' : `already upgrading (run ${runs.join(', ')})`,
    },
    read.ha,
    {
      check: 'version',
      ok: fits,
      said: fits
        ? `${version} is offered for ${model}`
        : running === version
          ? `it runs ${version} already`
          : `${version} is not offered for it (${others ? `SCC offers ${others}` : 'SCC offers no newer version'})`,
    },
  ];
}

/** Every check of one device, read now. */
export async function checkDevice(
  ctx: OperationContext,
  chosen: Upgradable,
  version: string,
): Promise<UpgradeDevice> {
  const { data: device } = await ctx.scc.call('getDevice', { path: { deviceUid: chosen.uid } });
  const running = device.softwareVersion ?? chosen.running;
  const runs = await liveRuns(ctx, chosen.uid);
  const { ha, check } = haCheck(device);
  const versions = await offered(ctx, chosen);
  const checks = upgradeChecks(
    { record: device, runs, ha: check, offered: [...versions.keys()], model: chosen.model, running },
    version,
  );
  const packageUid = versions.get(version);
  return {
    uid: chosen.uid,
    name: device.name ?? chosen.name,
    kind: chosen.kind,
    model: device.hardwareModel ?? chosen.model,
    running,
    ...(ha ? { ha } : {}),
    ...(packageUid ? { packageUid } : {}),
    checks,
  };
}

export const failures = (device: UpgradeDevice) => device.checks.filter((c) => !c.ok).map((c) => c.said);

/** Where a device's upgrade waits: fwbot's change windows, else SCC's maintenance window, else none. */
export type WindowSource = 'fwbot' | 'scc' | 'none';

export interface UpgradeWindows {
  uid: string;
  device: string;
  source: WindowSource;
  windows: DeviceWindowsFacts['windows'];
}

/**
 * Each device's windows for its upgrade, read now: fwbot's (the policy's, and SCC's where the tenant
 * schedules deploys in them, as deploys count them) when it has any; else the device's SCC maintenance
 * window, in which SCC itself applies an upgrade; else none (it upgrades as soon as its image is staged).
 */
export async function upgradeWindows(
  ctx: OperationContext,
  devices: readonly { uid: string; name: string }[],
): Promise<UpgradeWindows[]> {
  const fwbot = await deployWindows(ctx, devices);
  const result: UpgradeWindows[] = [];
  for (const [i, device] of devices.entries()) {
    const own = fwbot[i]?.windows ?? [];
    if (own.length > 0) {
      result.push({ uid: device.uid, device: device.name, source: 'fwbot', windows: own });
      continue;
    }
    const { data } = await ctx.scc.call('getDevice', { path: { deviceUid: device.uid } });
    const maintenance = data.deviceMaintenanceWindow;
    if (maintenance?.startCron && maintenance.durationMinutes && isCron(maintenance.startCron))
      result.push({
        uid: device.uid,
        device: device.name,
        source: 'scc',
        windows: [
          { kind: 'scc', startCron: maintenance.startCron, durationMinutes: maintenance.durationMinutes },
        ],
      });
    else result.push({ uid: device.uid, device: device.name, source: 'none', windows: [] });
  }
  return result;
}

/** How one SCC run is started: to what, staged only or applied, and whether SCC's maintenance window binds. */
export interface RunStart {
  version: string;
  stageOnly: boolean;
  /** fwbot timed it into the device's own (fwbot) change window: SCC's maintenance window must not stop it. */
  ignoreMaintenanceWindow?: boolean;
  /** Unique per tenant, carrying the request's id: found again by it after a crash. */
  name: string;
}

/** Starts one SCC run for devices of one kind (and, for FTDs, one package); its transaction's uid. */
export async function startRun(
  ctx: OperationContext,
  devices: readonly UpgradeDevice[],
  start: RunStart,
): Promise<string | undefined> {
  const [first] = devices;
  if (!first) return undefined;
  const stage = {
    stageUpgrade: start.stageOnly,
    name: start.name,
    ...(start.ignoreMaintenanceWindow ? { ignoreMaintenanceWindow: true } : {}),
  };
  if (first.kind === 'ASA') {
    const body = { ...stage, softwareVersion: start.version };
    const { data } =
      devices.length === 1
        ? await ctx.scc.call('upgradeAsaDevice', { path: { deviceUid: first.uid }, body })
        : await ctx.scc.call('upgradeAsaDevices', {
            body: { ...body, deviceUids: devices.map((d) => d.uid) },
          });
    return data.transactionUid ?? undefined;
  }
  if (!first.packageUid) throw new Error(`no FTD upgrade package for ${first.name}`);
  const body = { ...stage, upgradePackageUid: first.packageUid };
  const { data } =
    devices.length === 1
      ? await ctx.scc.call('upgradeFtdDevice', { path: { deviceUid: first.uid }, body })
      : await ctx.scc.call('upgradeFtdDevices', { body: { ...body, deviceUids: devices.map((d) => d.uid) } });
  return data.transactionUid ?? undefined;
}
