// An access rule asked for with `--expires`, through Slack with Bolt real, the simulator, a real Redis and
// the timed work on the driven clock (issue 36, item 7): three days before its expiry the requester is
// reminded in the request's thread and directly, once, with *Extend…* and *Remove now…*; *Extend…* is a
// governed change a second person approves, which moves the removal and the reminder; at the (new) expiry,
// inside the change window, the rule is deleted in SCC and deployed, packet-tracer says DROP again in the
// thread, the record is dropped and the audit trail says the removal was approved with the request. A rule
// revoked early takes its timed work with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessExpiry, accessExpiryReminder } from '../../src/catalogue/timed/index.js';
import { defaultAccessRequests } from '../../src/config/sections/access.js';
import { driveClock } from '../support/driveClock.js';
import type { RecordedCall } from '../support/fakeSlack.js';
import { type ApprovalsEnv, dailyWindow, startEnv } from './support/env.js';
import { buttonsOf, type SlackBlock, textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const PARTNER_DENY = 'access-list outside_access_in extended deny ip object PARTNER-NET any log';
const NEW_RULE =
  'access-list outside_access_in extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443';
/** Inside the daily change window (22:00 to 23:00 UTC) the test's policy gives every device. */
const START = Date.parse('2031-06-02T22:05:00Z');
const at = (iso: string) => Date.parse(iso);

describe('approvals: an access rule removed at its expiry, reminded before, extended', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv(
      {},
      {
        realTracking: true,
        timed: true,
        clockStart: START,
        changes: dailyWindow(at('2031-06-02T22:00:00Z'), HOUR),
      },
    );
  });
  afterAll(async () => {
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  const pass = () => driving(env.timedPass());
  const advanceTo = (when: number) => env.clock.advance(when - env.clock());
  const dc = () => env.sim.deviceUid('asa-dc-03');
  const ruleTexts = async () => {
    const page = await env.bot.scc.lookups.accessRules({ q: `entityUid:${dc()}`, limit: 200 });
    return (page.items ?? []).map((rule) => rule.ruleConfigurationText);
  };
  const blocksOf = (call: RecordedCall) => (call.args.blocks ?? []) as SlackBlock[];
  const posted = (predicate: (call: RecordedCall) => boolean) =>
    env.slack.callsTo('chat.postMessage').filter(predicate);
  const said = (call: RecordedCall) => `${String(call.args.text ?? '')}\n${textOf(blocksOf(call))}`;
  const timedOf = async (kind: string) => (env.timed ? await env.timed.list({ kind }) : []);

  async function requestAndVerify(reason: string, expires: string, source = '198.51.100.0/24') {
    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        `access request asa-dc-03 tcp ${source} 172.20.41.5 8443 --in outside --reason "${reason}" --expires ${expires}`,
        USERS.alice,
      ),
    );
    expect(textOf(card.blocks)).toContain(
      `${expires} 00:00 UTC: fwbot removes the rule then (in the change windows) and reminds the requester 3 days before`,
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          String(c.args.text ?? '').includes('verified: ALLOW'),
        60_000,
      ),
    );
    return card;
  }

  it('reminds three days before, extends on approval, removes at the new expiry in the window and verifies DROP', {
    timeout: 180_000,
  }, async () => {
    const card = await requestAndVerify('partner sync', '2031-06-12');
    const [removal] = await timedOf(accessExpiry.kind);
    expect(removal?.dueAt).toBe(at('2031-06-12T00:00:00Z'));
    const [reminder] = await timedOf(accessExpiryReminder.kind);
    expect(reminder?.dueAt).toBe(at('2031-06-09T00:00:00Z'));
    const listed = textOf(
      (await driving(env.driver.commandReply(env.bot.eventsUrl, 'access list asa-dc-03', USERS.alice)))
        .blocks,
    );
    expect(listed).toContain('expires 2031-06-12');
    const id = /• `(\d+)` asa-dc-03/.exec(listed)?.[1];
    expect(id).toBeDefined();

    // A millisecond before the reminder: nothing said.
    advanceTo(at('2031-06-09T00:00:00Z') - 1);
    await pass();
    const reminded = (c: RecordedCall) => said(c).includes(':alarm_clock:');
    expect(posted(reminded)).toEqual([]);

    env.clock.advance(1);
    await pass();
    // The notification queue posts them: waited for, then a pass more says nothing twice.
    await driving(env.slack.waitFor((c) => reminded(c) && c.args.thread_ts === card.ts, 20_000));
    await driving(env.slack.waitFor((c) => reminded(c) && c.args.channel === USERS.alice, 20_000));
    await pass();
    const inThread = posted((c) => reminded(c) && c.args.thread_ts === card.ts);
    const direct = posted((c) => reminded(c) && c.args.channel === USERS.alice);
    expect(inThread).toHaveLength(1);
    expect(direct).toHaveLength(1);
    const reminderCall = inThread[0] as RecordedCall;
    expect(said(reminderCall)).toContain(`the access rule \`${id}\` you asked for on asa-dc-03`);
    expect(said(reminderCall)).toContain('expires');
    const buttons = buttonsOf(blocksOf(reminderCall)).map((b) => [b.text?.text, b.value]);
    expect(buttons).toEqual([
      ['Extend…', `access extend ${id} 30d`],
      ['Remove now…', `access revoke ${id}`],
    ]);
    expect(buttonsOf(blocksOf(direct[0] as RecordedCall)).map((b) => b.value)).toEqual(
      buttons.map(([, value]) => value),
    );

    // *Extend…*: a card a second person approves; the removal and the reminder move with it.
    const posting = [...env.slack.messages().entries()].find(
      ([, m]) => m.thread_ts === card.ts && String(m.text ?? '').includes('expires 2031-06-12'),
    );
    if (!posting) throw new Error('the reminder is not among the messages');
    const [key, posted1] = posting;
    const message = {
      channel: String(posted1.channel),
      ts: key.slice(key.indexOf('/') + 1),
      blocks: blocksOf(reminderCall),
    };
    expect(await driving(env.driver.clickCommand(env.bot.eventsUrl, message, 'Extend…', USERS.alice))).toBe(
      200,
    );
    await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          String(c.args.text ?? '').startsWith('Approval needed') &&
          !c.args.thread_ts &&
          said(c).includes('keep the access rule'),
        20_000,
      ),
    );
    const extendCard = env.driver.newCard();
    const extendText = textOf(extendCard.blocks);
    expect(extendText).toContain(
      `keep the access rule \`${id}\` on \`asa-dc-03\` until 2031-07-12 00:00 UTC`,
    );
    expect(extendText).toContain(NEW_RULE);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, extendCard));
    expect(await driving(env.driver.threadReply(extendCard, (t) => t.includes('now expires')))).toContain(
      'now expires 2031-07-12 00:00 UTC (was 2031-06-12 00:00 UTC)',
    );
    expect((await timedOf(accessExpiry.kind))[0]?.dueAt).toBe(at('2031-07-12T00:00:00Z'));
    expect((await timedOf(accessExpiryReminder.kind))[0]?.dueAt).toBe(at('2031-07-09T00:00:00Z'));

    // The old expiry passes: nothing is removed.
    advanceTo(at('2031-06-12T00:01:00Z'));
    await pass();
    expect(await env.sccCalls('deleteAccessRule')).toBe(0);

    // Reminded again before the new expiry.
    advanceTo(at('2031-07-09T00:00:00Z'));
    await pass();
    await driving(
      env.slack.waitFor(
        (c) => reminded(c) && c.args.thread_ts === card.ts && said(c).includes('2031-07-12'),
        20_000,
      ),
    );
    expect(posted((c) => reminded(c) && c.args.thread_ts === card.ts)).toHaveLength(2);

    // The new expiry comes outside the change window: the removal waits for it.
    advanceTo(at('2031-07-12T00:00:00Z'));
    await pass();
    expect(await env.sccCalls('deleteAccessRule')).toBe(0);
    advanceTo(at('2031-07-12T22:00:00Z') + MINUTE);
    const deploysBefore = await env.sccCalls('deployChangesToMultipleAsaDevices');
    await pass();
    expect(await env.sccCalls('deleteAccessRule')).toBe(1);
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(deploysBefore + 1);
    const verified = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          String(c.args.text ?? '').includes('removed at expiry'),
        60_000,
      ),
    );
    expect(String(verified.args.text)).toMatch(/removed at expiry; verified: DROP by line \d+ \(/);
    expect(String(verified.args.text)).toContain(PARTNER_DENY);
    expect(await ruleTexts()).not.toContain(NEW_RULE);
    expect(await env.holds?.list(env.clock())).toEqual([]);
    const after = textOf(
      (await driving(env.driver.commandReply(env.bot.eventsUrl, 'access list asa-dc-03', USERS.alice)))
        .blocks,
    );
    expect(after).toContain('fwbot created no access rule here');
    const audit = (await env.bot.approvals.audit.latest(50)).find((r) => r.operationId === 'access.expiry');
    expect(audit).toMatchObject({ action: 'executed', approvalId: card.id, actor: USERS.alice });
    expect(audit?.outcome).toContain(`approved with the request ${card.id} by U0BOB`);

    // Done once: later passes change nothing.
    await pass();
    expect(await env.sccCalls('deleteAccessRule')).toBe(1);
    expect(await timedOf(accessExpiry.kind)).toEqual([]);
  });

  it('a rule revoked before its expiry takes its removal and its reminder with it', {
    timeout: 120_000,
  }, async () => {
    advanceTo(at('2031-07-13T22:05:00Z'));
    await requestAndVerify('short sync', '2031-07-30');
    expect(await timedOf(accessExpiry.kind)).toHaveLength(1);
    const listed = textOf(
      (await driving(env.driver.commandReply(env.bot.eventsUrl, 'access list asa-dc-03', USERS.alice)))
        .blocks,
    );
    const id = /• `(\d+)` asa-dc-03/.exec(listed)?.[1];
    const card = await driving(env.driver.ask(env.bot.eventsUrl, `access revoke ${id}`, USERS.alice));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(env.driver.threadReply(card));
    expect(await timedOf(accessExpiry.kind)).toEqual([]);
    expect(await timedOf(accessExpiryReminder.kind)).toEqual([]);
    const deletes = await env.sccCalls('deleteAccessRule');
    advanceTo(at('2031-07-30T22:10:00Z'));
    await pass();
    expect(await env.sccCalls('deleteAccessRule')).toBe(deletes);
  });
});

describe('approvals: an expiring rule with a time-range (access.time_range_for_expiry)', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv(
      {},
      {
        realTracking: true,
        timed: true,
        clockStart: START,
        accessRequests: { ...defaultAccessRequests, timeRangeForExpiry: true },
      },
    );
  });
  afterAll(async () => {
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  const dc = () => env.sim.deviceUid('asa-dc-03');
  const ourRule = async () => {
    const page = await env.bot.scc.lookups.accessRules({ q: `entityUid:${dc()}`, limit: 200 });
    return (page.items ?? []).find((rule) => rule.ruleConfigurationText?.includes('fwbot-h-172.20.41.5'));
  };

  it('puts a time-range ending at the expiry on the rule, shows it on the card, and extend moves it in SCC', {
    timeout: 180_000,
  }, async () => {
    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync" --expires 2031-06-12',
        USERS.alice,
      ),
    );
    const text = textOf(card.blocks);
    expect(text).toContain(
      "fwbot-until-20310612-0000 (absolute end 00:00 12 June 2031, the device's clock): the device stops matching the rule then",
    );
    expect(text).toContain('time-range fwbot-until-20310612-0000\n absolute end 00:00 12 June 2031');
    expect(text).toContain(
      'line 3 extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443 time-range fwbot-until-20310612-0000',
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const verified = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          String(c.args.text ?? '').includes('verified: ALLOW'),
        60_000,
      ),
    );
    expect(String(verified.args.text)).toContain('eq 8443 time-range fwbot-until-20310612-0000');
    expect((await ourRule())?.ruleTimeRange).toMatchObject({
      name: 'fwbot-until-20310612-0000',
      elements: ['absolute end 00:00 12 June 2031'],
    });

    // Extended: the rule names the new time-range in SCC's copy, which a deploy takes to the device.
    const listed = textOf(
      (await driving(env.driver.commandReply(env.bot.eventsUrl, 'access list asa-dc-03', USERS.alice)))
        .blocks,
    );
    const id = /• `(\d+)` asa-dc-03/.exec(listed)?.[1];
    const extend = await driving(
      env.driver.ask(env.bot.eventsUrl, `access extend ${id} 2031-07-01`, USERS.alice),
    );
    expect(textOf(extend.blocks)).toContain(
      'fwbot-until-20310612-0000 → fwbot-until-20310701-0000 (absolute end 00:00 1 July 2031)',
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, extend));
    const done = await driving(env.driver.threadReply(extend, (t) => t.includes('now expires')));
    expect(done).toContain('Its time-range is now `fwbot-until-20310701-0000` in SCC');
    expect((await ourRule())?.ruleTimeRange).toMatchObject({
      name: 'fwbot-until-20310701-0000',
      elements: ['absolute end 00:00 1 July 2031'],
    });
    const { data: device } = await env.bot.scc.call('getDevice', { path: { deviceUid: dc() } });
    expect(device.configState).toBe('NOT_SYNCED');
    expect((await env.timed?.list({ kind: accessExpiry.kind }))?.[0]?.dueAt).toBe(at('2031-07-01T00:00:00Z'));
  });
});
