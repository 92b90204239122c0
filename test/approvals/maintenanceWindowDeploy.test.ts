// A scheduled deploy in SCC's own maintenance window, end to end: the tenant has SCC's scheduled
// deployments on, so asa-hq-01's deviceMaintenanceWindow (seeded: Saturdays 22:00 UTC for 240 minutes)
// is its change window. A deletion is staged through Slack, the deploy is asked for and approved on a
// Friday, and it is held: the card and the thread say when. At 21:59 on Saturday nothing happens; at 22:00
// the recovery passes of two live processes run it exactly once, the real tracking workers follow the run,
// the change reaches the device and the thread hears the outcome once.
// Real Redis, signed requests into real Bolt apps, the simulator's manual clock and the bots' driven clock
// set to the same moments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_NAME } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const DEPLOY = 'deployChangesToMultipleAsaDevices';
/** Friday 6 June 2025, 15:00 UTC: the simulator's seeded world starts the Monday before. */
const FRIDAY_AFTERNOON = Date.UTC(2025, 5, 6, 15, 0);
/** The next opening of asa-hq-01's seeded maintenance window (`0 22 * * 6`, UTC). */
const SATURDAY_22 = Date.UTC(2025, 5, 7, 22, 0);
const WINDOW = 'SCC maintenance window (0 22 * * 6 UTC, 240 min)';

describe('approvals: a deploy held for SCC’s maintenance window', () => {
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

  /** Both clocks, the simulator's and the bots', to the same moment (neither runs backwards here). */
  function setTime(at: number): void {
    env.sim.clock.advance(at - env.sim.clock.now());
    env.clock.advance(at - env.clock());
  }

  /** The thread's final word on the deploy from the tracking workers. */
  const outcomes = (threadTs: string) =>
    env.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === threadTs && /deployed:|deploy failed/.test(String(c.args.text)));

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true });
    const settings = await fetch(`${env.sim.url}/_sim/tenants/${encodeURIComponent(PORTAL_NAME)}/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scheduledDeployments: true }),
    });
    expect(settings.status).toBe(200);
    setTime(FRIDAY_AFTERNOON);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('is approved on Friday, held until Saturday 22:00 UTC, and deployed once then', async () => {
    // The change: a VLAN deletion, approved and staged through Slack.
    const deleteCard = await driving(
      env.driver.ask(env.bot.eventsUrl, 'interfaces delete asa-hq-01 iot', USERS.alice),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, deleteCard));
    await env.driver.threadReply(deleteCard, (t) => t.includes('staged the deletion'));

    const card = await driving(env.driver.ask(env.bot.eventsUrl, 'deploy asa-hq-01', USERS.alice));
    expect(textOf(card.blocks)).toContain(`Change window of asa-hq-01: ${WINDOW}`);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const held = await env.driver.threadReply(card, (t) => t.includes('scheduled for'));
    // In the window's words, and in each reader's own zone (Slack's date token, UTC as its fallback).
    const saturday = `Sat 22:00 UTC, in 31 hours (your time: <!date^${SATURDAY_22 / 1000}^{date_short_pretty} {time}|Sat 22:00 UTC>)`;
    expect(held).toContain(
      `Approved; scheduled for ${saturday}, when the change window opens (asa-hq-01: ${WINDOW})`,
    );
    const updated = await env.driver.cardUpdate(card, (t) => t.includes('scheduled for'));
    expect(textOf(updated.blocks)).toContain(`Approved by <@U0BOB>`);
    expect(textOf(updated.blocks)).toContain(`scheduled for ${saturday}`);
    expect(await env.sccCalls(DEPLOY)).toBe(0);

    // A second process, alive from now on: both run their recovery passes, as the sweeper would.
    const other = await env.startBot();
    const bothRecover = () => driving(Promise.all([env.bot.approvals.recover(), other.approvals.recover()]));

    setTime(SATURDAY_22 - 60_000);
    await bothRecover();
    expect(await env.sccCalls(DEPLOY)).toBe(0);
    const { data: waiting } = await env.bot.scc.call('getDevice', {
      path: { deviceUid: env.sim.deviceUid('asa-hq-01') },
    });
    expect(waiting.deviceMaintenanceWindow?.isOpen).toBe(false);
    expect(waiting.configState).toBe('NOT_SYNCED');

    setTime(SATURDAY_22);
    await bothRecover();
    await bothRecover();
    expect(await env.sccCalls(DEPLOY)).toBe(1);
    // SCC received it inside its window.
    const [sent] = env.sim.requestLog.list({ operationId: DEPLOY });
    expect(Date.parse(sent?.time ?? '')).toBeGreaterThanOrEqual(SATURDAY_22);

    // The tracking workers follow the run to its end and tell the thread.
    const reply = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /deployed:|deploy failed/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );
    expect(String(reply.args.text)).toMatch(
      /deploy to asa-hq-01\*: deployed: the changes are on the devices now/,
    );

    const hq = env.sim.deviceUid('asa-hq-01');
    const { data: after } = await env.bot.scc.call('getDevice', { path: { deviceUid: hq } });
    expect(after.configState).toBe('SYNCED');
    expect(after.deviceMaintenanceWindow?.isOpen).toBe(true);
    const { data: config } = await env.bot.scc.call('getAsaConfiguration', { path: { deviceUid: hq } });
    expect(config.configOnDevice).not.toMatch(/^interface Vlan20$/m);

    // Later passes find nothing left to do: one deploy, one outcome in the thread.
    setTime(SATURDAY_22 + 10 * 60_000);
    await bothRecover();
    expect(await env.sccCalls(DEPLOY)).toBe(1);
    expect(outcomes(card.ts)).toHaveLength(1);
  });
});
