// Snapshots around a deploy from the console (the demo's assembly: real workers, Redis, the simulator):
// the deploy's thread hears what changed in the running configuration (the console's chat takes no
// files, so it is the code block fwbot posts when an upload fails), and `config history` / `config diff`
// read the two snapshots the deploy kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: configuration snapshots', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('tells the deploy’s thread what changed, then lists and compares the snapshots', async () => {
    const drive = <T>(work: Promise<T>): Promise<T> => driveClock(rig.sim.clock, work, { maxSteps: 600 });
    const asked = rig.terminal.output.length;
    await rig.type('interfaces delete asa-hq-01 Vlan20');
    await rig.terminal.waitFor(/\[1\] Approve/, asked);
    await rig.type('/as bob');
    let from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('1');
    await rig.terminal.waitFor(/staged the deletion of VLAN interface iot/, from);
    await rig.type('/as alice');

    from = rig.terminal.output.length;
    await drive(rig.type('deploy asa-hq-01'));
    await rig.terminal.waitFor(/\[1\] Approve/, from);
    await rig.type('/as bob');
    from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await drive(rig.type('1'));
    const told = await drive(rig.terminal.waitFor(/what changed in the running configuration/, from, 20_000));
    expect(told).toMatch(/asa-hq-01: 7 lines removed, 1 added \(snapshots 1 → 2\)/);
    expect(told).toMatch(/-interface Vlan20/);

    const history = await rig.type('config history asa-hq-01');
    expect(history).toMatch(/2 snapshots of asa-hq-01/);
    expect(history).toMatch(/2 +\S+ \S+ UTC +after deploy/);
    expect(history).toMatch(/1 +\S+ \S+ UTC +before deploy/);
    const diff = await rig.type('config diff asa-hq-01 1 2');
    expect(diff).toMatch(/^ *-interface Vlan20$/m);
    await rig.type('/as alice');
  }, 60_000);
});
