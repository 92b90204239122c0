// /fw upgrade through Bolt with nothing standing in for fwbot's own parts: signed requests into the real app,
// the approval in Redis, the real tracking workers following the run, the simulator upgrading the devices on
// its manual clock. The card names the device left out and why; a second person approves; while the run
// goes the devices are held (an interface change is refused in one sentence); one progress message per run
// is edited as the units move through the states; the run's failure is a reply in the card's thread with
// SCC's reason, naming the requester; the holds end with the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

describe('approvals: a software upgrade approved in Slack, followed in its thread', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true });
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

  it('card with a device left out → approval by another → run followed, one progress message, failure told', async () => {
    record('asa-branch-02').device.connectivityState = 'UNREACHABLE';
    for (const name of ['asa-hq-01', 'asa-dc-03']) delete record(name).maintenanceWindow;
    const fault = await fetch(`${env.sim.url}/_sim/devices/asa-dc-03/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'NODE', node: 'HA_PRIMARY', message: 'Boot image verification failed' }),
    });
    expect(fault.status).toBe(200);

    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        'upgrade asa-hq-01 asa-dc-03 asa-branch-02 --version 9.20.3',
        USERS.alice,
      ),
    );
    const shown = textOf(card.blocks);
    expect(shown).toContain('upgrade 2 devices to `9.20.3`');
    expect(shown).toContain('HA pair: Primary - Active, Secondary - Standby Ready');
    expect(shown).toContain('Left out');
    expect(shown).toContain('asa-branch-02: not ONLINE (UNREACHABLE)');
    expect(await env.sccCalls('upgradeAsaDevices')).toBe(0);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const started = await env.driver.threadReply(card, (t) => t.includes('asked to upgrade'));
    expect(stripSentinels(started)).toContain('asked to upgrade asa-hq-01, asa-dc-03 to 9.20.3');
    expect(await env.sccCalls('upgradeAsaDevices')).toBe(1);

    // Held while it runs: a change to one of its devices is refused in one sentence.
    const refused = await driving(
      env.driver.commandReply(env.bot.eventsUrl, 'interfaces edit asa-hq-01 inside --mtu 9000', USERS.alice),
    );
    expect(stripSentinels(`${refused.text}\n${textOf(refused.blocks)}`)).toMatch(
      /asa-hq-01 is held by a software upgrade \(request `[^`]+`, asked by <@U0ALICE>\).*nothing was done/,
    );

    const reply = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /ASA software upgrade .*(completed|failed)/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );
    const final = stripSentinels(String(reply.args.text));
    expect(final).toMatch(/^<@U0ALICE> \*upgrade asa-hq-01, asa-dc-03 to 9\.20\.3\*: ASA software upgrade/);
    expect(final).toContain('failed (UPGRADE_FAILED)');
    expect(final).toContain('Boot image verification failed');
    expect(final).toMatch(/asa-dc-03[^\n]*\(primary\)/);

    // One progress message in the thread, edited in place through the states.
    const inThread = env.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts,
    );
    const progress = inThread.filter((c) => /ASA software upgrade/.test(String(c.args.text ?? '')));
    expect(progress).toHaveLength(2); // the progress message, then the outcome
    const updates = env.slack
      .callsTo('chat.update')
      .filter((c) => c.status === 200 && /ASA software upgrade/.test(String(c.args.text ?? '')));
    expect(new Set(updates.map((c) => c.args.ts)).size).toBe(1);
    const states = updates.map((c) => /: ([A-Z_]+)\n/.exec(String(c.args.text))?.[1]);
    expect(states).toContain('PERFORMING_UPGRADE');

    // The holds ended with the run.
    const holds = env.holds;
    if (!holds) throw new Error('no holds');
    const deadline = Date.now() + 20_000;
    while ((await holds.list(env.clock(), 'default')).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await holds.list(env.clock(), 'default')).toEqual([]);
    expect(record('asa-hq-01').device.softwareVersion).toBe('9.20.3');
  });
});
