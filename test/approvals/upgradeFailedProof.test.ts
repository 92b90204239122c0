// A multi-device upgrade run that ends UPGRADE_FAILED because one device failed (issue 37, item 5): the
// devices that did finish are proven all the same, and the one that failed is named with SCC's reason,
// through Bolt with fwbot's own parts: the approved /fw upgrade stages, the timed work upgrades both in one
// SCC run, the real tracking worker follows it on the simulator's manual clock, and the proof's timed work
// says one message in the card's thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { USERS } from './support/world.js';

const NODE_FAILURE = 'The unit did not come back after reloading with the new image';

describe('approvals: a failed multi-device upgrade proves the devices that finished', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true, timed: true });
  });
  afterAll(async () => {
    await env?.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> =>
    driveClock(env.sim.clock, work, { stepMs: 10_000, maxSteps: 2_000 });
  const record = (name: string) => {
    const found = [...env.sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  const threadTexts = (ts: string) =>
    env.slack.calls
      .filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts)
      .map((c) => stripSentinels(`${String(c.args.text ?? '')}\n${JSON.stringify(c.args.blocks ?? [])}`));

  it('proves the device that finished and names the failed one with SCC’s reason', {
    timeout: 120_000,
  }, async () => {
    for (const name of ['asa-branch-02', 'asa-dc-03']) delete record(name).maintenanceWindow;
    const fault = await fetch(`${env.sim.url}/_sim/devices/asa-branch-02/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'NODE', times: 1 }),
    });
    expect(fault.status).toBe(200);

    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'upgrade asa-branch-02 asa-dc-03 --version 9.20.3', USERS.alice),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const ended = () =>
      threadTexts(card.ts).some((t) => /ASA software upgrade .*u1.* failed \(UPGRADE_FAILED\)/.test(t));
    const until = Date.now() + 60_000;
    while (!ended() && Date.now() < until) {
      env.clock.advance(5 * 60_000);
      await driving(env.timedPass());
      await driving(new Promise((resolve) => setTimeout(resolve, 100)));
    }
    expect(ended()).toBe(true);
    // One SCC run upgraded both: asa-dc-03 finished, asa-branch-02 did not.
    expect(env.sim.requestLog.list({ operationId: 'upgradeAsaDevices' })).toHaveLength(2);
    expect(record('asa-dc-03').device.softwareVersion).toBe('9.20.3');
    expect(record('asa-branch-02').device.softwareVersion).not.toBe('9.20.3');

    const proofs = () => threadTexts(card.ts).filter((t) => t.includes('after the upgrade'));
    const deadline = Date.now() + 20_000;
    while (proofs().length === 0 && Date.now() < deadline) {
      env.clock.advance(61_000);
      await driving(env.timedPass());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Exactly once: another pass says nothing more.
    env.clock.advance(120_000);
    await driving(env.timedPass());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(proofs()).toHaveLength(1);
    const text = proofs()[0] ?? '';
    expect(text).toContain(
      "failed on 1 device (below, with SCC's reason); 1 of the 1 device that finished is proven",
    );
    expect(text).toMatch(/asa-dc-03\*: proven/);
    expect(text).toContain('runs `9.20.3`');
    expect(text).toContain(
      'failover as before (This host: Primary - Active; Other host: Secondary - Standby Ready)',
    );
    expect(text).toMatch(
      new RegExp(`asa-branch-02\\*: not upgraded \\(it reports \`9\\.14\\.4\`\\); SCC says: ${NODE_FAILURE}`),
    );
    expect(text).not.toMatch(/asa-branch-02\*: (proven|differs)/);
  });
});
