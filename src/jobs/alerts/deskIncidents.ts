// An incident's life in a channel: it opens (a message of its own, or a row of a burst or catch-up summary),
// changes state, closes, and reopens within the flap window as the same incident, flapping. Each change is
// shown again and told in the thread. An event older than what its incident already took is dropped, so
// batches taken out of order never undo a newer state; a muted device opens nothing.
import type { AlertEvent } from '../../alerts/model.js';
import { renderTransitionReply } from '../../alerts/render.js';
import { type DeskBatch, inlineDetails } from './deskBatch.js';
import { burstOf, join } from './deskBursts.js';
import { notice } from './deskNotices.js';
import { type DeskRecord, incidentId } from './deskRecord.js';
import { settleThread } from './deskRightNow.js';

/** One event of the scan's (not catch-up, not "right now"): what it does to its incident. */
export async function apply(batch: DeskBatch, event: AlertEvent): Promise<void> {
  if (event.phase === 'notice') return notice(batch, event);
  if (batch.stale(event)) return;
  const record = await batch.current(event.incidentKey);
  if (event.phase === 'close') {
    if (record?.open) await close(batch, record, event);
    return;
  }
  if (record?.open) {
    // Nothing new: the channel was told it as already wrong when it subscribed, then the scan found it.
    if (event.phase === 'open' && record.state === event.state) return;
    return update(batch, record, event);
  }
  if (batch.isMuted(event)) return;
  if (record && batch.withinFlapWindow(record, event.at)) return reopen(batch, record, event);
  await open(batch, event, batch.burstKinds.has(event.kind) ? await burstOf(batch, event) : undefined);
}

/** A new incident: a message of its own, or a row of `group` (a burst's or a catch-up's summary). */
export async function open(
  batch: DeskBatch,
  event: AlertEvent,
  group: DeskRecord | undefined,
): Promise<DeskRecord> {
  const record: DeskRecord = {
    ...batch.fromEvent(event, incidentId(batch.channelId, event.key)),
    ...(group ? { groupId: group.id } : inlineDetails(event)),
  };
  batch.put(record);
  batch.byKey.set(event.incidentKey, record.id);
  batch.show(record);
  if (group) {
    join(batch, group, record);
  } else {
    batch.opened.set(record.id, Date.parse(event.at) || batch.now);
    if (!record.details) batch.reply(record.id, event.key, renderTransitionReply(event));
  }
  return record;
}

export function update(batch: DeskBatch, record: DeskRecord, event: AlertEvent): void {
  const { details: _shown, ...current } = record;
  const updated: DeskRecord = {
    ...current,
    state: event.state,
    headline: event.headline,
    actions: event.actions.length > 0 ? event.actions : record.actions,
  };
  batch.put(updated);
  batch.show(updated);
  if (!updated.groupId) batch.reply(updated.id, event.key, renderTransitionReply(event));
}

async function reopen(batch: DeskBatch, record: DeskRecord, event: AlertEvent): Promise<void> {
  const { closedAt: _closed, details: _shown, ...rest } = record;
  const reopened: DeskRecord = {
    ...rest,
    open: true,
    state: event.state,
    headline: event.headline,
    flaps: record.flaps + 1,
    actions: event.actions.length > 0 ? event.actions : record.actions,
  };
  batch.put(reopened);
  batch.show(reopened);
  const group = reopened.groupId ? await batch.record(reopened.groupId) : undefined;
  if (group) {
    const { closedAt: _was, ...openGroup } = group;
    batch.put({ ...openGroup, open: true });
    batch.opened.set(group.id, Date.parse(group.openedAt) || batch.now);
    batch.closed.delete(group.id);
    return;
  }
  batch.opened.set(reopened.id, Date.parse(reopened.openedAt) || batch.now);
  batch.closed.delete(reopened.id);
  batch.reply(reopened.id, event.key, renderTransitionReply({ ...event, phase: 'reopen' }));
  if (reopened.threadOf) await settleThread(batch, reopened.threadOf);
}

export async function close(batch: DeskBatch, record: DeskRecord, event: AlertEvent): Promise<void> {
  const { details: _shown, ...current } = record;
  const closed: DeskRecord = {
    ...current,
    open: false,
    closedAt: event.at,
    state: event.state,
    headline: event.headline,
  };
  batch.put(closed);
  batch.show(closed);
  if (!closed.groupId) {
    batch.closed.add(closed.id);
    batch.opened.delete(closed.id);
    batch.reply(closed.id, event.key, renderTransitionReply(event));
    if (closed.threadOf) await settleThread(batch, closed.threadOf, event.at);
    return;
  }
  const group = await batch.record(closed.groupId);
  if (!group) return;
  const members = await Promise.all((group.members ?? []).map((id) => batch.record(id)));
  if (members.some((member) => member?.open)) return;
  batch.put({ ...group, open: false, closedAt: event.at });
  batch.closed.add(group.id);
  batch.opened.delete(group.id);
}
