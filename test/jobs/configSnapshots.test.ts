// The store of running configurations (src/jobs/configSnapshots.ts) on a real Redis: ids short and per
// device, newest first, sizes, and the retention (`changes.snapshots.retention_days`) by the store's clock.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisConfigSnapshots } from '../../src/jobs/configSnapshots.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';

const DAY = 24 * 60 * 60 * 1000;

describe('configuration snapshots', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  const snapshot = (at: number, text: string) => ({
    deviceUid: 'dev-1',
    device: 'asa-hq-01',
    at,
    phase: 'before-deploy' as const,
    requestId: 'req-1',
    approvalId: 'req-1',
    actor: 'U0ALICE',
    text,
  });

  it('numbers the snapshots of a device, lists them newest first with their size, and reads one back', async () => {
    const now = Date.now();
    const store = new RedisConfigSnapshots(redis, new RedisKeys(uniquePrefix('snapshots')), 30, () => now);
    expect(await store.keep('default', snapshot(now - 2000, 'hostname a\n'))).toBe('1');
    expect(
      await store.keep('default', { ...snapshot(now - 1000, 'hostname b\n'), phase: 'after-deploy' }),
    ).toBe('2');
    // Another profile's device of the same uid is another history.
    expect(await store.keep('other', snapshot(now, 'x'))).toBe('1');

    const listed = await store.list('default', 'dev-1');
    expect(listed.map((s) => [s.id, s.phase, s.bytes])).toEqual([
      ['2', 'after-deploy', 11],
      ['1', 'before-deploy', 11],
    ]);
    expect(listed[0]).not.toHaveProperty('text');
    expect((await store.get('default', 'dev-1', '1'))?.text).toBe('hostname a\n');
    expect(await store.get('default', 'dev-1', '3')).toBeUndefined();
  });

  it('forgets snapshots older than the retention', async () => {
    let now = Date.now();
    const keys = new RedisKeys(uniquePrefix('snapshots'));
    const store = new RedisConfigSnapshots(redis, keys, 30, () => now);
    await store.keep('default', snapshot(now - 31 * DAY, 'old'));
    await store.keep('default', snapshot(now - 29 * DAY, 'recent'));

    expect((await store.list('default', 'dev-1')).map((s) => s.id)).toEqual(['2']);
    expect(await store.get('default', 'dev-1', '1')).toBeUndefined();
    // Redis expires the text itself: nothing of the old one is left behind.
    expect(await redis.exists(keys.configSnapshot('default', 'dev-1', '1'))).toBe(0);

    // Two days later the second is past the retention too.
    now += 2 * DAY;
    expect(await store.list('default', 'dev-1')).toEqual([]);
    expect(await store.get('default', 'dev-1', '2')).toBeUndefined();
  });

  it('keeps a snapshot for the retention on a clock set in another year (a test’s, the demo’s)', async () => {
    const now = Date.parse('2025-03-04T09:00:00Z');
    const keys = new RedisKeys(uniquePrefix('snapshots'));
    const store = new RedisConfigSnapshots(redis, keys, 30, () => now);
    await store.keep('default', snapshot(now - DAY, 'before the upgrade'));
    expect((await store.get('default', 'dev-1', '1'))?.text).toBe('before the upgrade');
    const ttl = await redis.pttl(keys.configSnapshot('default', 'dev-1', '1'));
    expect(ttl).toBeGreaterThan(28 * DAY);
    expect(ttl).toBeLessThanOrEqual(29 * DAY);
  });
});
