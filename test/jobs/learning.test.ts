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

/** Poll times (the first at 0) with delays from `next`, until one sees work of `durationMs` ended. */
function pollTimes(next: (step: number, at: number) => number, durationMs: number): number[] {
  const times = [0];
  for (let step = 1; (times.at(-1) ?? 0) < durationMs; step += 1) {
    const at = times.at(-1) ?? 0;
    times.push(at + next(step, at));
  }
  return times;
}

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

  it('reads work slower than nearly everything learned when the schedule alone would, the cap apart at most', () => {
    const plan = learnedPollTimes(spread(40, 4_000, 9_000), poll, learn) ?? [];
    const end = plan.at(-1) ?? 0;
    expect(plan.length).toBeGreaterThan(0);
    const next = learned(plan);
    const alone = pollTimes(today, 30 * 60_000);
    for (const durationMs of [30_000, 5 * 60_000, 20 * 60_000]) {
      const polls = pollTimes(next, durationMs);
      for (const [i, gap] of gaps(polls).entries())
        expect(gap).toBeLessThanOrEqual(capAt(poll, polls[i - 1] ?? 0));
      // Past the plan, the polls are the schedule's own: no more of them than without learning.
      const past = polls.filter((at) => at > end);
      expect(past.every((at) => alone.includes(at))).toBe(true);
      expect(past.length).toBeLessThanOrEqual(
        alone.filter((at) => at > end && at <= (polls.at(-1) ?? 0)).length,
      );
    }
    // Work that never ends is still looked at, the cap apart, until the deadline decides.
    expect(seenAfter(10 * 60_000, next)).toBeLessThanOrEqual(poll.capMs);
  });

  it('costs no more reads than the schedule alone when many transactions start together', () => {
    // 300 transactions followed at once, durations log-uniform over 1 s–10 min: the short ones end first
    // and become the newest durations, so every plan leans short of the long ones still running. Each
    // poll uses the plan made from what had ended by the last re-read (every refreshMs), as a worker does.
    let seed = 18;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const durations = Array.from({ length: 300 }, () => Math.round(1_000 * 600 ** random()));
    const first = Array.from({ length: 40 }, () => Math.round(1_000 * 600 ** random()));
    const follow = (learning: boolean) => {
      let newestFirst = first;
      let plan = learnedPollTimes(newestFirst, poll, learn);
      let readAt = 0;
      const due = durations.map((durationMs) => ({ durationMs, at: 0, step: 1 }));
      let reads = 0;
      let late = 0;
      while (due.length > 0) {
        due.sort((a, b) => a.at - b.at);
        const next = due.shift();
        if (!next) break;
        reads += 1;
        if (next.at >= next.durationMs) {
          late += next.at - next.durationMs;
          newestFirst = [next.durationMs, ...newestFirst].slice(0, learn.keep);
          continue;
        }
        if (learning && next.at - readAt >= learn.refreshMs) {
          plan = learnedPollTimes(newestFirst, poll, learn);
          readAt = next.at;
        }
        const delay = learning
          ? nextPollDelayMs({ poll, learn, step: next.step, elapsedMs: next.at, plan })
          : pollDelayMs(poll, next.step, undefined, next.at);
        due.push({ durationMs: next.durationMs, at: next.at + delay, step: next.step + 1 });
      }
      return { reads, late };
    };
    const [withLearning, alone] = [follow(true), follow(false)];
    expect(withLearning.reads).toBeLessThanOrEqual(alone.reads);
    expect(withLearning.late).toBeLessThanOrEqual(alone.late);
  });

  it('keeps the schedule alone when what it learned is spread over everything from a second to ten minutes', () => {
    // Log-uniform over 1 s–10 min, the schedule's own design case: no plan beats it clearly.
    const wide = Array.from({ length: 40 }, (_, i) => Math.round(1_000 * 600 ** (((i * 17) % 40) / 39)));
    expect(learnedPollTimes(wide, poll, learn)).toBeUndefined();
    for (const step of [1, 2, 3, 6]) {
      const elapsedMs = step * 4_000;
      expect(nextPollDelayMs({ poll, learn, step, elapsedMs, durations: wide })).toBe(
        pollDelayMs(poll, step, undefined, elapsedMs),
      );
    }
    // The same number of durations from one kind of work that takes about a minute: learned.
    expect(learnedPollTimes(spread(40, 55_000, 65_000), poll, learn)).toBeDefined();
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
