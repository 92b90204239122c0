// Clones of a seeded simulator ASA with everything an access request reads and changes: the device record,
// its interfaces (new UIDs, same names and subnets), and its access policy lines (objects, access lists,
// access-group bindings, routes). The shun drill's clones copy only the device record, enough for a shun;
// an access request traces, lists rules, groups and objects, stages and deploys, so a clone needs its own
// copy of all of that, or it would read the plain default policy.
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { policyLinesOf } from '../../src/simulator/state/asaPolicyLines.js';

/** `count` ASAs: `of` itself first, then clones of it named `<prefix>-02`…; their names, in order. */
export function cloneAsas(sim: SimulatorHandle, of: string, count: number, prefix: string): string[] {
  const state = sim.state;
  const originUid = sim.deviceUid(of);
  const origin = state.devices.get(originUid);
  if (!origin) throw new Error(`the simulator has no ${of}`);
  const interfaces = [...state.interfaces.values()].filter((i) => i.deviceUid === originUid);
  const policy = policyLinesOf(state, originUid);
  const names = [of];
  for (let i = 2; i <= count; i += 1) {
    const name = `${prefix}-${String(i).padStart(2, '0')}`;
    const uid = `a0c0a0c0-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const copy = structuredClone(origin);
    copy.device = { ...copy.device, uid, name };
    state.devices.set(uid, copy);
    for (const [n, iface] of interfaces.entries()) {
      const ifaceUid = `a0c0a0c0-${String(i).padStart(4, '0')}-4000-8000-${String(n).padStart(12, '0')}`;
      state.interfaces.set(ifaceUid, { ...structuredClone(iface), uid: ifaceUid, deviceUid: uid });
    }
    state.asaPolicies.set(uid, [...policy]);
    names.push(name);
  }
  return names;
}
