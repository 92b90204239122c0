// /fw upgrade through the MSP portal, planned as in one tenant (issue 37, items 3, 5 and 7), through Bolt with
// fwbot's own parts: the image is staged at once across tenants on approval (the MSP upgrade with
// stageUpgradeOnly), the upgrade itself is timed work that runs at or after `--at`, in each device's window,
// exactly once; with --canary one device per model across the request goes first and the rest only after it
// completed and passed its checks, and a failed canary stops the rest, named with SCC's reason. After a run
// completed, each device is proven with what the portal reads (version, connectivity, failover state), and
// the thread says plainly that the configuration diff and the smoke traces need the tenant's own token;
// a tenant whose own profile fwbot has (named as the tenant) upgrades in that profile's change window,
// SCC told to ignore its own, and its running configuration is compared too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChanges, openPeriod } from '../../src/config/sections/changes.js';
import { stripSentinels } from '../../src/model/marks.js';
import type { DeviceRecord } from '../../src/simulator/state/model.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

/** Friday 6 June 2025, 15:00 UTC: the simulator's seeded world starts the Monday before. */
const FRIDAY_AFTERNOON = Date.UTC(2025, 5, 6, 15, 0);
/** What the first test asks for with `--at`. */
const FRIDAY_18 = Date.UTC(2025, 5, 6, 18, 0);

describe('approvals: an upgrade across tenants staged at once and applied later, proven after', () => {
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> =>
    driveClock(env.sim.clock, work, { stepMs: 10_000, maxSteps: 2_000 });

  function setTime(at: number): void {
    env.sim.clock.advance(Math.max(0, at - env.sim.clock.now()));
    env.clock.advance(Math.max(0, at - env.clock()));
  }
  const record = (name: string) => {
    const found = [...env.sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  /** Copies of a seeded device into a managed tenant, with no maintenance window. */
  function clone(from: string, tenant: string, names: readonly string[]): void {
    const source = record(from);
    for (const name of names) {
      const uid = env.sim.state.rng.uuid();
      const copy: DeviceRecord = structuredClone(source);
      copy.tenantUid = env.sim.tenantUid(tenant);
      copy.device = { ...copy.device, uid, name };
      delete copy.maintenanceWindow;
      env.sim.state.devices.set(uid, copy);
    }
  }
  const fault = async (device: string, body: object) => {
    const res = await fetch(`${env.sim.url}/_sim/devices/${device}/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  };
  /** The simulator's MSP run of this name. */
  const mspRun = (name: string) =>
    [...env.sim.state.mspDeviceUpgradeRuns.values()].find((r) => r.name === name);
  /** Its tenants' runs have ended: completed, failed, or staged by a stage-only run. */
  const ended = (name: string) =>
    (mspRun(name)?.tenantRunUids ?? ['none']).every((uid) => {
      const run = env.sim.state.deviceUpgradeRuns.get(uid);
      return (
        /COMPLETED|FAILED/.test(run?.status ?? '') ||
        (run?.stageUpgradeOnly && run.status === 'UPGRADE_STAGED')
      );
    });
  /** The devices an MSP run upgrades, over its tenants' runs. */
  const devicesOf = (name: string) =>
    (mspRun(name)?.tenantRunUids ?? []).flatMap(
      (uid) => env.sim.state.deviceUpgradeRuns.get(uid)?.devices.map((d) => d.uid) ?? [],
    );
  const threadText = (ts: string, pattern: RegExp) =>
    env.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' && c.args.thread_ts === ts && pattern.test(String(c.args.text ?? '')),
      60_000,
    );
  const inThread = (ts: string) =>
    env.slack.calls
      .filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts)
      .map((c) => stripSentinels(`${String(c.args.text ?? '')}\n${JSON.stringify(c.args.blocks ?? [])}`));
  const heldDevices = async () => {
    const holds = env.holds;
    if (!holds) throw new Error('no holds');
    return (await holds.list(env.clock(), 'default')).map((h) => h.device).sort();
  };
  const upgrades = () => env.sccCalls('upgradeMspManagedAsaDevices');
  /** Moves the simulated time until the MSP run ends (the tracking worker follows it meanwhile). */
  async function runToEnd(name: string): Promise<void> {
    for (let step = 0; step < 2_000 && !ended(name); step += 1) {
      env.sim.clock.advance(5_000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(ended(name)).toBe(true);
  }
  async function releasedAll(): Promise<void> {
    const deadline = Date.now() + 20_000;
    while ((await heldDevices()).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await heldDevices()).toEqual([]);
  }

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true, timed: true, clockStart: FRIDAY_AFTERNOON });
    setTime(FRIDAY_AFTERNOON);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('--at: staged on approval, upgraded across tenants once at that time, then proven with what the portal reads', {
    timeout: 180_000,
  }, async () => {
    clone('nw-asa-hq', 'northwind-us', ['nw-at-01']);
    clone('globex-asa-01', 'globex-apj', ['gx-at-01']);
    // gx-at-01 reloads into its old image: the proof names the version it still reports.
    await fault('gx-at-01', { kind: 'VERSION', times: 1 });

    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        'upgrade nw-at-01 gx-at-01 --version 9.20.3 --at 2025-06-06T18:00Z',
        USERS.alice,
      ),
    );
    const shown = stripSentinels(textOf(card.blocks));
    expect(shown).toContain('upgrade 2 devices in 2 tenants to `9.20.3`');
    expect(shown).toContain('stage now');
    expect(shown).toMatch(/Upgrade of 2 devices: [^\n]*Fri 18:00 UTC[^\n]*\(no change window\)/);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const asked = await env.driver.threadReply(card, (t) => t.includes('asked to stage'));
    expect(stripSentinels(asked)).toMatch(new RegExp(`Upgrade 1.*run fwbot ${card.id} msp u1`, 's'));
    // Staged only, in one MSP request; nothing applied yet.
    expect(await upgrades()).toBe(1);
    expect(mspRun(`fwbot ${card.id} msp 1`)).toMatchObject({ stageUpgradeOnly: true });
    await runToEnd(`fwbot ${card.id} msp 1`);
    await driving(threadText(card.ts, /is staged/));
    expect(await heldDevices()).toEqual(['gx-at-01', 'nw-at-01']);

    // Before 18:00 nothing is due: a pass starts nothing.
    await env.timedPass();
    expect(await upgrades()).toBe(1);

    setTime(FRIDAY_18);
    await env.timedPass();
    await env.timedPass();
    expect(await upgrades()).toBe(2);
    const [sent] = env.sim.requestLog
      .list({ operationId: 'upgradeMspManagedAsaDevices', since: 1 })
      .slice(-1);
    expect(Date.parse(sent?.time ?? '')).toBeGreaterThanOrEqual(FRIDAY_18);
    const applied = mspRun(`fwbot ${card.id} msp u1`);
    expect(applied).toMatchObject({ stageUpgradeOnly: false });
    // No window of fwbot's timed it: SCC is not told to ignore its maintenance window.
    for (const uid of applied?.tenantRunUids ?? [])
      expect(env.sim.state.deviceUpgradeRuns.get(uid)?.ignoreMaintenanceWindow).toBe(false);

    await runToEnd(`fwbot ${card.id} msp u1`);
    const done = await driving(threadText(card.ts, /msp u1\* to 9\.20\.3 across 2 tenants completed/));
    expect(stripSentinels(String(done.args.text))).toContain('completed (UPGRADE_COMPLETED)');
    await releasedAll();

    // The proof, a minute after the end: one message, once.
    const proven = () => inThread(card.ts).filter((t) => t.includes('after the upgrade'));
    const deadline = Date.now() + 30_000;
    while (proven().length === 0 && Date.now() < deadline) {
      env.clock.advance(61_000);
      await driving(env.timedPass());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    env.clock.advance(120_000);
    await driving(env.timedPass());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(proven()).toHaveLength(1);
    const text = proven()[0] ?? '';
    expect(text).toContain('1 of 2 devices proven after the upgrade');
    expect(text).toMatch(/nw-at-01 \(northwind-us\)\*: proven/);
    expect(text).toMatch(/gx-at-01 \(globex-apj\)\*: differs/);
    expect(text).toContain('reports `9.18.4`, not `9.20.3`');
    expect(text).toContain('connectivity ONLINE');
    expect(text).toContain('failover as before (standalone)');
    expect(text).toContain(
      'the running configuration’s diff and the smoke traces need the tenant’s own token, so they could not be checked for globex-apj, northwind-us',
    );
    // Exactly once: another pass starts nothing.
    await env.timedPass();
    expect(await upgrades()).toBe(2);
  });

  it('--canary: one device per model across the request first, the rest only after it completed', {
    timeout: 180_000,
  }, async () => {
    clone('nw-asa-hq', 'northwind-us', ['nw-can-01', 'nw-can-02']);
    clone('nw-asa-hq', 'globex-apj', ['gx-can-01']);
    const before = await upgrades();
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'upgrade name:*-can-0* --version 9.20.3 --canary', USERS.alice),
    );
    const shown = stripSentinels(textOf(card.blocks));
    const canary = /Canary \(one per model across the request\): (\S+) \(/.exec(shown)?.[1];
    expect(canary).toMatch(/^(nw|gx)-can-0\d$/);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('asked to stage'));
    await runToEnd(`fwbot ${card.id} msp 1`);
    await driving(threadText(card.ts, /is staged/));

    // The canary's group starts alone; the rest waits for it.
    await env.timedPass();
    await env.timedPass();
    expect(await upgrades()).toBe(before + 2);
    const first = mspRun(`fwbot ${card.id} msp u1`);
    expect(first).toBeDefined();
    const canaryUid = record(canary ?? '').device.uid;
    expect(devicesOf(`fwbot ${card.id} msp u1`)).toEqual([canaryUid]);
    expect(mspRun(`fwbot ${card.id} msp u2`)).toBeUndefined();
    await runToEnd(`fwbot ${card.id} msp u1`);
    await driving(threadText(card.ts, /msp u1\* to 9\.20\.3 across 1 tenant completed/));

    // Looked at again after its wait: the canary completed and reports the version, so the rest goes, in one
    // MSP run across both tenants.
    setTime(env.clock() + 6 * 60_000);
    await env.timedPass();
    await env.timedPass();
    expect(await upgrades()).toBe(before + 3);
    expect(devicesOf(`fwbot ${card.id} msp u2`)).toHaveLength(2);
    await runToEnd(`fwbot ${card.id} msp u2`);
    await driving(threadText(card.ts, /msp u2\* to 9\.20\.3 across 2 tenants completed/));
    for (const name of ['nw-can-01', 'nw-can-02', 'gx-can-01'])
      expect(record(name).device.softwareVersion).toBe('9.20.3');
    await releasedAll();
  });

  it('--canary: a failed canary stops the rest, named with SCC’s reason', { timeout: 180_000 }, async () => {
    clone('nw-asa-hq', 'northwind-us', ['nw-bad-01']);
    clone('nw-asa-hq', 'globex-apj', ['gx-bad-01']);
    const before = await upgrades();
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'upgrade name:*-bad-0* --version 9.20.3 --canary', USERS.alice),
    );
    const canary = /Canary \(one per model across the request\): (\S+) \(/.exec(
      stripSentinels(textOf(card.blocks)),
    )?.[1];
    if (!canary) throw new Error('no canary on the card');
    const other = canary === 'nw-bad-01' ? 'gx-bad-01' : 'nw-bad-01';
    await fault(canary, { kind: 'NODE', message: 'Boot image verification failed' });

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('asked to stage'));
    await runToEnd(`fwbot ${card.id} msp 1`);
    await driving(threadText(card.ts, /is staged/));

    await env.timedPass();
    await env.timedPass();
    expect(await upgrades()).toBe(before + 2);
    await runToEnd(`fwbot ${card.id} msp u1`);
    const failed = await driving(threadText(card.ts, /msp u1\* to 9\.20\.3 across 1 tenant failed/));
    expect(String(failed.args.text)).toContain('Boot image verification failed');

    // Its follower looks again and stops, naming the canary and SCC's reason; nothing more is upgraded.
    setTime(env.clock() + 6 * 60_000);
    await env.timedPass();
    const stopped = await env.driver.threadReply(card, (t) => t.includes('The rest is stopped'));
    expect(stripSentinels(stopped)).toMatch(
      new RegExp(
        `${other} \\([a-z-]+\\) not upgraded to 9\\.20\\.3: its canary ${canary} \\([^)]*\\) failed \\(UPGRADE_FAILED\\); SCC says: .*Boot image verification failed.*The rest is stopped`,
      ),
    );
    expect(await upgrades()).toBe(before + 2);
    expect(record(other).device.softwareVersion).not.toBe('9.20.3');
    await releasedAll();
  });
});

/**
 * The coming Friday, 15:00 UTC, after the machine's time: configuration snapshots expire in Redis at their
 * time plus the retention (`PXAT`), so this world runs near the real date; and the Saturday 20:00 UTC after
 * it, when the northwind-us profile's change window opens.
 */
const NEXT_FRIDAY = (() => {
  const day = new Date(Date.now() + 86_400_000);
  const ahead = (5 - day.getUTCDay() + 7) % 7;
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + ahead, 15);
})();
const NEXT_SATURDAY_20 = NEXT_FRIDAY + 29 * 3_600_000;

describe('approvals: across tenants, a tenant whose own profile fwbot has', () => {
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> =>
    driveClock(env.sim.clock, work, { stepMs: 10_000, maxSteps: 2_000 });
  function setTime(at: number): void {
    env.sim.clock.advance(Math.max(0, at - env.sim.clock.now()));
    env.clock.advance(Math.max(0, at - env.clock()));
  }
  const record = (name: string) => {
    const found = [...env.sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  const mspRun = (name: string) =>
    [...env.sim.state.mspDeviceUpgradeRuns.values()].find((r) => r.name === name);
  const upgrades = () => env.sccCalls('upgradeMspManagedAsaDevices');

  beforeAll(async () => {
    env = await startEnv(
      {},
      {
        realTracking: true,
        timed: true,
        clockStart: NEXT_FRIDAY,
        tenantProfiles: ['northwind-us'],
        changes: {
          ...defaultChanges,
          windows: [
            {
              profile: 'northwind-us',
              devices: undefined,
              timeZone: 'UTC',
              open: [openPeriod(['sat'], '20:00', '23:00')],
            },
          ],
        },
      },
    );
    setTime(NEXT_FRIDAY);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('upgrades in fwbot’s window of that profile (SCC told to ignore its own), and proves its configuration too', {
    timeout: 180_000,
  }, async () => {
    for (const name of ['nw-asa-hq', 'globex-asa-01']) delete record(name).maintenanceWindow;
    // The new version drops nw-asa-hq's first permit line: only its tenant's own token can see that.
    const res = await fetch(`${env.sim.url}/_sim/devices/nw-asa-hq/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'CONFIG', times: 1 }),
    });
    expect(res.status).toBe(200);

    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'upgrade nw-asa-hq globex-asa-01 --version 9.20.3', USERS.alice),
    );
    expect(stripSentinels(textOf(card.blocks))).toContain(
      'A tenant whose own profile fwbot has (named as the tenant) upgrades in fwbot’s change windows of that profile instead',
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('asked to stage'));
    await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /is staged/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );

    // Due now, but northwind-us's window (its own profile's) is closed: the group waits for it.
    await env.timedPass();
    await env.timedPass();
    expect(await upgrades()).toBe(1);
    const waits = await env.driver.threadReply(card, (t) => t.includes('waits for the change window'));
    expect(waits).toContain('nw-asa-hq');

    setTime(NEXT_SATURDAY_20);
    await env.timedPass();
    await env.timedPass();
    expect(await upgrades()).toBe(2);
    const applied = mspRun(`fwbot ${card.id} msp u1`);
    for (const uid of applied?.tenantRunUids ?? [])
      expect(env.sim.state.deviceUpgradeRuns.get(uid)?.ignoreMaintenanceWindow).toBe(true);

    await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /msp u1\* to 9\.20\.3 across 2 tenants completed/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );
    const proven = () =>
      env.slack.calls
        .filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts)
        .map((c) => stripSentinels(`${String(c.args.text ?? '')}\n${JSON.stringify(c.args.blocks ?? [])}`))
        .filter((t) => t.includes('after the upgrade'));
    const deadline = Date.now() + 30_000;
    while (proven().length === 0 && Date.now() < deadline) {
      env.clock.advance(61_000);
      await driving(env.timedPass());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(proven()).toHaveLength(1);
    const text = proven()[0] ?? '';
    expect(text).toMatch(/nw-asa-hq \(northwind-us\)\*: differs/);
    expect(text).toContain('running configuration differs beyond the lines an upgrade rewrites');
    expect(text).toContain('-access-list');
    expect(text).toMatch(/globex-asa-01 \(globex-apj\)\*: proven/);
    expect(text).toContain('could not be checked for globex-apj');
    expect(text).toContain('they were for northwind-us');
  });
});
