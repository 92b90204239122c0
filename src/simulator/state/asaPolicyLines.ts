// The policy lines each simulated ASA holds (`SimState.asaPolicies`) and where `show running-config` prints
// them. Apart from the parse (asaPolicy.ts), so the configuration renderer (asaCli.ts, asaConfig.ts) can
// place the lines without importing the parse, which reads the rendered configuration.
import type { SimState } from './model.js';
import { defaultPolicyLines } from './seedPolicy.js';

/** The policy lines of an ASA: its own once seeded or changed, else the plain policy every ASA starts with. */
export function policyLinesOf(state: SimState, deviceUid: string): string[] {
  return state.asaPolicies?.get(deviceUid) ?? defaultPolicyLines(state.devices.get(deviceUid)?.device.name);
}

/** Replaces an ASA's policy lines (both copies at once: a change made in SCC's UI and deployed). */
export function setPolicyLines(state: SimState, deviceUid: string, lines: string[]): void {
  state.asaPolicies.set(deviceUid, lines);
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

/** A top-level line and its indented body lines. */
function blocks(lines: readonly string[]): string[][] {
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
