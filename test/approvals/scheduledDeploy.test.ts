// Scheduled deploys: a deploy approved outside its devices' change window is held in Redis until the window
// opens, and run then by whichever fwbot process is alive (here one started after the approval), exactly
// once; at that moment the pending commands are compared with the approved ones again, and when they differ
// nothing is deployed and the thread says what changed. `--at` holds it until the time asked for.
// Real Redis, the simulator's staging model, signed requests into real Bolt apps, a driven clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, dailyWindow, hhmm, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const DEPLOY = 'deployChangesToMultipleAsaDevices';
const HOUR = 3_600_000;

describe('approvals: scheduled deploys', () => {
  let env: ApprovalsEnv;
  let opens: number;
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

  beforeAll(async () => {
    // A window every day, opening three hours from now (to the minute) for an hour, in UTC.
    const start = Date.now();
    opens = Math.floor((start + 3 * HOUR) / 60_000) * 60_000;
    env = await startEnv({}, { changes: dailyWindow(opens, HOUR) });
  });
  afterAll(async () => {
    await env.stop();
  });

  const stage = (device: string, hardwareName: string) => env.stage(device, hardwareName);

  it('holds a deploy approved outside the window and runs it once when it opens, in a process started later', async () => {
    await stage('asa-branch-02', 'Vlan30');
    const card = await driving(env.driver.ask(env.bot.eventsUrl, 'deploy asa-branch-02', USERS.alice));
    const asked = textOf(card.blocks);
    expect(asked).toContain(
      `Change window of asa-branch-02: Mon, Tue, Wed, Thu, Fri, Sat, Sun ${hhmm(opens)}–${hhmm(opens + HOUR)} UTC (closed now)`,
    );
    expect(asked).toMatch(/If approved now, it runs \w{3} \d\d:\d\d UTC, in 3 hours/);
    const before = await env.sccCalls(DEPLOY);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const held = await env.driver.threadReply(card, (t) => t.includes('scheduled for'));
    expect(held).toMatch(
      new RegExp(
        `Approved; scheduled for \\w{3} ${hhmm(opens)} UTC, in 3 hours \\(your time: <!date\\^${opens / 1000}\\^[^>]*>\\), when the change window opens`,
      ),
    );
    expect(held).toContain('pending commands are still the approved ones');
    const updated = await env.driver.cardUpdate(card, (t) => t.includes('scheduled for'));
    expect(updated.text + textOf(updated.blocks)).toMatch(/Approved by <@U0BOB>.*scheduled for/);
    expect(await env.sccCalls(DEPLOY)).toBe(before);

    // The process that approved it is gone from the story: another one, started now, finds it in Redis.
    const later = await env.startBot();
    env.clock.advance(3 * HOUR - 10 * 60_000);
    await driving(later.approvals.recover());
    expect(await env.sccCalls(DEPLOY)).toBe(before);

    env.clock.advance(11 * 60_000);
    await driving(Promise.all([later.approvals.recover(), env.bot.approvals.recover()]));
    await driving(later.approvals.recover());
    expect(await env.sccCalls(DEPLOY)).toBe(before + 1);
    const followed = later.tracker.follows
      .concat(env.bot.tracker.follows)
      .filter((f) => f.thread.threadTs === card.ts);
    expect(followed.map((f) => f.request.kind)).toEqual(['deployment']);
    env.clock.advance(-HOUR * 3 - 60_000);
  });

  it('deploys nothing when the pending commands changed before the window, and says what changed', async () => {
    await stage('asa-hq-01', 'Vlan10');
    const card = await driving(env.driver.ask(env.bot.eventsUrl, 'deploy asa-hq-01', USERS.alice));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('scheduled for'));
    const before = await env.sccCalls(DEPLOY);

    // Someone stages another change on the device before the window opens.
    await stage('asa-hq-01', 'Vlan20');
    env.clock.advance(3 * HOUR + 60_000);
    await driving(env.bot.approvals.recover());

    const reply = await env.driver.threadReply(card, (t) => t.includes('Nothing was run'));
    expect(reply).toContain('the target changed since the request');
    expect(reply).toMatch(/asa-hq-01: the pending commands changed/);
    expect(await env.sccCalls(DEPLOY)).toBe(before);
    env.clock.advance(-3 * HOUR - 60_000);
  });

  it('holds a deploy asked for --at a time inside the window until then', async () => {
    const at = new Date(opens + 30 * 60_000).toISOString();
    await stage('asa-dc-03', 'Vlan100');
    const card = await driving(env.driver.ask(env.bot.eventsUrl, `deploy asa-dc-03 --at ${at}`, USERS.alice));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const held = await env.driver.threadReply(card, (t) => t.includes('scheduled for'));
    expect(held).toMatch(
      new RegExp(
        `${hhmm(opens + 30 * 60_000)} UTC, in 3 hours \\(your time: <!date\\^${(opens + 30 * 60_000) / 1000}\\^[^>]*>\\) \\(the time asked for\\)`,
      ),
    );
    const before = await env.sccCalls(DEPLOY);
    env.clock.advance(3 * HOUR + 20 * 60_000);
    await driving(env.bot.approvals.recover());
    expect(await env.sccCalls(DEPLOY)).toBe(before);
    env.clock.advance(11 * 60_000);
    await driving(env.bot.approvals.recover());
    expect(await env.sccCalls(DEPLOY)).toBe(before + 1);
  });

  it('deploys outside the window with --break-glass only after a second approver, and says so', async () => {
    // asa-hq-01 still has the changes the earlier test left undeployed; its window closed half an hour ago.
    env.clock.advance(HOUR);
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'deploy asa-hq-01 --break-glass "core switch loop"', USERS.alice),
    );
    const asked = textOf(card.blocks);
    expect(asked).toContain(
      '*Break-glass*: deploys at once whatever the change windows say, because: core switch loop',
    );
    expect(asked).toContain('Needs 2 approvals');
    expect(asked).toContain('(closed now)');
    const before = await env.sccCalls(DEPLOY);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    expect(await env.sccCalls(DEPLOY)).toBe(before);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.dave, card));
    await driving(env.bot.tracker.followedIn(card.ts));
    expect(await env.sccCalls(DEPLOY)).toBe(before + 1);
    const done = await env.driver.cardUpdate(card, (t) => t.includes('Approved by'));
    expect(textOf(done.blocks)).toContain('core switch loop');

    // Every record of the request says break-glass and why: the request, both approvals, the execution.
    const records = (await env.bot.approvals.audit.latest(20)).filter((r) => r.approvalId === card.id);
    expect(records.map((r) => [r.action, r.breakGlass])).toEqual([
      ['executed', 'core switch loop'],
      ['approved', 'core switch loop'],
      ['approved', 'core switch loop'],
      ['requested', 'core switch loop'],
    ]);
    for (const record of records) expect(record.outcome).toMatch(/; break-glass: core switch loop$/);
  });

  it('refuses an --at that is not a time, in a sentence, before any card', async () => {
    const reply = await driving(
      env.driver.commandReply(env.bot.eventsUrl, 'deploy asa-dc-03 --at tomorrowish', USERS.alice),
    );
    expect(reply.text).toContain('`--at tomorrowish` is not a time');
  });
});
