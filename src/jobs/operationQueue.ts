// Operations that must be paced or serialised (QueueSpec in src/catalogue/operation.ts) wait their turn
// here: one BullMQ queue per declared queue and profile, whose limiter starts at most `max` calls per `perMs`
// across every worker (SCC's limits are per account). A call that has to wait is told its place and the
// expected start. When its turn comes the worker checks the requester's role again (and the approver's,
// for an approved call), reads a bound target again, runs the operation's own `execute`, posts the
// outcome's view in the thread once and hands what it returned to the tracker.
//
// Exactly once: a "calling" mark is set before the call and replaced by the outcome once SCC accepted it,
// so a job that runs again (its worker died, Redis or Slack failed after the call) only delivers what is
// recorded. A job that finds the mark alone does what its queue declares (afterInterruption). One concern
// at its length: a declared queue's whole life (reserve, enqueue, the turn, the re-checks, the call, the one
// delivery), whose steps share the mark and the key they hold.
import { randomUUID } from 'node:crypto';
import { DelayedError, type Job, type Processor, UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import {
  type ErasedQueue,
  type Operation,
  type OperationPolicy,
  type OperationServices,
  type Outcome,
  type QueueLimit,
  type RawArgs,
  type Role,
  sccIdOf,
} from '../catalogue/operation.js';
import { SccUserError } from '../catalogue/sccErrors.js';
import { ticketOf } from '../catalogue/tickets.js';
import { operationContext } from '../dispatch/context.js';
import type {
  AuditAction,
  AuditSink,
  QueuedCall,
  QueuedPlace,
  SccClients,
  Tracker,
} from '../dispatch/ports.js';
import { readTargetAgain } from '../dispatch/target.js';
import { classifySccError } from '../follow/failures.js';
import { UserError } from '../model/errors.js';
import { workspaceOf } from '../model/workspace.js';
import { userMention } from '../render/mrkdwn.js';
import {
  SccApiError,
  SccError,
  SccNetworkError,
  SccResponseError,
  SccResponseTooLargeError,
} from '../scc/errors.js';
import type { JobsCore } from './core.js';
import { outcomeMessage, type ShownMessage, StoredOutcome } from './legacyBlocks.js';
import { type QueuedCallWords, queuedCallEnded, queuedNote } from './messages.js';
import type { RecordedOutcome } from './payloads.js';
import { type EventType, parseStored, QueuedCallJob, ThreadRefSchema } from './payloads.js';
import type { Schedule } from './schedule.js';

/**
 * How long a key is reserved until its call is queued: enough to post the announcement. A call that never
 * gets queued (the post failed) lets go of its key after this, not after the retention.
 */
export const KEY_RESERVED_MS = 2 * 60_000;

/** Attempts of a queued call whose failure certainly did not reach SCC (network, 502 before sending …). */
const ATTEMPTS = 3;

/** The mark of a call that may be reaching SCC (the mark holds the recorded outcome once SCC accepted it). */
const CALLING = 'calling';

/** The job of a queued call: its request id decides it, so a call queued twice is one job. */
export const callJobId = (requestId: string): string => `call-${requestId.replace(/:/g, '_')}`;

/** A queue's limit in this deployment: the declaration's, unless the schedule overrides it (tests do). */
export function queueLimit(schedule: Schedule, queue: Pick<ErasedQueue, 'name' | 'limit'>): QueueLimit {
  const override = schedule.queues[queue.name];
  return { max: override?.max ?? queue.limit.max, perMs: override?.perMs ?? queue.limit.perMs };
}

/**
 * The queues the catalogue declares, once each. Operations that name the same queue share it, so they must
 * declare the same limit and the same behaviour after an interruption.
 */
export function declaredQueues(operations: readonly Operation[]): ErasedQueue[] {
  const byName = new Map<string, { queue: ErasedQueue; by: string }>();
  for (const op of operations) {
    const queue = op.queue;
    if (!queue) continue;
    const seen = byName.get(queue.name);
    if (!seen) {
      byName.set(queue.name, { queue, by: op.id });
      continue;
    }
    const same =
      seen.queue.limit.max === queue.limit.max &&
      seen.queue.limit.perMs === queue.limit.perMs &&
      seen.queue.afterInterruption === queue.afterInterruption;
    if (!same)
      throw new Error(`${op.id} and ${seen.by} share the queue ${queue.name} but declare it differently`);
  }
  return [...byName.values()].map(({ queue }) => queue);
}

function declaredQueue(op: Operation): ErasedQueue {
  if (!op.queue) throw new Error(`${op.id} declares no queue`);
  return op.queue;
}

/** Holds a key for `requestId` for at least `ms` (longer if it holds it already); false when another does. */
async function holdKey(core: JobsCore, redisKey: string, requestId: string, ms: number): Promise<boolean> {
  if ((await core.redis.set(redisKey, requestId, 'PX', ms, 'NX')) === 'OK') return true;
  if ((await core.redis.get(redisKey)) !== requestId) return false;
  // Held already (a call handed over again): never shortened, so a queued call keeps its long hold.
  if ((await core.redis.pttl(redisKey)) < ms) await core.redis.pexpire(redisKey, ms);
  return true;
}

/** The Redis key that holds the call's declared key, if its queue declares one. */
function keyOf(core: JobsCore, queue: ErasedQueue, profile: string, raw: RawArgs) {
  const key = queue.key(raw);
  return key && { ...key, redisKey: core.keys.queueKey(queue.name, profile, key.value) };
}

/**
 * Holds the call's declared key (OperationQueue.reserve) for a new request, briefly until it is queued;
 * then, queued, until its call fails or for a while after SCC accepted it. Undefined when another holds it.
 */
export async function reserveCall(
  core: JobsCore,
  op: Operation,
  profile: string,
  raw: RawArgs,
  requestId: string = randomUUID(),
): Promise<{ requestId: string } | undefined> {
  const key = keyOf(core, declaredQueue(op), profile, raw);
  if (!key) return { requestId };
  return (await holdKey(core, key.redisKey, requestId, KEY_RESERVED_MS)) ? { requestId } : undefined;
}

/** Queues a call once per request id (OperationQueue.enqueue) and tells its thread when it has to wait. */
export async function enqueueCall(core: JobsCore, op: Operation, call: QueuedCall): Promise<QueuedPlace> {
  const queue = declaredQueue(op);
  const thread = ThreadRefSchema.parse(call.thread);
  const data = QueuedCallJob.parse({
    operationId: op.id,
    raw: call.raw,
    requester: call.requester,
    thread,
    requestId: call.requestId,
    target: call.target,
    approval: call.approval,
    audited: call.audited,
  });
  const bull = core.callQueue(queue.name, thread.profile);
  const jobId = callJobId(call.requestId);
  // Queued already (an approval handed over again after a crash): neither queued nor its key held again.
  if (!(await bull.getJob(jobId))) {
    // Queued, the key is held as long as the job may wait and run (bounded by the retention, should a
    // worker die); the job lets go of it when the call fails, or shortens the hold when SCC accepts.
    const key = keyOf(core, queue, thread.profile, call.raw);
    if (key && !(await holdKey(core, key.redisKey, call.requestId, core.schedule.retentionMs)))
      throw new UserError(key.taken);
    const retention = Math.ceil(core.schedule.retentionMs / 1000);
    await bull.add(op.id, data, {
      jobId,
      attempts: ATTEMPTS,
      backoff: { type: 'exponential', delay: core.schedule.transientBaseMs },
      removeOnComplete: { age: retention },
      removeOnFail: { age: retention },
    });
  }
  const { place, expectedStart } = await placeInQueue(core, queue, thread.profile, jobId);
  // Said only when there is a wait worth mentioning; otherwise the outcome follows at once.
  if (place > 1 || expectedStart.getTime() > Date.now() + 1_000) {
    await core.notify([
      {
        key: `queue~${call.requestId}|queued`,
        channelId: thread.channelId,
        threadTs: thread.threadTs,
        text: queuedNote(queue.words(call.raw), place, expectedStart),
        eventType: 'fwbot_note',
        ...workspaceOf(thread),
      },
    ]);
  }
  return { place, expectedStart };
}

/**
 * When the job with `ahead` jobs waiting before it starts: BullMQ's limiter lets `max` calls start per
 * `perMs`, so each start comes no sooner than `perMs` after the start `max` places before it. `latest`
 * holds the latest starts, newest first.
 */
export function expectedStart(
  ahead: number,
  latest: readonly number[],
  limit: QueueLimit,
  now: number,
): number {
  const starts = [...latest].reverse();
  let at = now;
  for (let i = 0; i <= ahead; i += 1) {
    const before = starts[starts.length - limit.max];
    at = Math.max(now, before === undefined ? now : before + limit.perMs);
    starts.push(at);
  }
  return at;
}

/** Where a queued job stands, and when it should start. */
export async function placeInQueue(
  core: JobsCore,
  queue: Pick<ErasedQueue, 'name' | 'limit'>,
  profile: string,
  jobId: string,
): Promise<QueuedPlace> {
  const bull = core.callQueue(queue.name, profile);
  const limit = queueLimit(core.schedule, queue);
  // The latest starts are read before the waiting jobs: read after, one could be this very job's start (a
  // worker taking it between the two reads), and the job would be told to wait one more window.
  const latest = (await core.redis.lrange(core.keys.queueStarts(queue.name, profile), 0, limit.max - 1))
    .map(Number)
    .filter(Number.isFinite);
  const waiting = await bull.getJobs(['waiting', 'prioritized'], 0, -1, true);
  const index = waiting.findIndex((job) => job.id === jobId);
  if (index === -1) {
    // No longer waiting: a worker took it between the add and this read. Counting a window after its own
    // start (as for a job still waiting) made it a window late. A job SCC put off (429) starts when its
    // delay ends.
    const job = await bull.getJob(jobId);
    const delayedUntil = job && (await job.isDelayed()) ? job.timestamp + job.delay : undefined;
    return { place: 1, expectedStart: new Date(delayedUntil ?? job?.processedOn ?? Date.now()) };
  }
  return { place: index + 1, expectedStart: new Date(expectedStart(index, latest, limit, Date.now())) };
}

/**
 * Where a queued call's people come from (RequestOrigin in src/policy/access.ts): the workspace, and
 * whether the person is external (Slack Connect), so the policy asks about them as who they are.
 */
interface CallOrigin {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  external?: boolean | undefined;
}

const originOf = (who: CallOrigin): CallOrigin => ({
  teamId: who.teamId,
  enterpriseId: who.enterpriseId,
  external: who.external,
});

/** What running a queued call needs beyond the jobs: the catalogue and what the dispatcher runs calls with. */
export interface QueuedCallsDeps {
  /** The catalogue's operations: each declared queue gets a worker per profile. */
  operations: readonly Operation[];
  lookup(operationId: string): Operation | undefined;
  /** Who holds which role where (src/policy/access.ts): asked again right before every call. */
  access: {
    holds(userId: string, channelId: string, role: Role, origin?: CallOrigin): Promise<boolean>;
  };
  services?: OperationServices | undefined;
  policy?: OperationPolicy | undefined;
  /** Where approved and audited calls record how they ended. */
  audit?: AuditSink | undefined;
  /** Follows what an outcome returns (default: the jobs' own tracker). */
  tracker?: Tracker | undefined;
  /** The clock operations read (OperationContext.now), the dispatcher's and the executor's. */
  clock?: (() => number) | undefined;
}

interface ProcessorDeps extends QueuedCallsDeps {
  core: JobsCore;
  /** The workers' SCC clients: no retries inside them, the queue decides. */
  clients: SccClients;
  tracker: Tracker;
}

/** How a call ended without an outcome: in a word for the thread, why, and what the audit trail says. */
interface Ending {
  how: string;
  why: string;
  action: AuditAction;
}

export function createQueuedCallProcessor(deps: ProcessorDeps): Processor {
  const { core, clients, tracker, access } = deps;
  const { redis, keys, schedule, log } = core;

  return async (job, token) => {
    const parsed = QueuedCallJob.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`malformed queued call: ${z.prettifyError(parsed.error)}`);
    const call = parsed.data;
    const { thread, requestId, requester } = call;
    const say = (what: string, text: string, eventType: EventType, shown?: Omit<ShownMessage, 'text'>) =>
      core.notify([
        {
          key: `queue~${requestId}|${what}`,
          channelId: thread.channelId,
          threadTs: thread.threadTs,
          text,
          ...shown,
          eventType,
          ...workspaceOf(thread),
        },
      ]);
    const op = deps.lookup(call.operationId);
    const queue = op?.queue;
    if (!op || !queue) {
      const why = `This fwbot no longer knows the operation ${call.operationId}.`;
      await say('final', queuedCallEnded(thread.requesterId, 'this call', 'not done', why), 'fwbot_outcome');
      return 'unknown operation';
    }
    const words = wordsOf(op, queue, call.raw);
    const calls = log.child({ requestId, operationId: op.id, queue: queue.name });
    const mark = keys.queuedCall(queue.name, requestId);
    await noteStart(queue, thread.profile);

    /** The call's last word: the key let go of, the audit trail told, the thread told. */
    const end = async ({ how, why, action }: Ending) => {
      const key = keyOf(core, queue, thread.profile, call.raw);
      if (key && (await redis.get(key.redisKey)) === requestId) await redis.del(key.redisKey);
      await audit(op, call, action, `${how}: ${why}`);
      await say('final', queuedCallEnded(thread.requesterId, words.call, how, why), 'fwbot_outcome');
    };
    /** The recorded outcome to the thread (once: notifications are keyed) and what it returned to the tracker. */
    const deliver = async (recorded: StoredOutcome) => {
      const final = recorded.track.length === 0;
      const { text, ...shown } = outcomeMessage(recorded);
      await say('outcome', text, final ? 'fwbot_outcome' : 'fwbot_note', shown);
      // Its approver goes with the thread: a Cancel… of the work it started is four-eyes like the call was.
      // Its ticket too: the cancel is made under the change it stops.
      const ticket = ticketOf(call.raw);
      const started = {
        ...thread,
        ...(call.approval ? { approvedBy: [call.approval.approvedBy] } : {}),
        ...(ticket ? { ticket } : {}),
      };
      for (const track of recorded.track) await tracker.follow(track, started);
    };

    const earlier = await redis.get(mark);
    if (earlier && earlier !== CALLING) {
      // SCC accepted it on an earlier run: what is left is to deliver what was recorded.
      await deliver(parseStored(StoredOutcome, earlier, mark));
      return 'delivered';
    }
    const interrupted = earlier === CALLING;
    if (interrupted && queue.afterInterruption === 'ask-a-person') {
      await end({
        how: 'not sent again',
        why: `fwbot restarted while sending it, so it may have happened. ${words.check}, then ask again if it did not.`,
        action: 'aborted',
      });
      return 'interrupted';
    }
    const lost = await rolesLost(op, call);
    if (lost) {
      await end({ how: 'not done', why: lost, action: 'aborted' });
      return 'roles lost';
    }
    const ctx = operationContext(
      { scc: clients, services: deps.services, policy: deps.policy, clock: deps.clock },
      { requestId, actor: requester, log: calls },
      thread.profile,
      call.approval?.approvedBy,
    );
    let outcome: Outcome;
    try {
      let facts: unknown;
      if (call.target) {
        const read = await readTargetAgain(op, ctx, call.target.facts);
        if (!read.ok) {
          await end({ how: 'not done', why: `Nothing was run: ${read.why}`, action: 'aborted' });
          return 'target changed';
        }
        facts = read.facts;
      }
      await redis.set(mark, CALLING, 'PX', schedule.retentionMs);
      outcome = await op.execute(ctx, call.raw, facts);
    } catch (error) {
      const ending = await whyNotDone(job, token, error, { requestId, interrupted, queue, words });
      calls.warn({ err: error }, 'queued call not done');
      await end(ending);
      throw new UnrecoverableError(ending.why);
    }
    const recorded: RecordedOutcome = {
      summary: outcome.view.summary,
      view: outcome.view,
      track: outcome.track,
    };
    await redis.set(mark, JSON.stringify(recorded), 'PX', schedule.retentionMs);
    // SCC has it: its own records show it soon, and the operation's check refuses a second call from then on.
    const key = keyOf(core, queue, thread.profile, call.raw);
    if (key && (await redis.get(key.redisKey)) === requestId)
      await redis.pexpire(key.redisKey, key.heldAfterAcceptMs);
    await audit(op, call, 'executed', outcome.view.summary, outcome).catch((error: unknown) =>
      calls.error({ err: error }, 'a queued call ran but its audit record was not written'),
    );
    await deliver(recorded);
    return 'called';
  };

  /** Notes a start of the queue on the profile (BullMQ's limiter counts it too), for expected starts. */
  async function noteStart(queue: ErasedQueue, profile: string): Promise<void> {
    const key = keys.queueStarts(queue.name, profile);
    await redis
      .multi()
      .lpush(key, String(Date.now()))
      .ltrim(key, 0, queueLimit(schedule, queue).max - 1)
      .pexpire(key, schedule.retentionMs)
      .exec();
  }

  /**
   * Both people must still hold their roles right before the call, as for an approval's execution: the
   * requester the operation's role, an approver `approver`. A sentence saying who lost what, or undefined.
   */
  async function rolesLost(op: Operation, call: QueuedCallJob): Promise<string | undefined> {
    const { requester, approval } = call;
    // Each as who they are: an external person (Slack Connect) holds only the channel's external grants.
    if (!(await access.holds(requester.userId, requester.channelId, op.role, originOf(requester))))
      return `${userMention(requester.userId)}, who asked, no longer holds the ${op.role} role here.`;
    const approverOrigin = { ...originOf(requester), external: approval?.external === true };
    if (
      approval &&
      !(await access.holds(approval.approvedBy, requester.channelId, 'approver', approverOrigin))
    )
      return `${userMention(approval.approvedBy)}, who approved, no longer holds the approver role here.`;
    return undefined;
  }

  /** An approved or audited call's record of how it ended (other calls leave none, as when run at once). */
  async function audit(
    op: Operation,
    call: QueuedCallJob,
    action: AuditAction,
    said: string,
    outcome?: Outcome,
  ): Promise<void> {
    if (!call.audited && !call.approval) return;
    await deps.audit?.record({
      actor: call.approval?.approvedBy ?? call.requester.userId,
      action,
      operationId: op.id,
      target: call.target?.line ?? op.summary,
      outcome: `${call.audited ?? 'approved'}: ${said}`,
      approvalId: call.approval?.id,
      transactionUid: outcome?.track.map(sccIdOf).find((uid) => uid !== undefined),
      ticket: ticketOf(call.raw),
    });
  }

  /**
   * How the call ended when it failed, or: throw to try again (DelayedError after SCC's 429, the error
   * itself for BullMQ's backoff when the call certainly did not reach SCC).
   */
  async function whyNotDone(
    job: Job,
    token: string | undefined,
    error: unknown,
    call: { requestId: string; interrupted: boolean; queue: ErasedQueue; words: QueuedCallWords },
  ): Promise<Ending> {
    const { requestId, interrupted, queue, words } = call;
    const mark = keys.queuedCall(queue.name, requestId);
    // `execute` says SCC's failures in the operation's words; what happened is the client's error.
    const cause = error instanceof SccUserError ? error.cause : error;
    if (cause instanceof SccApiError && cause.status === 429) {
      // SCC said "not now" and did not act: wait as long as it asked, then try again.
      await redis.del(mark);
      const wait = cause.retryAfterMs ?? queueLimit(schedule, queue).perMs;
      await job.moveToDelayed(Date.now() + wait, token);
      throw new DelayedError();
    }
    if (error instanceof UserError && !(error instanceof SccUserError))
      return { how: 'not done', why: error.message, action: 'failed' };
    if (!(cause instanceof SccError)) {
      // Nothing says how far it got: it is not repeated, and a person looks.
      const why = `An error inside fwbot stopped it (reference ${requestId}); it may have happened. ${words.check}.`;
      return { how: 'outcome unknown', why, action: 'failed' };
    }
    const failure = classifySccError(cause);
    const mayHaveApplied =
      ((cause instanceof SccApiError || cause instanceof SccNetworkError) && cause.mayHaveBeenProcessed) ||
      // SCC answered, but not in a way fwbot can read: it may well have acted.
      cause instanceof SccResponseError ||
      cause instanceof SccResponseTooLargeError;
    if (failure.kind === 'transient' && !mayHaveApplied) {
      await redis.del(mark);
      const attempts = job.opts.attempts ?? 1;
      if (job.attemptsMade + 1 < attempts) throw error; // BullMQ tries again after its backoff
      return {
        how: 'not done',
        why: `SCC could not be reached in ${attempts} attempts (${failure.reason}); nothing was sent. Try again later.`,
        action: 'failed',
      };
    }
    if (mayHaveApplied) {
      // A call that timed out or got a 500 may have taken effect: it is never repeated blindly.
      const reason = failure.kind === 'transient' ? failure.reason : failure.sccSays;
      return {
        how: 'outcome unknown',
        why: `SCC did not confirm it (${reason}); it may still have happened. ${words.check} before trying again.`,
        action: 'failed',
      };
    }
    const says = failure.kind === 'transient' ? failure.reason : failure.sccSays;
    if (interrupted && cause instanceof SccApiError && cause.status === 409) {
      // The queue declared that SCC refuses a repeated call: the refusal is the earlier attempt's effect.
      return {
        how: 'probably done',
        why: `${says} An earlier attempt of this same request probably made it before fwbot restarted. ${words.check}.`,
        action: 'failed',
      };
    }
    return { how: 'not done', why: says, action: 'failed' };
  }
}

/** The queue's words for the call; a call whose stored arguments no longer parse is named by its operation. */
function wordsOf(op: Operation, queue: ErasedQueue, raw: RawArgs): QueuedCallWords {
  try {
    return queue.words(raw);
  } catch {
    return { call: `this call of \`${op.words.join(' ')}\``, pace: '', check: 'Check in SCC' };
  }
}
