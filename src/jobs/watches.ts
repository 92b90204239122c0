// `vpn watch` as one kind of alert: the WatchRegistry the `vpn watch` / `vpn unwatch` operations and the
// Home use, kept as `upgrades` alert subscriptions (src/jobs/alerts/subscriptions.ts) instead of records of
// their own. A channel "watches" a profile when one of its subscriptions hears every upgrade run of it:
// kind `upgrades`, the profile's scope, no device query. Until the `upgrades` kind's scan replaces the
// watch scan (src/jobs/watchScan.ts), that scan reads the watches from here and keeps which channels it has
// been through once (baselined), as it did.
import type { AlertSubscription } from '../alerts/model.js';
import type { UpgradeWatch, WatchRegistry } from '../catalogue/operation.js';
import type { RedisAlertSubscriptions } from './alerts/subscriptions.js';
import type { JobsCore } from './core.js';

/** The subscription `vpn watch` makes, and the ones that hear as much (an `upgrades` kind among others). */
export function hearsEveryUpgradeRun(subscription: AlertSubscription): boolean {
  return (
    subscription.kinds.includes('upgrades') &&
    subscription.scope.kind === 'profile' &&
    subscription.devices === undefined
  );
}

/** Exactly what `vpn watch` makes: `vpn unwatch` removes these and only these. */
function isWatch(subscription: AlertSubscription): boolean {
  return hearsEveryUpgradeRun(subscription) && subscription.kinds.length === 1;
}

export class SubscriptionWatches implements WatchRegistry {
  constructor(
    private readonly core: JobsCore,
    private readonly subscriptions: RedisAlertSubscriptions,
  ) {}

  async watch(watch: UpgradeWatch): Promise<{ created: boolean }> {
    const { channelId, profile, createdBy } = watch;
    const mine = await this.subscriptions.list({ channelId });
    if (mine.some((s) => s.profile === profile && hearsEveryUpgradeRun(s))) return { created: false };
    const { created } = await this.subscriptions.subscribe(
      { channelId, profile, kinds: ['upgrades'], scope: { kind: 'profile' }, createdBy },
      { createdAt: watch.createdAt },
    );
    if (created)
      // The runs that have already ended are noted (not announced) before new ones end.
      await this.core.watchQueue.add(
        'scan',
        { reason: 'new watch' },
        { removeOnComplete: true, removeOnFail: 100 },
      );
    return { created };
  }

  async unwatch(channelId: string, profile: string): Promise<{ removed: boolean; stillHeardBy: string[] }> {
    const mine = (await this.subscriptions.list({ channelId })).filter((s) => s.profile === profile);
    let removed = false;
    for (const subscription of mine.filter(isWatch)) {
      if (await this.subscriptions.unsubscribe(channelId, subscription.id)) removed = true;
    }
    // A channel watched again later is baselined again (runs that ended meanwhile are not news to it).
    if (removed) await this.core.redis.srem(this.core.keys.watchBaselined(profile), channelId);
    const stillHeardBy = mine.filter((s) => !isWatch(s) && s.kinds.includes('upgrades')).map((s) => s.id);
    return { removed, stillHeardBy };
  }

  /** One watch per channel and profile that hears every upgrade run, the oldest subscription's date. */
  async list(profile?: string): Promise<UpgradeWatch[]> {
    const all = await this.subscriptions.list(profile === undefined ? {} : { profile });
    const watches = new Map<string, UpgradeWatch>();
    for (const s of all.filter(hearsEveryUpgradeRun)) {
      const key = `${s.profile}\u0000${s.channelId}`;
      if (!watches.has(key))
        watches.set(key, {
          channelId: s.channelId,
          profile: s.profile,
          createdBy: s.createdBy,
          createdAt: s.createdAt,
        });
    }
    return [...watches.values()].sort(
      (a, b) => a.profile.localeCompare(b.profile) || a.channelId.localeCompare(b.channelId),
    );
  }

  /** The profiles that have any alert subscription (those without a watch are passed over by list). */
  profiles(): Promise<string[]> {
    return this.subscriptions.profiles();
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
