// The seams between the surfaces (Slack, console, CLI) and the machinery behind them: following
// asynchronous outcomes (src/jobs/) and approving destructive operations (src/approvals/).
// Surfaces depend on these interfaces only, so each side can be built and tested on its own.
import type { Operation, OperationContext, RawArgs, TrackRequest } from '../catalogue/operation.js';
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
  /** Raw arguments exactly as they will be executed once approved. */
  raw: RawArgs;
  /** The requester's context (profile client, actor, logger). */
  ctx: OperationContext;
  /** What the requester typed, for the card and the audit trail. */
  commandText: string;
}

/** Turns a destructive operation into an approval request that someone else decides. */
export interface ApprovalGate {
  request(input: ApprovalRequestInput): Promise<void>;
}

/** A tenant creation to queue: SCC creates at most one tenant every 30 seconds per account. */
export interface TenantCreationRequest {
  tenantName: string;
  displayName?: string | undefined;
  salesOrderNumber?: string | undefined;
  /** Where the queue reports (its place, the start, the outcome); its profile creates the tenant. */
  thread: ThreadRef;
}

/** Queues tenant creations behind SCC's rate limit (src/jobs/); the queue creates and follows them. */
export interface TenantCreationQueue {
  enqueue(request: TenantCreationRequest): Promise<{ place: number; expectedStart: Date }>;
}

/** One SCC client per configured profile; nothing global. */
export interface SccClients {
  names(): string[];
  get(profile: string): SccClient;
}
