// The tracking worker: one job per followed thing, one SCC read per run of the job. After each read the
// job saves its state and moves itself back to the delayed set (BullMQ's step-job pattern: moveToDelayed
// + DelayedError), so a worker never sleeps and any worker can take the next step. The end, whatever it
// is (done, failed, expired, deadline, refused, given up), is recorded once and told to every subscriber
// through the notification queue.
import { DelayedError, type Job, type Processor, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { SccClients } from '../dispatch/ports.js';
import { nextPollDelayMs } from './learning.js';
import { nextRunPollDelayMs, progressToKeep } from './learningRuns.js';
import type { DurationHistory } from './learningStore.js';
import { deadlineOutcome, gaveUpOutcome, malformedOutcome, refusedOutcome, statusLine } from './messages.js';
import {
  type NotifyJobData,
  type Outcome,
  type Subscriber,
  type TrackJobData as TrackJob,
  TrackJobData,
} from './payloads.js';
import { classifySccError } from './sccFailures.js';
import { type Schedule, transientDelayMs } from './schedule.js';
import type { SlackNotifier } from './slackNotifier.js';
import { stepCdfmc } from './steps/cdfmc.js';
import { stepDeployment } from './steps/deployment.js';
import { stepMspUpgradeRun } from './steps/mspUpgradeRun.js';
import { stepStaged } from './steps/staged.js';
import type { StepContext, StepResult, TenantProfileResolver } from './steps/step.js';
import { stepGateway, stepTransaction } from './steps/transaction.js';
import { stepUpgradeRun } from './steps/upgradeRun.js';
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
  log: Logger;
}

/** How the thread names the followed thing when fwbot has to speak about following it. */
export function describeFollowed(request: TrackJob['request']): string {
  switch (request.kind) {
    case 'transaction':
      return `transaction \`${request.transactionUid}\``;
    case 'cdfmc':
      return `the cdFMC provisioning of tenant *${request.tenantName}* (transaction \`${request.transactionUid}\`)`;
    case 'gateway':
      return `gateway request \`${request.requestId}\``;
    case 'upgradeRun':
      return `the upgrade started by transaction \`${request.transactionUid}\``;
    case 'deployment':
      return `the deploy started by transaction \`${request.transactionUid}\``;
    case 'mspUpgradeRun':
      return `the upgrade across tenants started by transaction \`${request.transactionUid}\``;
    case 'staged':
      return `the change staged on ${request.deviceName}`;
  }
}

function runStep(ctx: StepContext, job: TrackJob): Promise<StepResult> {
  const { request, state } = job;
  switch (request.kind) {
    case 'transaction':
      return stepTransaction(ctx, request, state);
    case 'cdfmc':
      return stepCdfmc(ctx, request, state);
    case 'gateway':
      return stepGateway(ctx, request, state);
    case 'upgradeRun':
      return stepUpgradeRun(ctx, request, state);
    case 'deployment':
      return stepDeployment(ctx, request, state);
    case 'staged':
      return stepStaged(ctx, request, state);
    case 'mspUpgradeRun':
      return stepMspUpgradeRun(ctx, request, state);
  }
}

export function createTrackProcessor(deps: TrackWorkerDeps): Processor {
  const { subscriptions, schedule, log } = deps;

  const finish = async (trackId: string, outcome: Outcome, data?: TrackJob): Promise<string> => {
    const settled = await subscriptions.settle(trackId, outcome);
    log.info({ trackId, status: settled.status }, 'followed work ended');
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
    const parsed = TrackJobData.safeParse(job.data);
    if (!parsed.success) {
      const reason = z.prettifyError(parsed.error);
      await finish(trackId, malformedOutcome(reason.split('\n')[0] ?? 'unreadable data'));
      throw new UnrecoverableError(`malformed tracking job: ${reason}`);
    }
    const data = parsed.data;
    const { profile, request, state } = data;
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

    let result: StepResult;
    try {
      const ctx: StepContext = {
        profile,
        client: deps.clients.get(profile),
        clients: deps.clients,
        resolveTenantProfile: deps.resolveTenantProfile,
        now,
      };
      result = await runStep(ctx, data);
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
      // The outcome first: learning from it does not delay the reply.
      const status = await finish(trackId, result.outcome, data);
      if (result.took) await learn(deps, profile, result.took);
      return status;
    }
    if (result.took) await learn(deps, profile, result.took);
    // The deadline is checked after a poll, not before: workers that were down past it still look once.
    const elapsed = now - result.state.legStartedAt;
    if (elapsed > poll.deadlineMs)
      return finish(trackId, deadlineOutcome(what, elapsed, result.state.lastStatus), data);
    const next = { ...result.state, step: result.state.step + 1, failures: 0 };
    if (result.note || result.progress) {
      const subscribers = await subscriptions.subscribers(trackId);
      if (result.note) await queueNote(deps, trackId, subscribers, result.note);
      if (result.progress) await showProgress(deps, trackId, subscribers, result.progress);
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
      request.kind === 'transaction' ? seenRunning(deps, profile, trackId, next, elapsed) : undefined,
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

/** A transaction of a known type still running after this read (not one DONE awaiting its last read). */
async function seenRunning(
  deps: TrackWorkerDeps,
  profile: string,
  trackId: string,
  state: TrackJob['state'],
  elapsedMs: number,
): Promise<void> {
  if (!state.transactionType || state.transactionDone) return;
  try {
    await deps.durations?.running(profile, state.transactionType, trackId, elapsedMs);
  } catch (error) {
    deps.log.debug({ err: error, profile, type: state.transactionType }, 'running transaction not noted');
  }
}

/** Whatever the end, a followed transaction no longer counts as running. */
async function stopRunning(deps: TrackWorkerDeps, trackId: string, data: TrackJob): Promise<void> {
  const type = data.request.kind === 'transaction' ? data.state.transactionType : undefined;
  if (!type) return;
  try {
    await deps.durations?.stopped(data.profile, type, trackId);
  } catch (error) {
    deps.log.debug({ err: error, trackId, type }, 'running transaction not forgotten');
  }
}

/** The schedule's next delay, or the learned one for a transaction whose type fwbot has seen end. */
async function nextDelay(
  deps: TrackWorkerDeps,
  profile: string,
  kind: TrackJob['request']['kind'],
  state: TrackJob['state'],
): Promise<number> {
  const poll = deps.schedule.poll[kind];
  // Counted after the read: the plan's times are from when following began.
  const elapsedMs = Date.now() - state.legStartedAt;
  const type = kind === 'transaction' ? state.transactionType : undefined;
  const plan = type && deps.durations ? await deps.durations.plan(profile, type, poll) : undefined;
  return nextPollDelayMs({ poll, learn: deps.schedule.learning, step: state.step, elapsedMs, plan });
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
        await deps.notifier.editStatus(key, channelId, text, 'progress');
      } else {
        await deps.notifier.postStatus({
          key,
          channelId,
          threadTs: subscriber.thread.threadTs,
          text,
          eventType: 'fwbot_status',
        });
      }
    } catch (error) {
      deps.log.debug({ err: error, trackId, key }, 'progress not shown this step');
    }
  }
}
