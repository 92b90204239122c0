// The Tracker of src/dispatch/ports.ts on BullMQ: `follow` subscribes the thread and makes sure exactly one
// tracking job polls the followed thing. The job id is derived from profile, kind and SCC id, so the
// same transaction followed from two threads is polled once and both threads are told. `speakIn` gives a
// timed item the call scheduled (a shun's end) the thread of the call's announcement.
import type { JobsOptions as BullJobsOptions } from 'bullmq';
import type { TimedRef, TimedWork } from '../catalogue/operation.js';
import type { ThreadRef, Tracker } from '../dispatch/ports.js';
import { followedId, type TrackJob, type TrackRequest, TrackRequestSchema } from '../follow/index.js';
import { trackJobId } from '../redis/keys.js';
import type { JobsCore } from './core.js';
import { ThreadRefSchema } from './payloads.js';

export class QueueTracker implements Tracker {
  constructor(
    private readonly core: JobsCore,
    private readonly timed: Pick<TimedWork, 'speakIn'>,
  ) {}

  async speakIn(ref: TimedRef, thread: ThreadRef): Promise<void> {
    await this.timed.speakIn(ref, thread);
  }

  async follow(request: TrackRequest, thread: ThreadRef): Promise<void> {
    // Parsed here, at the boundary: a job that cannot be followed is refused to the caller, not queued.
    const typed = TrackRequestSchema.parse(request);
    const where = ThreadRefSchema.parse(thread);
    const { subscriptions, trackQueue, schedule } = this.core;
    const trackId = trackJobId(where.profile, typed.kind, followedId(typed));
    const subscriber = { thread: where, label: typed.label };
    const ended = await subscriptions.subscribe(trackId, subscriber);
    if (ended) {
      await subscriptions.tell(trackId, ended, [subscriber]);
      return;
    }
    const now = Date.now();
    const data: TrackJob = {
      profile: where.profile,
      request: typed,
      state: { step: 0, failures: 0, startedAt: now, legStartedAt: now },
    };
    const retention = Math.ceil(schedule.retentionMs / 1000);
    const options: BullJobsOptions = {
      jobId: trackId,
      // Failures of the step itself are counted in the job's state; these attempts only cover the rare
      // error outside a step (Redis lost mid-step), with backoff.
      attempts: 5,
      backoff: { type: 'exponential', delay: schedule.transientBaseMs },
      removeOnComplete: { age: retention },
      removeOnFail: { age: retention },
    };
    const job = await trackQueue.add(typed.kind, data, options);
    // BullMQ ignores an add whose id exists. A finished job whose outcome has been forgotten would
    // swallow this follow: remove it and start afresh.
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') {
      const again = await subscriptions.outcome(trackId);
      if (again) {
        await subscriptions.tell(trackId, again, [subscriber]);
        return;
      }
      await job.remove();
      await trackQueue.add(typed.kind, data, options);
    }
  }
}
