// What the alert scan keeps in Redis, and the one step that makes a scan's findings exactly-once: the new
// state of a stream (profile × kind × scope) and the events it produced are written together, by one Lua
// script, with the events into the profile's outbox (a Redis stream). A worker killed before that step
// wrote nothing (the next scan finds the same differences again); after it, everything (the next scan
// finds no difference, and the outbox still holds the events until the desk has them). A version per
// stream makes two workers scanning at once commit once. The outbox is drained into the desk
// (deliverAlerts), which takes each event once by its key, so a drain repeated after a crash adds nothing.
//
// Keys, all under the deployment's prefix:
//   <prefix>:fw:alert-scan:state:<profile>:<kind>:<scope>  hash subject → the kind's state (JSON)
//   <prefix>:fw:alert-scan:meta:<profile>                  hash <kind>:<scope> → StreamMeta, <kind>:<scope>|v → version
//   <prefix>:fw:alert-scan:outbox:<profile>                stream of events (field `e`, AlertEvent JSON)
//   <prefix>:fw:alert-scan:drain:<profile>                 who drains the outbox now (a token, expiring)
//   <prefix>:fw:alert-scan:devices:<digest>                a `--devices` query's uids (JSON), expiring
//   <prefix>:fw:alert-scan:health                          hash profile → ScanHealth (JSON), for readiness
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AlertEvent, type AlertKind } from '../../alerts/model.js';
import type { RedisClient } from '../../redis/connection.js';
import { RedisKeys } from '../../redis/keys.js';
import { runScript } from '../../redis/scripts.js';

/** Which inventory a stream reads: the profile's own tenant, or every tenant its MSP portal manages. */
export type StreamScope = 'own' | 'msp';

/** What the scan remembers of one stream between scans. */
export const StreamMeta = z.object({
  /** When the stream's first scan (the baseline, which tells nothing) was committed. */
  baselinedAt: z.number().optional(),
  /** The last scan that read the stream's list in full, and the last that read its open incidents. */
  lastFullAt: z.number().optional(),
  lastSoonerAt: z.number().optional(),
  /** SCC calls the last full read and the last sooner read took (what the budget plans with). */
  fullCalls: z.number().optional(),
  soonerCalls: z.number().optional(),
});
export type StreamMeta = z.infer<typeof StreamMeta>;

/** What readiness says about one profile's scan. */
export const ScanHealth = z.object({
  at: z.number(),
  /** Every interval is multiplied by this to stay within the budget (1: on time). */
  stretch: z.number(),
  callsPerMinute: z.number(),
  /** Kinds the profile's token cannot read, as one sentence, when there are any. */
  unreadable: z.string().optional(),
});
export type ScanHealth = z.infer<typeof ScanHealth>;

export const streamField = (kind: AlertKind, scope: StreamScope): string => `${kind}:${scope}`;

/** A stream as read before a scan: its meta, the version the commit must still find, its state. */
export interface StreamRead {
  meta: StreamMeta;
  version: string;
  state: Map<string, unknown>;
}

/** How long a drain may hold the outbox before another may take it (a holder that died lets go by then). */
const DRAIN_LOCK_MS = 60_000;

export class AlertScanStore {
  readonly keys: RedisKeys;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.keys = new RedisKeys(prefix);
  }

  /** Every stream's meta of a profile, by `<kind>:<scope>`. */
  async metas(profile: string): Promise<Map<string, StreamMeta>> {
    return new Map([...(await this.kept(profile))].map(([field, { meta }]) => [field, meta]));
  }

  /** Every stream a profile keeps, by `<kind>:<scope>`: its meta and the version `forget` must still find. */
  async kept(profile: string): Promise<Map<string, { meta: StreamMeta; version: string }>> {
    const raw = await this.redis.hgetall(this.keys.alertScanMeta(profile));
    const out = new Map<string, { meta: StreamMeta; version: string }>();
    for (const [field, json] of Object.entries(raw)) {
      if (field.endsWith('|v')) continue;
      const parsed = StreamMeta.safeParse(safeJson(json));
      if (parsed.success) out.set(field, { meta: parsed.data, version: raw[`${field}|v`] ?? '0' });
    }
    return out;
  }

  /** A stream's meta, version and state, each subject's state parsed with the kind's schema. */
  async read(
    profile: string,
    kind: AlertKind,
    scope: StreamScope,
    schema: z.ZodType<unknown>,
  ): Promise<StreamRead> {
    const field = streamField(kind, scope);
    // Meta, version and state in one read: a stream forgotten or committed by another scan in between would
    // otherwise pair a baselined meta with an empty state, and every exceptional subject would be news.
    const answers = await this.redis
      .multi()
      .hmget(this.keys.alertScanMeta(profile), field, `${field}|v`)
      .hgetall(this.keys.alertScanState(profile, kind, scope))
      .exec();
    const failed = answers?.find(([error]) => error !== null);
    if (!answers || failed)
      throw new Error(`alert scan: reading stream ${field} of ${profile} failed`, { cause: failed?.[0] });
    const [metaJson, version] = (answers[0]?.[1] ?? []) as (string | null)[];
    const raw = (answers[1]?.[1] ?? {}) as Record<string, string>;
    const state = new Map<string, unknown>();
    for (const [subject, json] of Object.entries(raw)) {
      // A record an older fwbot wrote in another shape is forgotten: the subject starts again from the read.
      const parsed = schema.safeParse(safeJson(json));
      if (parsed.success) state.set(subject, parsed.data);
    }
    const meta = StreamMeta.safeParse(safeJson(metaJson ?? '{}'));
    return { meta: meta.success ? meta.data : {}, version: version ?? '0', state };
  }

  /**
   * Writes the stream's new state (only what changed) and meta, and appends the events to the outbox, at
   * once; false when another scan committed the stream since `read.version`.
   */
  async commit(
    profile: string,
    kind: AlertKind,
    scope: StreamScope,
    read: StreamRead,
    next: ReadonlyMap<string, unknown>,
    meta: StreamMeta,
    events: readonly AlertEvent[],
  ): Promise<boolean> {
    const sets: string[] = [];
    let setCount = 0;
    for (const [subject, value] of next) {
      const json = JSON.stringify(value);
      if (read.state.has(subject) && JSON.stringify(read.state.get(subject)) === json) continue;
      sets.push(subject, json);
      setCount += 1;
    }
    const deletes = [...read.state.keys()].filter((subject) => !next.has(subject));
    const args = [
      streamField(kind, scope),
      read.version,
      JSON.stringify(meta),
      String(setCount),
      ...sets,
      String(deletes.length),
      ...deletes,
      ...events.map((event) => JSON.stringify(event)),
    ];
    const keys = [
      this.keys.alertScanMeta(profile),
      this.keys.alertScanState(profile, kind, scope),
      this.keys.alertScanOutbox(profile),
    ];
    const answer = await runScript(this.redis, 'alert-scan-commit', keys, args);
    return answer === 1;
  }

  /**
   * Hands what the outbox holds to `deliver`, oldest first, and removes it once delivered. One drain at a
   * time per profile: two workers draining at once would both hand the same events over; the one that
   * finds the outbox taken leaves it to the holder, which drains until it is empty. A delivery that fails
   * leaves the events for the next drain; one interrupted after delivering hands them again, which the
   * desk ignores (it takes each event once by its key).
   */
  async drain(
    profile: string,
    deliver: (events: AlertEvent[]) => Promise<void>,
    batch = 500,
  ): Promise<number> {
    const key = this.keys.alertScanOutbox(profile);
    const lock = this.keys.alertScanDrain(profile);
    const token = randomUUID();
    if ((await this.redis.set(lock, token, 'PX', DRAIN_LOCK_MS, 'NX')) !== 'OK') return 0;
    let delivered = 0;
    try {
      for (;;) {
        const entries = await this.redis.xrange(key, '-', '+', 'COUNT', batch);
        if (entries.length === 0) return delivered;
        const events: AlertEvent[] = [];
        for (const [, fields] of entries) {
          const json = fields[fields.indexOf('e') + 1];
          const parsed = AlertEvent.safeParse(safeJson(json ?? ''));
          if (parsed.success) events.push(parsed.data);
        }
        if (events.length > 0) await deliver(events);
        await this.redis.xdel(key, ...entries.map(([id]) => id));
        delivered += events.length;
      }
    } finally {
      await runScript(this.redis, 'lock-release', [lock], [token]);
    }
  }

  /**
   * Forgets a stream no subscription reads any more (its state and meta), so a later subscription starts
   * with a baseline rather than with what changed since long ago; only as it was read (`version`, from
   * `kept`): a subscription made since then has committed its first read, and that is kept. True when
   * forgotten.
   */
  async forget(profile: string, field: string, version: string): Promise<boolean> {
    const [kind, scope] = field.split(':') as [AlertKind, StreamScope];
    const keys = [this.keys.alertScanMeta(profile), this.keys.alertScanState(profile, kind, scope)];
    return (await runScript(this.redis, 'alert-scan-forget', keys, [field, version])) === 1;
  }

  async saveHealth(profile: string, health: ScanHealth): Promise<void> {
    await this.redis.hset(this.keys.alertScanHealth(), profile, JSON.stringify(health));
  }

  async health(): Promise<Map<string, ScanHealth>> {
    const raw = await this.redis.hgetall(this.keys.alertScanHealth());
    const out = new Map<string, ScanHealth>();
    for (const [profile, json] of Object.entries(raw)) {
      const parsed = ScanHealth.safeParse(safeJson(json));
      if (parsed.success) out.set(profile, parsed.data);
    }
    return out;
  }

  /** A `--devices` query's device uids, while fresh. */
  async deviceSet(profile: string, scope: StreamScope, query: string): Promise<Set<string> | undefined> {
    const json = await this.redis.get(this.keys.alertScanDevices(profile, scope, query));
    const parsed = z.array(z.string()).safeParse(safeJson(json ?? ''));
    return parsed.success ? new Set(parsed.data) : undefined;
  }

  async saveDeviceSet(
    profile: string,
    scope: StreamScope,
    query: string,
    uids: readonly string[],
    ttlMs: number,
  ): Promise<void> {
    await this.redis.set(
      this.keys.alertScanDevices(profile, scope, query),
      JSON.stringify(uids),
      'PX',
      ttlMs,
    );
  }
}

function safeJson(text: string | null | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
