// What fwbot tells about SCC without being asked (issue 26): the kinds of alert, a channel's subscription
// to them, the event a scan finds (one transition of one thing, with an idempotency key) and the ports the
// operations and the Home use. SCC has no webhooks: a scan (src/jobs/alerts/) reads SCC's lists with
// Lucene filters, compares with the last state it kept in Redis, and hands the transitions it found to
// the incident desk, which keeps one message per incident per channel. Everything here is plain data,
// parsed with zod where it is read back from Redis or a job.
import { z } from 'zod';
import type { SccClient } from '../scc/client.js';
import { AlertKind } from './index.js';
import { AlertAction, AlertPhase, AlertSubject } from './vocabulary.js';

// The kinds' names and their enum come from the registry's list (index.ts); what every kind's events are
// made of, from vocabulary.ts. Both are re-exported here with the rest of the model the app reads.
export { ALERT_KINDS, AlertKind } from './index.js';
export { AlertAction, AlertPhase, AlertSubject, type TokenRole } from './vocabulary.js';

/** Which tenants a subscription hears: the profile's own, one managed tenant of an MSP profile, or all. */
export const AlertScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('profile') }),
  z.object({ kind: z.literal('tenant'), uid: z.string().min(1), name: z.string().min(1) }),
  z.object({ kind: z.literal('all-tenants') }),
]);
export type AlertScope = z.infer<typeof AlertScope>;

/** `/fw alerts subscribe …` as kept in Redis. */
export const AlertSubscription = z.object({
  /** Short and typeable (`/fw alerts unsubscribe a7k2m9`): unique within the deployment. */
  id: z.string().regex(/^[a-z0-9]{6,12}$/),
  channelId: z.string().min(1),
  profile: z.string().min(1),
  kinds: z.array(AlertKind).min(1),
  /** SCC's `q` (Lucene) choosing the devices heard about (as toLucene made it); every device when absent. */
  devices: z.string().min(1).optional(),
  scope: AlertScope,
  createdBy: z.string().min(1),
  createdAt: z.string().min(1),
  /**
   * The workspace it was made in (OAuth mode): its channel's incidents are posted with that workspace's
   * client, and its channel's scope may come from `workspaces.<team>`. Absent: the home workspace.
   */
  teamId: z.string().min(1).optional(),
  enterpriseId: z.string().min(1).optional(),
});
export type AlertSubscription = z.infer<typeof AlertSubscription>;

export type NewAlertSubscription = Omit<AlertSubscription, 'id' | 'createdAt'>;

/**
 * One transition a scan found. `phase` says what it does to its incident: `open` starts (or reopens, when
 * it flaps) the incident named by `incidentKey`, `update` changes an open one, `close` ends it, `notice`
 * is told once and is an incident of its own that is already over (a run that ended, an audit event, a
 * certificate threshold crossed).
 */
export const AlertEvent = z.object({
  /**
   * Idempotency key: (kind, profile, subject, field, from, to, SCC's time when it has one). The same
   * transition found twice (a scan repeated after a crash, two workers) has the same key and is told once.
   */
  key: z.string().min(1),
  kind: AlertKind,
  profile: z.string().min(1),
  /** The managed tenant the subject belongs to (MSP scans); absent for the profile's own tenant. */
  tenant: z.object({ uid: z.string().min(1), name: z.string().min(1) }).optional(),
  subject: AlertSubject,
  /** `connectivity:<profile>:<deviceUid>`, `certificates:<profile>:<deviceUid>:management`, … */
  incidentKey: z.string().min(1),
  phase: AlertPhase,
  /** The state now and before, as SCC names it (`UNREACHABLE`, `ONLINE`, `CONFLICT_DETECTED`, `7 days`). */
  state: z.string(),
  previous: z.string().optional(),
  /** One mrkdwn line saying what happened (untrusted values already passed through render/untrusted). */
  headline: z.string().min(1),
  /** Further lines for the incident's thread (what changed, per-device results, who staged what). */
  details: z.array(z.string()),
  /** When it happened: SCC's time when it says, else when the scan saw it (ISO 8601). */
  at: z.string().min(1),
  /** Found by the first scan after an outage of SCC, Redis or fwbot: told in one catch-up summary. */
  catchUp: z.boolean().optional(),
  /**
   * Already wrong when its channel subscribed (the subscription's first read): told once, in one "right now"
   * summary of the channel, each incident in its thread with its buttons (unless the channel has it open).
   */
  current: z.boolean().optional(),
  /** The channels it goes to (subscriptions matching kind, scope and device query), decided by the scan. */
  channels: z.array(z.string().min(1)),
  /** Buttons beyond Acknowledge and Mute, which every incident has. */
  actions: z.array(AlertAction),
});
export type AlertEvent = z.infer<typeof AlertEvent>;

/** An incident as the Home tab and `/fw alerts` show it. */
export interface OpenIncident {
  id: string;
  channelId: string;
  kind: AlertKind;
  profile: string;
  subject: AlertSubject;
  headline: string;
  openedAt: string;
  /** How many times it opened again within the flapping window. */
  flaps: number;
  acknowledgedBy?: string;
  /** The Slack message (for a permalink), once posted. */
  ts?: string;
}

/** The subscriptions, as the operations and the scan see them (src/jobs/alerts/subscriptions.ts). */
export interface AlertSubscriptions {
  /** An equal subscription (same channel, profile, kinds, devices, scope) is returned, not duplicated. */
  subscribe(
    subscription: NewAlertSubscription,
  ): Promise<{ subscription: AlertSubscription; created: boolean }>;
  /** Only a subscription of this channel is removed (ids are not secrets, channels are boundaries). */
  unsubscribe(channelId: string, id: string): Promise<AlertSubscription | undefined>;
  /** A channel's subscriptions, or every subscription of a profile, or all. */
  list(filter?: { channelId?: string; profile?: string }): Promise<AlertSubscription[]>;
}

/** What a person does to an incident (the buttons, `/fw alerts ack|mute`), and what the Home reads. */
export interface IncidentDesk {
  acknowledge(incidentId: string, userId: string): Promise<OpenIncident | undefined>;
  /** No new incident of this device is posted in this channel until then (open ones still close). */
  mute(mute: {
    channelId: string;
    profile: string;
    deviceUid: string;
    untilMs: number;
    userId: string;
  }): Promise<void>;
  openIncidents(channelIds: readonly string[]): Promise<OpenIncident[]>;
  /**
   * An incident of these channels by its id while its message offers buttons: open, or a notice (told
   * once, over from the start). Undefined otherwise: closed, another channel's, or unknown.
   */
  find(channelIds: readonly string[], incidentId: string): Promise<OpenIncident | undefined>;
}

/** What a new subscription's first read found (AlertService.startFromNow). */
export interface SubscriptionStart {
  /** Incidents and notices already wrong then, told in the channel's "right now" summary. */
  current: number;
}

/** The port the alert operations need (OperationServices.alerts). */
export interface AlertService {
  subscriptions: AlertSubscriptions;
  incidents: IncidentDesk;
  /**
   * Reads what a new subscription hears, now, with the requester's SCC client: the streams it reads start
   * from this moment (so what goes wrong from now on is told, however late the first scheduled scan runs),
   * and what is already wrong is told once in its channel, as one summary.
   */
  startFromNow(subscription: AlertSubscription, scc: SccClient): Promise<SubscriptionStart>;
}
