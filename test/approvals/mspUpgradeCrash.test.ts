// The upgrade across tenants in the window across a crash (issue 37, items 3, 7 and 11), as for one tenant
// (upgradeCrash.test.ts): the process running timed work is killed with SIGKILL as its MSP upgrade call
// reaches the portal, frozen inside the call by a proxy, and a new worker process takes the item over when
// the claim lapses. When SCC had started the MSP run, the new worker finds it by the name the item gave it
// (`fwbot <request> msp u1`), does not start it again, and hands it to the tracking queue: the thread
// follows it to its end, the devices' holds end with it, and its end says plainly that it is not proven (the
// baseline was lost with the killed process). When the call never reached SCC, the new worker starts the
// upgrade, once. Real processes, real Redis, the simulator's request log and its MSP runs counted.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mspUpgradeInWindow } from '../../src/catalogue/timed/mspUpgradeInWindow.js';
import { stripSentinels } from '../../src/model/marks.js';
import type { DeviceRecord } from '../../src/simulator/state/model.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { type HoldMode, startHoldingProxy } from './support/holdingProxy.js';
import { eventually, killed, timedWorkers } from './support/timedWorkers.js';
import { USERS } from './support/world.js';

const LEASE_MS = 1_000;
/** The MSP portal's ASA upgrade call (upgradeMspManagedAsaDevices), as the holding proxy sees it. */
const MSP_UPGRADE_CALL = /^POST \/v1\/msp\/inventory\/devices\/asas\/upgrades\/trigger/;

describe('approvals: an upgrade across tenants in the window when its worker is killed', () => {
  let env: ApprovalsEnv;
  const workers = timedWorkers(() => env, LEASE_MS);
  const driving = <T>(work: Promise<T>): Promise<T> =>
    driveClock(env.sim.clock, work, { stepMs: 10_000, maxSteps: 2_000 });

  beforeAll(async () => {
    // The driven clock starts at the machine's time: the worker processes run on the machine's clock.
    env = await startEnv({}, { realTracking: true, timed: true });
  });
  afterEach(() => workers.stopAll());
  afterAll(async () => {
    await env?.stop();
  });

  const worker = (simUrl: string) => workers.start(simUrl);
  const record = (name: string) => {
    const found = [...env.sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  /** A copy of a seeded ASA in a managed tenant, with no maintenance window: it upgrades once staged. */
  function clone(from: string, tenant: string, name: string): void {
    const copy: DeviceRecord = structuredClone(record(from));
    const uid = env.sim.state.rng.uuid();
    copy.tenantUid = env.sim.tenantUid(tenant);
    copy.device = { ...copy.device, uid, name };
    delete copy.maintenanceWindow;
    env.sim.state.devices.set(uid, copy);
  }
  const mspRunsNamed = (name: string) =>
    [...env.sim.state.mspDeviceUpgradeRuns.values()].filter((r) => r.name === name);
  const mspUpgrades = () => env.sccCalls('upgradeMspManagedAsaDevices');
  const threadTexts = (ts: string) =>
    env.slack.calls
      .filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts)
      .map((c) => stripSentinels(`${String(c.args.text ?? '')}\n${JSON.stringify(c.args.blocks ?? [])}`));
  const threadText = (ts: string, pattern: RegExp) =>
    env.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' && c.args.thread_ts === ts && pattern.test(String(c.args.text ?? '')),
      60_000,
    );
  const heldDevices = async () => (await env.holds?.list(env.clock(), 'default'))?.map((h) => h.device) ?? [];
  const item = async (requestId: string) => {
    if (!env.timed) throw new Error('no timed work');
    return env.timed.get({ kind: mspUpgradeInWindow.kind, profile: 'default', key: `${requestId}:0` });
  };

  /**
   * Approves an upgrade of two ASAs in two tenants, waits for their staging across tenants to end, then
   * lets a worker process run the upgrade through a proxy that freezes it inside its MSP upgrade call
   * (`forward`: SCC carries the call out; `hold`: SCC never sees it), and kills that process.
   */
  async function killedAtTheMspUpgradeCall(prefix: string, mode: HoldMode) {
    clone('nw-asa-hq', 'northwind-us', `${prefix}-nw`);
    clone('globex-asa-01', 'globex-apj', `${prefix}-gx`);
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, `upgrade ${prefix}-nw ${prefix}-gx --version 9.20.3`, USERS.alice),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('asked to stage'));
    await driving(threadText(card.ts, /is staged/));
    expect(mspRunsNamed(`fwbot ${card.id} msp 1`)).toHaveLength(1);
    const staged = await mspUpgrades();

    const proxy = await startHoldingProxy(env.sim.url, mode, (method, path) =>
      MSP_UPGRADE_CALL.test(`${method} ${path}`),
    );
    const doomed = await worker(proxy.url);
    await proxy.deleteHeld;
    await killed(doomed);
    await proxy.stop();
    return { card, staged };
  }

  it('follows the MSP run SCC started to its end, once, and says it is not proven', {
    timeout: 180_000,
  }, async () => {
    const { card, staged } = await killedAtTheMspUpgradeCall('kf', 'forward');
    const run = `fwbot ${card.id} msp u1`;
    // SCC started it; nobody follows it yet.
    expect(await mspUpgrades()).toBe(staged + 1);
    expect(mspRunsNamed(run)).toHaveLength(1);
    expect((await item(card.id))?.state).toBe('running');
    expect(await heldDevices()).toEqual(expect.arrayContaining(['kf-nw', 'kf-gx']));

    // A new worker takes the item over once the killed one's claim lapses.
    await worker(env.sim.url);
    const done = await eventually(
      () => item(card.id),
      (now) => now?.state === 'done' || now?.state === 'failed',
    );
    expect(done).toMatchObject({
      state: 'done',
      summary: expect.stringContaining(
        `started across tenants before fwbot restarted (run ${run}); followed, not started again`,
      ),
      attempts: 2,
    });
    const restarted = await env.driver.threadReply(card, (t) =>
      t.includes('reached SCC before fwbot restarted'),
    );
    expect(stripSentinels(restarted)).toContain('kf-nw (northwind-us)');
    expect(stripSentinels(restarted)).toContain('kf-gx (globex-apj)');

    // Followed in the thread to its end; its end says why it is not proven.
    const ended = await driving(
      threadText(card.ts, /msp u1\* to 9\.20\.3 across 2 tenants (completed|failed)/),
    );
    const said = stripSentinels(String(ended.args.text));
    expect(said).toContain('completed (UPGRADE_COMPLETED)');
    expect(said).toContain(
      'Not proven: no baseline was kept because fwbot restarted while it started this upgrade across tenants',
    );
    expect(record('kf-nw').device.softwareVersion).toBe('9.20.3');
    expect(record('kf-gx').device.softwareVersion).toBe('9.20.3');
    expect(
      threadTexts(card.ts).filter((t) => /msp u1\* to 9\.20\.3 across 2 tenants completed/.test(t)),
    ).toHaveLength(1);
    // Started exactly once, in SCC's request log and in its MSP runs.
    expect(await mspUpgrades()).toBe(staged + 1);
    expect(mspRunsNamed(run)).toHaveLength(1);
    // The holds end with the run, not at their limit.
    const held = await eventually(heldDevices, (now) => !now.includes('kf-nw') && !now.includes('kf-gx'));
    expect(held).not.toContain('kf-nw');
  });

  it('starts the upgrade across tenants once when the killed worker’s call never reached SCC', {
    timeout: 180_000,
  }, async () => {
    const { card, staged } = await killedAtTheMspUpgradeCall('kh', 'hold');
    const run = `fwbot ${card.id} msp u1`;
    expect(mspRunsNamed(run)).toHaveLength(0);
    expect(await mspUpgrades()).toBe(staged);

    await worker(env.sim.url);
    const done = await eventually(
      () => item(card.id),
      (now) => now?.state === 'done' || now?.state === 'failed',
    );
    expect(done).toMatchObject({
      state: 'done',
      summary: expect.stringMatching(
        new RegExp(
          `^upgrade of kh-(nw|gx) \\(.*\\), kh-(nw|gx) \\(.*\\) started across tenants \\(run ${run}\\)$`,
        ),
      ),
    });
    const ended = await driving(
      threadText(card.ts, /msp u1\* to 9\.20\.3 across 2 tenants (completed|failed)/),
    );
    expect(stripSentinels(String(ended.args.text))).toContain('completed (UPGRADE_COMPLETED)');
    expect(stripSentinels(String(ended.args.text))).not.toContain('Not proven');
    expect(mspRunsNamed(run)).toHaveLength(1);
    // The call the proxy swallowed never reached SCC: the new worker's is the one.
    expect(await mspUpgrades()).toBe(staged + 1);
    const held = await eventually(heldDevices, (now) => !now.includes('kh-nw') && !now.includes('kh-gx'));
    expect(held).not.toContain('kh-gx');
  });
});
