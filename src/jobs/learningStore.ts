// Where the learned durations live: one Redis list per (profile, transaction type), newest first, trimmed
// to `keep` and forgotten after `forgetAfterMs` without a new one. Every worker records into it and reads
// from it, so what one worker has followed to the end shapes how all of them poll. Beside it, the
// transactions of the type being followed now, each with how long it had run when last seen running: what
// is still running can contradict what has ended (learning.ts, contradicted). A worker keeps what it read
// (and the plan made from it) for `refreshMs`, so following many transactions of one type costs a couple
// of reads per refresh, not one per poll.
import type { Cluster, Redis } from 'ioredis';
import { pushBounded } from '../redis/boundedList.js';
import type { RedisKeys } from '../redis/keys.js';
import { contradicted, learnedPollTimes, learnedTailMs } from './learning.js';
import type { Learning, PollSchedule } from './schedule.js';

/**
 * A transaction not seen running for this long is no longer followed (its job ended without saying so,
 * or was removed): longer than any gap between two polls of a followed transaction (60 s late, 5 min
 * after transient failures).
 */
const RUNNING_STALE_MS = 15 * 60_000;

interface Known {
  readAt: number;
  raw: string;
  durations: number[];
  /** Transactions of the type seen running past the learned tail when read. */
  runningPastTail: number;
  /** The plan for these durations, per schedule it was made for (computed when first needed). */
  plans: Map<PollSchedule, number[] | undefined>;
}

export class DurationHistory {
  private readonly known = new Map<string, Known>();

  constructor(
    private readonly redis: Redis | Cluster,
    private readonly keys: RedisKeys,
    private readonly learn: Learning,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records how long one transaction took (SCC's own timestamps: submitted to last updated). */
  async record(profile: string, transactionType: string, durationMs: number): Promise<void> {
    if (!this.learn.enabled || !(durationMs > 0)) return;
    await pushBounded(this.redis, this.keys.durations(profile, transactionType), Math.round(durationMs), {
      max: this.learn.keep,
      ttlMs: this.learn.forgetAfterMs,
    });
  }

  /** A followed transaction was seen still running, `elapsedMs` after following began. */
  async running(profile: string, transactionType: string, trackId: string, elapsedMs: number): Promise<void> {
    if (!this.learn.enabled) return;
    const [running, seenAt] = this.runningKeys(profile, transactionType);
    // One round trip: every key of a deployment shares its prefix's hash tag on a cluster (keys.ts).
    await this.redis
      .multi()
      .zadd(running, Math.max(0, Math.round(elapsedMs)), trackId)
      .pexpire(running, RUNNING_STALE_MS)
      .zadd(seenAt, this.now(), trackId)
      .pexpire(seenAt, RUNNING_STALE_MS)
      .exec();
  }

  /** A followed transaction is no longer followed (it ended, whatever the end). */
  async stopped(profile: string, transactionType: string, trackId: string): Promise<void> {
    // Learning off: nothing was noted (what an earlier configuration noted ages out with its keys).
    if (!this.learn.enabled) return;
    const [running, seenAt] = this.runningKeys(profile, transactionType);
    await this.redis.multi().zrem(running, trackId).zrem(seenAt, trackId).exec();
  }

  /** The durations learned for a type on a profile, newest first (read at most once per refresh). */
  async durations(profile: string, transactionType: string): Promise<readonly number[]> {
    return (await this.current(profile, transactionType)).durations;
  }

  /**
   * The learned poll times for a type on a profile under `poll`; undefined while too little is known, or
   * while the transactions still running contradict what was learned.
   */
  async plan(profile: string, transactionType: string, poll: PollSchedule): Promise<number[] | undefined> {
    if (!this.learn.enabled) return undefined;
    const known = await this.current(profile, transactionType);
    if (contradicted(known.durations.length, known.runningPastTail)) return undefined;
    if (!known.plans.has(poll)) known.plans.set(poll, learnedPollTimes(known.durations, poll, this.learn));
    return known.plans.get(poll);
  }

  private runningKeys(profile: string, transactionType: string): [string, string] {
    return [this.keys.running(profile, transactionType), this.keys.runningSeenAt(profile, transactionType)];
  }

  /** How many followed transactions of the type were last seen running past `tailMs`. */
  private async runningPast(profile: string, transactionType: string, tailMs: number): Promise<number> {
    const [running, seenAt] = this.runningKeys(profile, transactionType);
    const stale = await this.redis.zrangebyscore(seenAt, '-inf', this.now() - RUNNING_STALE_MS);
    if (stale.length > 0) {
      await this.redis
        .multi()
        .zrem(running, ...stale)
        .zrem(seenAt, ...stale)
        .exec();
    }
    return this.redis.zcount(running, `(${tailMs}`, '+inf');
  }

  private async current(profile: string, transactionType: string): Promise<Known> {
    const key = this.keys.durations(profile, transactionType);
    const now = this.now();
    const cached = this.known.get(key);
    if (cached && now - cached.readAt < this.learn.refreshMs) return cached;
    const list = await this.redis.lrange(key, 0, this.learn.keep - 1);
    const raw = list.join(',');
    const durations =
      cached && cached.raw === raw
        ? cached.durations
        : list.map(Number).filter((ms) => Number.isFinite(ms) && ms > 0);
    // Too few durations for a plan: there is nothing for running transactions to contradict.
    const tail = durations.length >= this.learn.minSamples ? learnedTailMs(durations, this.learn) : undefined;
    const runningPastTail = tail === undefined ? 0 : await this.runningPast(profile, transactionType, tail);
    if (cached && cached.raw === raw) {
      cached.readAt = now;
      cached.runningPastTail = runningPastTail;
      return cached;
    }
    const fresh: Known = { readAt: now, raw, durations, runningPastTail, plans: new Map() };
    this.known.set(key, fresh);
    return fresh;
  }
}
