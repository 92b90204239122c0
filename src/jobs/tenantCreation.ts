// Tenant creation through a BullMQ rate limiter: SCC creates at most one tenant every 30 seconds per
// account, so each profile has its own queue whose worker starts one job per window. A request that has
// to wait is told its place and the expected start; the job calls createTenant and follows the returned
// transaction like any other.
import { randomUUID } from 'node:crypto';
import { DelayedError, type Job, type Processor, UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import type { SccClients, TenantCreationRequest, Tracker } from '../dispatch/ports.js';
import { classifySccError } from '../follow/failures.js';
import { SccApiError, SccNetworkError } from '../scc/errors.js';
import type { JobsCore } from './core.js';
import { tenantQueuedNote, tenantRefusedText, tenantStartedNote } from './messages.js';
import { type EventType, TenantCreationJobData, ThreadRefSchema } from './payloads.js';

export type { TenantCreationRequest };

export interface QueuedTenantCreation {
  /** 1 = next to start (nothing waiting ahead of it). */
  place: number;
  expectedStart: Date;
  requestId: string;
}

const jobIdOf = (requestId: string): string => `tenant-${requestId}`;

/** How long a name stays held after SCC accepted its creation: by then the portal lists the tenant. */
export const NAME_HELD_AFTER_ACCEPT_MS = 10 * 60_000;

/**
 * How long a reservation lasts until its request is queued: enough to post the announcement. A request
 * that never gets queued (the post failed) lets go of its name after this, not after the retention.
 */
export const NAME_RESERVED_MS = 2 * 60_000;

/** Holds a name for `requestId` for `ms` (again, if it holds it already); false when another request does. */
async function holdTenantName(
  core: JobsCore,
  profile: string,
  tenantName: string,
  requestId: string,
  ms: number,
): Promise<boolean> {
  const key = core.keys.tenantName(profile, tenantName);
  if ((await core.redis.set(key, requestId, 'PX', ms, 'NX')) === 'OK') return true;
  if ((await core.redis.get(key)) !== requestId) return false;
  await core.redis.pexpire(key, ms);
  return true;
}

/**
 * Holds `tenantName` (any case) for a new request, briefly until it is queued; then until its creation
 * fails, or for a while after SCC accepted it. Undefined when another request holds it.
 */
export async function reserveTenantName(
  core: JobsCore,
  profile: string,
  tenantName: string,
): Promise<{ requestId: string } | undefined> {
  const requestId = randomUUID();
  return (await holdTenantName(core, profile, tenantName, requestId, NAME_RESERVED_MS))
    ? { requestId }
    : undefined;
}

/** Lets go of a name this request held (and only if it still holds it). */
async function releaseTenantName(core: JobsCore, profile: string, tenantName: string, requestId: string) {
  const key = core.keys.tenantName(profile, tenantName);
  if ((await core.redis.get(key)) === requestId) await core.redis.del(key);
}

export async function enqueueTenantCreation(
  core: JobsCore,
  request: TenantCreationRequest,
): Promise<QueuedTenantCreation> {
  const thread = ThreadRefSchema.parse(request.thread);
  const requestId = request.requestId ?? randomUUID();
  // Queued, the name is held as long as the job may wait and run (bounded by the retention, should a
  // worker die); the job lets go of it when SCC refuses, or shortens the hold when SCC accepts.
  if (!(await holdTenantName(core, thread.profile, request.tenantName, requestId, core.schedule.retentionMs)))
    throw new Error(`a creation of tenant ${request.tenantName} is already queued or under way`);
  const data = TenantCreationJobData.parse({
    profile: thread.profile,
    tenantName: request.tenantName,
    displayName: request.displayName,
    salesOrderNumber: request.salesOrderNumber,
    thread,
    requestId,
  });
  const retention = Math.ceil(core.schedule.retentionMs / 1000);
  await core.tenantQueue(thread.profile).add('create', data, {
    jobId: jobIdOf(requestId),
    attempts: 3,
    backoff: { type: 'exponential', delay: core.schedule.transientBaseMs },
    removeOnComplete: { age: retention },
    removeOnFail: { age: retention },
  });
  const { place, expectedStart } = await placeInQueue(core, thread.profile, jobIdOf(requestId));
  // Said only when there is a wait worth mentioning; otherwise the "started" note follows at once.
  if (place > 1 || expectedStart.getTime() > Date.now() + 1_000) {
    await core.notify([
      {
        key: `tenant~${requestId}|queued`,
        channelId: thread.channelId,
        threadTs: thread.threadTs,
        text: tenantQueuedNote(request.tenantName, place, expectedStart),
        eventType: 'fwbot_note',
      },
    ]);
  }
  return { place, expectedStart, requestId };
}

/**
 * Where a queued job stands: the jobs waiting before it each take one window after the next free one,
 * which comes one window after the last start (BullMQ's limiter window opens when a job starts).
 */
export async function placeInQueue(
  core: JobsCore,
  profile: string,
  jobId: string,
): Promise<{ place: number; expectedStart: Date }> {
  const queue = core.tenantQueue(profile);
  // The last start is read before the waiting jobs: read after, it could be this very job's start (a
  // worker taking it between the two reads), and the job would be told to wait one more window.
  const lastStart = Number((await core.redis.get(core.keys.tenantLastStart(profile))) ?? 0);
  const waiting = await queue.getJobs(['waiting', 'prioritized'], 0, -1, true);
  const index = waiting.findIndex((job) => job.id === jobId);
  if (index === -1) {
    // No longer waiting: a worker took it between the add and this read. Counting a window after its own
    // start (as for a job still waiting) made it 30 s late. A job SCC put off (429) starts when its delay
    // ends.
    const job = await queue.getJob(jobId);
    const delayedUntil = job && (await job.isDelayed()) ? job.timestamp + job.delay : undefined;
    return { place: 1, expectedStart: new Date(delayedUntil ?? job?.processedOn ?? Date.now()) };
  }
  const ahead = index;
  const interval = core.schedule.tenantCreation.intervalMs;
  const nextFree = Math.max(Date.now(), lastStart + interval);
  return { place: ahead + 1, expectedStart: new Date(nextFree + ahead * interval) };
}

export interface TenantWorkerDeps {
  core: JobsCore;
  clients: SccClients;
  tracker: Tracker;
}

export function createTenantProcessor({ core, clients, tracker }: TenantWorkerDeps): Processor {
  const { redis, keys, schedule, log } = core;

  return async (job, token) => {
    const parsed = TenantCreationJobData.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`malformed tenant creation: ${z.prettifyError(parsed.error)}`);
    }
    const data = parsed.data;
    const { thread, tenantName, requestId } = data;
    const say = (what: string, text: string, eventType: EventType) =>
      core.notify([
        {
          key: `tenant~${requestId}|${what}`,
          channelId: thread.channelId,
          threadTs: thread.threadTs,
          text,
          eventType,
        },
      ]);
    const calledKey = keys.tenantCalled(requestId);
    const ttlMs = schedule.retentionMs;
    await redis.set(keys.tenantLastStart(data.profile), String(Date.now()), 'PX', ttlMs);

    // A transaction recorded by an earlier attempt: the tenant is under way, only the follow-up is left.
    const earlier = await redis.get(calledKey);
    let transactionUid = earlier && earlier !== 'calling' ? earlier : undefined;
    if (!transactionUid) {
      await redis.set(calledKey, 'calling', 'PX', ttlMs);
      try {
        const transaction = await clients.get(data.profile).tenants.create({
          tenantName,
          ...(data.displayName ? { displayName: data.displayName } : {}),
          ...(data.salesOrderNumber ? { salesOrderNumber: data.salesOrderNumber } : {}),
        });
        transactionUid = transaction.transactionUid ?? undefined;
      } catch (error) {
        const says = await whyNotCreated(job, token, error, earlier === 'calling');
        log.warn({ requestId, tenantName, err: error }, 'tenant not created');
        await releaseTenantName(core, data.profile, tenantName, requestId);
        await say('final', tenantRefusedText(thread.requesterId, tenantName, says), 'fwbot_outcome');
        throw new UnrecoverableError(says);
      }
      if (!transactionUid) {
        const says = 'SCC accepted the request but named no transaction to follow; check `/fw tenants list`.';
        await releaseTenantName(core, data.profile, tenantName, requestId);
        await say('final', tenantRefusedText(thread.requesterId, tenantName, says), 'fwbot_outcome');
        return 'no transaction';
      }
      await redis.set(calledKey, transactionUid, 'PX', ttlMs);
      // SCC has it: the portal lists the name soon, and the read before queuing refuses it from then on.
      await redis.pexpire(keys.tenantName(data.profile, tenantName), NAME_HELD_AFTER_ACCEPT_MS);
    }
    await say('started', tenantStartedNote(tenantName, transactionUid), 'fwbot_note');
    await tracker.follow(
      { kind: 'transaction', transactionUid, label: `create tenant ${tenantName}` },
      thread,
    );
    return transactionUid;
  };

  /**
   * What to tell the thread when createTenant failed, or: throw to try again (DelayedError after SCC's 429,
   * the error itself for BullMQ's backoff when SCC certainly did not act).
   */
  async function whyNotCreated(job: Job, token: string | undefined, error: unknown, calledBefore: boolean) {
    const calledKey = keys.tenantCalled(TenantCreationJobData.parse(job.data).requestId);
    if (error instanceof SccApiError && error.status === 429) {
      // SCC said "not now" and did not act: wait as long as it asked, then try again.
      await redis.del(calledKey);
      await job.moveToDelayed(Date.now() + (error.retryAfterMs ?? schedule.tenantCreation.intervalMs), token);
      throw new DelayedError();
    }
    const failure = classifySccError(error);
    const mayHaveApplied =
      (error instanceof SccApiError || error instanceof SccNetworkError) && error.mayHaveBeenProcessed;
    if (failure.kind === 'transient' && !mayHaveApplied) {
      await redis.del(calledKey);
      const attempts = job.opts.attempts ?? 1;
      if (job.attemptsMade + 1 < attempts) throw error; // BullMQ tries again after its backoff
      return `SCC could not be reached in ${attempts} attempts (${failure.reason}); nothing was created. Try again later.`;
    }
    if (failure.kind === 'transient') {
      // A POST that timed out or got a 500 may have created the tenant: it is never repeated blindly.
      return `SCC did not confirm the creation (${failure.reason}); it may still have happened. Check \`/fw tenants list\` before trying again.`;
    }
    if (calledBefore && error instanceof SccApiError && error.status === 409) {
      return 'SCC says the tenant exists: an earlier attempt of this same request probably created it before fwbot restarted. Check `/fw tenants list`.';
    }
    return failure.sccSays;
  }
}
