// Following a Secure Client upgrade across managed tenants: the trigger's transaction names no run the
// list can be asked for directly, so the MSP run is found by its transactionUid, then read until it ends.
// Each device's tenant is read once from the MSP inventory when the run is found (kept in the job's state),
// so progress and the final reply speak tenant by tenant.
import type { SccClient } from '../../scc/client.js';
import type { MspSecureClientUpgradeRunDto } from '../../scc/generated/models.js';
import { mspUpgradeRunFraction } from '../learningRuns.js';
import {
  type DeviceTenants,
  isUpgradeTerminal,
  MSP_UPGRADE_WAITING,
  mspUpgradeOutcome,
  mspUpgradeProgress,
  mspUpgradeRunGoneOutcome,
} from '../messages.js';
import { end, type Step, unlessGone, untilTheRunExists } from './step.js';

/** Devices asked about per inventory read (SCC's MSP upgrades take at most 50 devices per tenant). */
const DEVICES_PER_READ = 50;

/** Each device's tenant, from the MSP inventory: one read per 50 devices; devices it lacks are left out. */
export async function readDeviceTenants(
  scc: SccClient,
  deviceUids: readonly string[],
): Promise<DeviceTenants> {
  const tenants: DeviceTenants = {};
  for (let start = 0; start < deviceUids.length; start += DEVICES_PER_READ) {
    const chunk = deviceUids.slice(start, start + DEVICES_PER_READ);
    const { data } = await scc.call('getMspManagedDevices', {
      query: { q: chunk.map((uid) => `uid:"${uid}"`).join(' OR '), limit: DEVICES_PER_READ },
    });
    for (const device of data.items ?? []) {
      if (!device.uid) continue;
      tenants[device.uid] = {
        tenantUid: device.managedTenantUid ?? '',
        tenantName: device.managedTenantName ?? device.managedTenantDisplayName ?? 'tenant unknown',
      };
    }
  }
  return tenants;
}

export const stepMspUpgradeRun: Step<'mspUpgradeRun'> = async (ctx, request, state) => {
  const scc = ctx.client;
  let runUid = state.runUid;
  let run: MspSecureClientUpgradeRunDto | undefined;
  if (runUid) {
    const known = runUid;
    run = await unlessGone(
      async () => (await scc.call('getMspSecureClientUpgradeRun', { path: { upgradeRunUid: known } })).data,
    );
    if (!run) return end(mspUpgradeRunGoneOutcome(known));
  } else {
    const { data } = await scc.call('getMspSecureClientUpgradeRuns', {
      query: { q: `transactionUid:"${request.transactionUid}"`, limit: 1 },
    });
    run = data.items?.find((item) => item.transactionUid === request.transactionUid && item.uid);
    runUid = run?.uid ?? undefined;
  }
  // No run yet: SCC may still be accepting the request, or its transaction may already have failed.
  if (!run || !runUid) return untilTheRunExists(ctx, request.transactionUid, state, MSP_UPGRADE_WAITING);
  const deviceTenants =
    state.deviceTenants ??
    (await readDeviceTenants(
      scc,
      (run.devices ?? []).flatMap((device) => (device.uid ? [device.uid] : [])),
    ));
  if (isUpgradeTerminal(run.upgradeRunStatus)) {
    const outcome = mspUpgradeOutcome(run, deviceTenants);
    if (outcome) return end(outcome);
  }
  const fraction = mspUpgradeRunFraction(run);
  return {
    kind: 'continue',
    state: { ...state, runUid, deviceTenants, lastStatus: run.upgradeRunStatus ?? undefined },
    progress: mspUpgradeProgress(run, deviceTenants),
    ...(fraction === undefined ? {} : { fraction }),
  };
};
