// One batch of AlertEvents taken into one channel (deskIntake.ts): what the batch has read of the
// channel's incidents, everything it changed, and the one MULTI that writes it all. The batch reads each
// record once and keeps it, so the pieces of the intake (an incident's life in deskIncidents.ts, bursts,
// notices, catch-up and "right now" summaries) see each other's changes before anything is written; a
// worker killed before `write` leaves nothing, after it all of it.
import { createHash } from 'node:crypto';
import type { AlertEvent, AlertKind } from '../../alerts/model.js';
import { INLINE_DETAILS } from '../../alerts/render.js';
import type { View } from '../../model/view.js';
import type { RedisClient } from '../../redis/connection.js';
import type { RedisKeys } from '../../redis/keys.js';
import { replicated } from '../../redis/replication.js';
import { textBeside } from '../payloads.js';
import type { Schedule } from '../schedule.js';
import { type DeskRecord, type DeskReply, readRecord } from './deskRecord.js';

/** Counts nouns of a summary's subject line. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * An opening's details shown in its message when they are short (a reply of its own would double the
 * messages of every incident); longer ones go in the thread (`details` absent). None: nothing to add.
 */
export function inlineDetails(event: AlertEvent): { details?: string[] } {
  if (event.details.length === 0) return { details: [] };
  return event.details.length <= INLINE_DETAILS ? { details: event.details } : {};
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

export class DeskBatch {
  readonly records = new Map<string, DeskRecord>();
  readonly changed = new Set<string>();
  /** incident key → id of the incident the channel keeps for it (null: none). */
  readonly byKey = new Map<string, string | null>();
  readonly dirty = new Set<string>();
  readonly replies: DeskReply[] = [];
  readonly opened = new Map<string, number>();
  readonly closed = new Set<string>();
  /** incidentKey → the newest transition time (ms) applied to it, read at intake and kept with the batch. */
  readonly latest = new Map<string, number>();
  readonly latestChanged = new Set<string>();
  readonly muted = new Set<string>();
  /** Each kind's burst summary this batch, and whether the batch made it. */
  readonly bursts = new Map<AlertKind, { id: string; created: boolean }>();
  /** Kinds whose new incidents join a burst summary this batch. */
  readonly burstKinds = new Set<AlertKind>();
  /** Per kind: new incidents this batch, and the opens counted in the burst window before it. */
  readonly newOpens = new Map<AlertKind, number>();
  readonly windowOpens = new Map<AlertKind, { count: number; exists: boolean }>();
  /** Kinds whose notices this batch are too many to post one by one, and their summary's lines. */
  readonly noticeKinds = new Map<AlertKind, string[]>();
  readonly noticeGroups = new Map<AlertKind, { id: string; lines: string[] }>();
  catchUp: { record: DeskRecord; lines: string[] } | undefined;
  /** The id of this batch's catch-up summary in this channel (its catch-up events decide it). */
  catchUpId = '';
  /** This batch's "right now" summary (its `current` events), once one of them is told. */
  currentId: string | undefined;

  constructor(
    readonly redis: RedisClient,
    readonly keys: RedisKeys,
    readonly schedule: Schedule,
    readonly channelId: string,
    readonly now: number,
  ) {}

  // ── reading ──────────────────────────────────────────────────────────────────────────────────────

  /** The incident the channel keeps for an incident key, as this batch knows it. */
  async current(incidentKey: string): Promise<DeskRecord | undefined> {
    let id = this.byKey.get(incidentKey);
    if (id === undefined) {
      id = await this.redis.get(this.keys.incidentOf(this.channelId, incidentKey));
      this.byKey.set(incidentKey, id);
    }
    return id === null ? undefined : this.record(id);
  }

  async record(id: string): Promise<DeskRecord | undefined> {
    const known = this.records.get(id);
    if (known) return known;
    const read = await readRecord(this.redis, this.keys, id);
    if (read) this.records.set(id, read);
    return read;
  }

  async readMutes(events: readonly AlertEvent[]): Promise<void> {
    const devices = [
      ...new Set(
        events
          .filter((event) => event.subject.type === 'device')
          .map((event) => `${event.profile}\u0000${event.subject.uid}`),
      ),
    ];
    if (devices.length === 0) return;
    const raws = await this.redis.mget(
      ...devices.map((device) => {
        const [profile = '', uid = ''] = device.split('\u0000');
        return this.keys.alertMute(this.channelId, profile, uid);
      }),
    );
    raws.forEach((raw, i) => {
      if (raw === null) return;
      const until = Number((JSON.parse(raw) as { untilMs?: unknown }).untilMs);
      if (until > this.now) this.muted.add(devices[i] ?? '');
    });
  }

  isMuted(event: AlertEvent): boolean {
    return event.subject.type === 'device' && this.muted.has(`${event.profile}\u0000${event.subject.uid}`);
  }

  withinFlapWindow(record: DeskRecord, at: string): boolean {
    if (!record.closedAt) return false;
    return Date.parse(at) - Date.parse(record.closedAt) <= this.schedule.desk.flapWindowMs;
  }

  /**
   * The newest transition time already applied to each incident of these events. Batches can reach the
   * desk out of order (one waits on the channel's lock or Slack's pace while a newer one is taken, a worker
   * dies holding one): an event older than what its incident already took would undo a newer state, e.g.
   * reopen for good an incident whose close came first.
   */
  async readLatest(events: readonly AlertEvent[]): Promise<void> {
    const keys = [...new Set(events.filter((e) => e.phase !== 'notice').map((e) => e.incidentKey))];
    if (keys.length === 0) return;
    const stored = await this.redis.mget(...keys.map((key) => this.keys.incidentLatest(this.channelId, key)));
    keys.forEach((key, i) => {
      const at = Number(stored[i] ?? Number.NaN);
      if (Number.isFinite(at)) this.latest.set(key, at);
    });
  }

  /** Whether the event is older than what its incident already took; records it as the newest otherwise. */
  stale(event: AlertEvent): boolean {
    const at = Date.parse(event.at);
    if (!Number.isFinite(at)) return false;
    const latest = this.latest.get(event.incidentKey);
    if (latest !== undefined && at < latest) return true;
    this.latest.set(event.incidentKey, at);
    this.latestChanged.add(event.incidentKey);
    return false;
  }

  // ── changing ─────────────────────────────────────────────────────────────────────────────────────

  put(record: DeskRecord): void {
    this.records.set(record.id, record);
    this.changed.add(record.id);
  }

  /** A reply in the thread of `parentId`'s message, posted once (its key: the parent's and `key`'s). */
  reply(parentId: string, key: string, view: View): void {
    // A message in a summary's thread has its replies there too (Slack threads have one level).
    const threadOf = this.records.get(parentId)?.threadOf ?? parentId;
    this.replies.push({
      key: `alert-reply:${parentId}:${digest(key)}`,
      parentId: threadOf,
      text: textBeside(view),
      view,
    });
  }

  /** Marks the message showing `record` (its own, or its summary's) to be shown again. */
  show(record: DeskRecord): void {
    this.dirty.add(record.groupId ?? record.id);
    // The summary whose thread holds its message shows its state in a row too.
    if (record.threadOf) this.dirty.add(record.threadOf);
  }

  /** A record of this channel for the event, open, as an incident (the caller says what it is). */
  fromEvent(event: AlertEvent, id: string): DeskRecord {
    return {
      id,
      channelId: this.channelId,
      type: 'incident',
      kind: event.kind,
      profile: event.profile,
      ...(event.tenant ? { tenant: event.tenant } : {}),
      subject: event.subject,
      incidentKey: event.incidentKey,
      open: true,
      state: event.state,
      headline: event.headline,
      openedAt: event.at,
      flaps: 0,
      actions: event.actions,
    };
  }

  // ── writing ──────────────────────────────────────────────────────────────────────────────────────

  async write(fresh: readonly AlertEvent[]): Promise<void> {
    const retention = this.schedule.retentionMs;
    const tx = this.redis.multi();
    for (const id of this.changed) {
      const record = this.records.get(id);
      if (!record) continue;
      const json = JSON.stringify(record);
      // Open things are kept until they close, however long that takes; then as long as anything is.
      if (record.open) tx.set(this.keys.incident(id), json);
      else tx.set(this.keys.incident(id), json, 'PX', retention);
      if (record.type === 'incident') {
        const of = this.keys.incidentOf(this.channelId, record.incidentKey);
        if (record.open) tx.set(of, id);
        else tx.set(of, id, 'PX', retention);
      }
    }
    for (const event of fresh) tx.set(this.keys.alertSeen(this.channelId, event.key), '1', 'PX', retention);
    for (const incidentKey of this.latestChanged) {
      const at = this.latest.get(incidentKey);
      if (at !== undefined)
        tx.set(this.keys.incidentLatest(this.channelId, incidentKey), String(at), 'PX', retention);
    }
    const open = this.keys.openIncidents(this.channelId);
    for (const [id, score] of this.opened) tx.zadd(open, score, id);
    if (this.closed.size > 0) tx.zrem(open, ...this.closed);
    if (this.opened.size > 0) tx.sadd(this.keys.incidentChannels(), this.channelId);
    for (const id of this.dirty) tx.hincrby(this.keys.deskDirty(this.channelId), id, 1);
    if (this.replies.length > 0)
      tx.rpush(this.keys.deskReplies(this.channelId), ...this.replies.map((reply) => JSON.stringify(reply)));
    for (const [kind, burst] of this.bursts) {
      if (burst.created)
        tx.set(this.keys.deskBurst(this.channelId, kind), burst.id, 'PX', this.schedule.desk.burstWindowMs);
    }
    for (const [kind, added] of this.newOpens) {
      const window = this.windowOpens.get(kind) ?? { count: 0, exists: false };
      const key = this.keys.deskOpens(this.channelId, kind);
      // Opens that joined a burst are its members, not the start of the next window: counted on, they made
      // the first open after the burst ended a "burst" of one.
      if (this.bursts.has(kind)) {
        tx.del(key);
        continue;
      }
      const count = String(window.count + added);
      if (window.exists) tx.set(key, count, 'KEEPTTL');
      else tx.set(key, count, 'PX', this.schedule.desk.burstWindowMs);
    }
    const results = await tx.exec();
    const failed = results?.find(([error]) => error !== null);
    if (!results || failed)
      throw new Error(`incident desk: writing ${this.channelId}'s batch failed`, { cause: failed?.[0] });
    // On the replicas before anything is posted from it: a promoted replica without this batch would take
    // the events again (harmless for messages, whose marks are replicated too, but flaps would count twice).
    const [first] = fresh;
    if (first) await replicated(this.redis, this.keys.alertSeen(this.channelId, first.key));
  }
}
