// What the incident desk keeps in Redis for each message it owns: an incident (one per channel and
// incident key), a burst or catch-up summary (one message for many members), or a notice; and the thread
// replies waiting for their parent's message. Parsed with zod when read back.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AlertAction, AlertKind, AlertSubject, type OpenIncident } from '../../alerts/model.js';
import type { Acknowledgement, IncidentMessage, SummaryMessage } from '../../alerts/render.js';
import { StoredView } from '../../model/storedView.js';
import type { RedisClient } from '../../redis/connection.js';
import type { RedisKeys } from '../../redis/keys.js';
import { parseStored } from '../payloads.js';

export const DeskRecord = z.object({
  id: z.string().min(1),
  channelId: z.string().min(1),
  /**
   * `incident` and `notice` have a message of their own, unless they are a summary's members (`groupId`):
   * a `burst` of opens, a `catch-up`, or `notices` of one kind too many to tell one by one. A `current`
   * summary says what was already wrong when a channel subscribed; its members keep messages of their own,
   * in its thread (`threadOf`).
   */
  type: z.enum(['incident', 'notice', 'burst', 'catch-up', 'notices', 'current']),
  kind: AlertKind,
  profile: z.string().min(1),
  tenant: z.object({ uid: z.string().min(1), name: z.string().min(1) }).optional(),
  subject: AlertSubject,
  incidentKey: z.string().min(1),
  open: z.boolean(),
  state: z.string(),
  headline: z.string().min(1),
  /** The opening's details, shown in the message (absent: they are in the thread). */
  details: z.array(z.string()).optional(),
  openedAt: z.string().min(1),
  closedAt: z.string().optional(),
  flaps: z.number().int().nonnegative(),
  actions: z.array(AlertAction),
  /** The summary this incident is a row of (no message of its own). */
  groupId: z.string().optional(),
  /** The `current` summary this incident is a row of, whose thread holds its own message. */
  threadOf: z.string().optional(),
  /** A summary's members (incident ids), in the order they joined. */
  members: z.array(z.string()).optional(),
  /** A catch-up summary's counts, and the earliest change it found. */
  counts: z.object({ opened: z.number(), closed: z.number(), other: z.number() }).optional(),
  since: z.string().optional(),
});
export type DeskRecord = z.infer<typeof DeskRecord>;

/** A thread reply waiting for its parent's message (a summary's or an incident's). */
export const DeskReply = z.object({
  /** Its notification key: posted once. */
  key: z.string().min(1),
  parentId: z.string().min(1),
  /** The view's summary. */
  text: z.string().min(1),
  view: StoredView,
});
export type DeskReply = z.infer<typeof DeskReply>;

export const Acknowledged = z.object({ userId: z.string().min(1), at: z.string().min(1) });

/** What incidentId makes. */
export const INCIDENT_ID = /^[a-z0-9]{8}$/;

/** A short, typeable incident id (`/fw alerts ack k3v9x2mq`), decided by what opened it. */
export function incidentId(...parts: string[]): string {
  const bytes = createHash('sha256').update(parts.join('\u0000')).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  for (let i = 0; i < 8; i += 1) id += alphabet[(bytes[i] ?? 0) % alphabet.length];
  return id;
}

/** The notification key of an incident's or summary's message. */
export function messageKey(id: string): string {
  return `alert:${id}`;
}

export async function readRecord(
  redis: RedisClient,
  keys: RedisKeys,
  id: string,
): Promise<DeskRecord | undefined> {
  const raw = await redis.get(keys.incident(id));
  return raw === null ? undefined : parseStored(DeskRecord, raw, keys.incident(id));
}

export async function readRecords(
  redis: RedisClient,
  keys: RedisKeys,
  ids: readonly string[],
): Promise<DeskRecord[]> {
  if (ids.length === 0) return [];
  const raws = await redis.mget(...ids.map((id) => keys.incident(id)));
  return raws.flatMap((raw, i) =>
    raw === null ? [] : [parseStored(DeskRecord, raw, keys.incident(ids[i] ?? ''))],
  );
}

export async function readAck(
  redis: RedisClient,
  keys: RedisKeys,
  id: string,
): Promise<Acknowledgement | undefined> {
  const raw = await redis.get(keys.incidentAck(id));
  return raw === null ? undefined : parseStored(Acknowledged, raw, keys.incidentAck(id));
}

export function incidentMessage(record: DeskRecord, ack: Acknowledgement | undefined): IncidentMessage {
  return {
    id: record.id,
    kind: record.kind,
    profile: record.profile,
    tenant: record.tenant,
    subject: record.subject,
    headline: record.headline,
    details: record.details,
    state: record.state,
    open: record.open,
    notice: record.type === 'notice',
    openedAt: record.openedAt,
    closedAt: record.closedAt,
    flaps: record.flaps,
    acknowledged: ack,
    actions: record.actions,
  };
}

export function summaryMessage(
  record: DeskRecord,
  members: readonly DeskRecord[],
  ack: Acknowledgement | undefined,
): SummaryMessage {
  return {
    id: record.id,
    type:
      record.type === 'catch-up' || record.type === 'notices' || record.type === 'current'
        ? record.type
        : 'burst',
    kind: record.kind,
    profile: record.profile,
    openedAt: record.openedAt,
    closedAt: record.closedAt,
    open: record.open,
    members: members.map((member) => ({
      kind: member.kind,
      notice: member.type === 'notice',
      subject: member.subject,
      state: member.state,
      tenant: member.tenant?.name,
      open: member.open,
      since: member.openedAt,
      flaps: member.flaps,
    })),
    counts: record.counts,
    since: record.since,
    acknowledged: ack,
  };
}

/** An incident or summary as the Home and `/fw alerts` list it. */
export function openIncident(
  record: DeskRecord,
  ack: Acknowledgement | undefined,
  ts: string | undefined,
): OpenIncident {
  return {
    id: record.id,
    channelId: record.channelId,
    kind: record.kind,
    profile: record.profile,
    subject: record.subject,
    headline: record.headline,
    openedAt: record.openedAt,
    flaps: record.flaps,
    ...(ack ? { acknowledgedBy: ack.userId } : {}),
    ...(ts ? { ts } : {}),
  };
}
