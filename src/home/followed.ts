// Work each person started that fwbot follows, for their App Home. The tracker knows threads, not
// people, so the Tracker is wrapped: every follow is also noted in a short per-person list in Redis (the
// tracking job's id, what it is, where). Its state is read when the Home is built: the outcome the
// tracking job recorded when it ended (src/jobs/subscriptions.ts), else the job's last status.

import type { Queue } from 'bullmq';
import { z } from 'zod';
import type { ThreadRef, Tracker } from '../dispatch/ports.js';
import { followedId, kindOf, Outcome, parseTrackJob, type TrackRequest } from '../follow/index.js';
import { jsonValue } from '../model/json.js';
import { pushBounded, readBounded } from '../redis/boundedList.js';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys, trackJobId } from '../redis/keys.js';
import { plainMrkdwn } from '../render/text.js';
import type { FollowedWork } from './model.js';

/** Entries kept per person; the Home shows fewer. */
const LIST = { max: 30, ttlMs: 7 * 24 * 60 * 60 * 1000 };
/** Finished work stays on the Home this long. */
const FINISHED_SHOWN_MS = 24 * 60 * 60 * 1000;

const Noted = z.object({
  trackId: z.string(),
  kind: z.string(),
  label: z.string(),
  profile: z.string(),
  channelId: z.string(),
  since: z.number(),
  device: z.string().optional(),
});
type Noted = z.infer<typeof Noted>;

export class FollowedIndex {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly clock: () => number = Date.now,
  ) {}

  key(userId: string): string {
    return new RedisKeys(this.prefix).homeFollowed(userId);
  }

  async note(request: TrackRequest, thread: ThreadRef): Promise<void> {
    // A change staged on an ASA names the device still to deploy (its kind declares it: stagedOn).
    const device = kindOf(request.kind).stagedOn?.(request);
    const entry: Noted = {
      trackId: trackJobId(thread.profile, request.kind, followedId(request)),
      kind: request.kind,
      label: request.label,
      profile: thread.profile,
      channelId: thread.channelId,
      since: this.clock(),
      ...(device === undefined ? {} : { device }),
    };
    await pushBounded(this.redis, this.key(thread.requesterId), entry, LIST);
  }

  /** Newest first, one entry per followed thing. */
  async of(userId: string): Promise<Noted[]> {
    const seen = new Set<string>();
    return (await readBounded(this.redis, this.key(userId), Noted, LIST)).filter((noted) => {
      if (seen.has(noted.trackId)) return false;
      seen.add(noted.trackId);
      return true;
    });
  }
}

/** A Tracker that also notes the follow for the requester's Home, and says their Home changed. */
export function homeAwareTracker(
  tracker: Tracker,
  index: FollowedIndex,
  changed: (userId: string) => void,
): Tracker {
  return {
    async follow(request, thread) {
      await tracker.follow(request, thread);
      await index.note(request, thread);
      changed(thread.requesterId);
    },
    speakIn: (ref, thread) => tracker.speakIn(ref, thread),
  };
}

/** Reads where each followed thing stands: its recorded outcome, else its tracking job's last status. */
export class FollowedStates {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly trackQueue: Pick<Queue, 'getJob'>,
  ) {}

  async of(noted: readonly Noted[], now: number): Promise<FollowedWork[]> {
    const out: FollowedWork[] = [];
    for (const entry of noted) {
      const base = { ...entry };
      const raw = await this.redis.get(this.keys.outcome(entry.trackId));
      const outcome = raw === null ? undefined : Outcome.safeParse(jsonValue(raw));
      if (outcome?.success) {
        if (now - entry.since > FINISHED_SHOWN_MS) continue;
        // Ended with nothing to tell: a staged change deployed (or discarded) before its reminder.
        if (outcome.data.quiet) continue;
        // Stored as the thread's mrkdwn (escaped once); the Home's renderer escapes what it shows, so plain.
        out.push({ ...base, state: outcome.data.status, status: plainMrkdwn(firstLine(outcome.data.text)) });
        continue;
      }
      const job = await this.trackQueue.getJob(entry.trackId);
      if (!job) continue; // forgotten: neither a job nor an outcome is left
      const data = parseTrackJob(job.data);
      const status = data.success ? data.data.state.lastStatus : undefined;
      out.push({ ...base, state: 'running', ...(status ? { status: `last seen ${status}` } : {}) });
    }
    return out;
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
