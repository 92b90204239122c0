// The desk worker: runs the `alerts` queue's jobs. A batch is taken into each of its channels (deskIntake,
// exactly once by event key) and each channel's messages are brought in line (deskDelivery); a `deliver`
// job only does the second (after an acknowledgement). One channel at a time holds its desk lock, so two
// workers never interleave on one channel. Slack's pace, a 429 or a busy channel move the job back to the
// delayed set for as long as needed; the other channels of the batch are served first. A channel is
// served in the workspace its alert subscriptions were made in (none named: the home workspace).
import { randomUUID } from 'node:crypto';
import { DelayedError, type Processor, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AlertEvent } from '../../alerts/model.js';
import { type WorkspaceRef, workspaceOf } from '../../model/workspace.js';
import { runScript } from '../../redis/scripts.js';
import type { JobsCore } from '../core.js';
import { RetryLater, type SlackNotifier } from '../slackNotifier.js';
import { DeskJob } from './desk.js';
import { deliverChannel } from './deskDelivery.js';
import { DeskIntake } from './deskIntake.js';
import { RedisAlertSubscriptions } from './subscriptions.js';

export interface DeskWorkerDeps {
  core: JobsCore;
  notifier: SlackNotifier;
  /** The clock mutes are compared with (tests may fix it). */
  clock?: () => number;
  log?: Logger;
}

/** Runs `work` holding the channel's desk lock, or throws RetryLater when another worker holds it. */
async function withChannel<T>(core: JobsCore, channelId: string, work: () => Promise<T>): Promise<T> {
  const key = core.keys.deskLock(channelId);
  const token = randomUUID();
  const locked = await core.redis.set(key, token, 'PX', core.schedule.slack.lockMs, 'NX');
  if (locked !== 'OK') throw new RetryLater(core.schedule.slack.backoffMs, `channel ${channelId} is busy`);
  try {
    return await work();
  } finally {
    await runScript(core.redis, 'lock-release', [key], [token]);
  }
}

/**
 * The workspace a channel is in, as its subscriptions say (the first that names one); none: the home
 * workspace, as for every subscription made before fwbot served more than one.
 */
async function channelWorkspace(core: JobsCore, channelId: string): Promise<WorkspaceRef> {
  const subscriptions = await new RedisAlertSubscriptions(core).list({ channelId });
  const named = subscriptions.find((s) => s.teamId !== undefined || s.enterpriseId !== undefined);
  return named ? workspaceOf(named) : {};
}

/** Takes the events into one channel (when given) and brings its messages in line. */
export async function serveChannel(
  deps: DeskWorkerDeps,
  channelId: string,
  events: readonly AlertEvent[] = [],
): Promise<void> {
  const { core, notifier } = deps;
  const log = deps.log ?? core.log;
  const now = (deps.clock ?? Date.now)();
  // An acknowledgement (a delivery without events) changes what the Homes show too.
  let homesChange = events.length === 0;
  try {
    await withChannel(core, channelId, async () => {
      if (events.length > 0) {
        const taken = await new DeskIntake(core.redis, core.keys, core.schedule, channelId, now).take(events);
        homesChange = taken.openChanged;
        if (taken.taken > 0 || taken.repeated > 0) log.info({ channelId, ...taken }, 'alert events taken');
      }
      const workspace = await channelWorkspace(core, channelId);
      await deliverChannel({ redis: core.redis, keys: core.keys, notifier, log, workspace }, channelId);
    });
  } finally {
    // Also when Slack's pace holds the message back: the Home lists the incident, its link comes later.
    if (homesChange) core.incidentsChanged();
  }
}

export function createDeskProcessor(deps: DeskWorkerDeps): Processor {
  const log = deps.log ?? deps.core.log;
  return async (job, token) => {
    const parsed = DeskJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`malformed desk job: ${z.prettifyError(parsed.error)}`);
    const data = parsed.data;
    const channels =
      data.type === 'batch' ? [...new Set(data.events.flatMap((event) => event.channels))] : data.channels;
    let waitMs: number | undefined;
    let failure: unknown;
    for (const channelId of channels) {
      try {
        await serveChannel(deps, channelId, data.type === 'batch' ? data.events : []);
      } catch (error) {
        if (error instanceof RetryLater) {
          waitMs = Math.min(waitMs ?? error.delayMs, error.delayMs);
          log.debug({ channelId, delayMs: error.delayMs, reason: error.message }, 'desk waits');
        } else {
          // The other channels are still served; the job is retried for this one (what was done stays done).
          log.warn({ channelId, err: error }, 'desk could not serve a channel');
          failure ??= error;
        }
      }
    }
    if (failure !== undefined) throw failure;
    if (waitMs !== undefined) {
      await job.moveToDelayed(Date.now() + waitMs, token);
      throw new DelayedError();
    }
  };
}
