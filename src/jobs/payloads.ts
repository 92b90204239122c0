// The typed payloads of every queue and of the records kept beside them in Redis. Each is a zod schema:
// job data and Redis values are parsed when read (a job written by an older or broken version is refused
// with a clear reason instead of being half-understood).
import { z } from 'zod';

/** Where an outcome goes (mirrors ThreadRef in src/dispatch/ports.ts). */
export const ThreadRefSchema = z.object({
  channelId: z.string().min(1),
  threadTs: z.string().min(1),
  requesterId: z.string().min(1),
  profile: z.string().min(1),
});

/** One thread waiting for a followed thing, and what that thread calls it. */
export const Subscriber = z.object({ thread: ThreadRefSchema, label: z.string() });
export type Subscriber = z.infer<typeof Subscriber>;

export const EVENT_TYPES = ['fwbot_outcome', 'fwbot_note', 'fwbot_status', 'fwbot_watch'] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** One message to post exactly once, and optionally a progress message to settle before it. */
export const NotifyJobData = z.object({
  /** Idempotency key: at most one message with this key is ever accepted by Slack. */
  key: z.string().min(1),
  channelId: z.string().min(1),
  /** Absent for messages at the top of a channel (watch announcements). */
  threadTs: z.string().optional(),
  text: z.string().min(1),
  eventType: EventType,
  /** The progress message (by its own notification key) is edited to this text first. */
  settleStatus: z.object({ key: z.string().min(1), text: z.string().min(1) }).optional(),
});
export type NotifyJobData = z.infer<typeof NotifyJobData>;

export const TenantCreationJobData = z.object({
  profile: z.string().min(1),
  tenantName: z.string().min(1),
  displayName: z.string().optional(),
  salesOrderNumber: z.string().optional(),
  thread: ThreadRefSchema,
  /** A stable id of this request, for its notifications and the "may have been called" mark. */
  requestId: z.string().min(1),
});
export type TenantCreationJobData = z.infer<typeof TenantCreationJobData>;

/** A /fw command as queued: what a command worker needs to run it and answer the requester. */
export const QueuedCommand = z.object({
  /** Empty when `withheld`: text that looks like it holds a token never reaches Redis. */
  text: z.string(),
  withheld: z.boolean(),
  userId: z.string().min(1),
  channelId: z.string().min(1),
  teamId: z.string().optional(),
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
