// Recertification of a permanent access rule fwbot created (src/catalogue/timed/accessRecertify.ts and
// accessRecertification.ts), end to end: an access request without an expiry is asked through Bolt, approved,
// deployed and verified; its record schedules the question, which comes `recertify_every` later on the driven
// clock, in the request's thread and directly, once per cycle however often the timed pass runs. *Still
// needed*, clicked through Bolt, is refused to someone else and recorded for the requester with its date and
// audited; `/fw access recertification` says not yet due, due, overdue once the grace is past, then
// answered; *Remove…* clicked asks for the governed removal. A rule recorded before `recertify_every` was
// set has no question: the report gives it one, once. Real Bolt, real Redis, the simulator, the fake Slack
// Web API, the timed work's pass on the driven clock.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessRecords } from '../../src/access/records.js';
import { accessRecertify } from '../../src/catalogue/timed/index.js';
import { defaultAccessRequests } from '../../src/config/sections/access.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { driveClock } from '../support/driveClock.js';
import type { RecordedCall } from '../support/fakeSlack.js';
import { connectRedis } from '../support/testRedis.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { type SlackBlock, textOf } from './support/slackDriver.js';
import { CHANNEL, USERS } from './support/world.js';

const DAY = 86_400_000;
const START = Date.parse('2031-03-02T09:00:00Z');
const NEW_RULE =
  'access-list outside_access_in extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443';

describe('access: recertification of permanent rules', () => {
  let env: ApprovalsEnv;
  let redis: Redis;
  let records: AccessRecords;
  const policy = { ...defaultAccessRequests, recertification: { everyMs: 90 * DAY, graceMs: 7 * DAY } };

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true, timed: true, accessRequests: policy, clockStart: START });
    redis = connectRedis();
    records = new AccessRecords(redis, new RedisKeys(env.prefix));
  });
  afterAll(async () => {
    await redis.quit();
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  const pass = () => driving(env.timedPass());
  const blocksOf = (call: RecordedCall) => (call.args.blocks ?? []) as SlackBlock[];
  const questions = (where: (call: RecordedCall) => boolean) =>
    env.slack
      .callsTo('chat.postMessage')
      .filter((c) => where(c) && textOf(blocksOf(c)).includes('still needed?'));
  const report = async (text: string) =>
    textOf((await driving(env.driver.commandReply(env.bot.eventsUrl, text, USERS.bob))).blocks);
  const direct = (c: RecordedCall) => c.args.channel === USERS.alice && c.args.thread_ts === undefined;
  const live = async () => (env.timed ? await env.timed.list({ kind: accessRecertify.kind }) : []);
  /** A message the bot posted, as the driver clicks it (its ts is the fake's key). */
  const message = (call: RecordedCall) => {
    const found = [...env.slack.messages().entries()].find(
      ([, m]) =>
        m.channel === call.args.channel && m.thread_ts === call.args.thread_ts && m.text === call.args.text,
    );
    if (!found) throw new Error('the question is not among the messages');
    const [key] = found;
    return {
      channel: String(call.args.channel),
      ts: key.slice(key.indexOf('/') + 1),
      blocks: blocksOf(call),
    };
  };

  it('an approved request is asked about recertify_every later; the buttons answer and remove', {
    timeout: 240_000,
  }, async () => {
    // The request, through Bolt: no --expires, so the rule is permanent.
    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync" --ticket CHG0012345',
        USERS.alice,
      ),
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
    const [record, ...others] = await records.list('default');
    expect(others).toEqual([]);
    if (!record) throw new Error('the approved request kept no record');
    expect(record.expiresAt).toBeUndefined();
    expect(record.thread).toMatchObject({ channel: CHANNEL, ts: card.ts });
    // Its record scheduled the first question, recertify_every after its creation.
    expect((await live()).map((i) => [i.key, i.dueAt])).toEqual([[record.id, record.createdAt + 90 * DAY]]);
    const inThread = (c: RecordedCall) => c.args.channel === CHANNEL && c.args.thread_ts === card.ts;

    env.clock.advance(record.createdAt + 90 * DAY - 1 - env.clock());
    await pass();
    expect(questions(() => true)).toEqual([]);
    const dueOn = new Date(record.createdAt + 90 * DAY).toISOString().slice(0, 10);
    const lateOn = new Date(record.createdAt + 97 * DAY).toISOString().slice(0, 10);
    expect(await report('access recertification')).toContain(`first asked on ${dueOn}`);

    env.clock.advance(1);
    await pass();
    await pass();
    await driving(env.slack.waitFor((c) => c.method === 'chat.postMessage' && direct(c), 20_000));
    await driving(env.slack.waitFor((c) => questions(inThread).includes(c), 20_000));
    expect(questions(inThread)).toHaveLength(1);
    expect(questions(direct)).toHaveLength(1);
    const asked = questions(inThread)[0] as RecordedCall;
    const question = textOf(blocksOf(asked));
    expect(question).toContain(`<@${USERS.alice}>, is access rule \`${record.id}\` still needed?`);
    expect(question).toContain(`Unanswered by ${lateOn}, it is flagged overdue`);
    expect((await records.get('default', record.id))?.certificationAskedAt).toBe(record.createdAt + 90 * DAY);
    expect(await report('access recertification')).toContain(
      `due: asked on ${dueOn}, overdue from ${lateOn}`,
    );

    env.clock.advance(7 * DAY);
    await pass();
    expect(questions(inThread)).toHaveLength(1);
    const overdue = await report('access recertification --overdue');
    expect(overdue).toContain(`*overdue*: asked on ${dueOn}, unanswered since ${lateOn}`);
    expect(overdue).toContain('Nobody answered for the overdue ones');

    // *Still needed*, clicked: someone else is refused, privately; the requester's answer is recorded.
    const question1 = message(asked);
    expect(
      await driving(env.driver.clickCommand(env.bot.eventsUrl, question1, 'Still needed', USERS.bob)),
    ).toBe(200);
    const refused = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'response_url' &&
          String(JSON.stringify(c.args)).includes('can say it is still needed'),
        20_000,
      ),
    );
    expect(JSON.stringify(refused.args)).toContain(`who asked for access rule ${record.id}`);
    expect((await records.get('default', record.id))?.lastCertifiedAt).toBeUndefined();
    expect(
      await driving(env.driver.clickCommand(env.bot.eventsUrl, question1, 'Still needed', USERS.alice)),
    ).toBe(200);
    await driving(
      env.slack.waitFor((c) => JSON.stringify(c.args).includes(`is still needed, on ${lateOn}`), 20_000),
    );
    expect((await records.get('default', record.id))?.lastCertifiedAt).toBe(record.createdAt + 97 * DAY);
    const audit = await env.bot.approvals.audit.latest(20);
    expect(audit.find((r) => r.operationId === 'access.recertify')).toMatchObject({ actor: USERS.alice });
    const nextOn = new Date(record.createdAt + 180 * DAY).toISOString().slice(0, 10);
    expect(await report('access recertification')).toContain(
      `still needed (said on ${lateOn}), next on ${nextOn}`,
    );

    // The next cycle (counted from the creation) asks again, once.
    env.clock.advance(83 * DAY);
    await pass();
    await pass();
    await driving(env.slack.waitFor((c) => c !== asked && questions(inThread).includes(c), 20_000));
    expect(questions(inThread)).toHaveLength(2);

    // *Remove…*, clicked: the governed removal, which a second person approves; the question ends with it.
    const asked2 = questions(inThread)[1] as RecordedCall;
    expect(
      await driving(env.driver.clickCommand(env.bot.eventsUrl, message(asked2), 'Remove…', USERS.alice)),
    ).toBe(200);
    const cards = (c: RecordedCall) =>
      c.method === 'chat.postMessage' &&
      String(c.args.text ?? '').startsWith('Approval needed') &&
      !c.args.thread_ts;
    await driving(env.slack.waitFor((c) => cards(c) && env.slack.calls.filter(cards).length === 2, 20_000));
    const removal = env.driver.newCard();
    expect(textOf(removal.blocks)).toContain(record.id);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, removal));
    await driving(env.driver.threadReply(removal));
    expect(await records.get('default', record.id)).toBeUndefined();
    const rules = await env.bot.scc.lookups.accessRules({
      q: `entityUid:${env.sim.deviceUid('asa-dc-03')}`,
      limit: 200,
    });
    expect((rules.items ?? []).map((r) => r.ruleConfigurationText)).not.toContain(NEW_RULE);
    env.clock.advance(90 * DAY);
    await pass();
    expect(questions(inThread)).toHaveLength(2);
    expect(await live()).toEqual([]);
  });

  it('a permanent rule recorded before recertify_every was set is given its question by the report, once', async () => {
    const now = env.clock();
    const old = await records.add({
      profile: 'default',
      deviceUid: env.sim.deviceUid('asa-hq-01'),
      deviceName: 'asa-hq-01',
      accessGroup: 'inside_access_in',
      ruleUid: '00000000-0000-4000-8000-00000000beef',
      protocol: 'tcp',
      source: '10.1.0.0/16',
      destination: '10.9.9.9',
      port: '443',
      requester: USERS.alice,
      reason: 'reporting service',
      createdAt: now - 200 * DAY,
    });
    // Recorded with no question (as before the policy recertified): none waits.
    expect((await live()).map((i) => i.key)).not.toContain(old.id);
    const first = await report('access recertification');
    expect(first).toContain('1 permanent rule had no question waiting');
    const [item] = (await live()).filter((i) => i.key === old.id);
    expect(item?.dueAt).toBe(old.createdAt + 90 * DAY);
    // Once: the report again finds its question waiting and says nothing of it.
    expect(await report('access recertification')).not.toContain('had no question waiting');
    expect((await live()).filter((i) => i.key === old.id)).toHaveLength(1);
    // Its first question is long past due: the next pass asks it, directly (it has no thread).
    const before = questions(direct).length;
    await pass();
    await driving(
      env.slack.waitFor(
        (c) => direct(c) && textOf(blocksOf(c)).includes(`is access rule \`${old.id}\` still needed?`),
        20_000,
      ),
    );
    expect(questions(direct)).toHaveLength(before + 1);
  });
});
