// The proof after a software upgrade, through Bolt with fwbot's own parts: the approved /fw upgrade keeps each
// device's running configuration, failover state and smoke-trace verdicts right before its run; the real
// tracking worker follows the run on the simulator's manual clock and, when it completes, schedules the
// timed work `upgrade-proof`; a pass over timed work compares and says one message in the card's thread: a
// device proven, or what differs with the evidence (the diff's lines, the verdicts before and after). Faults
// of the simulator make the differences observable: CONFIG drops a permit line, VERSION keeps the old version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSmokeTrace } from '../../src/config/sections/upgrades.js';
import { stripSentinels } from '../../src/model/marks.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { USERS } from './support/world.js';

const TRACE = 'tcp 198.51.100.7 203.0.113.10 443 --in outside';

function smokeTraces(devices: string, text: string) {
  const parsed = parseSmokeTrace(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return { smokeTraces: [{ devices, traces: [{ text, flow: parsed.value }] }] };
}

describe('approvals: a software upgrade proven after it completed', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true, timed: true, upgrades: smokeTraces('name:asa-*', TRACE) });
  });
  afterAll(async () => {
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> =>
    driveClock(env.sim.clock, work, { stepMs: 10_000, maxSteps: 2_000 });
  const record = (name: string) => {
    const found = [...env.sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  const fault = async (device: string, kind: string) => {
    const res = await fetch(`${env.sim.url}/_sim/devices/${device}/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind, times: 1 }),
    });
    expect(res.status).toBe(200);
  };
  const proofs = (ts: string) =>
    env.slack.calls
      .filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts)
      .map((c) => stripSentinels(`${String(c.args.text ?? '')}\n${JSON.stringify(c.args.blocks ?? [])}`))
      .filter((text) => text.includes('after the upgrade'));

  /** Asks, approves, waits for the run's end reply, then runs the timed work past the proof's delay. */
  async function upgradeAndProve(command: string): Promise<string[]> {
    const card = await driving(env.driver.ask(env.bot.eventsUrl, command, USERS.alice));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    // Staged at once; the upgrade itself is timed work in the device's window (none here: as soon as the
    // image is staged), so passes over the timed work start it once the staging has ended.
    const completed = () =>
      env.slack.calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /ASA software upgrade .*completed/.test(String(c.args.text ?? '')),
      );
    const started = Date.now() + 60_000;
    while (!completed() && Date.now() < started) {
      env.clock.advance(5 * 60_000);
      await driving(env.timedPass());
      await driving(new Promise((resolve) => setTimeout(resolve, 100)));
    }
    expect(completed()).toBe(true);
    // The passes above move the clock in 5-minute steps, past the proof's one-minute delay.
    // The item is scheduled once the end is recorded; its delay passes on the driven clock.
    const deadline = Date.now() + 20_000;
    while (proofs(card.ts).length === 0 && Date.now() < deadline) {
      env.clock.advance(61_000);
      await driving(env.timedPass());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /after the upgrade/.test(String(c.args.text ?? '')),
        30_000,
      ),
    );
    // Exactly once: another pass says nothing more.
    env.clock.advance(120_000);
    await driving(env.timedPass());
    await new Promise((resolve) => setTimeout(resolve, 200));
    return proofs(card.ts);
  }

  it('names what differs, with the evidence, and says a device is proven', { timeout: 120_000 }, async () => {
    for (const name of ['asa-hq-01', 'asa-dc-03']) delete record(name).maintenanceWindow;
    await fault('asa-hq-01', 'CONFIG');

    const said = await upgradeAndProve('upgrade asa-hq-01 asa-dc-03 --version 9.20.3');
    expect(said).toHaveLength(1);
    const text = said[0] ?? '';
    expect(text).toContain('1 of 2 devices proven after the upgrade');
    // asa-dc-03: the HA pair failed back, the configuration changed only in the upgrade's lines.
    expect(text).toMatch(/asa-dc-03\*: proven/);
    expect(text).toContain(
      'failover as before (This host: Primary - Active; Other host: Secondary - Standby Ready)',
    );
    expect(text).toContain('running configuration changed only as an upgrade changes it');
    // asa-hq-01: the permit line is gone from its configuration, and the smoke trace's verdict changed.
    expect(text).toMatch(/asa-hq-01\*: differs/);
    expect(text).toContain('runs `9.20.3`');
    expect(text).toContain(
      'running configuration differs beyond the lines an upgrade rewrites: 1 removed, 0 added',
    );
    expect(text).toContain('-access-list outside_access_in extended permit tcp any object WEB-01 eq https');
    expect(text).toMatch(
      /smoke trace `tcp 198\.51\.100\.7 203\.0\.113\.10 443 --in outside`: before ALLOW[^;]*; after DROP/,
    );
    expect(record('asa-hq-01').device.softwareVersion).toBe('9.20.3');
  });

  it('says a device that still reports its old version', { timeout: 120_000 }, async () => {
    delete record('asa-branch-02').maintenanceWindow;
    await fault('asa-branch-02', 'VERSION');
    const said = await upgradeAndProve('upgrade asa-branch-02 --version 9.16.4');
    expect(said).toHaveLength(1);
    const text = said[0] ?? '';
    expect(text).toContain('0 of 1 device proven after the upgrade');
    expect(text).toContain('reports `9.14.4`, not `9.16.4`');
  });
});
