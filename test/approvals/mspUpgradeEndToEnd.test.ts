// /fw upgrade through the MSP portal, end to end: signed requests into the real app, the approval in Redis,
// the real tracking workers, the simulator on its manual clock. 75 ASAs of two tenants go out as two MSP
// requests (at most 50 per model per tenant in each); each run keeps one progress message in the card's
// thread, a table with a tenant column, edited in place; the run a readiness fault stops is told in a reply
// with SCC's reason, naming the requester, while the other goes on; the devices stay held until the last
// of the request's runs has ended, then all are released. The bot has no timed work here, so the upgrade
// across tenants is staged and applied at once (SCC holding it to each device's maintenance window), and
// `--at` / `--canary`, which need the timed work, are refused in one sentence. With timed work (as in Slack)
// it is staged now and applied in the windows: mspUpgradeSchedule.test.ts.
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import { normalisePrefix, QUEUE, trackJobId } from '../../src/redis/keys.js';
import type { DeviceRecord } from '../../src/simulator/state/model.js';
import { driveClock } from '../support/driveClock.js';
import { redisUrl } from '../support/testRedis.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

describe('approvals: a software upgrade across tenants, in batches, followed in its thread', () => {
  let env: ApprovalsEnv;
  let track: Queue;

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true });
    track = new Queue(QUEUE.track, { connection: { url: redisUrl() }, prefix: normalisePrefix(env.prefix) });
  });
  afterAll(async () => {
    await track.close();
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> =>
    driveClock(env.sim.clock, work, { stepMs: 10_000, maxSteps: 3_000 });
  const record = (name: string) => {
    const found = [...env.sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  function clone(from: string, tenant: string, prefix: string, count: number): void {
    const source = record(from);
    for (let i = 1; i <= count; i += 1) {
      const uid = env.sim.state.rng.uuid();
      const copy: DeviceRecord = structuredClone(source);
      copy.tenantUid = env.sim.tenantUid(tenant);
      copy.device = { ...copy.device, uid, name: `${prefix}-${String(i).padStart(3, '0')}` };
      delete copy.maintenanceWindow;
      env.sim.state.devices.set(uid, copy);
    }
  }
  /** Waits (polling, generous bound) until the tracking job of a run has finished its work. */
  async function jobDone(transactionUid: string): Promise<void> {
    const id = trackJobId('default', 'mspDeviceUpgradeRun', transactionUid);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const state = await (await track.getJob(id))?.getState();
      if (state === 'completed' || state === 'failed') return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`tracking job ${id} did not finish`);
  }

  it('two MSP requests, one progress table each, a failure told with SCC’s reason, holds kept until the last run ends', async () => {
    clone('nw-asa-hq', 'northwind-us', 'nw-bulk', 70);
    clone('globex-asa-01', 'globex-apj', 'gx-bulk', 5);
    // The second request holds nw-bulk-051…070: a readiness fault on one of them stops that run early.
    const fault = await fetch(`${env.sim.url}/_sim/devices/nw-bulk-060/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'READINESS_CHECK', message: 'Not enough disk space on disk0' }),
    });
    expect(fault.status).toBe(200);

    // Later in each device's window, or a canary first, needs the timed work: refused in one sentence.
    for (const later of ['--canary', '--at "sat 22:00"']) {
      const refused = await driving(
        env.driver.commandReply(
          env.bot.eventsUrl,
          `upgrade name:nw-bulk-* name:gx-bulk-* --version 9.20.3 ${later}`,
          USERS.alice,
        ),
      );
      expect(stripSentinels(`${refused.text}\n${textOf(refused.blocks)}`)).toContain(
        '`--at` and `--canary` leave the upgrade for later, which needs fwbot’s timed work (Redis)',
      );
    }
    expect(await env.sccCalls('getMspDeviceUpgradeRuns')).toBe(0);

    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        'upgrade name:nw-bulk-* name:gx-bulk-* --version 9.20.3',
        USERS.alice,
      ),
    );
    const shown = textOf(card.blocks);
    expect(shown).toContain('upgrade 75 devices in 2 tenants to `9.20.3`');
    expect(shown).toContain('northwind-us: 70 × ASA Cisco ASA5516-X');
    expect(shown).toContain('2 upgrade requests to SCC');
    expect(await env.sccCalls('upgradeMspManagedAsaDevices')).toBe(0);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('asked to upgrade'));
    expect(await env.sccCalls('upgradeMspManagedAsaDevices')).toBe(2);
    // Applied at once (not staged for later windows).
    expect([...env.sim.state.mspDeviceUpgradeRuns.values()].every((r) => r.stageUpgradeOnly !== true)).toBe(
      true,
    );
    const runs = [...env.sim.state.mspDeviceUpgradeRuns.values()].sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    expect(runs.map((r) => r.name)).toEqual([
      expect.stringMatching(/ msp 1$/),
      expect.stringMatching(/ msp 2$/),
    ]);
    const [first, second] = runs;
    if (!first || !second) throw new Error('two runs expected');

    // The second run fails first (its readiness check); the simulated time stops there, the first going on.
    const ended = (run: typeof first) =>
      run.tenantRunUids.every((uid) =>
        /COMPLETED|FAILED/.test(env.sim.state.deviceUpgradeRuns.get(uid)?.status ?? ''),
      );
    for (let step = 0; step < 1_000 && !ended(second); step += 1) {
      env.sim.clock.advance(5_000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(ended(second)).toBe(true);
    expect(ended(first)).toBe(false);
    const failed = await env.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.thread_ts === card.ts &&
        /failed before the upgrade/.test(String(c.args.text ?? '')),
      60_000,
    );
    const told = stripSentinels(String(failed.args.text));
    expect(told).toMatch(/^<@U0ALICE> \*upgrade 20 devices in 1 tenant to 9\.20\.3\*: ASA software upgrade/);
    expect(told).toContain('UPGRADE_STAGING_FAILED');
    expect(told).toContain('Not enough disk space on disk0');
    await jobDone(second.transactionUid);
    // Held still: the other run of the request has not ended.
    const holds = env.holds;
    if (!holds) throw new Error('no holds');
    const held = await holds.list(env.clock(), 'default');
    expect(held.map((h) => h.device)).toContain('nw-bulk-001');
    expect(held.map((h) => h.device)).toContain('nw-bulk-060');

    const done = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /completed \(UPGRADE_COMPLETED\)/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );
    expect(stripSentinels(String(done.args.text))).toMatch(
      /^<@U0ALICE> \*upgrade 55 devices in 2 tenants to 9\.20\.3\*: ASA software upgrade \*fwbot \S+ msp 1\* to 9\.20\.3 across 2 tenants completed/,
    );
    await jobDone(first.transactionUid);
    expect(await holds.list(env.clock(), 'default')).toEqual([]);
    expect(record('gx-bulk-005').device.softwareVersion).toBe('9.20.3');
    expect(record('nw-bulk-060').device.softwareVersion).not.toBe('9.20.3');

    // At most one progress message per run, edited in place (a table with a tenant column), and one outcome.
    const inThread = env.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts,
    );
    for (const run of ['msp 1', 'msp 2']) {
      const about = inThread.filter((c) => String(c.args.text ?? '').includes(`${run}*`));
      expect(about.filter((c) => String(c.args.text).startsWith('<@U0ALICE>'))).toHaveLength(1);
      expect(about.filter((c) => !String(c.args.text).startsWith('<@U0ALICE>')).length).toBeLessThanOrEqual(
        1,
      );
    }
    const updates = env.slack
      .callsTo('chat.update')
      .filter((c) => c.status === 200 && /msp 1\* to 9\.20\.3: /.test(String(c.args.text ?? '')));
    expect(new Set(updates.map((c) => c.args.ts)).size).toBe(1);
    const texts = updates.map((c) => String(c.args.text));
    expect(texts.some((t) => /Tenant\s+Device\s+Unit\s+Done\s+SCC says/.test(t))).toBe(true);
    expect(texts.some((t) => /globex-apj\s+gx-bulk-001/.test(t))).toBe(true);
    expect(texts.some((t) => /: PERFORMING_UPGRADE\n/.test(t))).toBe(true);
  });
});
