// Which channels hear a finding: the subscriptions of its profile that name its kind, whose scope covers
// the tenant it comes from (the profile's own tenant; one managed tenant; all of them), and whose device
// query (resolved to uids by listing it, src/jobs/alerts/scan.ts) holds one of its devices. An MSP's
// channels subscribed to one tenant hear that tenant's findings only. A customer channel (bound to one
// managed tenant, docs/operating/msp.md) hears only its tenant's own profile, whatever it was subscribed to.
import type { Finding } from '../../alerts/index.js';
import type { AlertEvent, AlertKind, AlertSubscription } from '../../alerts/model.js';
import { type Scope, tenantProfileOf } from '../../config/scope.js';
import type { StreamScope } from './state.js';

/**
 * A channel's scope as the profiles file binds it, for a subscription made in a workspace (absent: the home
 * workspace): src/config/scope.ts channelScopes.
 */
export type ChannelScopeOf = (
  channelId: string,
  workspace?: { teamId?: string | undefined; enterpriseId?: string | undefined },
) => Scope | undefined;

/**
 * Whether a subscription may be told in its channel, given the channel's scope. A customer channel hears
 * the subscriptions of its tenant's own profile to that profile's own devices, and nothing else: not the
 * MSP portal's (one tenant, or all), even one made before the channel was bound to the tenant. Other
 * channels hear what they subscribed to.
 */
export function toldInChannel(
  subscription: AlertSubscription,
  channelScope: Scope | undefined,
  profiles: readonly string[],
): boolean {
  if (channelScope?.tenant === undefined) return true;
  return (
    subscription.scope.kind === 'profile' && subscription.profile === tenantProfileOf(channelScope, profiles)
  );
}

export function scopeOf(subscription: AlertSubscription): StreamScope {
  return subscription.scope.kind === 'profile' ? 'own' : 'msp';
}

/** The subscriptions that read a stream (kind × scope). */
export function subscribersOf(
  subscriptions: readonly AlertSubscription[],
  kind: AlertKind,
  scope: StreamScope,
): AlertSubscription[] {
  return subscriptions.filter((s) => s.kinds.includes(kind) && scopeOf(s) === scope);
}

function tenantHeard(subscription: AlertSubscription, finding: Finding): boolean {
  const { scope } = subscription;
  if (scope.kind !== 'tenant') return true;
  if (finding.tenant?.uid === scope.uid) return true;
  return (finding.tenants ?? []).some((tenant) => tenant.uid === scope.uid);
}

/**
 * The channels a finding goes to, once each. `deviceSets` holds each subscription's `--devices` uids (by
 * subscription id); a finding about no device in particular (an audit event) reaches every subscriber.
 */
export function channelsFor(
  finding: Finding,
  subscribers: readonly AlertSubscription[],
  deviceSets: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const channels = new Set<string>();
  for (const subscription of subscribers) {
    if (!tenantHeard(subscription, finding)) continue;
    if (subscription.devices !== undefined && finding.deviceUids.length > 0) {
      const set = deviceSets.get(subscription.id);
      if (!set || !finding.deviceUids.some((uid) => set.has(uid))) continue;
    }
    channels.add(subscription.channelId);
  }
  return [...channels];
}

/**
 * The events a stream's findings make: each routed to its channels (one not heard anywhere is dropped), keyed
 * by its transition within the profile, and marked as the read found it (catch-up, or already wrong when a
 * subscription was made).
 */
export function eventsOf(
  kind: AlertKind,
  findings: readonly Finding[],
  profile: string,
  subscribers: readonly AlertSubscription[],
  deviceSets: ReadonlyMap<string, ReadonlySet<string>>,
  marks: Pick<AlertEvent, 'catchUp' | 'current'> = {},
  keyPrefix = '',
): AlertEvent[] {
  const events: AlertEvent[] = [];
  for (const finding of findings) {
    const channels = channelsFor(finding, subscribers, deviceSets);
    if (channels.length === 0) continue;
    const { deviceUids: _devices, tenants: _tenants, key, ...rest } = finding;
    events.push({ kind, ...rest, key: `${keyPrefix}${key}|${profile}`, profile, channels, ...marks });
  }
  return events;
}
