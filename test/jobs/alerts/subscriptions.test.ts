import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAlertSubscription } from '../../../src/alerts/model.js';
import { RedisAlertSubscriptions } from '../../../src/jobs/alerts/subscriptions.js';
import { RedisKeys } from '../../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../../support/testRedis.js';

const log = pino({ level: 'silent' });

describe('alert subscriptions in Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  const store = (makeId?: () => string) => {
    const keys = new RedisKeys(uniquePrefix('alert-subs').slice(0, -1));
    return { keys, subs: new RedisAlertSubscriptions({ redis, keys, log }, makeId ? { makeId } : {}) };
  };
  const base: NewAlertSubscription = {
    channelId: 'C0NETOPS',
    profile: 'default',
    kinds: ['ha', 'connectivity'],
    scope: { kind: 'profile' },
    createdBy: 'U0ALICE',
  };

  it('gives a short typeable id, and an equal subscription is the existing one', async () => {
    const { subs } = store();
    const first = await subs.subscribe(base);
    expect(first.created).toBe(true);
    expect(first.subscription.id).toMatch(/^[a-z0-9]{6}$/);
    expect(first.subscription.kinds).toEqual(['connectivity', 'ha']); // the catalogue's order
    // The same kinds in another order, asked by someone else: equal.
    const again = await subs.subscribe({ ...base, kinds: ['connectivity', 'ha', 'ha'], createdBy: 'U0BOB' });
    expect(again).toEqual({ subscription: first.subscription, created: false });
    // Other devices, another scope, another channel: three more.
    await subs.subscribe({ ...base, devices: 'name:asa-branch*' });
    await subs.subscribe({ ...base, scope: { kind: 'tenant', uid: 't-1', name: 'northwind' } });
    await subs.subscribe({ ...base, channelId: 'C0OTHER' });
    expect(await subs.list()).toHaveLength(4);
    expect(await subs.list({ channelId: 'C0NETOPS' })).toHaveLength(3);
    expect(await subs.list({ profile: 'default' })).toHaveLength(4);
    expect(await subs.list({ profile: 'lab' })).toEqual([]);
    expect(await subs.profiles()).toEqual(['default']);
  });

  it('retries an id that is taken', async () => {
    const ids = ['aaaaaa', 'aaaaaa', 'bbbbbb'];
    const { subs } = store(() => ids.shift() ?? 'zzzzzz');
    expect((await subs.subscribe(base)).subscription.id).toBe('aaaaaa');
    const second = await subs.subscribe({ ...base, kinds: ['audit'] });
    expect(second.subscription.id).toBe('bbbbbb');
    expect((await subs.list()).map((s) => s.kinds)).toEqual([['connectivity', 'ha'], ['audit']]);
  });

  it('unsubscribes only within the channel, and leaves no index behind', async () => {
    const { subs, keys } = store();
    const { subscription } = await subs.subscribe(base);
    expect(await subs.unsubscribe('C0OTHER', subscription.id)).toBeUndefined();
    expect(await subs.list({ channelId: 'C0NETOPS' })).toHaveLength(1);
    expect(await subs.unsubscribe('C0NETOPS', subscription.id)).toEqual(subscription);
    expect(await subs.unsubscribe('C0NETOPS', subscription.id)).toBeUndefined();
    expect(await subs.list()).toEqual([]);
    expect(await subs.profiles()).toEqual([]);
    const left = await redis.keys(`${keys.prefix}:*`);
    expect(left).toEqual([]);
    // Subscribing again after it is gone makes a new one (the fingerprint went with it).
    expect((await subs.subscribe(base)).created).toBe(true);
  });

  it('keeps its indexes right when subscribes and unsubscribes race', async () => {
    const { subs } = store();
    const channels = Array.from({ length: 20 }, (_, i) => `C0RACE${String(i).padStart(2, '0')}`);
    const made = await Promise.all(channels.map((channelId) => subs.subscribe({ ...base, channelId })));
    // Every channel subscribes the same thing again while half of them unsubscribe.
    await Promise.all([
      ...channels.map((channelId) => subs.subscribe({ ...base, channelId })),
      ...made
        .filter((_, i) => i % 2 === 0)
        .map(({ subscription }) => subs.unsubscribe(subscription.channelId, subscription.id)),
    ]);
    const all = await subs.list();
    const byProfile = await subs.list({ profile: 'default' });
    expect(byProfile.map((s) => s.id).sort()).toEqual(all.map((s) => s.id).sort());
    for (const channelId of channels) {
      const mine = await subs.list({ channelId });
      // At most one per channel (equal ones are never duplicated), and the index agrees with the records.
      expect(mine.length).toBeLessThanOrEqual(1);
      expect(all.filter((s) => s.channelId === channelId)).toEqual(mine);
    }
  });
});
