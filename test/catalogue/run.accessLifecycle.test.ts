// `/fw access list`: the access rules fwbot created, read from their records in a real Redis (src/access/
// records.ts), narrowed to a device, to the asker's own, to those that expire soon; its view as the
// golden holds it, on a fixed clock.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessRecords, type NewAccessRecord } from '../../src/access/records.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { driveClock } from '../support/driveClock.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 7, 12, 0);

function rule(overrides: Partial<NewAccessRecord>): NewAccessRecord {
  return {
    profile: 'default',
    deviceUid: 'dev-hq',
    deviceName: 'asa-hq-01',
    accessGroup: 'outside_access_in',
    ruleUid: 'rule-1',
    protocol: 'tcp',
    source: '198.51.100.7',
    destination: 'web-servers',
    port: '443',
    requester: 'U0ALICE0001',
    ticket: 'CHG0042',
    reason: 'partner portal',
    createdAt: NOW - 10 * DAY,
    ...overrides,
  };
}

describe('access list', () => {
  const op = catalogue.get('access.list');
  if (!op) throw new Error('no access.list operation');
  let redis: Redis;
  let records: AccessRecords;
  beforeAll(async () => {
    redis = connectRedis();
    records = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-list-op')));
    const actor = h.context().actor.userId;
    await records.add(rule({ expiresAt: NOW + 2 * DAY, requester: actor }));
    await records.add(
      rule({
        ruleUid: 'rule-2',
        deviceUid: 'dev-br',
        deviceName: 'asa-branch-02',
        accessGroup: 'inside_access_in',
        protocol: 'udp',
        source: '10.1.0.0/24',
        destination: '10.9.9.9',
        port: '514',
        ticket: undefined,
        reason: 'syslog to the *new* collector',
        createdAt: NOW - 40 * DAY,
      }),
    );
    await records.add(rule({ ruleUid: 'rule-3', expiresAt: NOW + 30 * DAY, createdAt: NOW - DAY }));
    await records.add(rule({ profile: 'acme', ruleUid: 'rule-elsewhere' }));
  });
  afterAll(async () => {
    await redis.quit();
  });

  const list = (raw: Record<string, string | boolean>) =>
    op.execute({ ...h.context(), now: () => NOW, services: { accessRecords: records } }, raw);

  it('lists the profile’s rules oldest first: device, rule, requester, ticket, reason, created, expires', async () => {
    const outcome = await list({});
    h.golden('access-list', outcome);
    expect(outcome.view.summary).toBe('*3 access rules* fwbot created:');
  });

  it('narrows to a device, to the asker’s own, and to those that expire within 7 days', async () => {
    const ids = async (raw: Record<string, string | boolean>) => {
      const text = (await list(raw)).view.blocks.map((b) => ('text' in b ? b.text : '')).join('\n');
      return [...text.matchAll(/^• `(\d+)`/gm)].map((m) => m[1]);
    };
    expect(await ids({ device: 'ASA-BRANCH-02' })).toEqual(['2']);
    expect(await ids({ device: 'dev-hq' })).toEqual(['1', '3']);
    expect(await ids({ mine: true })).toEqual(['1']);
    expect(await ids({ expiring: true })).toEqual(['1']);
    expect(await ids({ device: 'asa-hq-01', expiring: true, mine: true })).toEqual(['1']);
  });

  it('says so when nothing is left, naming what it was narrowed to', async () => {
    const outcome = await list({ device: 'asa-branch-02', expiring: true });
    expect(outcome.view.summary).toBe(
      'fwbot created no access rule here that is still in place (on asa-branch-02, expiring within 7 days).',
    );
  });

  it('cannot run without the records', async () => {
    await expect(op.execute({ ...h.context(), now: () => NOW }, {})).rejects.toThrow(
      /cannot read the access rules it created/,
    );
  });
});

describe('access revoke', () => {
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('removes a rule fwbot created by rules remove’s path, bound to its record, and drops the record', async () => {
    const records = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-revoke')));
    const ctx = { ...h.context(), services: { accessRecords: records } };
    // The rule at line 130 of asa-hq-01 stands for one fwbot created.
    const { raw: found } = catalogue.parse('rules remove asa-hq-01 130');
    const target = await driving(
      catalogue.get('rules.remove')?.target?.resolve(h.context(), found) ?? Promise.reject(),
    );
    const created = await records.add(
      rule({ deviceUid: String(target.raw.asa), ruleUid: String(target.raw.rule) }),
    );

    const { op, raw } = catalogue.parse(`access revoke ${created.id}`);
    expect(op.id).toBe('access.revoke');
    const resolved = await driving(op.target?.resolve(ctx, raw) ?? Promise.reject());
    expect(resolved.raw).toEqual({ rule: created.id });
    const card = op.target?.describe(resolved.facts, Date.now());
    expect(card?.action).toBe(
      'remove the access rule at line 130 (#4 of `outside_access_in`) on `asa-hq-01`',
    );
    expect(h.sim.requestLog.list({ operationId: 'deleteAccessRule' })).toHaveLength(0);

    const outcome = await driving(op.execute(ctx, resolved.raw, resolved.facts));
    h.golden('access.revoke', outcome);
    expect(h.sim.requestLog.list({ operationId: 'deleteAccessRule' })).toHaveLength(1);
    expect(await records.get('default', created.id)).toBeUndefined();
    await expect(driving(op.target?.resolve(ctx, raw) ?? Promise.reject())).rejects.toThrow(
      /fwbot created no access rule 1 in this profile that is still in place/,
    );
  });
});
