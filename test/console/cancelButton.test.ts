// The Cancel… button in the thread of a followed deploy (the demo's assembly: real workers, Redis, the
// simulator): SCC marks the deploy cancellable, so its thread is offered the button; the deploy needed a
// second person, so its cancel does too; once cancelled and ended, the offer loses its button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: the Cancel… button of a followed deploy', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('offers Cancel… while SCC lets the deploy be cancelled, four-eyes like the deploy, and withdraws it at the end', async () => {
    const cancels = () => rig.sim.requestLog.list({ operationId: 'cancelTransaction' }).length;
    // SCC's reads of the device wait on simulated time; small steps keep the deploy running while it is pressed.
    const drive = <T>(work: Promise<T>): Promise<T> =>
      driveClock(rig.sim.clock, work, { stepMs: 250, maxSteps: 2_000 });
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
    // The deploy runs on simulated time; its first read finds SCC saying it may be cancelled.
    const offered = await rig.terminal.waitFor(/\[\d+\] Cancel…/, from, 20_000);
    expect(offered).toMatch(/SCC lets transaction [0-9a-f-]{36} be cancelled while it runs/);
    expect(offered).toMatch(/a second person approves the cancel/);
    const uid = /SCC lets transaction ([0-9a-f-]{36})/.exec(offered)?.[1];
    if (!uid) throw new Error('no transaction in the offer');

    // Alice asked for the deploy: she may cancel it (the line the button runs), and a second person approves.
    // (Pressing the numbered choice races the deploy's later messages, which replace the console's choices.)
    await rig.type('/as alice');
    from = rig.terminal.output.length;
    await drive(rig.type(`transactions cancel ${uid}`));
    const card = await rig.terminal.waitFor(/\[1\] Approve/, from);
    expect(card).toMatch(/cancel the DEPLOY_ASA_DEVICE_CHANGES transaction/);
    expect(card).toMatch(/approved by @bob/);
    expect(cancels()).toBe(0);

    await rig.type('/as bob');
    from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await drive(rig.type('1'));
    await rig.terminal.waitFor(/cancelled the DEPLOY_ASA_DEVICE_CHANGES transaction/, from, 20_000);
    expect(cancels()).toBe(1);
    const ended = await drive(
      rig.terminal.waitFor(/has ended; there is nothing left to cancel/, from, 20_000),
    );
    expect(ended).toMatch(/fwbot updated a message/);
    await rig.type('/as alice');
  }, 120_000);
});
