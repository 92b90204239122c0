// The two configurations of each ASA and how they move: SCC's copy (the device's interfaces in
// `SimState.interfaces`, edited by interface changes) and the running copy (`AsaConfigRecord.onDevice`,
// changed only by a deploy or out of band). Owns the device's `configState` (NOT_SYNCED while they differ)
// and `conflictDetectionState`, and drops the cached pending commands whenever either copy changes.

import { changeBlocks, renderAsaConfig } from './asaCli.js';
import type { AsaConfigRecord, DeviceRecord, InterfaceRecord, SimState } from './model.js';

/** SCC's copy of one ASA's interfaces (what interface reads answer). */
export function cloudInterfaces(state: SimState, deviceUid: string): InterfaceRecord[] {
  return [...state.interfaces.values()].filter((i) => i.deviceUid === deviceUid);
}

/** At seed time both copies are the same: every seeded ASA is SYNCED. */
export function seedAsaConfigs(
  devices: readonly DeviceRecord[],
  interfaces: readonly InterfaceRecord[],
): AsaConfigRecord[] {
  return devices
    .filter((d) => d.kind === 'ASA')
    .map((d) => ({
      deviceUid: d.device.uid,
      onDevice: interfaces.filter((i) => i.deviceUid === d.device.uid).map((i) => structuredClone(i)),
    }));
}

/** The ASA's configuration record; one is made from SCC's copy for an ASA that has none yet. */
export function asaConfigOf(state: SimState, deviceUid: string): AsaConfigRecord {
  let record = state.asaConfigs.get(deviceUid);
  if (record === undefined) {
    record = {
      deviceUid,
      onDevice: cloudInterfaces(state, deviceUid).map((i) => structuredClone(i)),
    };
    state.asaConfigs.set(deviceUid, record);
  }
  return record;
}

export function configOnDevice(state: SimState, device: DeviceRecord): string {
  return renderAsaConfig(device, asaConfigOf(state, device.device.uid).onDevice);
}

export function configOnCloud(state: SimState, device: DeviceRecord): string {
  return renderAsaConfig(device, cloudInterfaces(state, device.device.uid));
}

/** What a deploy would run on the device now. */
export function pendingBlocks(state: SimState, device: DeviceRecord) {
  return changeBlocks(
    asaConfigOf(state, device.device.uid).onDevice,
    cloudInterfaces(state, device.device.uid),
  );
}

/** After any change to either copy: the cache goes, and configState says whether the copies differ. */
export function configChanged(state: SimState, device: DeviceRecord): void {
  const record = asaConfigOf(state, device.device.uid);
  delete record.calculated;
  device.device.configState = pendingBlocks(state, device).length > 0 ? 'NOT_SYNCED' : 'SYNCED';
}

/**
 * Replaces the running configuration (a deploy). A deploy that completes overrides out-of-band changes,
 * which clears the conflict; one the device stopped half-way does not.
 */
export function setRunningConfig(
  state: SimState,
  device: DeviceRecord,
  interfaces: InterfaceRecord[],
  completed: boolean,
): void {
  asaConfigOf(state, device.device.uid).onDevice = interfaces;
  if (completed) device.device.conflictDetectionState = 'NO_CONFLICTS';
  configChanged(state, device);
}

/** "Read configuration": SCC's copy becomes the device's, so every staged change is thrown away. */
export function readRunningConfig(state: SimState, device: DeviceRecord): void {
  const uid = device.device.uid;
  for (const i of cloudInterfaces(state, uid)) state.interfaces.delete(i.uid);
  for (const i of asaConfigOf(state, uid).onDevice) state.interfaces.set(i.uid, structuredClone(i));
  device.device.conflictDetectionState = 'NO_CONFLICTS';
  configChanged(state, device);
}

export interface OutOfBandChange {
  hardwareName?: string | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
}

/**
 * A change made on the device itself (console, ASDM): the running copy changes, SCC's does not, and SCC's
 * conflict detection reports CONFLICT_DETECTED. Returns the interface changed, or undefined when the device
 * has no such interface.
 */
export function changeOutOfBand(
  state: SimState,
  device: DeviceRecord,
  change: OutOfBandChange,
): InterfaceRecord | undefined {
  const running = asaConfigOf(state, device.device.uid).onDevice;
  const target =
    change.hardwareName === undefined
      ? (running.find((i) => i.interfaceType === 'PHYSICAL_INTERFACE' && i.name === 'inside') ??
        running.find((i) => i.interfaceType === 'PHYSICAL_INTERFACE' && !i.managementInterface))
      : running.find((i) => i.hardwareName.toLowerCase() === change.hardwareName?.toLowerCase());
  if (target === undefined) return undefined;
  if (change.description !== undefined || change.enabled === undefined) {
    target.description = change.description ?? 'changed on the device console';
  }
  if (change.enabled !== undefined) target.enabled = change.enabled;
  device.device.conflictDetectionState = 'CONFLICT_DETECTED';
  configChanged(state, device);
  return target;
}
