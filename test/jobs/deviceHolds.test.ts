// Device holds in real Redis (src/jobs/deviceHolds.ts): of many takers exactly one wins, a take is all or
// nothing over its devices, a holder's own take renews, only the holder releases (an admin's forced release
// only the hold they saw), and a hold lapses at its `until` whoever is alive.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Holder, HoldRequest } from '../../src/catalogue/deviceHolds.js';
import { RedisDeviceHolds } from '../../src/jobs/deviceHolds.js';
import { normalisePrefix, RedisKeys } from '../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';

const NOW = Date.parse('2031-03-04T09:00:00Z');
const HOUR = 3_600_000;
const HQ = { uid: '5b0bb1d8-0000-4000-8000-000000000001', name: 'asa-hq-01' };
const DC = { uid: '5b0bb1d8-0000-4000-8000-000000000002', name: 'asa-dc-03' };

const holder = (id: string): Holder => ({ kind: 'deploy', id, requesterId: 'U0ALICE' });
const request = (id: string, devices = [HQ], until = NOW + HOUR, profile = 'default'): HoldRequest => ({
  profile,
  devices,
  holder: holder(id),
  reason: `deploy to ${devices.map((d) => d.name).join(', ')}`,
  until,
});

describe('device holds in Redis', () => {
  let redis: Redis;
  let holds: RedisDeviceHolds;
  let keys: RedisKeys;

  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(() => {
    redis.disconnect();
  });
  beforeEach(() => {
    keys = new RedisKeys(normalisePrefix(uniquePrefix('holds')));
    holds = new RedisDeviceHolds(redis, keys);
  });

  it('lets exactly one of twenty takers of one device win', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => holds.take(request(`ap-${i}`), NOW)),
    );
    const winners = results.filter((result) => result.taken);
    expect(winners).toHaveLength(1);
    const [held] = await holds.list(NOW);
    for (const lost of results.filter((result) => !result.taken))
      expect(lost).toMatchObject({ taken: false, by: { holder: { id: held?.holder.id } } });
  });

  it('takes every device asked for or none', async () => {
    await holds.take(request('ap-a', [HQ]), NOW);
    expect(await holds.take(request('ap-b', [DC, HQ]), NOW)).toMatchObject({
      taken: false,
      by: { device: 'asa-hq-01', holder: { id: 'ap-a' }, reason: 'deploy to asa-hq-01', since: NOW },
    });
    expect(await holds.heldBy('default', [DC.uid], NOW)).toBe(undefined);
    expect((await holds.list(NOW)).map((hold) => hold.device)).toEqual(['asa-hq-01']);
  });

  it('renews a holder’s own take, keeping since', async () => {
    await holds.take(request('ap-a', [HQ], NOW + HOUR), NOW);
    expect(await holds.take(request('ap-a', [HQ, DC], NOW + 3 * HOUR), NOW + HOUR / 2)).toEqual({
      taken: true,
    });
    expect(await holds.list(NOW + HOUR / 2)).toMatchObject([
      { device: 'asa-hq-01', since: NOW, until: NOW + 3 * HOUR },
      { device: 'asa-dc-03', since: NOW + HOUR / 2, until: NOW + 3 * HOUR },
    ]);
    // Its own holds never stop it; anyone else's check does.
    expect(await holds.heldBy('default', [HQ.uid], NOW, 'ap-a')).toBe(undefined);
    expect(await holds.heldBy('default', [HQ.uid], NOW)).toMatchObject({ holder: { id: 'ap-a' } });
  });

  it('releases only what the holder holds, on every profile', async () => {
    await holds.take(request('ap-a', [HQ]), NOW);
    await holds.take(request('ap-a', [HQ], NOW + HOUR, 'contoso'), NOW);
    await holds.take(request('ap-b', [DC]), NOW);
    expect(await holds.release('ap-nobody')).toEqual([]);
    expect((await holds.release('ap-a')).map((hold) => `${hold.profile}/${hold.device}`).sort()).toEqual([
      'contoso/asa-hq-01',
      'default/asa-hq-01',
    ]);
    expect((await holds.list(NOW)).map((hold) => hold.holder.id)).toEqual(['ap-b']);
    expect(await holds.list(NOW, 'contoso')).toEqual([]);
    // ap-b's hold is met from any profile: the device is the same one.
    expect(await holds.anyOn('contoso', NOW)).toBe(true);
    expect(await holds.release('ap-b')).toHaveLength(1);
    expect(await holds.anyOn('contoso', NOW)).toBe(false);
  });

  it('holds a device whatever profile took it: the MSP portal’s upgrade stops the tenant’s deploy', async () => {
    expect(await holds.take(request('up-1', [HQ, DC], NOW + HOUR, 'msp-portal'), NOW)).toEqual({
      taken: true,
    });
    expect(await holds.take(request('ap-t', [HQ], NOW + HOUR, 'contoso'), NOW)).toMatchObject({
      taken: false,
      by: { profile: 'msp-portal', device: 'asa-hq-01', holder: { id: 'up-1' } },
    });
    expect(await holds.list(NOW, 'contoso')).toEqual([]);
    expect(await holds.heldBy('contoso', [DC.uid], NOW)).toMatchObject({ holder: { id: 'up-1' } });
    expect(await holds.heldBy('contoso', [DC.uid], NOW, 'up-1')).toBe(undefined);
    // Lapsed there, free here.
    expect(await holds.take(request('ap-t', [HQ], NOW + 2 * HOUR, 'contoso'), NOW + HOUR)).toEqual({
      taken: true,
    });
  });

  it('sees holds taken before the set of hashes was kept', async () => {
    await holds.take(request('up-1', [HQ], NOW + HOUR, 'msp-portal'), NOW);
    // As a release before holdHashes left Redis: the profile's hash, and no set of hashes.
    await redis.del(keys.holdHashes());
    const later = new RedisDeviceHolds(redis, keys);
    expect(await later.take(request('ap-t', [HQ], NOW + HOUR, 'contoso'), NOW)).toMatchObject({
      taken: false,
      by: { holder: { id: 'up-1' } },
    });
  });

  it('lets an admin release the hold they saw, and not one taken since by someone else', async () => {
    await holds.take(request('ap-a'), NOW);
    expect(await holds.forceRelease('default', HQ.uid, 'ap-other')).toBe(undefined);
    expect(await holds.forceRelease('default', HQ.uid, 'ap-a')).toMatchObject({ holder: { id: 'ap-a' } });
    expect(await holds.anyOn('default', NOW)).toBe(false);
  });

  it('lapses at its until, whoever is alive: then another takes the device', async () => {
    await holds.take(request('ap-a', [HQ], NOW + HOUR), NOW);
    expect(await holds.anyOn('default', NOW + HOUR - 1)).toBe(true);
    expect(await holds.anyOn('default', NOW + HOUR)).toBe(false);
    expect(await holds.list(NOW + HOUR)).toEqual([]);
    expect(await holds.take(request('ap-b'), NOW + HOUR)).toEqual({ taken: true });
    expect(await holds.extend('ap-b', NOW + 5 * HOUR)).toBe(1);
    expect(await holds.list(NOW + 4 * HOUR)).toMatchObject([{ holder: { id: 'ap-b' }, since: NOW + HOUR }]);
  });
});
