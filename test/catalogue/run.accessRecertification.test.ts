// `/fw access recertification` and `/fw access recertify`, at the catalogue on a fixed clock over records in
// a real Redis: the report orders overdue, due, answered, not yet due; an answer is its requester's only and
// moves the rule to answered; without `access.recertify_every` both say recertification is off. Their
// views as the goldens hold them.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessRecords, type NewAccessRecord } from '../../src/access/records.js';
import { defaultAccessRequests } from '../../src/config/sections/access.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 7, 12, 0);
const policy = { ...defaultAccessRequests, recertification: { everyMs: 90 * DAY, graceMs: 7 * DAY } };

function rule(overrides: Partial<NewAccessRecord>): NewAccessRecord {
  return {
    profile: 'default',
    deviceUid: 'dev-hq',
    deviceName: 'asa-hq-01',
    accessGroup: 'inside_access_in',
    ruleUid: 'rule-1',
    protocol: 'tcp',
    source: '10.1.0.0/16',
    destination: '10.9.9.9',
    port: '443',
    requester: 'U0ALICE0001',
    reason: 'reporting service',
    createdAt: NOW - 10 * DAY,
    ...overrides,
  };
}

describe('access recertification', () => {
  let redis: Redis;
  let records: AccessRecords;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    redis = connectRedis();
    records = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-recert')));
    const actor = h.context().actor.userId;
    ids.notDue = (await records.add(rule({ ruleUid: 'r-new' }))).id;
    ids.overdue = (
      await records.add(
        rule({ ruleUid: 'r-old', createdAt: NOW - 100 * DAY, certificationAskedAt: NOW - 10 * DAY }),
      )
    ).id;
    ids.due = (await records.add(rule({ ruleUid: 'r-due', requester: actor, createdAt: NOW - 92 * DAY }))).id;
    ids.expiring = (
      await records.add(rule({ ruleUid: 'r-exp', createdAt: NOW - 200 * DAY, expiresAt: NOW + DAY }))
    ).id;
  });
  afterAll(async () => {
    await redis.quit();
  });

  const ctx = (withPolicy = true) => ({
    ...h.context(),
    now: () => NOW,
    services: { accessRecords: records },
    ...(withPolicy ? { policy: { accessRequests: policy } } : {}),
  });
  const run = (text: string, withPolicy = true) => {
    const { op, raw } = catalogue.parse(text);
    return op.execute(ctx(withPolicy), raw);
  };
  const textOf = (outcome: Awaited<ReturnType<typeof run>>) =>
    outcome.view.blocks.map((b) => ('text' in b ? b.text : '')).join('\n');

  it('reports the permanent rules, overdue first, and flags the overdue', async () => {
    const outcome = await run('access recertification');
    h.golden('access.recertification', outcome);
    const order = [...textOf(outcome).matchAll(/^• `(\d+)`/gm)].map((m) => m[1]);
    expect(order).toEqual([ids.overdue, ids.due, ids.notDue]);
    expect(textOf(outcome)).toContain('Nobody answered for the overdue ones');
    const overdue = await run('access recertification --overdue');
    expect([...textOf(overdue).matchAll(/^• `(\d+)`/gm)].map((m) => m[1])).toEqual([ids.overdue]);
  });

  it('records its requester’s answer, refuses anyone else’s and a rule with an expiry', async () => {
    const { op, raw } = catalogue.parse(`access recertify ${ids.due}`);
    const resolved = await (op.target?.resolve(ctx(), raw) ?? Promise.reject());
    const outcome = await op.execute(ctx(), resolved.raw, resolved.facts);
    h.golden('access.recertify', outcome);
    expect((await records.get('default', ids.due ?? ''))?.lastCertifiedAt).toBe(NOW);
    expect(textOf(await run('access recertification'))).toMatch(/still needed \(said on 2026-12-07\)/);

    const other = catalogue.parse(`access recertify ${ids.overdue}`);
    const theirs = await (op.target?.resolve(ctx(), other.raw) ?? Promise.reject());
    await expect(op.execute(ctx(), theirs.raw, theirs.facts)).rejects.toThrow(/can say it is still needed/);
    await expect(op.target?.resolve(ctx(), { rule: ids.expiring ?? '' })).rejects.toThrow(
      /only permanent rules are recertified/,
    );
  });

  it('says recertification is off without access.recertify_every', async () => {
    await expect(run('access recertification', false)).rejects.toThrow(/`access.recertify_every` is not set/);
  });
});
