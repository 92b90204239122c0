// Scheduled deploys from the console (the demo's assembly: real approvals in Redis, the simulator): a
// deploy asked for `--at` and approved is listed by `deployments scheduled` with a Cancel… button; someone
// who neither asked nor approved is refused in a sentence, the requester cancels it (after the button's
// confirmation), its thread is told, and the list is empty again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSccClient } from '../../src/scc/client.js';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: scheduled deploys', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('lists a held deploy and lets its requester, not a bystander, cancel it', async () => {
    const drive = <T>(work: Promise<T>): Promise<T> => driveClock(rig.sim.clock, work, { maxSteps: 600 });
    const scc = createSccClient({
      baseUrl: rig.sim.url,
      token: rig.sim.tokens.superAdmin,
      profile: 'default',
    });
    const deviceUid = rig.sim.deviceUid('asa-branch-02');
    const vlan = [...rig.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === deviceUid && i.hardwareName === 'Vlan30',
    );
    if (!vlan) throw new Error('no Vlan30 on asa-branch-02');
    await scc.call('deleteAsaVlanInterface', { path: { deviceUid, interfaceUid: vlan.uid } });
    await scc.close();
    const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const start = rig.terminal.output.length;
    await drive(rig.type(`deploy asa-branch-02 --at ${at}`));
    await rig.terminal.waitFor(/\[1\] Approve/, start);
    await rig.type('/as bob');
    let from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await drive(rig.type('1'));
    await drive(rig.terminal.waitFor(/scheduled for \w{3} \d\d:\d\d UTC, in 2 days/, from));

    await rig.type('/as carol');
    const listed = await rig.type('deployments scheduled');
    expect(listed).toMatch(/Scheduled \(1\)/);
    expect(listed).toMatch(/deploy to asa-branch-02 · request ap-[0-9a-f]{10}/);
    expect(listed).toMatch(/Asked by @alice · approved by @bob/);
    expect(listed).toMatch(/\[1\] Cancel…/);
    from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('1');
    expect(await rig.terminal.waitFor(/may cancel request/, from)).toMatch(
      /Only @alice or @bob \(who asked for it and who approved it\) may cancel request ap-/,
    );

    await rig.type('/as alice');
    expect(await rig.type('deployments scheduled')).toMatch(/\[1\] Cancel…/);
    from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('1');
    expect(rig.terminal.questions.at(-1)).toMatch(/Cancel the scheduled run\?/);
    await rig.terminal.waitFor(/Cancelled the scheduled run of request/, from);
    await rig.terminal.waitFor(/the scheduled run of this request was cancelled by @alice/, from);
    expect(await rig.type('deployments scheduled')).toMatch(/No approved request of profile \w+ is waiting/);
  }, 60_000);
});
