// Recertification of a permanent access rule fwbot created (src/catalogue/timed/accessRecertify.ts and
// accessRecertification.ts): ninety days after its creation its requester is asked, in the request's thread
// and directly, once per cycle however often the timed pass runs; *Still needed* clicked through Bolt is
// refused to someone else, recorded for the requester with its date and audited; `/fw access
// recertification` says due, then overdue once the grace is past, then answered. Real Bolt, real Redis, the
// fake Slack Web API, the timed work's pass on the driven clock. (The answer is sent as the typed command
// the button carries: this rig's bot has no command-button listener.)
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessRecords } from '../../src/access/records.js';
import type { OperationContext } from '../../src/catalogue/context.js';
import { scheduleRecertification } from '../../src/catalogue/timed/index.js';
import { defaultAccessRequests } from '../../src/config/sections/access.js';
import { RedisKeys } from '../../src/redis/keys.js';
import type { RecordedCall } from '../support/fakeSlack.js';
import { connectRedis } from '../support/testRedis.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { buttonsOf, type SlackBlock, textOf } from './support/slackDriver.js';
import { CHANNEL, USERS } from './support/world.js';

const DAY = 86_400_000;
const START = Date.parse('2031-03-02T09:00:00Z');
const THREAD = '1900000000.000100';

describe('access: recertification of permanent rules', () => {
  let env: ApprovalsEnv;
  let redis: Redis;
  let records: AccessRecords;
  const policy = { ...defaultAccessRequests, recertification: { everyMs: 90 * DAY, graceMs: 7 * DAY } };

  beforeAll(async () => {
    env = await startEnv({}, { timed: true, accessRequests: policy, clockStart: START });
    redis = connectRedis();
    records = new AccessRecords(redis, new RedisKeys(env.prefix));
  });
  afterAll(async () => {
    await redis.quit();
    await env.stop();
  });

  const questions = (where: (call: RecordedCall) => boolean) =>
    env.slack
      .callsTo('chat.postMessage')
      .filter((c) => where(c) && textOf((c.args.blocks ?? []) as SlackBlock[]).includes('still needed?'));
  const report = async (text: string) =>
    textOf((await env.driver.commandReply(env.bot.eventsUrl, text, USERS.bob)).blocks);
  const inThread = (c: RecordedCall) => c.args.channel === CHANNEL && c.args.thread_ts === THREAD;
  const direct = (c: RecordedCall) => c.args.channel === USERS.alice && c.args.thread_ts === undefined;

  /** What a *Still needed* click runs (the button carries this command line, dispatched as typed, as the clicker). */
  const answer = async (id: string, user: string) => {
    const reply = await env.driver.commandReply(env.bot.eventsUrl, `access recertify ${id}`, user);
    return reply.text + textOf(reply.blocks);
  };

  it('asks the requester in the thread and directly once per cycle, flags the unanswered, records the answer', async () => {
    const record = await records.add({
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
      ticket: 'CHG0012345',
      reason: 'reporting service',
      createdAt: START,
      thread: { channel: CHANNEL, ts: THREAD },
    });
    // What an approved request does once its rule is recorded (accessRequest.ts recordRule).
    const ctx = { policy: { accessRequests: policy }, services: { timed: env.timed } } as OperationContext;
    await scheduleRecertification(ctx, record);
    await scheduleRecertification(ctx, record);
    // A rule with an expiry is not recertified: nothing is scheduled for it.
    const expiring = await records.add({ ...record, ruleUid: 'x', expiresAt: START + 30 * DAY });
    await scheduleRecertification(ctx, expiring);
    expect((await env.timed?.list({ kind: 'access-recertify' }))?.map((i) => i.key)).toEqual([record.id]);

    env.clock.advance(90 * DAY - 1);
    await env.timedPass();
    expect(questions(() => true)).toEqual([]);
    const early = await report('access recertification');
    expect(early).toContain(`\`${record.id}\``);
    expect(early).toContain('first asked on 2031-05-31');

    env.clock.advance(1);
    await env.timedPass();
    await env.timedPass();
    await env.slack.waitFor((c) => c.method === 'chat.postMessage' && direct(c));
    const [asked] = questions(inThread);
    expect(questions(inThread)).toHaveLength(1);
    expect(questions(direct)).toHaveLength(1);
    const question = textOf((asked?.args.blocks ?? []) as SlackBlock[]);
    expect(question).toContain(`<@${USERS.alice}>, is access rule \`${record.id}\` still needed?`);
    expect(question).toContain('Unanswered by 2031-06-07, it is flagged overdue');
    expect(buttonsOf((asked?.args.blocks ?? []) as SlackBlock[]).map((b) => JSON.stringify(b))).toEqual([
      expect.stringContaining('Still needed'),
      expect.stringContaining('Remove…'),
    ]);
    expect(JSON.stringify(asked?.args.blocks)).toContain(`access recertify ${record.id}`);
    expect(JSON.stringify(asked?.args.blocks)).toContain(`access revoke ${record.id}`);
    expect((await records.get('default', record.id))?.certificationAskedAt).toBe(START + 90 * DAY);
    expect(await report('access recertification')).toContain(
      'due: asked on 2031-05-31, overdue from 2031-06-07',
    );

    env.clock.advance(7 * DAY);
    await env.timedPass();
    expect(questions(inThread)).toHaveLength(1);
    const overdue = await report('access recertification --overdue');
    expect(overdue).toContain('*overdue*: asked on 2031-05-31, unanswered since 2031-06-07');
    expect(overdue).toContain('Nobody answered for the overdue ones');

    // Someone else cannot answer for it; its requester can, and the answer is audited.
    expect(await answer(record.id, USERS.bob)).toMatch(
      new RegExp(
        `Only .*${USERS.alice}.*, who asked for access rule ${record.id}, can say it is still needed`,
      ),
    );
    expect((await records.get('default', record.id))?.lastCertifiedAt).toBeUndefined();
    expect(await answer(record.id, USERS.alice)).toContain('is still needed, on 2031-06-07');
    expect((await records.get('default', record.id))?.lastCertifiedAt).toBe(START + 97 * DAY);
    const audit = await env.bot.approvals.audit.latest(10);
    expect(JSON.stringify(audit)).toContain(`access rule ${record.id}`);
    expect(await report('access recertification')).toContain(
      'still needed (said on 2031-06-07), next on 2031-08-29',
    );

    // The next cycle asks again, once.
    env.clock.advance(83 * DAY);
    await env.timedPass();
    await env.timedPass();
    await env.slack.waitFor((c) => c !== asked && questions(inThread).includes(c));
    expect(questions(inThread)).toHaveLength(2);
  });
});
