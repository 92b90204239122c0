// How an operation declares a queue that paces or serialises its calls (QueueSpec in its declaration), and
// the form the dispatcher and the queue's worker see it in (ErasedQueue). src/jobs/operationQueue.ts runs
// every declared queue; docs/developing/add-a-paced-queue.md says how to add one.
import type { Actor, RawArgs } from '../model/types.js';
import type { View } from '../model/view.js';
import type { OperationContext } from './context.js';

/** At most `max` calls start in any `perMs` (BullMQ's limiter), per profile: SCC's limits are per account. */
export interface QueueLimit {
  max: number;
  perMs: number;
}

/**
 * What no two calls of one queue may share on a profile while queued or under way (e.g. a tenant name): a
 * second call would only meet SCC's refusal when its turn came, so it is refused when it is asked for.
 */
export interface QueueKey<A> {
  of(args: A): string;
  /** How two keys are compared: `ignore-case` where SCC compares without regard to case (tenant names). */
  compare: 'exact' | 'ignore-case';
  /** The refusal when another call holds the key, in View text. */
  taken(args: A): string;
  /**
   * How long the key stays held once SCC accepted a call: until SCC's own records show it (the portal lists
   * the tenant), after which the operation's `check` refuses a second call.
   */
  heldAfterAcceptMs: number;
}

/** What the queue says in a call's thread, in View text. */
export interface QueueWords<A> {
  /** The call, as the thread names it: `the creation of tenant *acme*`. */
  call(args: A): string;
  /** Why calls wait, one clause: `SCC creates at most one tenant every 30 seconds`. */
  pace: string;
  /** Where a person sees whether a call took effect, as an order: ``Check `/fw tenants list` ``. */
  check: string;
}

/**
 * A queue that paces or serialises an operation's calls (SCC creates at most one tenant every 30 seconds).
 * Where queues run, a call is announced in the channel and waits its turn; the queue's worker checks the
 * requester's role again, then runs the operation's own `execute`, and reports in the announcement's thread.
 * Where none runs (the CLI), the call runs at once after `check`.
 */
export interface QueueSpec<A> {
  /** The queue: one per (name, profile). Operations naming the same queue share its limit. */
  name: string;
  limit: QueueLimit;
  key?: QueueKey<A>;
  /**
   * A worker died while its call may have reached SCC: `call-again` when SCC refuses a repeated call with
   * 409 (a name is unique), which then means the earlier attempt probably took effect; `ask-a-person`
   * otherwise: nothing is sent again, and the thread asks a person to check.
   */
  afterInterruption: 'call-again' | 'ask-a-person';
  words: QueueWords<A>;
  /** The channel's announcement; the queue reports in its thread. */
  announce(args: A, actor: Actor): View;
  /**
   * A read before anything is announced, queued or run: throws (a UserError) when SCC would certainly refuse
   * the call (e.g. a tenant name that is taken), so the requester hears it at once.
   */
  check?(ctx: OperationContext, args: A): Promise<void>;
}

/** An operation's queue with its types erased: raw arguments are parsed at each use. */
export interface ErasedQueue {
  readonly name: string;
  readonly limit: QueueLimit;
  readonly afterInterruption: QueueSpec<unknown>['afterInterruption'];
  /** The call's key as compared (lower-cased when case is ignored), with its declaration; none if undeclared. */
  key(raw: RawArgs): { value: string; taken: string; heldAfterAcceptMs: number } | undefined;
  words(raw: RawArgs): { call: string; pace: string; check: string };
  announce(raw: RawArgs, actor: Actor): View;
  /** Refuses at once what SCC would refuse once its turn comes (see QueueSpec.check). */
  check(ctx: OperationContext, raw: RawArgs): Promise<void>;
}
