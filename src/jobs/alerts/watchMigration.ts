// The `vpn watch` records of earlier versions (a hash of channel → watch per profile, and the set of
// watched profiles) become `upgrades` alert subscriptions, once, when workers start; on an MSP portal's
// profile also one across its managed tenants, as those watches announced the portal's runs across
// tenants too. Each record is subscribed first and deleted after, so a start killed halfway is finished by
// the next one: subscribing an equal subscription again changes nothing. The retired watch scan's memory
// (which channels it had been through, which runs it announced) goes with the records.
import type { UpgradeWatch } from '../../catalogue/operation.js';
import type { JobsCore } from '../core.js';
import { parseStored, UpgradeWatchSchema } from '../payloads.js';
import { SubscriptionWatches } from '../watches.js';
import type { RedisAlertSubscriptions } from './subscriptions.js';

/** The BullMQ job scheduler of the retired watch scan, removed from the `watch` queue at start. */
export const RETIRED_WATCH_SCHEDULER_ID = 'fwbot-watch-scan';

export async function migrateWatches(
  core: Pick<JobsCore, 'redis' | 'keys' | 'log'>,
  subscriptions: RedisAlertSubscriptions,
  /** Whether the profile is an MSP portal's (undefined: SCC cannot say now; the watch stays to the next start). */
  isPortal: (profile: string) => Promise<boolean | undefined> = async () => false,
): Promise<number> {
  const { redis, keys, log } = core;
  const watches = new SubscriptionWatches(subscriptions);
  let migrated = 0;
  for (const profile of await redis.smembers(keys.watchedProfiles())) {
    const key = keys.watches(profile);
    const records = Object.entries(await redis.hgetall(key));
    const portal = records.length > 0 ? await isPortal(profile) : false;
    if (portal === undefined) {
      log.warn(
        { profile },
        'vpn watches not migrated yet: SCC cannot say whether the profile is an MSP portal',
      );
      continue;
    }
    for (const [channelId, raw] of records) {
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
      const { created } = await watches.watch({ ...watch, acrossTenants: portal });
      if (created) migrated += 1;
      log.info({ profile, channelId, acrossTenants: portal }, 'vpn watch is now an upgrades alert');
      await redis.hdel(key, channelId);
    }
    await redis.del(keys.watchBaselined(profile), keys.announcedRuns(profile));
    await redis.srem(keys.watchedProfiles(), profile);
  }
  return migrated;
}
