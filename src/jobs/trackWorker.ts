// The tracking worker: one job per followed thing, one SCC read per run of the job. After each read the
// job saves its state and moves itself back to the delayed set (BullMQ's step-job pattern: moveToDelayed
// + DelayedError), so a worker never sleeps and any worker can take the next step. The end, whatever it
// is (done, failed, expired, deadline, refused, given up), is recorded once and told to every subscriber
// through the notification queue.
import { DelayedError, type Job, type Processor, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { DeviceHolds } from '../catalogue/deviceHolds.js';
import type { SccClients } from '../dispatch/ports.js';
import { classifySccError } from '../follow/failures.js';
import {
  describeFollowed,
  followedId,
  heldDevicesOf,
  holderOf,
  holderSiblingsOf,
  kindOf,
  type Outcome,
  parseTrackJob,
  type StepContext,
  sccIdOf,
  type TenantProfileResolver,
  type TrackJob,
  type TrackKind,
} from '../follow/index.js';
import {
  deadlineOutcome,
  gaveUpOutcome,
  malformedOutcome,
  refusedOutcome,
  statusLine,
} from '../follow/words.js';
import { workspaceOf } from '../model/workspace.js';
import { trackJobId } from '../redis/keys.js';
import { nextPollDelayMs } from './learning.js';
import { nextRunPollDelayMs, progressToKeep } from './learningRuns.js';
import type { DurationHistory } from './learningStore.js';
import { cancelEnded, cancelOffer } from './messages.js';
import type { NotifyJobData, Subscriber } from './payloads.js';
import { type Schedule, transientDelayMs } from './schedule.js';
import type { SlackNotifier } from './slackNotifier.js';
import { type Subscriptions, subscriberNotificationKey } from './subscriptions.js';

export interface TrackWorkerDeps {
  subscriptions: Subscriptions;
  notifier: SlackNotifier;
  /** Queues messages to post exactly once (JobsCore.notify). */
  notify: (messages: readonly NotifyJobData[]) => Promise<void>;
  clients: SccClients;
  resolveTenantProfile: TenantProfileResolver;
  schedule: Schedule;
  /** What fwbot has learned of how long each type of transaction takes (absent: the schedule alone). */
  durations?: DurationHistory;
  /** Reports what followed work changed on its devices, for kinds that kept configurations before it. */
  configChanges?: (trackId: string, job: TrackJob, subscribers: readonly Subscriber[]) => Promise<void>;
  /** Schedules the timed work a kind declares for after its end (FollowKind.later; src/jobs/laterWork.ts). */
  later?: (
    trackId: string,
    job: TrackJob,
    outcome: Outcome,
    subscribers: readonly Subscriber[],
  ) => Promise<void>;
  /** Device holds the followed work keeps until it ends (a deploy's): released at its end. */
  holds?: Pick<DeviceHolds, 'release' | 'forceRelease'>;
  log: Logger;
}

export function createTrackProcessor(deps: TrackWorkerDeps): Processor {
  const { subscriptions, schedule, log } = deps;

  const finish = async (trackId: string, outcome: Outcome, data?: TrackJob): Promise<string> => {
    const settled = await subscriptions.settle(trackId, outcome);
    log.info({ trackId, status: settled.status }, 'followed work ended');
    if (data) await releaseHolds(deps, trackId, data);
    if (data?.state.cancelOffered) await withdrawCancel(deps, trackId, data);
    // After the outcome is queued, so that nothing stands between the end and the reply.
    if (data) await stopRunning(deps, trackId, data);
    return settled.status;
  };

  /** Saves the state and puts the job back in the delayed set; the worker moves on at once. */
  const again = async (
    job: Job,
    token: string | undefined,
    data: TrackJob,
    delayMs: number,
  ): Promise<never> => {
    await job.updateData(data);
    await job.moveToDelayed(Date.now() + delayMs, token);
    throw new DelayedError();
  };

  return async (job, token) => {
    const trackId = job.id;
    if (!trackId) throw new UnrecoverableError('tracking job without an id');
    // Ended already (a worker died between recording the end and completing the job): tell, then stop.
    const recorded = await subscriptions.outcome(trackId);
    if (recorded) {
      await subscriptions.tell(trackId, recorded, await subscriptions.subscribers(trackId));
      return recorded.status;
    }
    const parsed = parseTrackJob(job.data);
    if (!parsed.success) {
      const reason = z.prettifyError(parsed.error);
      await finish(trackId, malformedOutcome(reason.split('\n')[0] ?? 'unreadable data'));
      throw new UnrecoverableError(`malformed tracking job: ${reason}`);
    }
    const data = parsed.data;
    const { profile, request, state } = data;
    const kind = kindOf(request.kind);
    const what = describeFollowed(request);
    const poll = schedule.poll[request.kind];
    const now = Date.now();
    if (!deps.clients.names().includes(profile)) {
      await finish(
        trackId,
        refusedOutcome(what, `the SCC profile \`${profile}\` is not configured in this fwbot.`),
      );
      throw new UnrecoverableError(`unknown profile ${profile}`);
    }

    let result: Awaited<ReturnType<typeof kind.step>>;
    try {
      const ctx: StepContext = {
        profile,
        client: deps.clients.get(profile),
        clientOf: (other) => deps.clients.get(other),
        resolveTenantProfile: deps.resolveTenantProfile,
        now,
      };
      result = await kind.step(ctx, request, state);
    } catch (error) {
      const failure = classifySccError(error);
      if (failure.kind !== 'transient') {
        await finish(trackId, refusedOutcome(what, failure.sccSays), data);
        throw new UnrecoverableError(`${what}: ${failure.sccSays}`);
      }
      const failures = state.failures + 1;
      log.warn({ trackId, failures, reason: failure.reason }, 'transient failure while following');
      if (failures >= schedule.maxTransientFailures) {
        return finish(trackId, gaveUpOutcome(what, failures, failure.reason), data);
      }
      const delay = transientDelayMs(schedule, failures, failure.retryAfterMs);
      return again(job, token, { ...data, state: { ...state, failures } }, delay);
    }

    if (result.kind === 'end') {
      // Work due after the end is scheduled before the end is recorded: a crash in between runs this step
      // again and schedules nothing twice (one item per thing); after the record, nothing is left to do.
      if (kind.later && deps.later)
        await deps.later(trackId, data, result.outcome, await subscriptions.subscribers(trackId));
      // The outcome first: learning from it, or comparing configurations, does not delay the reply.
      const status = await finish(trackId, result.outcome, data);
      if (result.took) await learn(deps, profile, result.took);
      if (kind.configBefore) await reportChanges(deps, trackId, data);
      return status;
    }
    if (result.took) await learn(deps, profile, result.took);
    // The deadline is checked after a poll, not before: workers that were down past it still look once.
    const elapsed = now - result.state.legStartedAt;
    if (elapsed > poll.deadlineMs)
      return finish(trackId, deadlineOutcome(what, elapsed, result.state.lastStatus), data);
    const offersCancel = result.cancellable === true && !result.state.cancelOffered;
    const next = {
      ...result.state,
      step: result.state.step + 1,
      failures: 0,
      ...(offersCancel ? { cancelOffered: true } : {}),
    };
    if (result.note || result.progress || offersCancel) {
      const subscribers = await subscriptions.subscribers(trackId);
      if (result.note) await queueNote(deps, trackId, subscribers, result.note);
      if (result.progress) await showProgress(deps, trackId, subscribers, result.progress);
      if (offersCancel) await queueCancelOffer(deps, trackId, request, subscribers);
    }
    if (result.fraction !== undefined) {
      // A run that says how far it is: read where it should end when that is sooner than the schedule.
      const at = Date.now() - next.legStartedAt;
      const kept = next.progressSeen;
      const seen = progressToKeep(kept, result.fraction, at);
      const delay =
        result.delayMs ??
        nextRunPollDelayMs({
          poll,
          learn: schedule.learning,
          step: next.step,
          elapsedMs: at,
          before: kept,
          fraction: result.fraction,
        });
      return again(
        job,
        token,
        { ...data, state: { ...next, ...(seen ? { progressSeen: seen } : {}) } },
        delay,
      );
    }
    const [delay] = await Promise.all([
      result.delayMs ?? nextDelay(deps, profile, request.kind, next),
      seenRunning(deps, profile, trackId, data, next, elapsed),
    ]);
    return again(job, token, { ...data, state: next }, delay);
  };
}

/**
 * A transaction's duration joins what every worker polls that type by (it stops counting as running when
 * it is finished, stopRunning); a failure to record is no failure.
 */
async function learn(
  deps: TrackWorkerDeps,
  profile: string,
  took: { transactionType: string; durationMs: number },
): Promise<void> {
  try {
    await deps.durations?.record(profile, took.transactionType, took.durationMs);
  } catch (error) {
    deps.log.debug({ err: error, profile, type: took.transactionType }, 'duration not recorded');
  }
}

/** The type whose durations plan this job's reads, when its kind learns them and the type is known. */
function learnedType(request: TrackJob['request'], state: TrackJob['state']): string | undefined {
  return kindOf(request.kind).learns?.type(state);
}

/** Work of a known type still running after this read (for a transaction: not one DONE awaiting its last read). */
async function seenRunning(
  deps: TrackWorkerDeps,
  profile: string,
  trackId: string,
  data: TrackJob,
  state: TrackJob['state'],
  elapsedMs: number,
): Promise<void> {
  const learns = kindOf(data.request.kind).learns;
  const type = learns?.type(state);
  if (!type || !learns?.running(state)) return;
  try {
    await deps.durations?.running(profile, type, trackId, elapsedMs);
  } catch (error) {
    deps.log.debug({ err: error, profile, type }, 'running transaction not noted');
  }
}

/** What the work changed on its devices, told in its threads; a failure to tell is logged, not retried. */
async function reportChanges(deps: TrackWorkerDeps, trackId: string, data: TrackJob): Promise<void> {
  if (!deps.configChanges) return;
  try {
    await deps.configChanges(trackId, data, await deps.subscriptions.subscribers(trackId));
  } catch (error) {
    deps.log.warn({ err: error, trackId }, 'configuration changes not reported');
  }
}

/**
 * Whatever the end, the device holds the work kept are released (a deploy's devices take changes again):
 * every hold of its holder, or only its own devices' when it is one of several pieces of the holder's work
 * (an upgrade's runs: the others' devices stay held); none while a sibling run of the same request (an MSP
 * upgrade's other runs, holderSiblings) has not ended. A failure is logged: the holds lapse at their `until`.
 */
async function releaseHolds(deps: TrackWorkerDeps, trackId: string, data: TrackJob): Promise<void> {
  const holder = holderOf(data.request);
  const holds = deps.holds;
  if (!holder || !holds) return;
  const devices = heldDevicesOf(data.request);
  try {
    // Other runs of the same request still going keep the holds; the last to end releases them. Each end is
    // recorded before this check, so of two ending together at least one sees the other's.
    for (const sibling of holderSiblingsOf(data.request)) {
      if (sibling === followedId(data.request)) continue;
      const siblingId = trackJobId(data.profile, data.request.kind, sibling);
      if (!(await deps.subscriptions.outcome(siblingId))) {
        deps.log.info(
          { trackId, holder, waitingFor: siblingId },
          'device holds kept for the request’s other runs',
        );
        return;
      }
    }
    const released =
      devices === undefined
        ? await holds.release(holder)
        : (await Promise.all(devices.map((uid) => holds.forceRelease(data.profile, uid, holder)))).filter(
            (hold) => hold !== undefined,
          );
    if (released.length > 0)
      deps.log.info(
        { trackId, holder, devices: released.map((hold) => hold.device) },
        'device holds released',
      );
  } catch (error) {
    deps.log.warn({ err: error, trackId, holder }, 'device holds not released; they lapse at their end');
  }
}

/** Whatever the end, followed work no longer counts as running. */
async function stopRunning(deps: TrackWorkerDeps, trackId: string, data: TrackJob): Promise<void> {
  const type = learnedType(data.request, data.state);
  if (!type) return;
  try {
    await deps.durations?.stopped(data.profile, type, trackId);
  } catch (error) {
    deps.log.debug({ err: error, trackId, type }, 'running transaction not forgotten');
  }
}

/** The schedule's next delay, or the learned one for work whose type fwbot has seen end. */
async function nextDelay(
  deps: TrackWorkerDeps,
  profile: string,
  kind: TrackKind,
  state: TrackJob['state'],
): Promise<number> {
  const poll = deps.schedule.poll[kind];
  // Counted after the read: the plan's times are from when following began.
  const elapsedMs = Date.now() - state.legStartedAt;
  const type = kindOf(kind).learns?.type(state);
  const plan = type && deps.durations ? await deps.durations.plan(profile, type, poll) : undefined;
  return nextPollDelayMs({ poll, learn: deps.schedule.learning, step: state.step, elapsedMs, plan });
}

/** The Cancel… offer of each thread, posted once (its key), when SCC first says the work may be cancelled. */
async function queueCancelOffer(
  deps: TrackWorkerDeps,
  trackId: string,
  request: TrackJob['request'],
  subscribers: readonly Subscriber[],
): Promise<void> {
  const transactionUid = sccIdOf(request);
  if (transactionUid === undefined) return;
  await deps.notify(
    subscribers.map((subscriber) => ({
      key: subscriberNotificationKey(trackId, subscriber, 'cancel'),
      channelId: subscriber.thread.channelId,
      threadTs: subscriber.thread.threadTs,
      ...cancelOffer(subscriber, transactionUid),
      eventType: 'fwbot_note',
    })),
  );
}

/** The work ended: each thread's Cancel… offer loses its button (or, not posted yet, is never posted). */
async function withdrawCancel(deps: TrackWorkerDeps, trackId: string, data: TrackJob): Promise<void> {
  const transactionUid = sccIdOf(data.request);
  if (transactionUid === undefined) return;
  const subscribers = await deps.subscriptions.subscribers(trackId);
  await deps.notify(
    subscribers.map((subscriber) => ({
      key: subscriberNotificationKey(trackId, subscriber, 'cancel-ended'),
      withdraws: subscriberNotificationKey(trackId, subscriber, 'cancel'),
      channelId: subscriber.thread.channelId,
      threadTs: subscriber.thread.threadTs,
      ...cancelEnded(subscriber, transactionUid),
      eventType: 'fwbot_note',
    })),
  );
}

async function queueNote(
  deps: TrackWorkerDeps,
  trackId: string,
  subscribers: readonly Subscriber[],
  note: { id: string; text: string },
): Promise<void> {
  await deps.notify(
    subscribers.map((subscriber) => ({
      key: subscriberNotificationKey(trackId, subscriber, `note-${note.id}`),
      channelId: subscriber.thread.channelId,
      threadTs: subscriber.thread.threadTs,
      text: statusLine(subscriber.label, note.text),
      eventType: 'fwbot_note',
      ...workspaceOf(subscriber.thread),
    })),
  );
}

/**
 * Each thread has one progress message: posted once (exactly once, like every post), then edited at
 * Slack's pace. Best effort: a skipped edit is replaced by the next one, and the end is a reply anyway.
 */
async function showProgress(
  deps: TrackWorkerDeps,
  trackId: string,
  subscribers: readonly Subscriber[],
  progress: string,
): Promise<void> {
  for (const subscriber of subscribers) {
    const key = subscriberNotificationKey(trackId, subscriber, 'status');
    const channelId = subscriber.thread.channelId;
    const text = statusLine(subscriber.label, progress);
    try {
      if (await deps.notifier.postedTs(key)) {
        await deps.notifier.editStatus(key, channelId, text, 'progress', workspaceOf(subscriber.thread));
      } else {
        await deps.notifier.postStatus({
          key,
          channelId,
          threadTs: subscriber.thread.threadTs,
          text,
          eventType: 'fwbot_status',
          ...workspaceOf(subscriber.thread),
        });
      }
    } catch (error) {
      deps.log.debug({ err: error, trackId, key }, 'progress not shown this step');
    }
  }
}
