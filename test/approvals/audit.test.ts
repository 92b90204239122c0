// The audit trail: one record per decision and execution, trimmed by age, shown by `/fw audit` to admins,
// and free of secrets whatever people type or systems answer.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditTrail } from '../../src/approvals/audit.js';
import { userMention } from '../../src/render/mrkdwn.js';
import { viewerTime } from '../../src/render/viewerTime.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { type ApprovalsEnv, manualClock, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { BOT_TOKEN, SIGNING_SECRET, USERS } from './support/world.js';

const DAY = 24 * 60 * 60 * 1000;

async function humanUser(env: ApprovalsEnv, tenantName: string): Promise<string> {
  const tenant = [...env.sim.state.tenants.values()].find((t) => t.name === tenantName);
  const username = tenant?.users.find((u) => !u.apiOnly)?.username;
  if (!username) throw new Error(`the seed has no human user in ${tenantName}`);
  return username;
}

describe('approvals: the audit trail', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({ auditRetentionDays: 7 });
  });

  afterAll(async () => {
    await env.stop();
  });

  it('records every decision: who, what, on what, when, the outcome and the transaction', async () => {
    const username = await humanUser(env, 'northwind-us');
    env.clock.advance(60_000);
    const askedAt = env.clock();
    const card = await env.driver.ask(
      env.bot.eventsUrl,
      `tenants users remove northwind-us ${username}`,
      USERS.alice,
    );
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.carol, card);
    await env.driver.ephemeral(USERS.carol);
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.dave, card);
    await env.bot.tracker.followedIn(card.ts);

    const records = await env.bot.approvals.audit.latest(10);

    expect(records.map((r) => [r.action, r.actor])).toEqual([
      ['executed', USERS.dave],
      ['approved', USERS.dave],
      ['refused', USERS.carol],
      ['requested', USERS.alice],
    ]);
    for (const record of records) {
      expect(record).toMatchObject({
        operationId: 'tenants.users.remove',
        target: `${username} in tenant northwind-us`,
        approvalId: card.id,
      });
      expect(Date.parse(record.at)).toBe(askedAt);
    }
    expect(records[0]?.transactionUid).toMatch(/^[0-9a-f-]{36}$/);
    expect(records[2]?.outcome).toBe('approve refused: not an approver');
  });

  it('shows the latest records with /fw audit to admins, and to nobody else', async () => {
    const reply = await env.driver.commandReply(env.bot.eventsUrl, 'audit 2', USERS.erin);

    expect(reply.text).toBe('The latest 2 audit records');
    const text = textOf(reply.blocks);
    expect(text).toContain('<@U0DAVE> *executed* `tenants.users.remove`');
    expect(text).toContain('<@U0DAVE> *approved* `tenants.users.remove`');
    expect(text).not.toContain('requested');
    expect(await env.driver.command(env.bot.eventsUrl, 'audit', USERS.bob)).toContain('admin');
  });

  it('keeps no secret, in the trail or anywhere in Redis, whatever is typed into a reason', async () => {
    const jwt =
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmd2JvdCIsInJvbGVzIjpbIlJPTEVfU1VQRVJfQURNSU4iXX0.c2lnbmF0dXJl';
    const secrets = [
      env.sim.tokens.superAdmin,
      BOT_TOKEN,
      SIGNING_SECRET,
      jwt,
      'xoxp-1234-5678-abcdefabcdef',
      'hunter2',
    ];
    const card = await env.driver.ask(env.bot.eventsUrl, 'tenants remove hooli-uae', USERS.alice);
    await env.driver.click(env.bot.eventsUrl, 'reject', USERS.bob, card);
    const reason = `pasted by mistake: ${secrets[0]} ${BOT_TOKEN} ${SIGNING_SECRET} Bearer ${jwt} ${secrets[4]} password=hunter2`;
    await env.driver.submitReason(env.bot.eventsUrl, USERS.bob, reason);
    const final = await env.driver.cardUpdate(card, (t) => t.includes('Rejected by'));

    const rejected = (await env.bot.approvals.audit.latest(1))[0];
    expect(rejected?.action).toBe('rejected');
    expect(rejected?.outcome).toContain('pasted by mistake: [REDACTED]');
    const everything = await dumpKeys(env.bot.redis, env.prefix);
    expect(everything).toContain('pasted by mistake');
    for (const secret of secrets) {
      expect(everything).not.toContain(secret);
      expect(textOf(final.blocks)).not.toContain(secret);
    }
  });

  it('trims records older than the retention, on write and on the sweep', async () => {
    const redis = new Redis(redisUrl());
    const clock = manualClock();
    const trail = new AuditTrail({ redis, prefix: uniquePrefix('audit'), retentionDays: 2, clock });
    const entry = (outcome: string) => ({
      actor: USERS.bob,
      action: 'approved' as const,
      operationId: 'tenants.remove',
      target: 'tenant acme',
      outcome,
      approvalId: 'ap-0000000000',
    });
    try {
      await trail.record(entry('day 0'));
      clock.advance(DAY);
      await trail.record(entry('day 1'));
      clock.advance(DAY + 1);
      await trail.record(entry('day 2'));
      expect((await trail.latest(10)).map((r) => r.outcome)).toEqual(['day 2', 'day 1']);

      clock.advance(3 * DAY);
      expect(await trail.trim()).toBe(2);
      expect(await trail.latest(10)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('names break-glass in the outcome and its own field, redacted, and writes fwbot’s marks as words', async () => {
    const redis = new Redis(redisUrl());
    const trail = new AuditTrail({
      redis,
      prefix: uniquePrefix('audit'),
      retentionDays: 1,
      clock: Date.now,
      secrets: ['s3cr3t-scc-token'],
    });
    try {
      await trail.record({
        actor: USERS.bob,
        action: 'approved',
        operationId: 'deploy',
        target: 'deploy to asa-hq-01',
        outcome: `approved for ${userMention(USERS.alice)}, runs ${viewerTime(Date.parse('2026-11-28T21:00:00Z'), Date.parse('2026-11-26T21:00:00Z'), 'Europe/Berlin')}`,
        approvalId: 'ap-0000000002',
        ticket: 'CHG0012345',
        breakGlass: 'core switch loop, token s3cr3t-scc-token',
      });
      const [record] = await trail.latest(1);
      expect(record).toMatchObject({
        ticket: 'CHG0012345',
        breakGlass: 'core switch loop, token [REDACTED]',
        outcome: `approved for @${USERS.alice}, runs Sat 22:00 Europe/Berlin, in 2 days (your time: Sat 21:00 UTC); break-glass: core switch loop, token [REDACTED]`,
      });
      expect(JSON.stringify(await redis.xrange(trail.key, '-', '+'))).not.toMatch(/[\uE000-\uE00F]/);
    } finally {
      redis.disconnect();
    }
  });

  it('redacts bearer credentials and known secrets in any field', async () => {
    const redis = new Redis(redisUrl());
    const trail = new AuditTrail({
      redis,
      prefix: uniquePrefix('audit'),
      retentionDays: 1,
      clock: Date.now,
      secrets: ['s3cr3t-scc-token'],
    });
    try {
      await trail.record({
        actor: USERS.bob,
        action: 'failed',
        operationId: 'tenants.remove',
        target: 'tenant s3cr3t-scc-token',
        outcome: 'SCC said: Authorization: Bearer abc.def.ghi was refused; api_key: 12345678',
        approvalId: 'ap-0000000001',
      });
      const [record] = await trail.latest(1);
      expect(record?.target).toBe('tenant [REDACTED]');
      expect(record?.outcome).toBe(
        'SCC said: Authorization: Bearer [REDACTED] was refused; api_key: [REDACTED]',
      );
    } finally {
      redis.disconnect();
    }
  });
});

/** Every value under the prefix (hashes, strings, streams, sorted sets) as one text to search. */
async function dumpKeys(redis: Redis, prefix: string): Promise<string> {
  const keys = await redis.keys(`${prefix}*`);
  const parts: string[] = [];
  for (const key of keys) {
    const type = await redis.type(key);
    if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
    else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
    else if (type === 'string') parts.push(String(await redis.get(key)));
    else parts.push(`${key}: ${type}`);
  }
  return parts.join('\n');
}
