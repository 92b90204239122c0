// `vpn watch` as one kind of alert: the WatchRegistry the `vpn watch` / `vpn unwatch` operations and the
// Home use, kept as `upgrades` alert subscriptions (src/jobs/alerts/subscriptions.ts) instead of records of
// their own; the alert scan's `upgrades` kind tells the runs that end. A channel "watches" a profile when
// one of its subscriptions hears every upgrade run of it: kind `upgrades`, the profile's scope, no device
// query. On an MSP portal's profile a watch is also one across its managed tenants (the portal's runs
// across tenants), as the watches of earlier versions were.
import type { AlertScope, AlertSubscription } from '../alerts/model.js';
import type { UpgradeWatch, WatchRegistry } from '../catalogue/operation.js';
import { workspaceOf } from '../model/workspace.js';
import type { SccClient } from '../scc/client.js';
import { SccApiError } from '../scc/errors.js';
import type { RedisAlertSubscriptions } from './alerts/subscriptions.js';

/** The subscription `vpn watch` makes, and the ones that hear as much (an `upgrades` kind among others). */
export function hearsEveryUpgradeRun(
  subscription: AlertSubscription,
  scope: AlertScope['kind'] = 'profile',
): boolean {
  return (
    subscription.kinds.includes('upgrades') &&
    subscription.scope.kind === scope &&
    subscription.devices === undefined
  );
}

/** Exactly what `vpn watch` makes: `vpn unwatch` removes these and only these. */
function isWatch(subscription: AlertSubscription): boolean {
  return (
    subscription.kinds.length === 1 &&
    (hearsEveryUpgradeRun(subscription) || hearsEveryUpgradeRun(subscription, 'all-tenants'))
  );
}

/**
 * Whether a profile's token is an MSP portal's: it may list managed tenants (SCC answers 403 otherwise).
 * Undefined when SCC cannot say now (down, a timeout).
 */
export async function isMspPortal(scc: Pick<SccClient, 'call'>): Promise<boolean | undefined> {
  try {
    await scc.call('getMspManagedTenants', { query: { limit: 1 } });
    return true;
  } catch (error) {
    if (error instanceof SccApiError && (error.status === 403 || error.status === 401)) return false;
    return undefined;
  }
}

export class SubscriptionWatches implements WatchRegistry {
  constructor(private readonly subscriptions: RedisAlertSubscriptions) {}

  async watch(watch: UpgradeWatch): Promise<{ created: boolean }> {
    const { channelId, profile, createdBy } = watch;
    const mine = (await this.subscriptions.list({ channelId })).filter((s) => s.profile === profile);
    const scopes: AlertScope[] = [
      { kind: 'profile' },
      ...(watch.acrossTenants ? [{ kind: 'all-tenants' } as const] : []),
    ];
    let created = false;
    for (const scope of scopes) {
      if (mine.some((s) => hearsEveryUpgradeRun(s, scope.kind))) continue;
      const made = await this.subscriptions.subscribe(
        { channelId, profile, kinds: ['upgrades'], scope, createdBy, ...workspaceOf(watch) },
        { createdAt: watch.createdAt },
      );
      created ||= made.created;
    }
    return { created };
  }

  async unwatch(channelId: string, profile: string): Promise<{ removed: boolean; stillHeardBy: string[] }> {
    const mine = (await this.subscriptions.list({ channelId })).filter((s) => s.profile === profile);
    let removed = false;
    for (const subscription of mine.filter(isWatch)) {
      if (await this.subscriptions.unsubscribe(channelId, subscription.id)) removed = true;
    }
    const stillHeardBy = mine.filter((s) => !isWatch(s) && s.kinds.includes('upgrades')).map((s) => s.id);
    return { removed, stillHeardBy };
  }

  /** One watch per channel and profile that hears every upgrade run, the oldest subscription's date. */
  async list(profile?: string): Promise<UpgradeWatch[]> {
    const all = await this.subscriptions.list(profile === undefined ? {} : { profile });
    const watches = new Map<string, UpgradeWatch>();
    for (const s of all.filter((subscription) => hearsEveryUpgradeRun(subscription))) {
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
}
