// Notices: things worth telling that open no incident (a configuration changed, a certificate expires).
// Each is a closed message of its own, its details in the thread when they are long; a kind with more
// notices in one batch than the burst threshold is one "notices" summary instead, its rows the notices
// and its thread their headlines and details.
import type { AlertEvent } from '../../alerts/model.js';
import { renderTransitionReply } from '../../alerts/render.js';
import { type DeskBatch, inlineDetails, plural } from './deskBatch.js';
import { type DeskRecord, incidentId } from './deskRecord.js';

export function notice(batch: DeskBatch, event: AlertEvent): void {
  if (batch.isMuted(event)) return;
  if (batch.noticeKinds.has(event.kind)) {
    noticeInSummary(batch, event);
    return;
  }
  const record: DeskRecord = {
    ...batch.fromEvent(event, incidentId(batch.channelId, event.key)),
    type: 'notice',
    open: false,
    closedAt: event.at,
    ...inlineDetails(event),
  };
  batch.put(record);
  batch.show(record);
  if (!record.details) batch.reply(record.id, event.key, renderTransitionReply(event));
}

/** A notice of a kind with too many this batch: a row of one summary, its headline a line of its thread. */
function noticeInSummary(batch: DeskBatch, event: AlertEvent): void {
  let group = batch.noticeGroups.get(event.kind);
  if (!group) {
    const keys = [...(batch.noticeKinds.get(event.kind) ?? [])].sort();
    group = { id: incidentId(batch.channelId, 'notices', event.kind, ...keys), lines: [] };
    batch.noticeGroups.set(event.kind, group);
    batch.put({
      ...batch.fromEvent(event, group.id),
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
    ...batch.fromEvent(event, incidentId(batch.channelId, event.key)),
    type: 'notice',
    open: false,
    closedAt: event.at,
    groupId: group.id,
  };
  batch.put(member);
  group.lines.push(event.headline, ...event.details.map((line) => `    ${line}`));
  const summary = batch.records.get(group.id);
  if (!summary) return;
  const members = [...(summary.members ?? []), member.id];
  const latest =
    Date.parse(event.at) > Date.parse(summary.closedAt ?? event.at) ? event.at : summary.closedAt;
  batch.put({
    ...summary,
    members,
    ...(latest ? { closedAt: latest } : {}),
    subject: { ...summary.subject, uid: group.id, name: plural(members.length, event.subject.type) },
  });
  batch.dirty.add(group.id);
}
