// Where the learned durations live: one Redis list per (profile, transaction type), newest first, trimmed
// to `keep` and forgotten after `forgetAfterMs` without a new one. Every worker records into it and reads
// from it, so what one worker has followed to the end shapes how all of them poll. A worker keeps what it
// read (and the plan made from it) for `refreshMs`, so following many transactions of one type costs one
// read of the list per refresh, not one per poll.
import type { Cluster, Redis } from 'ioredis';
import { pushBounded } from '../redis/boundedList.js';
import type { JobKeys } from './keys.js';
import { learnedPollTimes } from './learning.js';
import type { Learning, PollSchedule } from './schedule.js';

interface Known {
  readAt: number;
  raw: string;
  durations: number[];
  /** The plan for these durations, per schedule it was made for (computed when first needed). */
  plans: Map<PollSchedule, number[] | undefined>;
}

export class DurationHistory {
  private readonly known = new Map<string, Known>();

  constructor(
    private readonly redis: Redis | Cluster,
    private readonly keys: JobKeys,
    private readonly learn: Learning,
  ) {}

  /** Records how long one transaction took (SCC's own timestamps: submitted to last updated). */
  async record(profile: string, transactionType: string, durationMs: number): Promise<void> {
    if (!this.learn.enabled || !(durationMs > 0)) return;
    await pushBounded(this.redis, this.keys.durations(profile, transactionType), Math.round(durationMs), {
      max: this.learn.keep,
      ttlMs: this.learn.forgetAfterMs,
    });
  }

  /** The durations learned for a type on a profile, newest first (read at most once per refresh). */
  async durations(profile: string, transactionType: string): Promise<readonly number[]> {
    return (await this.current(profile, transactionType)).durations;
  }

  /** The learned poll times for a type on a profile under `poll`; undefined while too little is known. */
  async plan(profile: string, transactionType: string, poll: PollSchedule): Promise<number[] | undefined> {
    if (!this.learn.enabled) return undefined;
    const known = await this.current(profile, transactionType);
    if (!known.plans.has(poll)) known.plans.set(poll, learnedPollTimes(known.durations, poll, this.learn));
    return known.plans.get(poll);
  }

  private async current(profile: string, transactionType: string): Promise<Known> {
    const key = this.keys.durations(profile, transactionType);
    const now = Date.now();
    const cached = this.known.get(key);
    if (cached && now - cached.readAt < this.learn.refreshMs) return cached;
    const list = await this.redis.lrange(key, 0, this.learn.keep - 1);
    const raw = list.join(',');
    if (cached && cached.raw === raw) {
      cached.readAt = now;
      return cached;
    }
    const durations = list.map(Number).filter((ms) => Number.isFinite(ms) && ms > 0);
    const fresh: Known = { readAt: now, raw, durations, plans: new Map() };
    this.known.set(key, fresh);
    return fresh;
  }
}
