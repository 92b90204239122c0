// The minute an approved /fw upgrade's upgrade runs in fwbot's own change window (issue 37, item 3), through
// Bolt with fwbot's own parts on the driven clocks. Where fwbot's windows decide (the profiles file's
// `changes.windows`), the device's SCC maintenance window must not stop the run: the upgrade call carries
// `ignoreMaintenanceWindow: true`, at the window's minute and not before. At that minute the approval's
// people are read again: one who lost the role stops it, the thread says who, the device's hold ends, and
// the audit trail records it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, dailyWindow, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { mutablePolicy, policyAccess, USERS } from './support/world.js';

/** Friday 6 June 2025, 15:00 UTC: the simulator's seeded world starts the Monday before. */
const FRIDAY_AFTERNOON = Date.UTC(2025, 5, 6, 15, 0);
/** fwbot's change window, every day 20:00–22:00 UTC; asa-hq-01's SCC window is `0 22 * * 6` (closed then). */
const FRIDAY_20 = Date.UTC(2025, 5, 6, 20, 0);
const SATURDAY_20 = Date.UTC(2025, 5, 7, 20, 0);
const MINUTE = 60_000;

describe('approvals: an upgrade at the minute of fwbot’s change window', () => {
  let env: ApprovalsEnv;
  const roles = mutablePolicy();
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
  const upgradeCalls = () => env.sccCalls('upgradeAsaDevice');

  /** Asks, approves, and waits for the staging to end: the upgrade itself is then timed work. */
  async function approvedAndStaged(device: string) {
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, `upgrade ${device} --version 9.20.3`, USERS.alice),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes(`asked to stage ${device} for 9.20.3`));
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
        changes: dailyWindow(FRIDAY_20, 2 * 60 * MINUTE),
        access: policyAccess(roles.policy),
      },
    );
    setTime(FRIDAY_AFTERNOON);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('sends ignoreMaintenanceWindow at the window’s minute, not before, where fwbot’s window decides', async () => {
    // SCC's own window (Saturday 22:00) is closed at fwbot's Friday 20:00: without the flag SCC would refuse.
    expect(record('asa-hq-01').maintenanceWindow).toMatchObject({ startCron: '0 22 * * 6' });
    const card = await approvedAndStaged('asa-hq-01');
    expect(stripSentinels(textOf(card.blocks))).toMatch(
      /Upgrade of asa-hq-01: Fri 20:00 UTC.*fwbot's change window .*SCC's maintenance window is ignored for it/,
    );
    expect(await upgradeCalls()).toBe(1); // the staging

    // Due now; fwbot's window is closed: it waits, and says until when.
    await env.timedPass();
    const waits = await env.driver.threadReply(card, (t) => t.includes('waits for the change window'));
    expect(stripSentinels(waits)).toContain('20:00');
    // A minute before the window: still nothing.
    setTime(FRIDAY_20 - MINUTE);
    await env.timedPass();
    expect(await upgradeCalls()).toBe(1);

    setTime(FRIDAY_20);
    await env.timedPass();
    expect(await upgradeCalls()).toBe(2);
    const [sent] = env.sim.requestLog.list({ operationId: 'upgradeAsaDevice', since: 1 }).slice(-1);
    expect(Date.parse(sent?.time ?? '')).toBeGreaterThanOrEqual(FRIDAY_20);
    expect(Date.parse(sent?.time ?? '')).toBeLessThan(FRIDAY_20 + MINUTE);
    expect(simRun(`fwbot ${card.id} u1`)).toMatchObject({
      stageUpgradeOnly: false,
      ignoreMaintenanceWindow: true,
    });

    // SCC upgrades it though its own window is closed, and the thread follows it to its end.
    const done = await driving(threadText(card.ts, /ASA software upgrade .*(completed|failed)/));
    expect(stripSentinels(String(done.args.text))).toContain('completed (UPGRADE_COMPLETED)');
    expect(record('asa-hq-01').device.softwareVersion).toBe('9.20.3');
    const audit = await env.bot.approvals.audit.latest(20);
    expect(
      audit.find((r) => r.approvalId === card.id && r.action === 'executed' && r.transactionUid),
    ).toMatchObject({
      operationId: 'upgrade',
      outcome: expect.stringContaining("SCC's maintenance window ignored: fwbot's change window timed it"),
    });
  });

  it('does not run when the approver lost the role before the minute: the thread says who, hold ended, audited', async () => {
    const card = await approvedAndStaged('asa-dc-03');
    expect(await heldDevices()).toContain('asa-dc-03');
    const before = await upgradeCalls();

    // The approver loses the role while the upgrade waits for Saturday's window.
    roles.take('approver', USERS.bob);
    setTime(SATURDAY_20);
    await env.timedPass();
    await env.timedPass();

    const stopped = await env.driver.threadReply(card, (t) => t.includes('not upgraded to 9.20.3'));
    expect(stripSentinels(stopped)).toMatch(
      /asa-dc-03 not upgraded to 9\.20\.3: <@U0BOB> no longer holds the approver role in <#C0OPS>\. Nothing was started; its hold is released\./,
    );
    expect(await upgradeCalls()).toBe(before);
    expect(simRun(`fwbot ${card.id} u1`)).toBeUndefined();
    expect(record('asa-dc-03').device.softwareVersion).not.toBe('9.20.3');
    expect(await heldDevices()).not.toContain('asa-dc-03');
    const audit = await env.bot.approvals.audit.latest(20);
    expect(audit.find((r) => r.approvalId === card.id && r.action === 'aborted')).toMatchObject({
      operationId: 'upgrade',
      actor: USERS.alice,
      outcome: expect.stringMatching(/not done at its window: .*U0BOB.* no longer holds the approver role/),
    });
    // Nothing more at later passes.
    setTime(SATURDAY_20 + 10 * MINUTE);
    await env.timedPass();
    expect(await upgradeCalls()).toBe(before);
    roles.give('approver', USERS.bob);
  });
});
