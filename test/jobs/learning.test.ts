import { describe, expect, it } from 'vitest';
import { learnedPollTimes, nextPollDelayMs, readsFor } from '../../src/jobs/learning.js';
import { DEFAULT_SCHEDULE, type PollSchedule, pollDelayMs } from '../../src/jobs/schedule.js';

const poll = DEFAULT_SCHEDULE.poll.transaction;
const learn = DEFAULT_SCHEDULE.learning;

/** `count` durations spread evenly over [fromMs, toMs], in an order that is not sorted. */
function spread(count: number, fromMs: number, toMs: number): number[] {
  const even = Array.from({ length: count }, (_, i) => fromMs + ((toMs - fromMs) * i) / (count - 1));
  return even.map((_, i) => even[(i * 7) % count] ?? fromMs);
}

/** The delay after which a poll sees work of `durationMs` ended (ms), with delays from `next`. */
function seenAfter(durationMs: number, next: (step: number, at: number) => number): number {
  let at = 0;
  for (let step = 1; at < durationMs; step += 1) at += next(step, at);
  return at - durationMs;
}

const today = (step: number, at: number) => pollDelayMs(poll, step, undefined, at);
const learned = (plan: readonly number[] | undefined) => (step: number, at: number) =>
  nextPollDelayMs({ poll, learn, step, elapsedMs: at, plan });

const gaps = (times: readonly number[]) => times.map((at, i) => at - (i === 0 ? 0 : (times[i - 1] ?? 0)));
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function capAt(schedule: PollSchedule, at: number): number {
  return schedule.lateAfterMs !== undefined && at >= schedule.lateAfterMs
    ? (schedule.lateCapMs ?? schedule.capMs)
    : schedule.capMs;
}

describe('the learned schedule', () => {
  it('is the schedule alone while nothing, or too little, is known of a type', () => {
    expect(learnedPollTimes([], poll, learn)).toBeUndefined();
    const few = spread(learn.minSamples - 1, 60_000, 120_000);
    expect(learnedPollTimes(few, poll, learn)).toBeUndefined();
    for (const step of [1, 2, 3, 4, 10]) {
      const elapsedMs = step * 3_000;
      const alone = pollDelayMs(poll, step, undefined, elapsedMs);
      expect(nextPollDelayMs({ poll, learn, step, elapsedMs })).toBe(alone);
      expect(nextPollDelayMs({ poll, learn, step, elapsedMs, durations: few })).toBe(alone);
    }
    // Learning switched off: the schedule alone, whatever is known.
    const off = { ...learn, enabled: false };
    expect(learnedPollTimes(spread(40, 60_000, 120_000), poll, off)).toBeUndefined();
  });

  it('polls where the work of a type has ended before, never further apart than the cap', () => {
    const history = spread(40, 62_000, 122_000);
    const plan = learnedPollTimes(history, poll, learn) ?? [];

    const gapsWhere = (from: number, to: number) =>
      gaps(plan).filter((_, i) => (plan[i] ?? 0) > from && (plan[i] ?? 0) <= to);
    // Sparse where nothing ends (the cap apart), dense where work ends.
    expect(mean(gapsWhere(0, 62_000))).toBeGreaterThanOrEqual(poll.capMs * 0.8);
    expect(mean(gapsWhere(62_000, 122_000))).toBeLessThan(mean(gapsWhere(0, 62_000)) * 0.75);
    for (const [i, gap] of gaps(plan).entries()) {
      expect(gap).toBeLessThanOrEqual(capAt(poll, plan[i - 1] ?? 0));
      expect(gap).toBeGreaterThanOrEqual(learn.minGapMs);
    }
    // On what was learned (the newest weighing most, as in the plan): no more reads than the schedule
    // alone; on work like it, about as many, and told much sooner.
    const weight = (rank: number) => 2 ** (-rank / learn.halfLife);
    const weighted = (next: (step: number, at: number) => number) =>
      history.reduce((sum, ms, rank) => sum + weight(rank) * readsFor(ms, next), 0);
    expect(weighted(learned(plan))).toBeLessThanOrEqual(weighted(today));
    const work = spread(25, 63_000, 121_000);
    const reads = (next: (step: number, at: number) => number) => mean(work.map((ms) => readsFor(ms, next)));
    expect(reads(learned(plan))).toBeLessThanOrEqual(reads(today) * 1.02);
    const delays = (next: (step: number, at: number) => number) =>
      mean(work.map((ms) => seenAfter(ms, next)));
    expect(delays(learned(plan))).toBeLessThan(delays(today) * 0.75);
  });

  it('moves its polls to a type that has become slower, within a few transactions', () => {
    const was = spread(30, 9_000, 11_000);
    const slower = spread(10, 38_000, 42_000);
    const before = learnedPollTimes(was, poll, learn) ?? [];
    const after = learnedPollTimes([...slower, ...was], poll, learn) ?? [];

    const around = (plan: readonly number[], from: number, to: number) =>
      plan.filter((at) => at >= from && at <= to).length;
    expect(around(after, 38_000, 43_000)).toBeGreaterThan(around(before, 38_000, 43_000));
    const newWork = spread(9, 38_500, 41_500);
    const delay = (plan: readonly number[]) => mean(newWork.map((ms) => seenAfter(ms, learned(plan))));
    expect(delay(after)).toBeLessThan(delay(before));
  });

  it('keeps following work slower than anything learned, growing to the cap as the schedule does', () => {
    const plan = learnedPollTimes(spread(40, 4_000, 9_000), poll, learn) ?? [];
    const end = plan.at(-1) ?? 0;
    const next = learned(plan);
    const delays = [1, 2, 4, 8, 40].map((k) => next(plan.length + k, end + k * 2_000));
    expect(delays.every((delay) => delay >= poll.firstDelayMs && delay <= poll.capMs)).toBe(true);
    expect(delays.at(-1)).toBe(poll.capMs);
    // Work that never ends is still looked at, the cap apart, until the deadline decides.
    expect(seenAfter(10 * 60_000, next)).toBeLessThanOrEqual(poll.capMs);
  });

  it("waits at least as long as SCC's Retry-After, learned plan or not", () => {
    const plan = learnedPollTimes(spread(40, 4_000, 9_000), poll, learn);
    const planned = nextPollDelayMs({ poll, learn, step: 2, elapsedMs: 3_000, plan });
    expect(planned).toBeLessThan(45_000);
    expect(nextPollDelayMs({ poll, learn, step: 2, elapsedMs: 3_000, plan, retryAfterMs: 45_000 })).toBe(
      45_000,
    );
    expect(nextPollDelayMs({ poll, learn, step: 2, elapsedMs: 3_000, plan, retryAfterMs: 1 })).toBe(planned);
    expect(nextPollDelayMs({ poll, learn, step: 2, elapsedMs: 3_000, retryAfterMs: 45_000 })).toBe(45_000);
  });
});
