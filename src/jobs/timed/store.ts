// Timed work in Redis: one hash per item (its record, and the fields its runs change: state, due time, the
// claim's runner and lease, the phase), an index of what a pass looks at (due time; a running item's lease
// end; an ended item whose followed work is not handed on yet) and an index of what ended, for the lists of
// what happened. Every change is one Lua step (src/redis/lua/timed-*.lua). RedisTimedWork is the TimedWork service
// operations schedule, cancel and list through (src/catalogue/services.ts); the pass (runner.ts) claims,
// renews, defers and finishes through the same store.
import type { z } from 'zod';
import type {
  SchedulableKind,
  ThreadPlace,
  TimedCancel,
  TimedFilter,
  TimedItem,
  TimedRef,
  TimedReschedule,
  TimedSchedule,
  TimedState,
  TimedWork,
} from '../../catalogue/operation.js';
import type { AnyTimedKind } from '../../catalogue/timed/index.js';
import type { RedisClient } from '../../redis/connection.js';
import { type RedisKeys, timedItemId } from '../../redis/keys.js';
import { runScript } from '../../redis/scripts.js';
import { ThreadRefSchema } from '../payloads.js';
import { parseTimedItem } from './record.js';

export type TimedClaim =
  /** `previous`: `changing` when a run that died had passed its point of no return. */
  { claimed: true; previous: 'changing' | undefined; attempts: number } | { claimed: false; state: string };

/** How many items a list reads at most: a deployment keeps hundreds, not hundreds of thousands. */
const LIST_LIMIT = 5_000;

const asTuple = (reply: unknown): [string, string, string] => {
  const [a, b, c] = Array.isArray(reply) ? reply : [];
  return [String(a ?? ''), String(b ?? ''), String(c ?? '')];
};

export class TimedStore {
  constructor(
    readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    /** How long an ended item is remembered for the lists. */
    readonly retentionMs: number,
  ) {}

  #keys(id: string, ended = false): string[] {
    const base = [this.keys.timedItem(id), this.keys.timedDue()];
    return ended ? [...base, this.keys.timedEnded()] : base;
  }

  async schedule(
    record: Omit<TimedItem, 'id' | 'state' | 'scheduledAt' | 'attempts' | 'round'>,
    now: number,
  ): Promise<{ scheduled: boolean; id: string }> {
    const id = timedItemId(record.kind, record.profile, record.key);
    const [status] = asTuple(
      await runScript(this.redis, 'timed-schedule', this.#keys(id, true), [
        id,
        record.dueAt,
        now,
        record.kind,
        record.profile,
        record.key,
        record.owner,
        record.what,
        JSON.stringify(record.payload),
        JSON.stringify(record.devices),
        record.thread ? JSON.stringify(record.thread) : '',
      ]),
    );
    return { scheduled: status === 'scheduled', id };
  }

  async claim(id: string, runner: string, now: number, leaseMs: number): Promise<TimedClaim> {
    const [status, second, third] = asTuple(
      await runScript(this.redis, 'timed-claim', this.#keys(id), [id, now, runner, leaseMs]),
    );
    if (status !== 'claimed') return { claimed: false, state: second };
    return {
      claimed: true,
      previous: second === 'changing' ? 'changing' : undefined,
      attempts: Number(third),
    };
  }

  /** Renews the claim (and moves to `phase`); false when this runner no longer holds it. */
  async renew(id: string, runner: string, now: number, leaseMs: number, phase?: 'changing' | 'starting') {
    const reply = await runScript(this.redis, 'timed-renew', this.#keys(id), [
      id,
      runner,
      now,
      leaseMs,
      phase ?? '',
    ]);
    return reply === 1;
  }

  async finish(
    id: string,
    runner: string,
    ending: { state: 'done' | 'failed'; summary: string; track: readonly unknown[] },
    now: number,
  ): Promise<boolean> {
    const track = ending.track.length > 0 ? JSON.stringify(ending.track) : '';
    const reply = await runScript(this.redis, 'timed-finish', this.#keys(id, true), [
      id,
      runner,
      ending.state,
      ending.summary,
      now,
      track,
      this.retentionMs,
    ]);
    return reply === 1;
  }

  async handedOn(id: string): Promise<void> {
    await runScript(this.redis, 'timed-handed-on', this.#keys(id), [id]);
  }

  async defer(
    id: string,
    runner: string,
    next: { at: number; summary: string; keepPhase: boolean; nextRound: boolean; failures: number },
  ): Promise<boolean> {
    const reply = await runScript(this.redis, 'timed-defer', this.#keys(id), [
      id,
      runner,
      next.at,
      next.summary,
      next.keepPhase ? '1' : '0',
      next.nextRound ? '1' : '0',
      next.failures,
    ]);
    return reply === 1;
  }

  async cancel(
    id: string,
    by: string,
    summary: string,
    now: number,
  ): Promise<'cancelled' | Exclude<TimedState, 'scheduled'> | 'missing'> {
    const [status, state] = asTuple(
      await runScript(this.redis, 'timed-cancel', this.#keys(id, true), [
        id,
        now,
        by,
        summary,
        this.retentionMs,
      ]),
    );
    if (status === 'cancelled') return 'cancelled';
    return status === 'missing' ? 'missing' : (state as Exclude<TimedState, 'scheduled'>);
  }

  async reschedule(
    id: string,
    at: number,
  ): Promise<'rescheduled' | Exclude<TimedState, 'scheduled'> | 'missing'> {
    const [status, state] = asTuple(
      await runScript(this.redis, 'timed-reschedule', this.#keys(id), [id, at]),
    );
    if (status === 'rescheduled') return 'rescheduled';
    return status === 'missing' ? 'missing' : (state as Exclude<TimedState, 'scheduled'>);
  }

  /** The item learns the thread it speaks in, while it waits or runs and has none yet. */
  async placeThread(id: string, thread: ThreadPlace): Promise<'placed' | 'kept' | 'missing'> {
    const [status] = asTuple(
      await runScript(this.redis, 'timed-thread', this.#keys(id), [id, JSON.stringify(thread)]),
    );
    return status === 'placed' ? 'placed' : status === 'missing' ? 'missing' : 'kept';
  }

  /** The item as stored, with its raw hash fields a pass needs (phase, failures, track). */
  async read(id: string): Promise<{ item: TimedItem; hash: Record<string, string> } | undefined> {
    const hash = await this.redis.hgetall(this.keys.timedItem(id));
    const item = parseTimedItem(id, hash);
    return item ? { item, hash } : undefined;
  }

  /** Ids a pass should look at now: due, abandoned by a dead runner, or ended with work to hand on. */
  due(now: number, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.timedDue(), '-inf', now, 'LIMIT', 0, limit);
  }

  async #items(ids: readonly string[]): Promise<TimedItem[]> {
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.keys.timedItem(id));
    const replies = (await pipeline.exec()) ?? [];
    return ids.flatMap((id, i) => {
      const [error, hash] = replies[i] ?? [];
      if (error || !hash || typeof hash !== 'object') return [];
      const item = parseTimedItem(id, hash as Record<string, string>);
      return item ? [item] : [];
    });
  }

  /** Items waiting or running, soonest due first. */
  async live(): Promise<TimedItem[]> {
    const ids = await this.redis.zrange(this.keys.timedDue(), 0, LIST_LIMIT - 1);
    const items = await this.#items(ids);
    return items
      .filter((item) => item.state === 'scheduled' || item.state === 'running')
      .sort((a, b) => a.dueAt - b.dueAt);
  }

  /** Items that ended within the retention, latest first. */
  async ended(): Promise<TimedItem[]> {
    const ids = await this.redis.zrevrange(this.keys.timedEnded(), 0, LIST_LIMIT - 1);
    const items = await this.#items(ids);
    return items.filter((item) => item.state !== 'scheduled' && item.state !== 'running');
  }
}

function matches(item: TimedItem, filter: TimedFilter): boolean {
  return (
    (filter.kind === undefined || item.kind === filter.kind) &&
    (filter.profile === undefined || item.profile === filter.profile) &&
    (filter.owner === undefined || item.owner === filter.owner) &&
    (filter.deviceUid === undefined || item.devices.some((device) => device.uid === filter.deviceUid))
  );
}

/** The TimedWork service over the store, with the registry its payloads are checked against. */
export class RedisTimedWork implements TimedWork {
  constructor(
    private readonly store: TimedStore,
    private readonly kinds: ReadonlyMap<string, AnyTimedKind>,
    private readonly clock: () => number,
  ) {}

  async schedule<S extends z.ZodType>(
    kind: SchedulableKind<S>,
    item: TimedSchedule<z.input<S>>,
  ): Promise<{ scheduled: boolean; item: TimedItem }> {
    const known = this.kinds.get(kind.kind);
    if (known !== (kind as unknown as AnyTimedKind))
      throw new Error(`timed kind ${kind.kind} is not in this fwbot's registry`);
    // Parsed at the boundary: what a later run reads back is what its schema accepted now.
    const payload = kind.payload.parse(item.payload);
    const key = kind.id(payload);
    const scheduled = await this.store.schedule(
      {
        kind: kind.kind,
        profile: item.profile,
        key,
        what: kind.describe(payload),
        owner: item.owner,
        devices: [...(kind.devices?.(payload) ?? [])],
        thread: item.thread,
        dueAt: item.at,
        payload,
      },
      this.clock(),
    );
    const stored = await this.store.read(scheduled.id);
    if (!stored) throw new Error(`timed item ${scheduled.id} vanished right after it was scheduled`);
    return { scheduled: scheduled.scheduled, item: stored.item };
  }

  async cancel(ref: TimedRef, by: string, reason?: string): Promise<TimedCancel> {
    const id = timedItemId(ref.kind, ref.profile, ref.key);
    const summary = reason ?? `cancelled by ${by}`;
    const outcome = await this.store.cancel(id, by, summary, this.clock());
    const item = (await this.store.read(id))?.item;
    if (outcome === 'cancelled' && item) return { outcome: 'cancelled', item };
    return {
      outcome: 'refused',
      state: outcome === 'cancelled' ? 'missing' : outcome,
      ...(item ? { item } : {}),
    };
  }

  async reschedule(ref: TimedRef, at: number): Promise<TimedReschedule> {
    const id = timedItemId(ref.kind, ref.profile, ref.key);
    const outcome = await this.store.reschedule(id, at);
    const item = (await this.store.read(id))?.item;
    if (outcome === 'rescheduled' && item) return { outcome: 'rescheduled', item };
    return {
      outcome: 'refused',
      state: outcome === 'rescheduled' ? 'missing' : outcome,
      ...(item ? { item } : {}),
    };
  }

  async speakIn(ref: TimedRef, thread: ThreadPlace): Promise<boolean> {
    // Parsed at the boundary, as a scheduled item's thread is.
    const where = ThreadRefSchema.parse(thread);
    return (await this.store.placeThread(timedItemId(ref.kind, ref.profile, ref.key), where)) === 'placed';
  }

  async get(ref: TimedRef): Promise<TimedItem | undefined> {
    return (await this.store.read(timedItemId(ref.kind, ref.profile, ref.key)))?.item;
  }

  async list(filter: TimedFilter = {}): Promise<TimedItem[]> {
    return (await this.store.live()).filter((item) => matches(item, filter));
  }

  async history(filter: TimedFilter = {}): Promise<TimedItem[]> {
    return (await this.store.ended()).filter((item) => matches(item, filter));
  }
}
