// Bursts: when more incidents of one kind open in a channel within the burst window than the threshold,
// the new ones join one summary message (its table, edited as they close) instead of one message each.
// Which kinds burst is decided for the whole batch before any event is applied, from what the window
// already counted; a burst summary stays active for the window, so later batches join it too.
import type { AlertEvent, AlertKind } from '../../alerts/model.js';
import { burstHeadline } from '../../alerts/render.js';
import { type DeskBatch, plural } from './deskBatch.js';
import { type DeskRecord, incidentId } from './deskRecord.js';

/** Which kinds' new incidents join a burst summary in this batch (and which notices are too many). */
export async function decideBursts(batch: DeskBatch, events: readonly AlertEvent[]): Promise<void> {
  const { redis, keys, channelId, schedule } = batch;
  const newKeys = new Map<AlertKind, Set<string>>();
  for (const event of events) {
    if (event.phase === 'notice' && !batch.isMuted(event)) {
      batch.noticeKinds.set(event.kind, [...(batch.noticeKinds.get(event.kind) ?? []), event.key]);
      continue;
    }
    if (event.phase !== 'open' && event.phase !== 'update') continue;
    const record = await batch.current(event.incidentKey);
    if (record?.open || (record && batch.withinFlapWindow(record, event.at)) || batch.isMuted(event))
      continue;
    const set = newKeys.get(event.kind) ?? new Set<string>();
    set.add(event.incidentKey);
    newKeys.set(event.kind, set);
  }
  for (const [kind, noticeKeys] of batch.noticeKinds) {
    if (noticeKeys.length <= schedule.desk.burstOpens) batch.noticeKinds.delete(kind);
  }
  for (const [kind, set] of newKeys) {
    const [active, counted] = await Promise.all([
      redis.get(keys.deskBurst(channelId, kind)),
      redis.get(keys.deskOpens(channelId, kind)),
    ]);
    const before = Number(counted ?? 0);
    batch.windowOpens.set(kind, { count: before, exists: counted !== null });
    batch.newOpens.set(kind, set.size);
    if (active !== null) {
      const burst = await batch.record(active);
      if (burst) batch.bursts.set(kind, { id: active, created: false });
    }
    if (batch.bursts.has(kind) || before + set.size > schedule.desk.burstOpens) batch.burstKinds.add(kind);
  }
}

/** The burst summary of this event's kind: the active one, or a new one. */
export async function burstOf(batch: DeskBatch, event: AlertEvent): Promise<DeskRecord> {
  const known = batch.bursts.get(event.kind);
  if (known) {
    const record = await batch.record(known.id);
    if (record) return record;
  }
  const id = incidentId(batch.channelId, 'burst', event.key);
  const record: DeskRecord = {
    ...batch.fromEvent(event, id),
    type: 'burst',
    incidentKey: `burst:${event.kind}:${id}`,
    subject: { type: event.subject.type, uid: id, name: plural(0, event.subject.type) },
    headline: `Burst: ${event.kind}`,
    actions: [],
    members: [],
  };
  batch.put(record);
  batch.bursts.set(event.kind, { id, created: true });
  return record;
}

/** A new incident becomes a row of a summary (a burst's or a catch-up's), which is open again with it. */
export function join(batch: DeskBatch, group: DeskRecord, member: DeskRecord): void {
  const members = [...(group.members ?? []), member.id];
  const noun = member.subject.type === 'device' ? 'device' : member.subject.type;
  const { closedAt: _was, ...open } = group;
  batch.put({
    ...open,
    members,
    open: true,
    subject: { ...group.subject, name: plural(members.length, noun) },
    ...(group.type === 'burst' ? { headline: burstHeadline(group.kind, members.length) } : {}),
  });
  batch.opened.set(group.id, Date.parse(group.openedAt) || batch.now);
  batch.closed.delete(group.id);
}
