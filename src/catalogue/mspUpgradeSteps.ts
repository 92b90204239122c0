// The steps of `/fw upgrade` across the MSP portal's managed tenants that come after the staging (issue 37,
// items 3, 5 and 7): the windows each device's upgrade waits for, what each device is right before its
// upgrade, and the proof after it. The timed kinds timed/mspUpgradeInWindow.ts and timed/mspUpgradeProof.ts
// take them; one tenant's steps are upgradeSteps.ts and upgradeProof.ts, which these reuse.
//
// The portal's token reads every managed tenant's devices (their records: version, connectivity, failover
// state, SCC's maintenance window) but neither a tenant's running configuration nor its command line, and
// fwbot's change windows are the policy's for a profile. So a tenant whose own profile fwbot has (a profile
// named as the tenant, case aside, or by its UID: the rule src/jobs/workers.ts profileByTenant follows for
// a tenant's transactions) gets what one tenant's upgrade gets: fwbot's change windows of that profile
// (then SCC is told to ignore its maintenance window), the configuration snapshot and diff, the smoke
// traces. A tenant without one gets SCC's maintenance window and the checks the portal can make, and the
// thread says which checks could not be made and why.
import { z } from 'zod';
import { profileNamedLike } from '../config/scope.js';
import { isCron } from '../model/changeWindows.js';
import type { View } from '../model/view.js';
import { code } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import type { SccClient } from '../scc/client.js';
import type { MspManagedDevice } from '../scc/generated/models.js';
import { readManaged } from './mspDeviceUpgrade.js';
import type { OperationContext } from './operation.js';
import {
  DeviceBaseline,
  type DeviceProof,
  failoverOf,
  keepUpgradeBaseline,
  proofView,
  proveDevice,
} from './upgradeProof.js';
import { type UpgradeWindows, upgradeWindows } from './upgradeSteps.js';

/** A device of the MSP portal's tenants as these steps need it. */
export interface MspDevice {
  uid: string;
  name: string;
  kind: 'ASA' | 'FTD';
  tenantUid: string;
  tenant: string;
}

/**
 * The profile whose token acts inside a managed tenant: one named as the tenant (case aside), else one
 * named by its UID; never the portal's own. Undefined: only the portal reads the tenant.
 */
export function tenantProfileFor(
  tenant: { name: string; uid: string },
  profiles: readonly string[],
  portal: string,
): string | undefined {
  const others = profiles.filter((name) => name !== portal);
  return (
    profileNamedLike(tenant.name, others) ??
    others.find((name) => name.toLowerCase() === tenant.uid.toLowerCase())
  );
}

/** Where the tenants' own tokens are: the profiles there are, and a client of each. */
export interface TenantProfiles {
  profiles(): readonly string[];
  clientOf(profile: string): SccClient;
}

/** An operation's context on a tenant's own profile (its token), or undefined when fwbot has none. */
export function tenantContext(
  ctx: OperationContext,
  tenants: TenantProfiles | undefined,
  device: { tenant: string; tenantUid: string },
): OperationContext | undefined {
  if (!tenants) return undefined;
  const profile = tenantProfileFor(
    { name: device.tenant, uid: device.tenantUid },
    tenants.profiles(),
    ctx.profile,
  );
  return profile === undefined ? undefined : { ...ctx, scc: tenants.clientOf(profile), profile };
}

/** The devices of each tenant together, in the order first seen. */
function byTenant<D extends MspDevice>(devices: readonly D[]): D[][] {
  const groups = new Map<string, D[]>();
  for (const d of devices) groups.set(d.tenantUid, [...(groups.get(d.tenantUid) ?? []), d]);
  return [...groups.values()];
}

/**
 * Each device's windows for its upgrade, read now: on its tenant's own profile, what one tenant's upgrade
 * reads (fwbot's change windows of that profile, else SCC's maintenance window); without one, SCC's
 * maintenance window as the portal's record of the device says it, else none.
 */
export async function mspUpgradeWindows(
  ctx: OperationContext,
  devices: readonly MspDevice[],
  tenants: TenantProfiles | undefined,
): Promise<UpgradeWindows[]> {
  const found = new Map<string, UpgradeWindows>();
  const portalOnly: MspDevice[] = [];
  for (const group of byTenant(devices)) {
    const first = group[0];
    const own = first ? tenantContext(ctx, tenants, first) : undefined;
    if (!own) {
      portalOnly.push(...group);
      continue;
    }
    for (const w of await upgradeWindows(own, group)) found.set(w.uid, w);
  }
  const records =
    portalOnly.length > 0
      ? await readManaged(
          ctx,
          portalOnly.map((d) => d.uid),
        )
      : new Map();
  for (const device of portalOnly) {
    const maintenance = records.get(device.uid.toLowerCase())?.deviceMaintenanceWindow;
    found.set(
      device.uid,
      maintenance?.startCron && maintenance.durationMinutes && isCron(maintenance.startCron)
        ? {
            uid: device.uid,
            device: device.name,
            source: 'scc',
            windows: [
              { kind: 'scc', startCron: maintenance.startCron, durationMinutes: maintenance.durationMinutes },
            ],
          }
        : { uid: device.uid, device: device.name, source: 'none', windows: [] },
    );
  }
  return devices.map(
    (d) => found.get(d.uid) ?? { uid: d.uid, device: d.name, source: 'none' as const, windows: [] },
  );
}

// ---------------------------------------------------------------------------------------------------
// Before and after

/** One device across tenants right before its upgrade: one tenant's baseline, with its tenant. */
export const MspDeviceBaseline = DeviceBaseline.extend({
  tenant: z.string(),
  tenantUid: z.string(),
  /** The tenant's own profile that kept its configuration and traced its smoke traces; none: the portal's. */
  tenantProfile: z.string().optional(),
});
export type MspDeviceBaseline = z.infer<typeof MspDeviceBaseline>;

export const MspUpgradeBaseline = z.object({ version: z.string(), devices: z.array(MspDeviceBaseline) });
export type MspUpgradeBaseline = z.infer<typeof MspUpgradeBaseline>;

/** Why a tenant without its own profile gets no configuration diff nor smoke traces. */
const PORTAL_ONLY =
  'not compared: across tenants the running configuration needs the tenant’s own token, and fwbot has no profile for this tenant';

/**
 * What each device is right before its upgrade: on its tenant's own profile, one tenant's baseline
 * (configuration kept, failover state, smoke traces); without one, the failover state of the portal's record.
 */
export async function keepMspBaseline(
  ctx: OperationContext,
  devices: readonly MspDevice[],
  version: string,
  tenants: TenantProfiles | undefined,
): Promise<MspUpgradeBaseline> {
  const out: MspDeviceBaseline[] = [];
  const portalOnly: MspDevice[] = [];
  for (const group of byTenant(devices)) {
    const first = group[0];
    const own = first ? tenantContext(ctx, tenants, first) : undefined;
    if (!own) {
      portalOnly.push(...group);
      continue;
    }
    const kept = await keepUpgradeBaseline(own, group, version);
    for (const [i, d] of kept.devices.entries()) {
      const device = group[i];
      if (device)
        out.push({ ...d, tenant: device.tenant, tenantUid: device.tenantUid, tenantProfile: own.profile });
    }
  }
  const records =
    portalOnly.length > 0
      ? await readManaged(
          ctx,
          portalOnly.map((d) => d.uid),
        )
      : new Map();
  for (const device of portalOnly) {
    const record = records.get(device.uid.toLowerCase());
    out.push({
      uid: device.uid,
      name: device.name,
      kind: device.kind,
      tenant: device.tenant,
      tenantUid: device.tenantUid,
      failover: record ? failoverOf(device, record) : 'not read (no longer in a tenant of the MSP portal)',
      configNote: PORTAL_ONLY,
      traces: [],
    });
  }
  const order = new Map(devices.map((d, i) => [d.uid, i]));
  return { version, devices: out.sort((a, b) => (order.get(a.uid) ?? 0) - (order.get(b.uid) ?? 0)) };
}

/**
 * One device after its upgrade across tenants. On its tenant's own profile (the one that kept its
 * baseline): one tenant's proof. Otherwise what the portal reads: the version it reports, its connectivity,
 * its failover state, each compared as one tenant's proof compares them.
 */
async function proveAcross(
  ctx: OperationContext,
  device: MspDeviceBaseline,
  version: string,
  tenants: TenantProfiles | undefined,
  records: ReadonlyMap<string, MspManagedDevice>,
): Promise<DeviceProof> {
  if (device.tenantProfile !== undefined) {
    if (tenants?.profiles().includes(device.tenantProfile))
      return proveDevice(
        { ...ctx, scc: tenants.clientOf(device.tenantProfile), profile: device.tenantProfile },
        device,
        version,
      );
    return {
      name: device.name,
      proven: false,
      lines: [`✗ not read: the profile ${code(device.tenantProfile)} that kept its baseline is gone`],
    };
  }
  const record = records.get(device.uid.toLowerCase());
  if (!record)
    return { name: device.name, proven: false, lines: ['✗ no longer in a tenant of the MSP portal'] };
  const lines: string[] = [];
  let proven = true;
  const check = (ok: boolean, line: string) => {
    if (!ok) proven = false;
    lines.push(`${ok ? '✓' : '✗'} ${line}`);
  };
  const reports = record.softwareVersion ?? 'nothing';
  check(
    reports === version,
    reports === version ? `runs ${code(version)}` : `reports ${code(reports)}, not ${code(version)}`,
  );
  const connectivity = record.connectivityState ?? 'UNKNOWN';
  check(connectivity === 'ONLINE', `connectivity ${untrusted(connectivity)}`);
  const failover = failoverOf(device, record);
  check(
    failover === device.failover,
    failover === device.failover
      ? `failover as before (${untrusted(failover)})`
      : `failover was ${untrusted(device.failover)}, now ${untrusted(failover)}`,
  );
  lines.push('– running configuration and smoke traces not checked (no profile of its tenant in fwbot)');
  return { name: device.name, proven, lines };
}

/** Every device of a run after its upgrade across tenants: the portal's records read once per 50. */
export async function proveMspDevices(
  ctx: OperationContext,
  baseline: MspUpgradeBaseline,
  tenants: TenantProfiles | undefined,
): Promise<DeviceProof[]> {
  const portalOnly = baseline.devices.filter((d) => d.tenantProfile === undefined);
  const records =
    portalOnly.length > 0
      ? await readManaged(
          ctx,
          portalOnly.map((d) => d.uid),
        )
      : new Map();
  const proofs: DeviceProof[] = [];
  for (const device of baseline.devices) {
    try {
      proofs.push(await proveAcross(ctx, device, baseline.version, tenants, records));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      proofs.push({ name: device.name, proven: false, lines: [`✗ not read: ${untrusted(why)}`] });
    }
  }
  return proofs;
}

/**
 * The thread's one message for a run across tenants: one tenant's proof message, each device named with
 * its tenant, and a plain line on what could not be checked across tenants and for which tenants.
 */
export function mspProofView(label: string, baseline: MspUpgradeBaseline, proofs: DeviceProof[]): View {
  const named = proofs.map((p, i) => {
    const tenant = baseline.devices[i]?.tenant;
    return tenant ? { ...p, name: `${p.name} (${tenant})` } : p;
  });
  const view = proofView(label, named);
  const without = [
    ...new Set(baseline.devices.filter((d) => d.tenantProfile === undefined).map((d) => d.tenant)),
  ].sort();
  const withOwn = [
    ...new Set(baseline.devices.filter((d) => d.tenantProfile !== undefined).map((d) => d.tenant)),
  ].sort();
  const said =
    without.length === 0
      ? `Every tenant here has its own profile in fwbot: the running configuration and the smoke traces were compared too (${withOwn.map(untrusted).join(', ')}).`
      : `Across tenants the MSP portal’s token reads each device’s version, connectivity and failover state only: the running configuration’s diff and the smoke traces need the tenant’s own token, so they could not be checked for ${without.map(untrusted).join(', ')} (fwbot has no profile named as ${without.length === 1 ? 'that tenant' : 'those tenants'})${withOwn.length > 0 ? `; they were for ${withOwn.map(untrusted).join(', ')}` : ''}.`;
  return { ...view, blocks: [...view.blocks, { kind: 'text', text: `:information_source: ${said}` }] };
}
