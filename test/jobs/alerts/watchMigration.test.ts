// Earlier versions kept `vpn watch` as records of their own; since issue 26 they are `upgrades` alert
// subscriptions. The migration runs when workers start, and again harmlessly on every start after.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisAlertSubscriptions } from '../../../src/jobs/alerts/subscriptions.js';
import { migrateWatches } from '../../../src/jobs/alerts/watchMigration.js';
import { RedisKeys } from '../../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../../support/testRedis.js';
import { type Harness, quietLog, startTestWorkers, useHarness } from '../support/harness.js';

/** What an earlier version wrote for `/fw vpn watch` in a channel. */
async function oldWatch(redis: Redis, keys: RedisKeys, channelId: string, profile = 'default') {
  const watch = { channelId, profile, createdBy: 'U0OLDTIMER', createdAt: '2026-01-02T03:04:05.000Z' };
  await redis.hset(keys.watches(profile), channelId, JSON.stringify(watch));
  await redis.sadd(keys.watchedProfiles(), profile);
}

describe('the vpn watches of earlier versions', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('become upgrades subscriptions once, and the old records go', async () => {
    const keys = new RedisKeys(uniquePrefix('migrate').slice(0, -1));
    const core = { redis, keys, log: quietLog };
    const subscriptions = new RedisAlertSubscriptions(core);
    await oldWatch(redis, keys, 'C0OLD00001');
    await oldWatch(redis, keys, 'C0OLD00002');
    await oldWatch(redis, keys, 'C0OLD00003', 'lab');
    await redis.hset(keys.watches('lab'), 'C0BROKEN01', '{not json');
    // The retired watch scan's memory goes with the watches.
    await redis.sadd(keys.watchBaselined('default'), 'C0OLD00001');
    await redis.zadd(keys.announcedRuns('default'), 1, 'run-1');

    expect(await migrateWatches(core, subscriptions)).toBe(3);
    const all = (await subscriptions.list()).sort((a, b) => a.channelId.localeCompare(b.channelId));
    expect(
      all.map((s) => [s.channelId, s.profile, s.kinds, s.scope.kind, s.createdBy, s.createdAt, s.devices]),
    ).toEqual(
      [
        [
          'C0OLD00001',
          'default',
          ['upgrades'],
          'profile',
          'U0OLDTIMER',
          '2026-01-02T03:04:05.000Z',
          undefined,
        ],
        [
          'C0OLD00002',
          'default',
          ['upgrades'],
          'profile',
          'U0OLDTIMER',
          '2026-01-02T03:04:05.000Z',
          undefined,
        ],
        ['C0OLD00003', 'lab', ['upgrades'], 'profile', 'U0OLDTIMER', '2026-01-02T03:04:05.000Z', undefined],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(await redis.exists(keys.watches('default'), keys.watches('lab'), keys.watchedProfiles())).toBe(0);
    expect(await redis.exists(keys.watchBaselined('default'), keys.announcedRuns('default'))).toBe(0);

    // A start killed after subscribing but before deleting: the next one finishes without a duplicate.
    await oldWatch(redis, keys, 'C0OLD00001');
    expect(await migrateWatches(core, subscriptions)).toBe(0);
    expect((await subscriptions.list()).sort((a, b) => a.channelId.localeCompare(b.channelId))).toEqual(all);
    expect(await redis.exists(keys.watches('default'), keys.watchedProfiles())).toBe(0);
  });
});

describe('the vpn watches of an MSP portal’s profile', () => {
  it('hear the portal’s runs across tenants too, and wait for a start when SCC cannot say', async () => {
    const redis = connectRedis();
    try {
      const keys = new RedisKeys(uniquePrefix('migrate-msp').slice(0, -1));
      const core = { redis, keys, log: quietLog };
      const subscriptions = new RedisAlertSubscriptions(core);
      await oldWatch(redis, keys, 'C0PORTAL01', 'portal');
      await oldWatch(redis, keys, 'C0UNKNOWN1', 'down');
      const portal = async (profile: string) => (profile === 'portal' ? true : undefined);
      expect(await migrateWatches(core, subscriptions, portal)).toBe(1);
      const scopes = (await subscriptions.list({ profile: 'portal' })).map((s) => s.scope.kind).sort();
      expect(scopes).toEqual(['all-tenants', 'profile']);
      // SCC could not say for `down`: its watch waits, whole, for the next start.
      expect(await subscriptions.list({ profile: 'down' })).toEqual([]);
      expect(await redis.hkeys(keys.watches('down'))).toEqual(['C0UNKNOWN1']);
      expect(await redis.smembers(keys.watchedProfiles())).toEqual(['down']);
    } finally {
      await redis.quit();
    }
  });
});

describe('workers started over the watches of an earlier version', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  it('find them as upgrades subscriptions, and vpn watch still knows them', async () => {
    await h.start(); // a fresh simulator and Slack; these workers are not the ones tested
    await h.stopWorkers();
    const prefix = uniquePrefix('migrate-start');
    const redis = connectRedis();
    try {
      await oldWatch(redis, new RedisKeys(prefix.slice(0, -1)), 'C0OLD00009');
      const workers = await startTestWorkers(h.clients, h.slack.apiUrl, prefix);
      try {
        expect((await workers.jobs.watches.list()).map((w) => [w.channelId, w.createdAt])).toEqual([
          ['C0OLD00009', '2026-01-02T03:04:05.000Z'],
        ]);
        const again = await workers.jobs.watches.watch({
          channelId: 'C0OLD00009',
          profile: 'default',
          createdBy: 'U0SOMEONE',
          createdAt: new Date().toISOString(),
        });
        expect(again.created).toBe(false);
      } finally {
        await workers.close();
      }
    } finally {
      await redis.quit();
    }
  });
});
