// The policy lines each simulated ASA holds, in its two copies: SCC's (`SimState.asaPolicies`, what the
// rule, group and object APIs read and change) and the device's (the same until a change staged through
// the API, then `AsaConfigRecord.policyOnDevice` until a deploy), and where `show running-config` prints
// them. Apart from the parse (asaPolicy.ts), so the configuration renderer (asaCli.ts, asaConfig.ts) can
// place the lines without importing the parse, which reads the rendered configuration.
import type { SimState } from './model.js';
import { defaultPolicyLines } from './seedPolicy.js';

/**
 * SCC's copy of an ASA's policy lines: its own once seeded or changed, else the plain policy every ASA
 * starts with.
 */
export function policyLinesOf(state: SimState, deviceUid: string): string[] {
  return state.asaPolicies?.get(deviceUid) ?? defaultPolicyLines(state.devices.get(deviceUid)?.device.name);
}

/** The device's copy: SCC's, unless a staged change has not been deployed. */
export function devicePolicyLinesOf(state: SimState, deviceUid: string): string[] {
  return state.asaConfigs.get(deviceUid)?.policyOnDevice ?? policyLinesOf(state, deviceUid);
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((line, i) => line === b[i]);

/**
 * A change to SCC's copy only (staged through the API): the device keeps the lines it runs until a deploy
 * (`deployPolicyLines`). The caller records the change (asaConfig.ts: configState, change log).
 */
export function stagePolicyLines(state: SimState, deviceUid: string, lines: string[]): void {
  const onDevice = devicePolicyLinesOf(state, deviceUid);
  state.asaPolicies.set(deviceUid, lines);
  const record = state.asaConfigs.get(deviceUid);
  if (record === undefined) return;
  if (same(onDevice, lines)) delete record.policyOnDevice;
  else record.policyOnDevice = [...onDevice];
}

/** A deploy that ran the policy's commands: the device runs `lines` (SCC's copy when it was snapshotted). */
export function deployPolicyLines(state: SimState, deviceUid: string, lines: readonly string[]): void {
  const record = state.asaConfigs.get(deviceUid);
  if (record === undefined) return;
  if (same(lines, policyLinesOf(state, deviceUid))) delete record.policyOnDevice;
  else record.policyOnDevice = [...lines];
}

/** "Read configuration": SCC's copy becomes the device's, staged policy changes are gone. */
export function discardStagedPolicy(state: SimState, deviceUid: string): void {
  const record = state.asaConfigs.get(deviceUid);
  if (record?.policyOnDevice === undefined) return;
  state.asaPolicies.set(deviceUid, record.policyOnDevice);
  delete record.policyOnDevice;
}

/**
 * A change made in SCC's UI and deployed at once (the admin routes): `edit` is applied to both copies, so
 * a change staged through the API stays staged beside it.
 */
export function editBothCopies(
  state: SimState,
  deviceUid: string,
  edit: (lines: readonly string[]) => string[],
): void {
  const record = state.asaConfigs.get(deviceUid);
  const staged = record?.policyOnDevice;
  state.asaPolicies.set(deviceUid, edit(policyLinesOf(state, deviceUid)));
  if (record !== undefined && staged !== undefined) {
    const onDevice = edit(staged);
    if (same(onDevice, policyLinesOf(state, deviceUid))) delete record.policyOnDevice;
    else record.policyOnDevice = onDevice;
  }
}

/** The policy lines split into the places `show running-config` prints them. */
export interface PolicySections {
  /** Objects (without their NAT lines), object-groups and access lists: after the DNS and interface settings. */
  definitions: string[];
  /** Object NAT: `object network X` again with its `nat` line, after `arp timeout`. */
  nat: string[];
  /** `access-group` bindings, then the static routes. */
  bindings: string[];
  routes: string[];
}

/** The lines grouped as blocks: a top-level line and its indented body lines. */
export function blocks(lines: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const line of lines) {
    const last = out.at(-1);
    if (line.startsWith(' ') && last !== undefined) last.push(line);
    else out.push([line]);
  }
  return out;
}

export function policySections(lines: readonly string[]): PolicySections {
  const sections: PolicySections = { definitions: [], nat: [], bindings: [], routes: [] };
  for (const [head = '', ...body] of blocks(lines)) {
    if (head.startsWith('access-group ')) sections.bindings.push(head, ...body);
    else if (head.startsWith('route ') || head.startsWith('ipv6 route ')) sections.routes.push(head, ...body);
    else if (head.startsWith('object network ')) {
      const nat = body.filter((l) => l.trim().startsWith('nat '));
      sections.definitions.push(head, ...body.filter((l) => !l.trim().startsWith('nat ')));
      if (nat.length > 0) sections.nat.push(head, ...nat);
    } else sections.definitions.push(head, ...body);
  }
  return sections;
}
