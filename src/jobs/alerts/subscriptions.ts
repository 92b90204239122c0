// The alert subscriptions in Redis (AlertSubscriptions of src/alerts/model.ts): which channels hear which
// kinds of alert, of which profile, tenants and devices. The operations write them (`/fw alerts subscribe`,
// `vpn watch`), the scan reads them every interval. One hash holds the records by id; a set per channel
// and per profile, the set of profiles that have any, and a hash from an equality fingerprint to its id
// are the indexes. Each write changes the record and its indexes in one Lua script, so a subscribe and
// an unsubscribe racing never leave an index naming a record that is gone (or miss one that exists).
import { createHash, randomBytes } from 'node:crypto';
import {
  ALERT_KINDS,
  type AlertKind,
  AlertSubscription,
  type AlertSubscriptions,
  type NewAlertSubscription,
} from '../../alerts/model.js';
import { runScript } from '../../redis/scripts.js';
import type { JobsCore } from '../core.js';
import { parseStored } from '../payloads.js';

/** Typeable ids: `/fw alerts unsubscribe a7k2m9`. 36^6 ≈ 2·10^9, so a collision is rare and retried. */
const ID_LENGTH = 6;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ID_ATTEMPTS = 8;

function newId(): string {
  const bytes = randomBytes(ID_LENGTH);
  let id = '';
  // 256 % 36 leaves a slight bias toward the first letters; ids are names, not secrets.
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

/** The kinds once each, in ALERT_KINDS order: `ha connectivity ha` and `connectivity ha` are one. */
export function canonicalKinds(kinds: readonly AlertKind[]): AlertKind[] {
  return ALERT_KINDS.filter((kind) => kinds.includes(kind));
}

/** What makes two subscriptions equal: channel, profile, kinds, devices and scope (not who, not when). */
export function subscriptionFingerprint(subscription: NewAlertSubscription): string {
  const { scope } = subscription;
  const parts = [
    subscription.channelId,
    subscription.profile,
    canonicalKinds(subscription.kinds).join(','),
    subscription.devices ?? '',
    scope.kind === 'tenant' ? `tenant:${scope.uid}` : scope.kind,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

export class RedisAlertSubscriptions implements AlertSubscriptions {
  private readonly makeId: () => string;
  private readonly now: () => number;

  constructor(
    private readonly core: Pick<JobsCore, 'redis' | 'keys' | 'log'>,
    /** Tests give predictable ids (and collisions) and a fixed clock. */
    options: { makeId?: () => string; now?: () => number } = {},
  ) {
    this.makeId = options.makeId ?? newId;
    this.now = options.now ?? Date.now;
  }

  async subscribe(
    subscription: NewAlertSubscription,
    /** When it was made: now, unless a migrated record brings its own. */
    options: { createdAt?: string } = {},
  ): Promise<{ subscription: AlertSubscription; created: boolean }> {
    const { redis, keys } = this.core;
    const fingerprint = subscriptionFingerprint(subscription);
    const createdAt = options.createdAt ?? new Date(this.now()).toISOString();
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const record = AlertSubscription.parse({
        ...subscription,
        kinds: canonicalKinds(subscription.kinds),
        id: this.makeId(),
        createdAt,
      });
      const answer = (await runScript(
        redis,
        'alert-subscribe',
        [
          keys.alertSubscriptions(),
          keys.alertSubscriptionFingerprints(),
          keys.alertChannelSubscriptions(record.channelId),
          keys.alertProfileSubscriptions(record.profile),
          keys.alertProfiles(),
        ],
        [record.id, fingerprint, JSON.stringify(record), record.profile],
      )) as [number, string?];
      const [code, id] = answer;
      if (code === 1) return { subscription: record, created: true };
      if (code === 0 && id) {
        const existing = await this.get(id);
        if (existing) return { subscription: existing, created: false };
        // The fingerprint named a record that is gone: unreachable through the scripts, but never loop on it.
        await redis.hdel(keys.alertSubscriptionFingerprints(), fingerprint);
      }
    }
    throw new Error(`could not find a free subscription id in ${ID_ATTEMPTS} attempts`);
  }

  async unsubscribe(channelId: string, id: string): Promise<AlertSubscription | undefined> {
    const { redis, keys } = this.core;
    const raw = await redis.hget(keys.alertSubscriptions(), id);
    if (raw === null) return undefined;
    const subscription = this.parse(id, raw);
    // Ids are short and not secret: a channel removes only its own.
    if (!subscription || subscription.channelId !== channelId) return undefined;
    const removed = await runScript(
      redis,
      'alert-unsubscribe',
      [
        keys.alertSubscriptions(),
        keys.alertSubscriptionFingerprints(),
        keys.alertChannelSubscriptions(subscription.channelId),
        keys.alertProfileSubscriptions(subscription.profile),
        keys.alertProfiles(),
      ],
      [id, subscriptionFingerprint(subscription), raw, subscription.profile],
    );
    return Number(removed) === 1 ? subscription : undefined;
  }

  async list(filter: { channelId?: string; profile?: string } = {}): Promise<AlertSubscription[]> {
    const { redis, keys } = this.core;
    let ids: string[] | undefined;
    if (filter.channelId !== undefined)
      ids = await redis.smembers(keys.alertChannelSubscriptions(filter.channelId));
    else if (filter.profile !== undefined)
      ids = await redis.smembers(keys.alertProfileSubscriptions(filter.profile));
    const records: AlertSubscription[] = [];
    if (ids === undefined) {
      const all = await redis.hgetall(keys.alertSubscriptions());
      for (const [id, raw] of Object.entries(all)) {
        const parsed = this.parse(id, raw);
        if (parsed) records.push(parsed);
      }
    } else if (ids.length > 0) {
      const raws = await redis.hmget(keys.alertSubscriptions(), ...ids);
      ids.forEach((id, at) => {
        const raw = raws[at];
        const parsed = raw ? this.parse(id, raw) : undefined;
        if (parsed) records.push(parsed);
      });
    }
    return records
      .filter((s) => filter.channelId === undefined || s.channelId === filter.channelId)
      .filter((s) => filter.profile === undefined || s.profile === filter.profile)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /** One subscription by id, whatever its channel (the scan and the migration; operations use list). */
  async get(id: string): Promise<AlertSubscription | undefined> {
    const raw = await this.core.redis.hget(this.core.keys.alertSubscriptions(), id);
    return raw === null ? undefined : this.parse(id, raw);
  }

  /** The profiles that have at least one subscription: the ones the scan reads. */
  async profiles(): Promise<string[]> {
    return (await this.core.redis.smembers(this.core.keys.alertProfiles())).sort();
  }

  private parse(id: string, raw: string): AlertSubscription | undefined {
    try {
      return parseStored(AlertSubscription, raw, `${this.core.keys.alertSubscriptions()}#${id}`);
    } catch (error) {
      this.core.log.error({ err: error, id }, 'skipping a malformed alert subscription');
      return undefined;
    }
  }
}
