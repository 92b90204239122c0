// The seams between the dispatcher and the machinery behind it: following asynchronous outcomes
// (src/jobs/), approving governed operations (src/approvals/), the audit trail, and one SCC client per
// profile. The dispatcher and the surfaces depend on these interfaces only, so each side can be built and
// tested on its own.
import type {
  Operation,
  OperationContext,
  RawArgs,
  Role,
  TargetDescription,
  TrackRequest,
} from '../catalogue/operation.js';
import type { SccClient } from '../scc/client.js';

/** Where an outcome is reported: the thread of the message that started the work. */
export interface ThreadRef {
  channelId: string;
  /** `ts` of the message that started it (the announcement); replies go in its thread. */
  threadTs: string;
  /** Mentioned in the final reply. */
  requesterId: string;
  /** SCC profile whose client follows the work. */
  profile: string;
}

/** Follows a 202 (transaction, gateway request, upgrade run) to its end and reports in the thread. */
export interface Tracker {
  follow(request: TrackRequest, thread: ThreadRef): Promise<void>;
}

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
}

export interface AuditSink {
  record(entry: AuditEntry): Promise<unknown>;
}

/** A tenant creation to queue: SCC creates at most one tenant every 30 seconds per account. */
export interface TenantCreationRequest {
  tenantName: string;
  displayName?: string | undefined;
  salesOrderNumber?: string | undefined;
  /** Where the queue reports (its place, the start, the outcome); its profile creates the tenant. */
  thread: ThreadRef;
  /** The request's id from reserve(), which holds its name; without one, enqueue reserves it itself. */
  requestId?: string | undefined;
}

/** Queues tenant creations behind SCC's rate limit (src/jobs/); the queue creates and follows them. */
export interface TenantCreationQueue {
  /**
   * Holds a tenant name (compared without regard to case, as SCC does) for one request, until its
   * creation fails or a while after SCC accepted it: a second creation of the name queued meanwhile
   * would only get SCC's 409 when its turn came. The request's id, or undefined when the name is held.
   */
  reserve(profile: string, tenantName: string): Promise<{ requestId: string } | undefined>;
  enqueue(request: TenantCreationRequest): Promise<{ place: number; expectedStart: Date }>;
}

/** One SCC client per configured profile; nothing global. */
export interface SccClients {
  names(): string[];
  get(profile: string): SccClient;
}

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
