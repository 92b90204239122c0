// Software upgrades from the console (issue 37 item 10), over the real machinery (simulator on its manual
// clock, Redis, the tracking workers and the rig's passes over timed work): the versions devices can move to,
// grouped by model across the MSP portal's tenants; a canary upgrade approved by another person, whose
// canary is upgraded by the timed work and told in the thread while the rest waits for it; and an upgrade
// across the portal's tenants, approved and staged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: software upgrades on every surface', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  const device = (name: string) => {
    const found = [...rig.sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  const driving = (work: Promise<string>) =>
    driveClock(rig.sim.clock, work, { stepMs: 10_000, maxSteps: 3_000 });

  /** Asks as alice, approves as bob (by number), and goes back to alice. */
  async function approved(command: string, number: number): Promise<number> {
    const from = rig.terminal.output.length;
    await rig.type('/as alice');
    await rig.type(command);
    await rig.terminal.waitFor(new RegExp(`approval #${number}:`), from);
    await rig.type('/as bob');
    const approving = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type(`/approve ${number}`);
    return approving;
  }

  it('upgrades versions: by model, across the portal’s tenants', async () => {
    const said = await driving(rig.type('upgrades versions nw-asa-hq globex-asa-01 nw-ftd-edge'));
    expect(said).toContain('Software versions 3 devices in 2 tenants can move to');
    expect(said).toContain('Cisco ASA5516-X');
    expect(said).toContain('Cisco Firepower 1120 Threat Defense');
    expect(said).toContain('7.4.2 (suggested)');
  });

  it('--canary approved by another: staged, the canary upgraded by the timed work, the rest waits', async () => {
    // SCC applies an upgrade only in a device's maintenance window: these have none.
    for (const name of ['asa-hq-01', 'asa-branch-02']) delete device(name).maintenanceWindow;
    const approving = await approved('upgrade asa-hq-01 asa-branch-02 --version 9.20.3 --canary', 1);
    const asked = await rig.terminal.waitFor(/Upgrade 2: [^\n]*/, approving);
    expect(asked).toContain('asked to stage asa-hq-01, asa-branch-02 for 9.20.3');
    expect(asked).toMatch(/Upgrade 1: +asa-hq-01 \(canary\): once its image is staged/);
    const told = await driving(
      rig.terminal.waitFor(
        /upgrade asa-hq-01 to 9\.20\.3: ASA software upgrade [^\n]* u1 completed \(UPGRADE_COMPLETED\)/,
        approving,
        60_000,
      ),
    );
    expect(told).toContain('is staged (the image is on the devices, not yet applied)');
    expect(device('asa-hq-01').device.softwareVersion).toBe('9.20.3');
    // The other device of the model waits for its canary's checks: not upgraded yet.
    expect(device('asa-branch-02').device.softwareVersion).toBe('9.14.4');
    expect(rig.terminal.since(approving)).not.toMatch(
      /upgrade asa-branch-02 to 9\.20\.3: ASA software upgrade/,
    );
  });

  it('across the MSP portal’s tenants: approved by another, staged, told', async () => {
    const approving = await approved('upgrade nw-asa-hq globex-asa-01 --version 9.20.3 --stage-only', 2);
    await rig.terminal.waitFor(/asked to stage 2 devices in 2 tenants to 9\.20\.3/, approving);
    expect(rig.sim.requestLog.list({ operationId: 'upgradeMspManagedAsaDevices' }).length).toBeGreaterThan(0);
    const told = await driving(
      rig.terminal.waitFor(/stage 2 devices in 2 tenants to 9\.20\.3[^\n]* is staged/, approving, 60_000),
    );
    expect(told).toContain('nw-asa-hq');
    expect(told).toContain('globex-asa-01');
  });
});
