// The upgrade in the window across a crash (issue 37, items 3 and 11): the process running timed work is
// killed with SIGKILL as its upgrade call reaches SCC, frozen inside the call by a proxy, and a new worker
// process takes the item over when the claim lapses. When SCC had started the run, the new worker finds it
// by the name the item gave it, does not start it again, and hands it to the tracking queue: the thread
// follows it to its end, the device's hold ends with it, and its end says plainly that it is not proven
// (the baseline was lost with the killed process). When the call never reached SCC, the new worker starts
// the upgrade, once. A bot without timed work, which stages and applies in one run, killed at the same call:
// the next bot's recovery pass finds the run, follows it, and its end says it is not proven. Real
// processes, real Redis, the simulator's request log and its own runs counted.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deviceUpgradeInWindow } from '../../src/catalogue/timed/deviceUpgradeInWindow.js';
import { stripSentinels } from '../../src/model/marks.js';
import { driveClock } from '../support/driveClock.js';
import { redisUrl } from '../support/testRedis.js';
import { childBots } from './support/childBot.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { type HoldMode, startHoldingProxy } from './support/holdingProxy.js';
import { eventually, killed, timedWorkers } from './support/timedWorkers.js';
import { USERS } from './support/world.js';

const LEASE_MS = 1_000;
/** One ASA's upgrade call (upgradeAsaDevice), as the holding proxy sees it. */
const UPGRADE_CALL = /^POST \/v1\/inventory\/devices\/asas\/[^/]+\/upgrades\/trigger/;

describe('approvals: an upgrade in the window when its worker is killed', () => {
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
  const runsNamed = (name: string) =>
    [...env.sim.state.deviceUpgradeRuns.values()].filter((r) => r.name === name);
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
    return env.timed.get({ kind: deviceUpgradeInWindow.kind, profile: 'default', key: `${requestId}:0` });
  };

  /**
   * Approves an upgrade of `device` (no change window: it upgrades once staged), waits for its staging to
   * end, then lets a worker process run the upgrade through a proxy that freezes it inside its upgrade call
   * (`forward`: SCC carries the call out; `hold`: SCC never sees it), and kills that process.
   */
  async function killedAtTheUpgradeCall(device: string, mode: HoldMode) {
    delete record(device).maintenanceWindow;
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, `upgrade ${device} --version 9.20.3`, USERS.alice),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes(`asked to stage ${device} for 9.20.3`));
    await driving(threadText(card.ts, /is staged/));
    const staged = await env.sccCalls('upgradeAsaDevice');

    const proxy = await startHoldingProxy(env.sim.url, mode, (method, path) =>
      UPGRADE_CALL.test(`${method} ${path}`),
    );
    const doomed = await worker(proxy.url);
    await proxy.deleteHeld;
    await killed(doomed);
    await proxy.stop();
    return { card, staged };
  }

  it('follows the run SCC started to its end, once, and says it is not proven', {
    timeout: 120_000,
  }, async () => {
    const { card, staged } = await killedAtTheUpgradeCall('asa-hq-01', 'forward');
    const run = `fwbot ${card.id} u1`;
    // SCC started it; nobody follows it yet.
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(staged + 1);
    expect(runsNamed(run)).toHaveLength(1);
    expect((await item(card.id))?.state).toBe('running');

    // A new worker takes the item over once the killed one's claim lapses.
    await worker(env.sim.url);
    const done = await eventually(
      () => item(card.id),
      (now) => now?.state === 'done' || now?.state === 'failed',
    );
    expect(done).toMatchObject({
      state: 'done',
      summary: expect.stringContaining(
        `started before fwbot restarted (run ${run}); followed, not started again`,
      ),
      attempts: 2,
    });
    await env.driver.threadReply(card, (t) => t.includes('reached SCC before fwbot restarted'));

    // Followed in the thread to its end; its end says why it is not proven.
    const ended = await driving(threadText(card.ts, /ASA software upgrade .*u1.*(completed|failed)/));
    const said = stripSentinels(String(ended.args.text));
    expect(said).toContain('completed (UPGRADE_COMPLETED)');
    expect(said).toContain(
      'Not proven: no baseline was kept because fwbot restarted while it started this upgrade',
    );
    expect(record('asa-hq-01').device.softwareVersion).toBe('9.20.3');
    expect(threadTexts(card.ts).filter((t) => /ASA software upgrade .*u1.*completed/.test(t))).toHaveLength(
      1,
    );
    // Started exactly once, in SCC's request log and in its runs.
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(staged + 1);
    expect(runsNamed(run)).toHaveLength(1);
    // The hold ends with the run, not at its limit.
    expect(await eventually(heldDevices, (held) => !held.includes('asa-hq-01'))).not.toContain('asa-hq-01');
  });

  it('starts the upgrade once when the killed worker’s call never reached SCC', {
    timeout: 120_000,
  }, async () => {
    const { card, staged } = await killedAtTheUpgradeCall('asa-branch-02', 'hold');
    const run = `fwbot ${card.id} u1`;
    expect(runsNamed(run)).toHaveLength(0);
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(staged);

    await worker(env.sim.url);
    const done = await eventually(
      () => item(card.id),
      (now) => now?.state === 'done' || now?.state === 'failed',
    );
    expect(done).toMatchObject({ state: 'done', summary: `upgrade of asa-branch-02 started (run ${run})` });
    const ended = await driving(threadText(card.ts, /ASA software upgrade .*u1.*(completed|failed)/));
    expect(stripSentinels(String(ended.args.text))).toContain('completed (UPGRADE_COMPLETED)');
    expect(stripSentinels(String(ended.args.text))).not.toContain('Not proven');
    expect(runsNamed(run)).toHaveLength(1);
    // The call the proxy swallowed never reached SCC: the new worker's is the one.
    expect(await env.sccCalls('upgradeAsaDevice')).toBe(staged + 1);
    expect(await eventually(heldDevices, (held) => !held.includes('asa-branch-02'))).not.toContain(
      'asa-branch-02',
    );
  });

  it('applied at once by a bot killed at its upgrade call: found, followed, and said not proven', {
    timeout: 120_000,
  }, async () => {
    // A bot without timed work stages and applies in one run, keeping the baseline just before it.
    const bots = childBots(env, { redisUrl: redisUrl(), executionLeaseMs: LEASE_MS, tracking: true });
    try {
      delete record('asa-dc-03').maintenanceWindow;
      const before = await env.sccCalls('upgradeAsaDevice');
      const proxy = await startHoldingProxy(env.sim.url, 'forward', (method, path) =>
        UPGRADE_CALL.test(`${method} ${path}`),
      );
      const doomed = await bots.start(proxy.url);
      const card = await driving(
        env.driver.ask(doomed.eventsUrl, 'upgrade asa-dc-03 --version 9.20.3', USERS.alice),
      );
      await driving(env.driver.click(doomed.eventsUrl, 'approve', USERS.bob, card));
      await driving(proxy.deleteHeld);
      await doomed.kill('SIGKILL');
      await proxy.stop();
      expect(await env.sccCalls('upgradeAsaDevice')).toBe(before + 1);

      // The next bot's recovery pass finds the run by its name and follows it.
      await driving(bots.start(env.sim.url));
      const reply = await driving(
        env.driver.threadReply(card, (t) => t.includes('started before fwbot restarted')),
      );
      expect(reply).toContain('it was not started again');
      const ended = await driving(threadText(card.ts, /ASA software upgrade .*(completed|failed)/));
      const said = stripSentinels(String(ended.args.text));
      expect(said).toContain('completed (UPGRADE_COMPLETED)');
      expect(said).toContain(
        'Not proven: no baseline was kept because fwbot restarted while it started this upgrade',
      );
      expect(await env.sccCalls('upgradeAsaDevice')).toBe(before + 1);
      expect(runsNamed(`fwbot ${card.id} 1`)).toHaveLength(1);
    } finally {
      await bots.stopAll();
    }
  });
});
