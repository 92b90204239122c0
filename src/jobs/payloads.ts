// The typed payloads of every queue and of the records kept beside them in Redis. Each is a zod schema:
// job data and Redis values are parsed when read (a job written by an older or broken version is refused
// with a clear reason instead of being half-understood).
import { z } from 'zod';
import { StoredRawArgs } from '../dispatch/reveals.js';
import { TrackRequestSchema } from '../follow/index.js';
import { StoredView } from '../model/storedView.js';
import type { View } from '../model/view.js';

/** Where an outcome goes (mirrors ThreadRef in src/dispatch/ports.ts). */
export const ThreadRefSchema = z.object({
  channelId: z.string().min(1),
  threadTs: z.string().min(1),
  requesterId: z.string().min(1),
  profile: z.string().min(1),
  /** The workspace the thread is in (absent: the home workspace, as in records made before there were others). */
  teamId: z.string().optional(),
  enterpriseId: z.string().optional(),
  /** Who approved the call that started the work; absent when it ran without a second person. */
  approvedBy: z.array(z.string().min(1)).optional(),
  /** The change ticket the starting call was made under (its Cancel… carries it). */
  ticket: z.string().min(1).optional(),
});

/** One thread waiting for a followed thing, and what that thread calls it. */
export const Subscriber = z.object({ thread: ThreadRefSchema, label: z.string() });
export type Subscriber = z.infer<typeof Subscriber>;

export const EVENT_TYPES = [
  'fwbot_outcome',
  'fwbot_note',
  'fwbot_status',
  'fwbot_watch',
  'fwbot_alert',
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** One message to post exactly once, and optionally a progress message to settle before it. */
export const NotifyJobData = z.object({
  /** Idempotency key: at most one message with this key is ever accepted by Slack. */
  key: z.string().min(1),
  channelId: z.string().min(1),
  /** Absent for messages at the top of a channel (watch announcements). */
  threadTs: z.string().optional(),
  /**
   * The message's text (fwbot's mrkdwn); beside a view, its summary, which is what a worker of the previous
   * version (which reads no view) posts instead.
   */
  text: z.string().min(1),
  /** The message as a View (a queued call's outcome, a Cancel… offer): the chat renders it. */
  view: StoredView.optional(),
  eventType: EventType,
  /** The workspace the channel is in (absent: the home workspace): the message goes out with its client. */
  teamId: z.string().optional(),
  enterpriseId: z.string().optional(),
  /** The progress message (by its own notification key) is edited to this text first. */
  settleStatus: z.object({ key: z.string().min(1), text: z.string().min(1) }).optional(),
  /**
   * Not a new message: the one posted under this key (a Cancel… offer) is edited to show this one,
   * its button gone; when it was never posted, it never will be (SlackNotifier.withdraw).
   */
  withdraws: z.string().min(1).optional(),
});
export type NotifyJobData = z.infer<typeof NotifyJobData>;

/**
 * The text kept beside a view: its summary, never empty, which is what a worker of the previous version
 * (which reads no view) posts instead.
 */
export function textBeside(view: View): string {
  return view.summary.trim() === '' ? '—' : view.summary;
}

/** Who asked, and where (Actor in src/model/types.ts), as a queued job keeps them. */
export const RequesterSchema = z.object({
  userId: z.string().min(1),
  channelId: z.string().min(1),
  teamId: z.string().optional(),
  enterpriseId: z.string().optional(),
  /** An external person (Slack Connect): their role is checked again as theirs, not a home person's. */
  external: z.boolean().optional(),
  /** The person's own team, when the workspace binding saw it apart from teamId (Slack Connect). */
  userTeamId: z.string().optional(),
});

/** A call waiting in its operation's queue (QueuedCall in src/dispatch/ports.ts, with the operation's id). */
export const QueuedCallJob = z.object({
  operationId: z.string().min(1),
  raw: StoredRawArgs,
  requester: RequesterSchema,
  thread: ThreadRefSchema,
  /** A stable id of this call: its job's, its notifications', its key's holder and its "calling" mark's. */
  requestId: z.string().min(1),
  target: z.object({ facts: z.unknown(), line: z.string() }).optional(),
  /** `external`: the approver is an external person, checked again as one. */
  approval: z
    .object({ id: z.string().min(1), approvedBy: z.string().min(1), external: z.boolean().optional() })
    .optional(),
  audited: z.string().optional(),
});
export type QueuedCallJob = z.infer<typeof QueuedCallJob>;

/** A queued call's outcome once SCC accepted it, kept until delivered: a job run again only delivers it. */
export const RecordedOutcome = z.object({
  summary: z.string(),
  /** The outcome's view, posted in the thread. */
  view: StoredView,
  track: z.array(TrackRequestSchema),
});
export type RecordedOutcome = z.infer<typeof RecordedOutcome>;

/**
 * What a /fw command asks for, as the front read it once with the grammar (src/dispatch/commandLine.ts): the
 * worker hands it to the dispatcher as it is, and never reads the text again.
 */
export const QueuedCall = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('invocation'),
    /** The operation, taken from the registry by the worker. */
    operationId: z.string().min(1),
    raw: StoredRawArgs,
    /** The line as typed (`/fw …`) with every value named as a secret redacted: approvals, audit, logs. */
    commandText: z.string().min(1),
    /** `--profile NAME`, an admin's choice of another profile than the channel's. */
    profileOverride: z.string().optional(),
  }),
  /** The text looked like it held a token: it never reached Redis, and the requester is told so. */
  z.object({ kind: z.literal('withheld') }),
  /** The grammar refused the text: the answer the front worded (did-you-mean, the usage line). */
  z.object({ kind: z.literal('unreadable'), commandText: z.string().min(1), answer: z.string().min(1) }),
]);
export type QueuedCall = z.infer<typeof QueuedCall>;

/** A /fw command as queued: the call the front read, who asked where, and how to answer them. */
export const QueuedCommand = z.object({
  call: QueuedCall,
  /** Who typed it, as the workspace binding settled it: an external person stays one (Slack Connect). */
  requester: RequesterSchema,
  /** Slack's trigger id: the command job's id, so a command delivered twice is queued once. */
  triggerId: z.string().min(1),
  responseUrl: z.string().url(),
  /** Slack's retry number when the first delivery fwbot saw was a retry. */
  retryNum: z.number().int().nonnegative().optional(),
  /** The front's event id, so the worker's log lines carry the same request id. */
  eventId: z.string().optional(),
  /** When the front received it (ms since the epoch). */
  receivedAt: z.number(),
});
export type QueuedCommand = z.infer<typeof QueuedCommand>;

/** The commands a front gathered in one batching window, written to Redis as one intake job. */
export const CommandIntakeBatch = z.object({ commands: z.array(QueuedCommand).min(1) });
export type CommandIntakeBatch = z.infer<typeof CommandIntakeBatch>;

/** How a command job ended (its return value, counted in `fwbot_job_outcomes_total`). */
export const COMMAND_OUTCOMES = ['ran', 'interrupted', 'unreadable'] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];

/** Mirrors UpgradeWatch in src/catalogue/operation.ts. */
export const UpgradeWatchSchema = z.object({
  channelId: z.string().min(1),
  profile: z.string().min(1),
  createdBy: z.string().min(1),
  createdAt: z.string().min(1),
  acrossTenants: z.boolean().optional(),
  teamId: z.string().min(1).optional(),
  enterpriseId: z.string().min(1).optional(),
});

/** Reads a JSON value written by fwbot; a broken record is reported with the key it came from. */
export function parseStored<T>(schema: z.ZodType<T>, raw: string, where: string): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new Error(`${where}: stored value is not JSON`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new Error(`${where}: stored value is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
