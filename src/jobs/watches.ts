// The WatchRegistry of src/catalogue/operation.ts in Redis: which channels hear about every VPN client
// upgrade run that ends, per profile. Creating a watch asks for a scan right away, so the runs that have
// already ended are noted (not announced) before new ones end.
import type { UpgradeWatch, WatchRegistry } from '../catalogue/operation.js';
import type { JobsCore } from './core.js';
import { parseStored, UpgradeWatchSchema } from './payloads.js';

// Removing the last watch of a profile and dropping the profile from the scan list happen together, so a
// watch created at the same moment is never left out of the scans.
const UNWATCH = `
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[1])
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[2]) end
return removed`;

export class RedisWatchRegistry implements WatchRegistry {
  constructor(private readonly core: JobsCore) {}

  async watch(watch: UpgradeWatch): Promise<{ created: boolean }> {
    const typed = UpgradeWatchSchema.parse(watch);
    const { redis, keys } = this.core;
    const results = await redis
      .multi()
      .hsetnx(keys.watches(typed.profile), typed.channelId, JSON.stringify(typed))
      .sadd(keys.watchedProfiles(), typed.profile)
      .exec();
    const created = results?.[0]?.[1] === 1;
    if (created)
      await this.core.watchQueue.add(
        'scan',
        { reason: 'new watch' },
        { removeOnComplete: true, removeOnFail: 100 },
      );
    return { created };
  }

  async unwatch(channelId: string, profile: string): Promise<{ removed: boolean }> {
    const { redis, keys } = this.core;
    const removed = await redis.eval(
      UNWATCH,
      3,
      keys.watches(profile),
      keys.watchedProfiles(),
      keys.watchBaselined(profile),
      channelId,
      profile,
    );
    return { removed: Number(removed) === 1 };
  }

  async list(profile?: string): Promise<UpgradeWatch[]> {
    const { redis, keys } = this.core;
    const profiles = profile ? [profile] : (await redis.smembers(keys.watchedProfiles())).sort();
    const out: UpgradeWatch[] = [];
    for (const name of profiles) {
      const raw = await redis.hgetall(keys.watches(name));
      for (const [channelId, value] of Object.entries(raw)) {
        try {
          out.push(parseStored(UpgradeWatchSchema, value, `${keys.watches(name)}#${channelId}`));
        } catch (error) {
          this.core.log.error({ err: error, profile: name, channelId }, 'skipping a malformed watch');
        }
      }
    }
    return out.sort((a, b) => a.profile.localeCompare(b.profile) || a.channelId.localeCompare(b.channelId));
  }

  /** Channels whose watch has been through one scan (runs that end from then on are theirs). */
  async baselined(profile: string): Promise<Set<string>> {
    return new Set(await this.core.redis.smembers(this.core.keys.watchBaselined(profile)));
  }

  async markBaselined(profile: string, channelIds: readonly string[]): Promise<void> {
    if (channelIds.length === 0) return;
    await this.core.redis.sadd(this.core.keys.watchBaselined(profile), ...channelIds);
  }
}
