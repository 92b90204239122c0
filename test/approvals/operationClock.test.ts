// One clock for the card and the executor: the approvals' executor and the operations it and the dispatcher
// run read the same driven clock (OperationContext.now), here a day and a half from the machine's. The card
// says the window is open now and when the deploy asked `--at` runs, and the executor holds it until exactly
// then, by that clock. Real Redis, the simulator, signed requests into a real Bolt app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hhmm, openEveryDay, stageVlanDeletion } from '../support/changeWindows.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const DEPLOY = 'deployChangesToMultipleAsaDevices';
const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('approvals: the card and the executor read one clock', () => {
  // The machine's time of day is twelve hours from this clock's: its window is closed by the machine's.
  const start = Math.floor((Date.now() + 36 * HOUR) / MINUTE) * MINUTE;
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

  beforeAll(async () => {
    env = await startEnv({}, { clockStart: start, changes: openEveryDay(start - HOUR, start + HOUR) });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('says "open now" and when `--at` runs by the test clock, and runs it then', async () => {
    await stageVlanDeletion(env.sim, env.bot.scc, 'asa-branch-02', 'Vlan30');
    const at = start + 30 * MINUTE;

    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, `deploy asa-branch-02 --at ${hhmm(at)}`, USERS.alice),
    );
    const asked = textOf(card.blocks);
    expect(asked).toContain(`${hhmm(start - HOUR)}–${hhmm(start + HOUR)} UTC (open now)`);
    expect(asked).toMatch(new RegExp(`If approved now, it runs \\w{3} ${hhmm(at)} UTC, in 30 minutes`));
    const before = await env.sccCalls(DEPLOY);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const held = await env.driver.threadReply(card, (t) => t.includes('scheduled for'));
    expect(held).toMatch(
      new RegExp(`scheduled for \\w{3} ${hhmm(at)} UTC, in 30 minutes .*the time asked for`),
    );
    expect(await env.sccCalls(DEPLOY)).toBe(before);

    env.clock.advance(29 * MINUTE);
    await driving(env.bot.approvals.recover());
    expect(await env.sccCalls(DEPLOY)).toBe(before);
    env.clock.advance(2 * MINUTE);
    await driving(env.bot.approvals.recover());
    expect(await env.sccCalls(DEPLOY)).toBe(before + 1);
  });
});
