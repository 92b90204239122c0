// The two configurations of each ASA and how they move: SCC's copy (the device's interfaces in
// `SimState.interfaces`, edited by interface changes, and its policy lines, edited by rule, access group
// and object changes: asaPolicyLines.ts) and the running copy (`AsaConfigRecord.onDevice` and
// `policyOnDevice`, changed only by a deploy or out of band). Owns the device's `configState` (NOT_SYNCED while they differ)
// and `conflictDetectionState`, drops the cached pending commands whenever either copy changes, and
// writes each change to the device's change log (state/changeLog.ts).

import { type ChangeBlock, changeBlocks, POLICY_BLOCK, renderAsaConfig } from './asaCli.js';
import { policyCommands } from './asaPolicyDiff.js';
import {
  devicePolicyLinesOf,
  discardStagedPolicy,
  policyLinesOf,
  stagePolicyLines,
} from './asaPolicyLines.js';
import { commandsBetween, recordDeviceChange } from './changeLog.js';
import type { AsaConfigRecord, ChangelogAction, DeviceRecord, InterfaceRecord, SimState } from './model.js';

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

/** One copy of the ASA's configuration as text: those interfaces and policy lines (by default SCC's). */
export function renderConfig(
  state: SimState,
  device: DeviceRecord,
  interfaces: readonly InterfaceRecord[],
  policy: readonly string[] = policyLinesOf(state, device.device.uid),
): string {
  return renderAsaConfig(device, interfaces, policy);
}

export function configOnDevice(state: SimState, device: DeviceRecord): string {
  const uid = device.device.uid;
  return renderConfig(state, device, asaConfigOf(state, uid).onDevice, devicePolicyLinesOf(state, uid));
}

export function configOnCloud(state: SimState, device: DeviceRecord): string {
  return renderConfig(state, device, cloudInterfaces(state, device.device.uid));
}

/**
 * What a deploy would run on the device now: the interface blocks, then the policy's commands as one block
 * (POLICY_BLOCK), after the interfaces whose names its bindings use.
 */
export function pendingBlocks(state: SimState, device: DeviceRecord): ChangeBlock[] {
  const uid = device.device.uid;
  const blocks = changeBlocks(asaConfigOf(state, uid).onDevice, cloudInterfaces(state, uid));
  const policy = policyCommands(devicePolicyLinesOf(state, uid), policyLinesOf(state, uid));
  if (policy.length === 0) return blocks;
  return [
    ...blocks,
    {
      hardwareName: POLICY_BLOCK,
      action: 'modify',
      commands: policy,
      globalCommands: [],
      unsupported: false,
    },
  ];
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

/**
 * "Read configuration": SCC's copy becomes the device's, so every staged change is thrown away (and an
 * out-of-band change accepted); the change log records it as `by.username` and is COMPLETED.
 */
export function readRunningConfig(
  state: SimState,
  device: DeviceRecord,
  by: { username: string; at: number },
): void {
  const uid = device.device.uid;
  const before = cloudSnapshot(state, uid);
  const policyBefore = policyLinesOf(state, uid);
  const hadConflict = device.device.conflictDetectionState === 'CONFLICT_DETECTED';
  for (const i of cloudInterfaces(state, uid)) state.interfaces.delete(i.uid);
  for (const i of asaConfigOf(state, uid).onDevice) state.interfaces.set(i.uid, structuredClone(i));
  discardStagedPolicy(state, uid);
  device.device.conflictDetectionState = 'NO_CONFLICTS';
  recordStaged(
    state,
    device,
    before,
    {
      action: 'UPDATE',
      username: by.username,
      at: by.at,
      description: `Read the configuration of ${device.device.name} from the device: ${
        hadConflict ? 'the out-of-band change was accepted and ' : ''
      }staged changes were discarded`,
    },
    policyBefore,
  );
}

export interface OutOfBandChange {
  hardwareName?: string | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
  /** Who made it on the device, as the change log names them. */
  username: string;
  at: number;
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
  const before = running.map((i) => structuredClone(i));
  if (change.description !== undefined || change.enabled === undefined) {
    target.description = change.description ?? 'changed on the device console';
  }
  if (change.enabled !== undefined) target.enabled = change.enabled;
  device.device.conflictDetectionState = 'CONFLICT_DETECTED';
  configChanged(state, device);
  recordDeviceChange(state, device, {
    action: 'UPDATE',
    username: change.username,
    at: change.at,
    description: `Out-of-band change detected on ${device.device.name}: ${target.hardwareName} was changed on the device`,
    before: renderConfig(state, device, before),
    after: renderConfig(state, device, running),
    commands: commandsBetween(before, running),
    pending: device.device.configState === 'NOT_SYNCED',
  });
  return target;
}

/** A copy of SCC's interfaces of an ASA as they are now, to record a change against once it is made. */
export function cloudSnapshot(state: SimState, deviceUid: string): InterfaceRecord[] {
  return cloudInterfaces(state, deviceUid).map((i) => structuredClone(i));
}

/**
 * After a change to SCC's copy (staged: through the API, or in SCC's UI): the device's configState, and an
 * event in its change log by `username` with the diff of SCC's copy and the commands a deploy would run.
 */
export function recordStaged(
  state: SimState,
  device: DeviceRecord,
  before: readonly InterfaceRecord[],
  change: { action: ChangelogAction; username: string; at: number; description: string },
  policyBefore: readonly string[] = policyLinesOf(state, device.device.uid),
): void {
  configChanged(state, device);
  const after = cloudInterfaces(state, device.device.uid);
  const policyAfter = policyLinesOf(state, device.device.uid);
  recordDeviceChange(state, device, {
    ...change,
    before: renderConfig(state, device, before, policyBefore),
    after: renderConfig(state, device, after, policyAfter),
    commands: [...commandsBetween(before, after), ...policyCommands(policyBefore, policyAfter)],
    pending: device.device.configState === 'NOT_SYNCED',
  });
}

/**
 * A change to SCC's copy of the ASA's policy (a rule, access group or object, staged through the API): the
 * device keeps running its own lines until a deploy, is NOT_SYNCED, and the change log gets the event.
 */
export function stagePolicy(
  state: SimState,
  device: DeviceRecord,
  lines: string[],
  change: { action: ChangelogAction; username: string; at: number; description: string },
): void {
  const uid = device.device.uid;
  asaConfigOf(state, uid);
  const before = cloudSnapshot(state, uid);
  const policyBefore = policyLinesOf(state, uid);
  stagePolicyLines(state, uid, lines);
  recordStaged(state, device, before, change, policyBefore);
}

/**
 * Gives an ASA that has no interfaces (the MSP and large seeds carry none) a small plausible set, the same
 * in both copies, so that changes can be made and shown on it.
 */
export function ensureAsaInterfaces(state: SimState, device: DeviceRecord): void {
  const uid = device.device.uid;
  if (device.kind !== 'ASA' || cloudInterfaces(state, uid).length > 0) return;
  const record = state.asaConfigs.get(uid);
  if (record !== undefined && record.onDevice.length > 0) return;
  const octet = (state.rng.int(1, 250) % 250) + 1;
  const port = (
    hardwareName: string,
    name: string,
    securityLevel: number,
    ip: string,
    management = false,
  ) => ({
    uid: state.rng.uuid(),
    deviceUid: uid,
    interfaceType: 'PHYSICAL_INTERFACE' as const,
    hardwareName,
    name,
    securityLevel,
    enabled: true,
    mtu: 1500,
    mode: 'ROUTED' as const,
    managementOnly: management,
    managementInterface: management,
    monitorInterface: false,
    macAddress: state.rng.macAddress(),
    ipv4: { ipType: 'STATIC' as const, ipAddress: { ipAddress: ip, netmask: '255.255.255.0' } },
  });
  const interfaces: InterfaceRecord[] = [
    port('GigabitEthernet1/1', 'outside', 0, `203.0.113.${octet}`),
    port('GigabitEthernet1/2', 'inside', 100, `10.${octet}.0.1`),
    port('Management1/1', 'management', 0, '192.168.45.1', true),
  ];
  for (const i of interfaces) state.interfaces.set(i.uid, i);
  state.asaConfigs.set(uid, { deviceUid: uid, onDevice: interfaces.map((i) => structuredClone(i)) });
  configChanged(state, device);
}
