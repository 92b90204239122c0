// The minute an approved /fw upgrade across the MSP portal's tenants is due (issue 37, items 3 and 7), as
// for one tenant (upgradeWindowMinute.test.ts), through Bolt with fwbot's own parts on the driven clocks. At
// that minute the approval's people are read again: one who lost the role stops it across every tenant,
// nothing is started (no MSP upgrade call, no MSP run), the thread names him with a live mention, the
// devices' holds end, and the audit trail records it aborted, with why. With the role kept, the upgrade
// started at its minute is audited executed, with its transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import type { DeviceRecord } from '../../src/simulator/state/model.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { mutablePolicy, policyAccess, USERS } from './support/world.js';

/** Friday 6 June 2025, 15:00 UTC: the simulator's seeded world starts the Monday before. */
const FRIDAY_AFTERNOON = Date.UTC(2025, 5, 6, 15, 0);
const MINUTE = 60_000;

describe('approvals: an upgrade across tenants at its minute', () => {
  let env: ApprovalsEnv;
  const roles = mutablePolicy();
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
  /** A copy of a seeded ASA in a managed tenant, with no maintenance window. */
  function clone(from: string, tenant: string, name: string): void {
    const copy: DeviceRecord = structuredClone(record(from));
    const uid = env.sim.state.rng.uuid();
    copy.tenantUid = env.sim.tenantUid(tenant);
    copy.device = { ...copy.device, uid, name };
    delete copy.maintenanceWindow;
    env.sim.state.devices.set(uid, copy);
  }
  const mspRun = (name: string) =>
    [...env.sim.state.mspDeviceUpgradeRuns.values()].find((r) => r.name === name);
  const threadText = (ts: string, pattern: RegExp) =>
    env.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' && c.args.thread_ts === ts && pattern.test(String(c.args.text ?? '')),
      60_000,
    );
  const heldDevices = async () => {
    const holds = env.holds;
    if (!holds) throw new Error('no holds');
    return (await holds.list(env.clock(), 'default')).map((h) => h.device).sort();
  };
  const mspUpgrades = () => env.sccCalls('upgradeMspManagedAsaDevices');

  /** Asks for the upgrade of two ASAs in two tenants at `at`, approves, and waits for the staging to end. */
  async function approvedAndStaged(prefix: string, at: number) {
    clone('nw-asa-hq', 'northwind-us', `${prefix}-nw`);
    clone('globex-asa-01', 'globex-apj', `${prefix}-gx`);
    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        `upgrade ${prefix}-nw ${prefix}-gx --version 9.20.3 --at ${new Date(at).toISOString().slice(0, 16)}Z`,
        USERS.alice,
      ),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('asked to stage'));
    await driving(threadText(card.ts, /is staged/));
    return card;
  }

  beforeAll(async () => {
    env = await startEnv(
      {},
      {
        realTracking: true,
        timed: true,
        clockStart: FRIDAY_AFTERNOON,
        access: policyAccess(roles.policy),
      },
    );
    setTime(FRIDAY_AFTERNOON);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('does not run when the approver lost the role before the minute: nothing started, the thread names him, holds ended, audited', {
    timeout: 180_000,
  }, async () => {
    const at = env.clock() + 3 * 60 * MINUTE;
    const card = await approvedAndStaged('rl', at);
    expect(await heldDevices()).toEqual(['rl-gx', 'rl-nw']);
    const before = await mspUpgrades();

    // The approver loses the role while the upgrade waits for its time.
    roles.take('approver', USERS.bob);
    try {
      setTime(at);
      await env.timedPass();
      await env.timedPass();

      const stopped = await env.driver.threadReply(card, (t) => t.includes('not upgraded to 9.20.3'));
      expect(stripSentinels(stopped)).toMatch(
        /rl-(nw|gx) \([a-z-]+\), rl-(nw|gx) \([a-z-]+\) not upgraded to 9\.20\.3: <@U0BOB> no longer holds the approver role in <#C0OPS>\. Nothing was started; their holds are released\./,
      );
      expect(await mspUpgrades()).toBe(before);
      expect(mspRun(`fwbot ${card.id} msp u1`)).toBeUndefined();
      for (const name of ['rl-nw', 'rl-gx']) expect(record(name).device.softwareVersion).not.toBe('9.20.3');
      expect(await heldDevices()).toEqual([]);
      const audit = await env.bot.approvals.audit.latest(20);
      expect(audit.find((r) => r.approvalId === card.id && r.action === 'aborted')).toMatchObject({
        operationId: 'upgrade',
        actor: USERS.alice,
        target: expect.stringContaining('across tenants'),
        outcome: expect.stringMatching(/not done at its window: .*U0BOB.* no longer holds the approver role/),
      });
      // The approval's own line (the staging) is there; no start at the window is.
      expect(
        audit.some(
          (r) => r.approvalId === card.id && r.action === 'executed' && r.outcome?.includes('at its window'),
        ),
      ).toBe(false);

      // Nothing more at later passes.
      setTime(at + 10 * MINUTE);
      await env.timedPass();
      expect(await mspUpgrades()).toBe(before);
    } finally {
      roles.give('approver', USERS.bob);
    }
  });

  it('with the roles kept, the upgrade started at its minute is audited executed, with its transaction', {
    timeout: 180_000,
  }, async () => {
    const at = env.clock() + 3 * 60 * MINUTE;
    const card = await approvedAndStaged('ok', at);
    const before = await mspUpgrades();
    setTime(at);
    await env.timedPass();
    await env.timedPass();
    expect(await mspUpgrades()).toBe(before + 1);
    const run = mspRun(`fwbot ${card.id} msp u1`);
    expect(run).toMatchObject({ stageUpgradeOnly: false });
    const audit = await env.bot.approvals.audit.latest(20);
    expect(audit.find((r) => r.approvalId === card.id && r.action === 'executed')).toMatchObject({
      operationId: 'upgrade',
      transactionUid: run?.transactionUid,
      outcome: expect.stringContaining(`started across tenants at its window (run fwbot ${card.id} msp u1)`),
    });
  });
});
