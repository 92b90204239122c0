// The `vpn watch` records of earlier versions (a hash of channel → watch per profile, and the set of
// watched profiles) become `upgrades` alert subscriptions, once, when workers start. Each record is
// subscribed first and deleted after, so a start killed halfway is finished by the next one: subscribing
// an equal subscription again changes nothing. The old scan's memory (which channels it has been through,
// which runs it announced) is left alone: it is the scan's, not the watch's.
import type { UpgradeWatch } from '../../catalogue/operation.js';
import type { JobsCore } from '../core.js';
import { parseStored, UpgradeWatchSchema } from '../payloads.js';
import type { RedisAlertSubscriptions } from './subscriptions.js';

export async function migrateWatches(
  core: Pick<JobsCore, 'redis' | 'keys' | 'log'>,
  subscriptions: RedisAlertSubscriptions,
): Promise<number> {
  const { redis, keys, log } = core;
  let migrated = 0;
  for (const profile of await redis.smembers(keys.watchedProfiles())) {
    const key = keys.watches(profile);
    for (const [channelId, raw] of Object.entries(await redis.hgetall(key))) {
      let watch: UpgradeWatch;
      try {
        watch = parseStored(UpgradeWatchSchema, raw, `${key}#${channelId}`);
      } catch (error) {
        // A record that cannot be read cannot become a subscription: said once, then dropped.
        log.error({ err: error, profile, channelId }, 'dropping a vpn watch that cannot be read');
        await redis.hdel(key, channelId);
        continue;
      }
      // A failure here (Redis) leaves the record for the next start.
      const { subscription, created } = await subscriptions.subscribe(
        {
          channelId: watch.channelId,
          profile: watch.profile,
          kinds: ['upgrades'],
          scope: { kind: 'profile' },
          createdBy: watch.createdBy,
        },
        { createdAt: watch.createdAt },
      );
      if (created) migrated += 1;
      log.info({ profile, channelId, subscription: subscription.id }, 'vpn watch is now an upgrades alert');
      await redis.hdel(key, channelId);
    }
    await redis.srem(keys.watchedProfiles(), profile);
  }
  return migrated;
}
