// The seams between the dispatcher and the machinery behind it: following asynchronous outcomes and
// queueing paced calls (src/jobs/), approving governed operations (src/approvals/), the audit trail, and
// one SCC client per profile. The dispatcher and the surfaces depend on these interfaces only, so each side
// can be built and tested on its own.
import type {
  Actor,
  Operation,
  OperationContext,
  RawArgs,
  Role,
  TargetDescription,
  ThreadPlace,
  TimedRef,
  TrackRequest,
} from '../catalogue/operation.js';

/** Where an outcome is reported: the thread of the message that started the work, and who asked there. */
export interface ThreadRef extends ThreadPlace {
  /**
   * Who approved the call that started the work (absent: it ran without a second person). A Cancel… button
   * in the thread needs a second person only when the work did (src/catalogue/transactions.ts).
   */
  approvedBy?: string[];
  /** The change ticket the starting call was made under: a Cancel… of its work is made under it too. */
  ticket?: string | undefined;
}

/**
 * Hands what a call left for later the thread its outcome is announced in: a 202 (transaction, gateway
 * request, upgrade run) is followed to its end and reported there; timed work the call scheduled (a shun's
 * end) speaks there from then on.
 */
export interface Tracker {
  follow(request: TrackRequest, thread: ThreadRef): Promise<void>;
  /** The timed item speaks in this thread (Outcome.timed): kept only while it waits or runs, and has none. */
  speakIn(ref: TimedRef, thread: ThreadRef): Promise<void>;
}

/** What a call left for later, as an Outcome (or an outcome kept in Redis) carries it. */
export interface LaterWork {
  track: readonly TrackRequest[];
  timed?: readonly TimedRef[] | undefined;
}

/** Hands everything a call left for later the thread it was announced in: the one loop every surface runs. */
export async function handOnLater(tracker: Tracker, later: LaterWork, thread: ThreadRef): Promise<void> {
  for (const request of later.track) await tracker.follow(request, thread);
  for (const ref of later.timed ?? []) await tracker.speakIn(ref, thread);
}

/** Whether a call left anything for later, so its outcome is announced in the channel to start a thread. */
export const leavesLater = (later: LaterWork): boolean =>
  later.track.length > 0 || (later.timed?.length ?? 0) > 0;

export interface ApprovalRequestInput {
  operation: Operation;
  /** Raw arguments exactly as they will be executed once approved (bound to the target's UUIDs). */
  raw: RawArgs;
  /** The target as resolved now: the facts the approver judges and the execution is compared with. */
  target: { facts: unknown; description: TargetDescription };
  /** The requester's context (profile client, actor, logger). */
  ctx: OperationContext;
  /** What the requester typed, for the card and the audit trail. */
  commandText: string;
  /** The role the request needed: the requester must still hold it when it is decided and run. */
  role: Role;
  /** The change ticket it is made under, checked against the policy (also in `raw`, for the run). */
  ticket?: string;
  /** Asked in a customer channel: its tenant, which approver rules on that tenant cover (issue 29). */
  channelTenant?: string;
  /**
   * The device holds this call belongs to (Invocation.holder): they do not stop it when it runs, and it
   * takes none of its own (the work that holds the devices ends the hold).
   */
  holder?: string;
}

/** Turns a governed call into an approval request that someone else decides. */
export interface ApprovalGate {
  request(input: ApprovalRequestInput): Promise<{ approvalId: string }>;
}

export const AUDIT_ACTIONS = [
  'requested',
  'approved',
  'rejected',
  'cancelled',
  'expired',
  'refused',
  'executed',
  'failed',
  'aborted',
  /** An approved call handed to its operation's queue, whose worker records how it ends. */
  'queued',
  /** An approved call held until its time: `--at`, or its devices' change windows (src/approvals/timing.ts). */
  'scheduled',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One line of the audit trail. Never holds a secret (the trail redacts what looks like one, too). */
export interface AuditEntry {
  actor: string;
  action: AuditAction;
  operationId: string;
  target: string;
  outcome: string;
  approvalId?: string | undefined;
  transactionUid?: string | undefined;
  /** The change ticket the call was made under. */
  ticket?: string | undefined;
  /** Why the call may run outside its change windows (`--break-glass`); the outcome says it too. */
  breakGlass?: string | undefined;
}

export interface AuditSink {
  record(entry: AuditEntry): Promise<unknown>;
}

/**
 * A call handed to its operation's queue (see QueueSpec in src/catalogue/operation.ts): what the queue's
 * worker needs to run it later, for the person who asked, and to report in its thread.
 */
export interface QueuedCall {
  /** The raw arguments exactly as they will run (bound to the target's UUIDs where it has one). */
  raw: Record<string, string | string[] | boolean>;
  /** Who asked, where: their role is checked there again right before the call. */
  requester: Actor;
  /** Where the queue reports (its place, the outcome); its profile runs the call. */
  thread: ThreadRef;
  /**
   * The call's id: the job's, and the key holder's (see OperationQueue.reserve). An approved call uses the
   * approval's id, so the approval handing it over twice queues it once.
   */
  requestId: string;
  /** The target as resolved (and approved): read again right before the call, which stops if it changed. */
  target?: { facts: unknown; line: string } | undefined;
  /** The approval that lets it run: its approver must still hold the approver role when the turn comes. */
  approval?: { id: string; approvedBy: string; external?: boolean } | undefined;
  /** Why the call leaves an audit record when it runs (approved, or governed and run alone); none: no record. */
  audited?: string | undefined;
}

/** Where a queued call stands: 1 = next to start. */
export interface QueuedPlace {
  place: number;
  expectedStart: Date;
}

/** Queues calls of operations that declare a queue (src/jobs/operationQueue.ts runs them). */
export interface OperationQueue {
  /**
   * Holds the call's declared key (a name SCC keeps unique, say) on the profile for one request, briefly until it is
   * queued: a second call with that key queued meanwhile would only meet SCC's refusal when its turn came.
   * The request's id (`requestId` when given: holding again what it holds already is fine), or undefined
   * when another request holds the key.
   */
  reserve(
    op: Operation,
    profile: string,
    raw: RawArgs,
    requestId?: string,
  ): Promise<{ requestId: string } | undefined>;
  /** Queues the call (once per request id) and says where it stands; its thread hears the same when it waits. */
  enqueue(op: Operation, call: QueuedCall): Promise<QueuedPlace>;
}

export type { SccClients } from '../scc/client.js';

/** How one dispatched command ended, in a word and a line (the App Home lists a person's last ten). */
export interface CommandRecord {
  userId: string;
  /** The command as typed; withheld when it looked like it held a token. */
  text: string;
  outcome: 'ran' | 'approval' | 'reveal' | 'queued' | 'confirm' | 'refused' | 'failed';
  detail: string;
}

/** Where the dispatcher notes each command's fate (src/home/recentCommands.ts keeps the last few per person). */
export interface CommandHistory {
  note(record: CommandRecord): Promise<void>;
}
