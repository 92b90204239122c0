// When an approved /fw upgrade runs (issue 37, items 3 and 6), through Bolt with fwbot's own parts: the image
// is staged at once on approval (stageUpgrade), the upgrade itself is timed work that waits for the device's
// window (here SCC's maintenance window, fwbot having none) and runs once then, on the driven clocks; the
// device stays held from staging to the end of its upgrade. With --canary, a failed canary stops the rest
// and the thread names it with SCC's reason; --at and the windows' rule are said on the card.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

/** Friday 6 June 2025, 15:00 UTC: the simulator's seeded world starts the Monday before. */
const FRIDAY_AFTERNOON = Date.UTC(2025, 5, 6, 15, 0);
/** The next opening of asa-hq-01's seeded maintenance window (`0 22 * * 6`, UTC). */
const SATURDAY_22 = Date.UTC(2025, 5, 7, 22, 0);
/** The opening of the window the last test gives asa-dc-03 (`0 12 * * 0`, UTC). */
const SUNDAY_12 = Date.UTC(2025, 5, 8, 12, 0);

describe('approvals: an upgrade staged at once and applied in the window', () => {
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> =>
    driveClock(env.sim.clock, work, { stepMs: 10_000, maxSteps: 2_000 });

  function setTime(at: number): void {
    env.sim.clock.advance(Math.max(0, at - env.sim.clock.now()));
    env.clock.advance(at - env.clock());
  }
  const record = (name: string) => {
    const found = [...env.sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  /** The simulator's upgrade run of this name, as SCC keeps it. */
  const simRun = (name: string) => [...env.sim.state.deviceUpgradeRuns.values()].find((r) => r.name === name);
  const threadText = (ts: string, pattern: RegExp) =>
    env.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' && c.args.thread_ts === ts && pattern.test(String(c.args.text ?? '')),
      60_000,
    );
  const heldDevices = async () => {
    const holds = env.holds;
    if (!holds) throw new Error('no holds');
    return (await holds.list(env.clock(), 'default')).map((h) => h.device);
  };

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true, timed: true, clockStart: FRIDAY_AFTERNOON });
    setTime(FRIDAY_AFTERNOON);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('--at outside the device’s window: the card says the rule plainly and when it runs', async () => {
    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        'upgrade asa-hq-01 --version 9.20.3 --at 2025-06-06T18:00Z',
        USERS.alice,
      ),
    );
    const shown = stripSentinels(textOf(card.blocks));
    expect(shown).toMatch(
      /Upgrade of asa-hq-01: Sat 22:00 UTC, in 31 hours .* \(SCC maintenance window \(0 22 \* \* 6 UTC, 240 min\), as fwbot has no change window for it\) — `--at` falls outside it: upgrades stay inside a device's change window, so it waits for the window/,
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'reject', USERS.bob, card));
  });

  it('stages on approval, waits for SCC’s window, upgrades once then; held from staging to the end', async () => {
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'upgrade asa-hq-01 --version 9.20.3', USERS.alice),
    );
    const shown = stripSentinels(textOf(card.blocks));
    expect(shown).toContain('stage now');
    expect(shown).toMatch(
      /Upgrade of asa-hq-01: Sat 22:00 UTC, in 31 hours .*SCC maintenance window .*as fwbot has no change window for it\)$/m,
    );

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const started = await env.driver.threadReply(card, (t) =>
      t.includes('asked to stage asa-hq-01 for 9.20.3'),
    );
    expect(stripSentinels(started)).toMatch(
      new RegExp(`Upgrade 1.*asa-hq-01: Sat 22:00 UTC.*run fwbot ${card.id} u1`, 's'),
    );
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(1);
    expect(simRun(`fwbot ${card.id} 1`)).toMatchObject({ stageUpgradeOnly: true });

    // The staging ends; the device stays held for its upgrade.
    const staged = await driving(threadText(card.ts, /is staged/));
    expect(String(staged.args.text)).toContain('UPGRADE_STAGED');
    expect(await heldDevices()).toEqual(['asa-hq-01']);

    // Due now, but its window is closed: it waits, and the thread says when.
    await env.timedPass();
    const waits = await env.driver.threadReply(card, (t) => t.includes('waits for the change window'));
    expect(waits).toContain('SCC maintenance window (0 22 * * 6 UTC, 240 min)');
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(1);

    // A change to the device meanwhile is refused in one sentence.
    const refused = await driving(
      env.driver.commandReply(env.bot.eventsUrl, 'interfaces edit asa-hq-01 inside --mtu 9000', USERS.alice),
    );
    expect(stripSentinels(`${refused.text}\n${textOf(refused.blocks)}`)).toMatch(
      /asa-hq-01 is held by a software upgrade/,
    );

    setTime(SATURDAY_22);
    await env.timedPass();
    await env.timedPass();
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(2);
    const [sent] = env.sim.requestLog.list({ operationId: 'upgradeAsaDevice', since: 1 }).slice(-1);
    expect(Date.parse(sent?.time ?? '')).toBeGreaterThanOrEqual(SATURDAY_22);
    // SCC's own window timed it, so SCC is not told to ignore it.
    expect(simRun(`fwbot ${card.id} u1`)).toMatchObject({
      stageUpgradeOnly: false,
      ignoreMaintenanceWindow: false,
    });

    const done = await driving(threadText(card.ts, /ASA software upgrade .*(completed|failed)/));
    expect(stripSentinels(String(done.args.text))).toContain('completed (UPGRADE_COMPLETED)');
    expect(record('asa-hq-01').device.softwareVersion).toBe('9.20.3');
    const deadline = Date.now() + 20_000;
    while ((await heldDevices()).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await heldDevices()).toEqual([]);
    // Exactly once: another pass starts nothing.
    await env.timedPass();
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(2);
  });

  it('--canary: a failed canary stops the rest of its model, named with SCC’s reason', async () => {
    for (const name of ['asa-branch-02', 'asa-dc-03']) delete record(name).maintenanceWindow;
    const fault = await fetch(`${env.sim.url}/_sim/devices/asa-branch-02/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'NODE', message: 'Boot image verification failed' }),
    });
    expect(fault.status).toBe(200);
    const before = await env.sccCalls('upgradeAsaDevice');

    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        'upgrade asa-branch-02 asa-dc-03 --version 9.20.3 --canary',
        USERS.alice,
      ),
    );
    const shown = stripSentinels(textOf(card.blocks));
    expect(shown).toMatch(/Canary: asa-branch-02 \([^)]*\) first/);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('asked to stage'));
    await driving(threadText(card.ts, /is staged/));

    // The canary's group starts; the other waits for it.
    await env.timedPass();
    await env.timedPass();
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(before + 1);
    const failed = await driving(threadText(card.ts, /ASA software upgrade .*failed/));
    expect(String(failed.args.text)).toContain('Boot image verification failed');

    // Its follower looks again and stops, naming the canary and SCC's reason.
    setTime(env.clock() + 6 * 60_000);
    await env.timedPass();
    const stopped = await env.driver.threadReply(card, (t) => t.includes('The rest is stopped'));
    expect(stopped).toMatch(
      /asa-dc-03 not upgraded to 9\.20\.3: its canary asa-branch-02 \([^)]*\) failed \(UPGRADE_FAILED\); SCC says: .*Boot image verification failed\)\. The rest is stopped/,
    );
    expect(stopped).toContain('Boot image verification failed');
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(before + 1);
    expect(await env.sccCalls('upgradeAsaDevices')).toBe(1); // the staging of both, only
    expect(record('asa-dc-03').device.softwareVersion).not.toBe('9.20.3');
    expect(await heldDevices()).toEqual([]);
  });

  it('one request, two upgrade runs in different windows: the first run’s end keeps the other device held', async () => {
    delete record('asa-branch-02').softwareUpgradeFault;
    record('asa-dc-03').maintenanceWindow = { startCron: '0 12 * * 0', durationMinutes: 120 };
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'upgrade asa-branch-02 asa-dc-03 --version 9.20.3', USERS.alice),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('asked to stage'));
    await driving(threadText(card.ts, /is staged/));

    // asa-branch-02 has no window: it upgrades now; asa-dc-03 waits for Sunday 12:00 UTC.
    await env.timedPass();
    await env.timedPass();
    const first = await driving(threadText(card.ts, /ASA software upgrade .*(completed|failed)/));
    expect(stripSentinels(String(first.args.text))).toContain(`fwbot ${card.id} u1`);
    expect(record('asa-branch-02').device.softwareVersion).toBe('9.20.3');
    const deadline = Date.now() + 20_000;
    while ((await heldDevices()).includes('asa-branch-02') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await heldDevices()).toEqual(['asa-dc-03']);

    setTime(SUNDAY_12);
    await env.timedPass();
    await env.timedPass();
    const second = await driving(threadText(card.ts, new RegExp(`fwbot ${card.id} u2.*(completed|failed)`)));
    expect(stripSentinels(String(second.args.text))).toContain('completed (UPGRADE_COMPLETED)');
    const end = Date.now() + 20_000;
    while ((await heldDevices()).length > 0 && Date.now() < end)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await heldDevices()).toEqual([]);
  });
});
