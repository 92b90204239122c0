// The records of the access rules fwbot created (src/access/records.ts) on a real Redis: short ids per
// profile, found by id or by the rule's uid, listed oldest first with the filters /fw access list uses,
// changed atomically (extend, recertify), dropped once their rule is removed.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessRecords, type NewAccessRecord } from '../../src/access/records.js';
import { UserError } from '../../src/model/errors.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-12-01T09:00:00Z');

function rule(overrides: Partial<NewAccessRecord> = {}): NewAccessRecord {
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
    createdAt: T0,
    expiresAt: T0 + 30 * DAY,
    thread: { channel: 'C0NETOPS001', ts: '1764579600.000100' },
    ...overrides,
  };
}

describe('access records', () => {
  let redis: Redis;
  let records: AccessRecords;
  beforeAll(() => {
    redis = connectRedis();
    records = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-records')));
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('numbers records per profile and reads one back by id or by its rule uid', async () => {
    const first = await records.add(rule());
    const second = await records.add(rule({ ruleUid: 'rule-2', createdAt: T0 + DAY }));
    const elsewhere = await records.add(rule({ profile: 'acme', ruleUid: 'rule-9' }));
    expect([first.id, second.id, elsewhere.id]).toEqual(['1', '2', '1']);
    expect(await records.get('default', '1')).toEqual({ ...rule(), id: '1' });
    expect((await records.find('default', 'rule-2'))?.id).toBe('2');
    expect(await records.find('default', 'rule-9')).toBeUndefined();
    expect(await records.get('default', '99')).toBeUndefined();
  });

  it('lists oldest first, by device, by requester and by expiry; permanent rules never expire', async () => {
    const store = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-list')));
    await store.add(rule({ ruleUid: 'late', createdAt: T0 + 2 * DAY, expiresAt: T0 + 5 * DAY }));
    await store.add(rule({ ruleUid: 'perm', createdAt: T0, expiresAt: undefined, requester: 'U0BOB000001' }));
    await store.add(
      rule({ ruleUid: 'branch', createdAt: T0 + DAY, deviceUid: 'dev-br', deviceName: 'asa-br-02' }),
    );
    const uids = async (filter: Parameters<AccessRecords['list']>[1]) =>
      (await store.list('default', filter)).map((record) => record.ruleUid);
    expect(await uids({})).toEqual(['perm', 'branch', 'late']);
    expect(await uids({ deviceUid: 'dev-br' })).toEqual(['branch']);
    expect(await uids({ requester: 'U0BOB000001' })).toEqual(['perm']);
    expect(await uids({ expiringBefore: T0 + 10 * DAY })).toEqual(['late']);
    expect(await uids({ expiringBefore: T0 + 40 * DAY })).toEqual(['branch', 'late']);
    expect(await uids({ deviceUid: 'dev-hq', requester: 'U0ALICE0001' })).toEqual(['late']);
  });

  it('extends and recertifies a record, and refuses to change one that is gone', async () => {
    const store = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-update')));
    const kept = await store.add(rule());
    const extended = await store.update('default', kept.id, { expiresAt: T0 + 60 * DAY });
    expect(extended).toEqual({ ...kept, expiresAt: T0 + 60 * DAY });
    await store.update('default', kept.id, { lastCertifiedAt: T0 + 61 * DAY });
    expect(await store.get('default', kept.id)).toEqual({
      ...kept,
      expiresAt: T0 + 60 * DAY,
      lastCertifiedAt: T0 + 61 * DAY,
    });
    expect(await store.remove('default', kept.id)).toBe(true);
    expect(await store.remove('default', kept.id)).toBe(false);
    await expect(store.update('default', kept.id, { lastCertifiedAt: T0 })).rejects.toThrow(UserError);
    expect(await store.list('default')).toEqual([]);
  });

  it('refuses a record that is not one', async () => {
    await expect(records.add({ ...rule(), protocol: 'sctp' as 'tcp' })).rejects.toThrow();
  });
});
