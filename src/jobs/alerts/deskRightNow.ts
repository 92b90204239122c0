// The "right now" summary: what was already wrong when a channel subscribed (`current` events) is one
// summary message for the batch, and each incident (or notice) in it keeps a message of its own, with its
// buttons, in that summary's thread. The summary is no incident of its own: it is open while one of its
// members is, and its rows follow them.
import type { AlertEvent } from '../../alerts/model.js';
import { renderTransitionReply } from '../../alerts/render.js';
import { type DeskBatch, inlineDetails, plural } from './deskBatch.js';
import { type DeskRecord, incidentId } from './deskRecord.js';

/**
 * What was already wrong when the channel subscribed: an incident (or a notice) with a message of its own,
 * in the thread of the batch's one "right now" summary, with its buttons. Not one the channel has open.
 */
export async function applyCurrent(
  batch: DeskBatch,
  event: AlertEvent,
  currents: readonly AlertEvent[],
): Promise<void> {
  if (batch.isMuted(event)) return;
  if (event.phase !== 'notice') {
    if (batch.stale(event)) return;
    if ((await batch.current(event.incidentKey))?.open) return;
  }
  const summary = currentSummary(batch, event, currents);
  const record: DeskRecord = {
    ...batch.fromEvent(event, incidentId(batch.channelId, event.key)),
    ...(event.phase === 'notice' ? { type: 'notice' as const, open: false, closedAt: event.at } : {}),
    threadOf: summary.id,
    ...inlineDetails(event),
  };
  batch.put(record);
  batch.show(record);
  if (record.type === 'incident') {
    batch.byKey.set(event.incidentKey, record.id);
    batch.opened.set(record.id, Date.parse(event.at) || batch.now);
  }
  if (!record.details) batch.reply(record.id, event.key, renderTransitionReply(event));
  batch.put({ ...summary, members: [...(summary.members ?? []), record.id] });
}

/** The batch's "right now" summary: made with its first member (its id decided by the batch's events). */
function currentSummary(batch: DeskBatch, event: AlertEvent, currents: readonly AlertEvent[]): DeskRecord {
  const known = batch.currentId === undefined ? undefined : batch.records.get(batch.currentId);
  if (known) return known;
  const id = incidentId(batch.channelId, 'current', ...currents.map((e) => e.key).sort());
  batch.currentId = id;
  const record: DeskRecord = {
    ...batch.fromEvent(event, id),
    type: 'current',
    incidentKey: `current:${id}`,
    headline: 'Right now',
    actions: [],
    members: [],
  };
  batch.put(record);
  return record;
}

/**
 * A "right now" summary after its members changed: open while one of them is, shown again (its rows). It
 * is not an incident of its own: the channel's open incidents are its members.
 */
export async function settleThread(batch: DeskBatch, summaryId: string, at?: string): Promise<void> {
  const summary = await batch.record(summaryId);
  if (!summary) return;
  const members = await Promise.all((summary.members ?? []).map((id) => batch.record(id)));
  const open = members.some((member) => member?.open);
  const { closedAt: was, ...rest } = summary;
  const closedAt = open ? undefined : (at ?? was ?? summary.openedAt);
  batch.put({
    ...rest,
    open,
    ...(closedAt === undefined ? {} : { closedAt }),
    subject: { ...summary.subject, uid: summary.id, name: plural(members.length, 'incident') },
  });
  batch.dirty.add(summary.id);
}
