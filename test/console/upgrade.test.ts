// /fw upgrade from the console, over the real machinery (simulator on its manual clock, Redis, the tracking
// workers): the card names the device left out and why, the requester may not approve it, another person
// approves it by number, the run is started, and its end (staged) is told in the console.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: a software upgrade', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('card with a device left out → approved by another → staged, told', async () => {
    const branch = [...rig.sim.state.devices.values()].find((d) => d.device.name === 'asa-branch-02');
    if (!branch) throw new Error('no asa-branch-02 in the seed');
    branch.device.connectivityState = 'UNREACHABLE';
    const from = rig.terminal.output.length;
    await rig.type('upgrade asa-hq-01 asa-branch-02 --version 9.20.3 --stage-only');
    const card = await rig.terminal.waitFor(/approval #1:/, from);
    expect(card).toContain('@alice asks to stage asa-hq-01 to 9.20.3 (stage only).');
    expect(card).toContain('asa-branch-02: not ONLINE (UNREACHABLE)');
    expect(card).toContain('✓ ONLINE');

    await rig.type('/as bob');
    const approving = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('/approve 1');
    await rig.terminal.waitFor(/asked to stage asa-hq-01 to 9\.20\.3/, approving);
    expect(rig.sim.requestLog.list({ operationId: 'upgradeAsaDevice' })).toHaveLength(1);
    const told = await driveClock(
      rig.sim.clock,
      rig.terminal.waitFor(/ASA software upgrade [^\n]* is staged/, approving, 60_000),
      { stepMs: 10_000, maxSteps: 2_000 },
    );
    expect(told).toContain('UPGRADE_STAGED');
  });
});
