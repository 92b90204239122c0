// Catch-up: what happened while fwbot could not watch (the scan's first pass after a gap) is one summary
// per batch, "While fwbot could not watch: 3 opened, 2 closed, 1 other", its rows the incidents that
// opened then (open until they close) and its thread every event's headline. Incidents the channel already
// has are closed or updated in place, as a scan's events would.
import type { AlertEvent } from '../../alerts/model.js';
import { renderCatchUpReply } from '../../alerts/render.js';
import { type DeskBatch, plural } from './deskBatch.js';
import { close, open, update } from './deskIncidents.js';
import type { DeskRecord } from './deskRecord.js';

export async function applyCatchUp(batch: DeskBatch, event: AlertEvent): Promise<void> {
  const group = catchUpGroup(batch, event);
  const counts = { ...(group.counts ?? { opened: 0, closed: 0, other: 0 }) };
  batch.catchUp?.lines.push(event.headline);
  const record = event.phase === 'notice' ? undefined : await batch.current(event.incidentKey);
  if (event.phase === 'close') {
    counts.closed += 1;
    if (record?.open) await close(batch, record, event);
  } else if (event.phase === 'open' && !record?.open) {
    counts.opened += 1;
    if (!batch.isMuted(event)) await open(batch, event, catchUpGroup(batch, event));
  } else {
    counts.other += 1;
    if (record?.open) update(batch, record, event);
  }
  const latest = catchUpGroup(batch, event);
  batch.put({ ...latest, counts });
}

/** The batch's catch-up summary, made with its first event; it starts at the earliest event it holds. */
function catchUpGroup(batch: DeskBatch, event: AlertEvent): DeskRecord {
  if (batch.catchUp) {
    const latest = batch.records.get(batch.catchUp.record.id) ?? batch.catchUp.record;
    if (Date.parse(event.at) >= Date.parse(latest.since ?? event.at)) return latest;
    const earlier = { ...latest, since: event.at, openedAt: event.at };
    batch.put(earlier);
    return earlier;
  }
  const id = batch.catchUpId;
  const record: DeskRecord = {
    ...batch.fromEvent(event, id),
    type: 'catch-up',
    incidentKey: `catch-up:${id}`,
    actions: [],
    members: [],
    counts: { opened: 0, closed: 0, other: 0 },
    since: event.at,
    headline: 'Catch-up',
  };
  batch.put(record);
  batch.catchUp = { record, lines: [] };
  return record;
}

/** Closes the batch's catch-up summary when nothing in it is open, names it, and queues its reply. */
export function settleCatchUp(batch: DeskBatch, events: readonly AlertEvent[]): void {
  if (!batch.catchUp) return;
  const draft = batch.records.get(batch.catchUp.record.id) ?? batch.catchUp.record;
  const members = (draft.members ?? []).flatMap((member) => batch.records.get(member) ?? []);
  const isOpen = members.some((member) => member.open);
  const last = events.reduce(
    (latest, event) => (Date.parse(event.at) > Date.parse(latest) ? event.at : latest),
    draft.openedAt,
  );
  const counts = draft.counts ?? { opened: 0, closed: 0, other: 0 };
  const { closedAt: _was, ...rest } = draft;
  const record: DeskRecord = {
    ...rest,
    open: isOpen,
    ...(isOpen ? {} : { closedAt: last }),
    subject: { type: draft.subject.type, uid: draft.id, name: plural(members.length, draft.subject.type) },
    headline: `While fwbot could not watch: ${counts.opened} opened, ${counts.closed} closed, ${counts.other} other`,
  };
  batch.put(record);
  batch.dirty.add(record.id);
  if (isOpen) {
    batch.opened.set(record.id, Date.parse(record.openedAt) || batch.now);
    batch.closed.delete(record.id);
  } else {
    batch.opened.delete(record.id);
  }
  batch.reply(record.id, 'lines', renderCatchUpReply(batch.catchUp.lines));
}
