// Takes a batch of AlertEvents into one channel's incidents, exactly once: events already taken (by key)
// are skipped, and everything one batch changes (incident records, the "taken" marks, what must be shown
// again, the thread replies to post) is written in one MULTI, so a worker killed halfway leaves either
// nothing or all of it. The caller holds the channel's desk lock, so no two intakes of a channel
// interleave. Here incidents open, update, close and flap; opens of one kind beyond the burst threshold
// join one summary; catch-up events join one catch-up summary per batch; what was already wrong when the
// channel subscribed (`current` events) is one "right now" summary whose members keep their own messages
// in its thread; muted devices open nothing.
import { createHash } from 'node:crypto';
import type { AlertEvent, AlertKind } from '../../alerts/model.js';
import {
  burstHeadline,
  INLINE_DETAILS,
  renderCatchUpReply,
  renderTransitionReply,
} from '../../alerts/render.js';
import type { View } from '../../model/view.js';
import type { RedisClient } from '../../redis/connection.js';
import { replicated } from '../../redis/replication.js';
import type { JobKeys } from '../keys.js';
import { textBeside } from '../payloads.js';
import type { Schedule } from '../schedule.js';
import { type DeskRecord, type DeskReply, incidentId, readRecord } from './deskRecord.js';

export interface IntakeResult {
  /** Events of this batch taken now (not seen before). */
  taken: number;
  /** Events skipped as seen before. */
  repeated: number;
  /** Whether something opened or closed (what the Home lists changed). */
  openChanged: boolean;
}

/** Counts nouns of a summary's subject line. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function byTime(events: readonly AlertEvent[]): AlertEvent[] {
  return events
    .map((event, index) => ({ event, index, at: Date.parse(event.at) }))
    .sort((a, b) => (a.at || 0) - (b.at || 0) || a.index - b.index)
    .map(({ event }) => event);
}

export class DeskIntake {
  private readonly records = new Map<string, DeskRecord>();
  private readonly changed = new Set<string>();
  /** incident key → id of the incident the channel keeps for it (null: none). */
  private readonly byKey = new Map<string, string | null>();
  private readonly dirty = new Set<string>();
  private readonly replies: DeskReply[] = [];
  private readonly opened = new Map<string, number>();
  private readonly closed = new Set<string>();
  private readonly bursts = new Map<AlertKind, { id: string; created: boolean }>();
  /** incidentKey → the newest transition time (ms) applied to it, read at intake and kept with the batch. */
  private readonly latest = new Map<string, number>();
  private readonly latestChanged = new Set<string>();
  private readonly burstKinds = new Set<AlertKind>();
  private readonly newOpens = new Map<AlertKind, number>();
  private readonly windowOpens = new Map<AlertKind, { count: number; exists: boolean }>();
  private readonly muted = new Set<string>();
  /** Kinds whose notices this batch are too many to post one by one, and their summary's lines. */
  private readonly noticeKinds = new Map<AlertKind, string[]>();
  private readonly noticeGroups = new Map<AlertKind, { id: string; lines: string[] }>();
  private catchUp: { record: DeskRecord; lines: string[] } | undefined;
  /** This batch's "right now" summary (its `current` events), once one of them is told. */
  private currentId: string | undefined;
  /** The id of this batch's catch-up summary in this channel (its catch-up events decide it). */
  private catchUpId = '';

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: JobKeys,
    private readonly schedule: Schedule,
    private readonly channelId: string,
    private readonly now: number,
  ) {}

  /** Takes the events into the channel (an intake object serves one batch, once). */
  async take(events: readonly AlertEvent[]): Promise<IntakeResult> {
    const mine = events.filter((event) => event.channels.includes(this.channelId));
    const unique = [...new Map(mine.map((event) => [event.key, event])).values()];
    const seen =
      unique.length === 0
        ? []
        : await this.redis.mget(...unique.map((event) => this.keys.alertSeen(this.channelId, event.key)));
    const fresh = byTime(unique.filter((_, i) => seen[i] === null));
    if (fresh.length === 0) return { taken: 0, repeated: unique.length, openChanged: false };
    await this.readLatest(fresh);
    const catchUps = fresh.filter((event) => event.catchUp);
    const currents = fresh.filter((event) => event.current);
    this.catchUpId = incidentId(this.channelId, 'catch-up', ...catchUps.map((event) => event.key).sort());
    await this.readMutes(fresh);
    await this.decideBursts(fresh.filter((event) => !event.catchUp && !event.current));
    for (const event of fresh) {
      if (event.catchUp) await this.applyCatchUp(event);
      else if (!event.current) await this.apply(event);
    }
    // After the rest: an incident the channel already has open (an older subscription told it) stays as it is.
    for (const event of currents) await this.applyCurrent(event, currents);
    this.settleCatchUp(catchUps);
    if (this.currentId) await this.settleThread(this.currentId);
    for (const group of this.noticeGroups.values())
      this.reply(group.id, 'lines', renderCatchUpReply(group.lines));
    await this.write(fresh);
    const openChanged = this.opened.size > 0 || this.closed.size > 0;
    return { taken: fresh.length, repeated: unique.length - fresh.length, openChanged };
  }

  // ── reading ──────────────────────────────────────────────────────────────────────────────────────

  private async current(incidentKey: string): Promise<DeskRecord | undefined> {
    let id = this.byKey.get(incidentKey);
    if (id === undefined) {
      id = await this.redis.get(this.keys.incidentOf(this.channelId, incidentKey));
      this.byKey.set(incidentKey, id);
    }
    return id === null ? undefined : this.record(id);
  }

  private async record(id: string): Promise<DeskRecord | undefined> {
    const known = this.records.get(id);
    if (known) return known;
    const read = await readRecord(this.redis, this.keys, id);
    if (read) this.records.set(id, read);
    return read;
  }

  private async readMutes(events: readonly AlertEvent[]): Promise<void> {
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

  private isMuted(event: AlertEvent): boolean {
    return event.subject.type === 'device' && this.muted.has(`${event.profile}\u0000${event.subject.uid}`);
  }

  private withinFlapWindow(record: DeskRecord, at: string): boolean {
    if (!record.closedAt) return false;
    return Date.parse(at) - Date.parse(record.closedAt) <= this.schedule.desk.flapWindowMs;
  }

  /** Which kinds' new incidents join a burst summary in this batch. */
  private async decideBursts(events: readonly AlertEvent[]): Promise<void> {
    const newKeys = new Map<AlertKind, Set<string>>();
    for (const event of events) {
      if (event.phase === 'notice' && !this.isMuted(event)) {
        this.noticeKinds.set(event.kind, [...(this.noticeKinds.get(event.kind) ?? []), event.key]);
        continue;
      }
      if (event.phase !== 'open' && event.phase !== 'update') continue;
      const record = await this.current(event.incidentKey);
      if (record?.open || (record && this.withinFlapWindow(record, event.at)) || this.isMuted(event))
        continue;
      const set = newKeys.get(event.kind) ?? new Set<string>();
      set.add(event.incidentKey);
      newKeys.set(event.kind, set);
    }
    for (const [kind, noticeKeys] of this.noticeKinds) {
      if (noticeKeys.length <= this.schedule.desk.burstOpens) this.noticeKinds.delete(kind);
    }
    for (const [kind, set] of newKeys) {
      const [active, counted] = await Promise.all([
        this.redis.get(this.keys.deskBurst(this.channelId, kind)),
        this.redis.get(this.keys.deskOpens(this.channelId, kind)),
      ]);
      const before = Number(counted ?? 0);
      this.windowOpens.set(kind, { count: before, exists: counted !== null });
      this.newOpens.set(kind, set.size);
      if (active !== null) {
        const burst = await this.record(active);
        if (burst) this.bursts.set(kind, { id: active, created: false });
      }
      if (this.bursts.has(kind) || before + set.size > this.schedule.desk.burstOpens)
        this.burstKinds.add(kind);
    }
  }

  // ── changing ─────────────────────────────────────────────────────────────────────────────────────

  private put(record: DeskRecord): void {
    this.records.set(record.id, record);
    this.changed.add(record.id);
  }

  private reply(parentId: string, key: string, view: View): void {
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
  private show(record: DeskRecord): void {
    this.dirty.add(record.groupId ?? record.id);
    // The summary whose thread holds its message shows its state in a row too.
    if (record.threadOf) this.dirty.add(record.threadOf);
  }

  /**
   * The newest transition time already applied to each incident of these events. Batches can reach the
   * desk out of order (one waits on the channel's lock or Slack's pace while a newer one is taken, a worker
   * dies holding one): an event older than what its incident already took would undo a newer state, e.g.
   * reopen for good an incident whose close came first.
   */
  private async readLatest(events: readonly AlertEvent[]): Promise<void> {
    const keys = [...new Set(events.filter((e) => e.phase !== 'notice').map((e) => e.incidentKey))];
    if (keys.length === 0) return;
    const stored = await this.redis.mget(...keys.map((key) => this.keys.incidentLatest(this.channelId, key)));
    keys.forEach((key, i) => {
      const at = Number(stored[i] ?? Number.NaN);
      if (Number.isFinite(at)) this.latest.set(key, at);
    });
  }

  /** Whether the event is older than what its incident already took; records it as the newest otherwise. */
  private stale(event: AlertEvent): boolean {
    const at = Date.parse(event.at);
    if (!Number.isFinite(at)) return false;
    const latest = this.latest.get(event.incidentKey);
    if (latest !== undefined && at < latest) return true;
    this.latest.set(event.incidentKey, at);
    this.latestChanged.add(event.incidentKey);
    return false;
  }

  private async apply(event: AlertEvent): Promise<void> {
    if (event.phase === 'notice') return this.notice(event);
    if (this.stale(event)) return;
    const record = await this.current(event.incidentKey);
    if (event.phase === 'close') {
      if (record?.open) await this.close(record, event);
      return;
    }
    if (record?.open) {
      // Nothing new: the channel was told it as already wrong when it subscribed, then the scan found it.
      if (event.phase === 'open' && record.state === event.state) return;
      return this.update(record, event);
    }
    if (this.isMuted(event)) return;
    if (record && this.withinFlapWindow(record, event.at)) return this.reopen(record, event);
    await this.open(event, this.burstKinds.has(event.kind) ? await this.burst(event) : undefined);
  }

  private notice(event: AlertEvent): void {
    if (this.isMuted(event)) return;
    if (this.noticeKinds.has(event.kind)) {
      this.noticeInSummary(event);
      return;
    }
    const record: DeskRecord = {
      ...this.fromEvent(event, incidentId(this.channelId, event.key)),
      type: 'notice',
      open: false,
      closedAt: event.at,
      ...inlineDetails(event),
    };
    this.put(record);
    this.show(record);
    if (!record.details) this.reply(record.id, event.key, renderTransitionReply(event));
  }

  /** A notice of a kind with too many this batch: a row of one summary, its headline a line of its thread. */
  private noticeInSummary(event: AlertEvent): void {
    let group = this.noticeGroups.get(event.kind);
    if (!group) {
      const keys = [...(this.noticeKinds.get(event.kind) ?? [])].sort();
      group = { id: incidentId(this.channelId, 'notices', event.kind, ...keys), lines: [] };
      this.noticeGroups.set(event.kind, group);
      this.put({
        ...this.fromEvent(event, group.id),
        type: 'notices',
        incidentKey: `notices:${group.id}`,
        open: false,
        closedAt: event.at,
        headline: `Notices: ${event.kind}`,
        actions: [],
        members: [],
      });
    }
    const member: DeskRecord = {
      ...this.fromEvent(event, incidentId(this.channelId, event.key)),
      type: 'notice',
      open: false,
      closedAt: event.at,
      groupId: group.id,
    };
    this.put(member);
    group.lines.push(event.headline, ...event.details.map((line) => `    ${line}`));
    const summary = this.records.get(group.id);
    if (!summary) return;
    const members = [...(summary.members ?? []), member.id];
    const latest =
      Date.parse(event.at) > Date.parse(summary.closedAt ?? event.at) ? event.at : summary.closedAt;
    this.put({
      ...summary,
      members,
      ...(latest ? { closedAt: latest } : {}),
      subject: { ...summary.subject, uid: group.id, name: plural(members.length, event.subject.type) },
    });
    this.dirty.add(group.id);
  }

  private fromEvent(event: AlertEvent, id: string): DeskRecord {
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

  private async open(event: AlertEvent, group: DeskRecord | undefined): Promise<DeskRecord> {
    const record: DeskRecord = {
      ...this.fromEvent(event, incidentId(this.channelId, event.key)),
      ...(group ? { groupId: group.id } : inlineDetails(event)),
    };
    this.put(record);
    this.byKey.set(event.incidentKey, record.id);
    this.show(record);
    if (group) {
      this.join(group, record);
    } else {
      this.opened.set(record.id, Date.parse(event.at) || this.now);
      if (!record.details) this.reply(record.id, event.key, renderTransitionReply(event));
    }
    return record;
  }

  private join(group: DeskRecord, member: DeskRecord): void {
    const members = [...(group.members ?? []), member.id];
    const noun = member.subject.type === 'device' ? 'device' : member.subject.type;
    const { closedAt: _was, ...open } = group;
    this.put({
      ...open,
      members,
      open: true,
      subject: { ...group.subject, name: plural(members.length, noun) },
      ...(group.type === 'burst' ? { headline: burstHeadline(group.kind, members.length) } : {}),
    });
    this.opened.set(group.id, Date.parse(group.openedAt) || this.now);
    this.closed.delete(group.id);
  }

  private update(record: DeskRecord, event: AlertEvent): void {
    const { details: _shown, ...current } = record;
    const updated: DeskRecord = {
      ...current,
      state: event.state,
      headline: event.headline,
      actions: event.actions.length > 0 ? event.actions : record.actions,
    };
    this.put(updated);
    this.show(updated);
    if (!updated.groupId) this.reply(updated.id, event.key, renderTransitionReply(event));
  }

  private async reopen(record: DeskRecord, event: AlertEvent): Promise<void> {
    const { closedAt: _closed, details: _shown, ...rest } = record;
    const reopened: DeskRecord = {
      ...rest,
      open: true,
      state: event.state,
      headline: event.headline,
      flaps: record.flaps + 1,
      actions: event.actions.length > 0 ? event.actions : record.actions,
    };
    this.put(reopened);
    this.show(reopened);
    const group = reopened.groupId ? await this.record(reopened.groupId) : undefined;
    if (group) {
      const { closedAt: _was, ...open } = group;
      this.put({ ...open, open: true });
      this.opened.set(group.id, Date.parse(group.openedAt) || this.now);
      this.closed.delete(group.id);
      return;
    }
    this.opened.set(reopened.id, Date.parse(reopened.openedAt) || this.now);
    this.closed.delete(reopened.id);
    this.reply(reopened.id, event.key, renderTransitionReply({ ...event, phase: 'reopen' }));
    if (reopened.threadOf) await this.settleThread(reopened.threadOf);
  }

  private async close(record: DeskRecord, event: AlertEvent): Promise<void> {
    const { details: _shown, ...current } = record;
    const closed: DeskRecord = {
      ...current,
      open: false,
      closedAt: event.at,
      state: event.state,
      headline: event.headline,
    };
    this.put(closed);
    this.show(closed);
    if (!closed.groupId) {
      this.closed.add(closed.id);
      this.opened.delete(closed.id);
      this.reply(closed.id, event.key, renderTransitionReply(event));
      if (closed.threadOf) await this.settleThread(closed.threadOf, event.at);
      return;
    }
    const group = await this.record(closed.groupId);
    if (!group) return;
    const members = await Promise.all((group.members ?? []).map((id) => this.record(id)));
    if (members.some((member) => member?.open)) return;
    this.put({ ...group, open: false, closedAt: event.at });
    this.closed.add(group.id);
    this.opened.delete(group.id);
  }

  /** The burst summary of this event's kind: the active one, or a new one. */
  private async burst(event: AlertEvent): Promise<DeskRecord> {
    const known = this.bursts.get(event.kind);
    if (known) {
      const record = await this.record(known.id);
      if (record) return record;
    }
    const id = incidentId(this.channelId, 'burst', event.key);
    const record: DeskRecord = {
      ...this.fromEvent(event, id),
      type: 'burst',
      incidentKey: `burst:${event.kind}:${id}`,
      subject: { type: event.subject.type, uid: id, name: plural(0, event.subject.type) },
      headline: `Burst: ${event.kind}`,
      actions: [],
      members: [],
    };
    this.put(record);
    this.bursts.set(event.kind, { id, created: true });
    return record;
  }

  private async applyCatchUp(event: AlertEvent): Promise<void> {
    const group = this.catchUpGroup(event);
    const counts = { ...(group.counts ?? { opened: 0, closed: 0, other: 0 }) };
    this.catchUp?.lines.push(event.headline);
    const record = event.phase === 'notice' ? undefined : await this.current(event.incidentKey);
    if (event.phase === 'close') {
      counts.closed += 1;
      if (record?.open) await this.close(record, event);
    } else if (event.phase === 'open' && !record?.open) {
      counts.opened += 1;
      if (!this.isMuted(event)) await this.open(event, this.catchUpGroup(event));
    } else {
      counts.other += 1;
      if (record?.open) this.update(record, event);
    }
    const latest = this.catchUpGroup(event);
    this.put({ ...latest, counts });
  }

  private catchUpGroup(event: AlertEvent): DeskRecord {
    if (this.catchUp) {
      const latest = this.records.get(this.catchUp.record.id) ?? this.catchUp.record;
      if (Date.parse(event.at) >= Date.parse(latest.since ?? event.at)) return latest;
      const earlier = { ...latest, since: event.at, openedAt: event.at };
      this.put(earlier);
      return earlier;
    }
    const id = this.catchUpId;
    const record: DeskRecord = {
      ...this.fromEvent(event, id),
      type: 'catch-up',
      incidentKey: `catch-up:${id}`,
      actions: [],
      members: [],
      counts: { opened: 0, closed: 0, other: 0 },
      since: event.at,
      headline: 'Catch-up',
    };
    this.put(record);
    this.catchUp = { record, lines: [] };
    return record;
  }

  /** Closes the batch's catch-up summary when nothing in it is open, names it, and queues its reply. */
  private settleCatchUp(events: readonly AlertEvent[]): void {
    if (!this.catchUp) return;
    const draft = this.records.get(this.catchUp.record.id) ?? this.catchUp.record;
    const members = (draft.members ?? []).flatMap((member) => this.records.get(member) ?? []);
    const open = members.some((member) => member.open);
    const last = events.reduce(
      (latest, event) => (Date.parse(event.at) > Date.parse(latest) ? event.at : latest),
      draft.openedAt,
    );
    const counts = draft.counts ?? { opened: 0, closed: 0, other: 0 };
    const { closedAt: _was, ...rest } = draft;
    const record: DeskRecord = {
      ...rest,
      open,
      ...(open ? {} : { closedAt: last }),
      subject: { type: draft.subject.type, uid: draft.id, name: plural(members.length, draft.subject.type) },
      headline: `While fwbot could not watch: ${counts.opened} opened, ${counts.closed} closed, ${counts.other} other`,
    };
    this.put(record);
    this.dirty.add(record.id);
    if (open) {
      this.opened.set(record.id, Date.parse(record.openedAt) || this.now);
      this.closed.delete(record.id);
    } else {
      this.opened.delete(record.id);
    }
    this.reply(record.id, 'lines', renderCatchUpReply(this.catchUp.lines));
  }

  /**
   * What was already wrong when the channel subscribed: an incident (or a notice) with a message of its own,
   * in the thread of the batch's one "right now" summary, with its buttons. Not one the channel has open.
   */
  private async applyCurrent(event: AlertEvent, batch: readonly AlertEvent[]): Promise<void> {
    if (this.isMuted(event)) return;
    if (event.phase !== 'notice') {
      if (this.stale(event)) return;
      if ((await this.current(event.incidentKey))?.open) return;
    }
    const summary = this.currentSummary(event, batch);
    const record: DeskRecord = {
      ...this.fromEvent(event, incidentId(this.channelId, event.key)),
      ...(event.phase === 'notice' ? { type: 'notice' as const, open: false, closedAt: event.at } : {}),
      threadOf: summary.id,
      ...inlineDetails(event),
    };
    this.put(record);
    this.show(record);
    if (record.type === 'incident') {
      this.byKey.set(event.incidentKey, record.id);
      this.opened.set(record.id, Date.parse(event.at) || this.now);
    }
    if (!record.details) this.reply(record.id, event.key, renderTransitionReply(event));
    this.put({ ...summary, members: [...(summary.members ?? []), record.id] });
  }

  /** The batch's "right now" summary: made with its first member (its id decided by the batch's events). */
  private currentSummary(event: AlertEvent, batch: readonly AlertEvent[]): DeskRecord {
    const known = this.currentId === undefined ? undefined : this.records.get(this.currentId);
    if (known) return known;
    const id = incidentId(this.channelId, 'current', ...batch.map((e) => e.key).sort());
    this.currentId = id;
    const record: DeskRecord = {
      ...this.fromEvent(event, id),
      type: 'current',
      incidentKey: `current:${id}`,
      headline: 'Right now',
      actions: [],
      members: [],
    };
    this.put(record);
    return record;
  }

  /**
   * A "right now" summary after its members changed: open while one of them is, shown again (its rows). It
   * is not an incident of its own: the channel's open incidents are its members.
   */
  private async settleThread(summaryId: string, at?: string): Promise<void> {
    const summary = await this.record(summaryId);
    if (!summary) return;
    const members = await Promise.all((summary.members ?? []).map((id) => this.record(id)));
    const open = members.some((member) => member?.open);
    const { closedAt: was, ...rest } = summary;
    const closedAt = open ? undefined : (at ?? was ?? summary.openedAt);
    this.put({
      ...rest,
      open,
      ...(closedAt === undefined ? {} : { closedAt }),
      subject: { ...summary.subject, uid: summary.id, name: plural(members.length, 'incident') },
    });
    this.dirty.add(summary.id);
  }

  // ── writing ──────────────────────────────────────────────────────────────────────────────────────

  private async write(fresh: readonly AlertEvent[]): Promise<void> {
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
    if (this.dirty.size > 0) tx.sadd(this.keys.deskDirty(this.channelId), ...this.dirty);
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

/**
 * An opening's details shown in its message when they are short (a reply of its own would double the
 * messages of every incident); longer ones go in the thread (`details` absent). None: nothing to add.
 */
function inlineDetails(event: AlertEvent): { details?: string[] } {
  if (event.details.length === 0) return { details: [] };
  return event.details.length <= INLINE_DETAILS ? { details: event.details } : {};
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}
