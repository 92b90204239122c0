import { describe, expect, it } from 'vitest';
import {
  contradicted,
  learnedPollTimes,
  learnedTailMs,
  nextPollDelayMs,
  readsFor,
} from '../../src/jobs/learning.js';
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

/**
 * Follows transactions of one type as the workers do, on a simulated clock: each poll uses the plan made
 * at the last refresh (every refreshMs) from the durations that had ended, unless the transactions still
 * running contradict them; a transaction seen running counts as running past the elapsed time it was
 * seen at. `learning` off: the schedule alone. Reads and delay (ms) per transaction.
 */
function follow(
  durations: readonly number[],
  starts: readonly number[],
  first: readonly number[],
  learning: boolean,
) {
  let newestFirst = [...first];
  let plan: number[] | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  const due = durations.map((durationMs, id) => {
    const start = starts[id] ?? 0;
    return { id, start, end: start + durationMs, at: start, step: 1 };
  });
  const running = new Map<number, number>();
  let [reads, late, contradictions] = [0, 0, 0];
  while (due.length > 0) {
    due.sort((a, b) => a.at - b.at);
    const next = due.shift();
    if (!next) break;
    reads += 1;
    if (next.at >= next.end) {
      late += next.at - next.end;
      running.delete(next.id);
      newestFirst = [next.end - next.start, ...newestFirst].slice(0, learn.keep);
      continue;
    }
    const elapsedMs = next.at - next.start;
    running.set(next.id, elapsedMs);
    if (learning && next.at - readAt >= learn.refreshMs) {
      readAt = next.at;
      const tail = learnedTailMs(newestFirst, learn) ?? Number.POSITIVE_INFINITY;
      const past = [...running.values()].filter((ms) => ms > tail).length;
      const against = contradicted(newestFirst.length, past);
      if (against) contradictions += 1;
      plan = against ? undefined : learnedPollTimes(newestFirst, poll, learn);
    }
    const delay = learning
      ? nextPollDelayMs({ poll, learn, step: next.step, elapsedMs, plan })
      : pollDelayMs(poll, next.step, undefined, elapsedMs);
    due.push({ ...next, at: next.at + delay, step: next.step + 1 });
  }
  return { reads: reads / durations.length, late: late / durations.length, contradictions };
}

/** 1,000 transactions log-uniform over 1 s–10 min starting evenly within `spreadMs`, 40 of them learned. */
function followTogether(spreadMs: number, learning: boolean) {
  let seed = 18;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const durations = Array.from({ length: 1_000 }, () => Math.round(1_000 * 600 ** random()));
  const first = Array.from({ length: 40 }, () => Math.round(1_000 * 600 ** random()));
  const starts = durations.map((_, i) => (spreadMs * i) / durations.length);
  return follow(durations, starts, first, learning);
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
    // 1,000 transactions, durations log-uniform over 1 s–10 min, starting all at once or within 30 s or
    // 100 s: the short ones end first and become the newest durations, so what has been learned leans
    // short of the long ones still running, and (as a worker does) the plan is remade from what had
    // ended at every refresh. Before the running ones counted as evidence (learning.ts, contradicted),
    // following them within 30 s cost 1.9 times the schedule's reads.
    for (const spreadMs of [0, 30_000, 100_000]) {
      const [learning, alone] = [followTogether(spreadMs, true), followTogether(spreadMs, false)];
      expect(learning.reads).toBeLessThanOrEqual(1.03 * alone.reads);
      expect(learning.late).toBeLessThanOrEqual(1.01 * alone.late);
    }
  });

  it('still learns when transactions of a type arrive one after another', () => {
    // A minute or two each (enabling Multicloud Defense), 150 over 15 minutes, after 40 of them learned:
    // nothing contradicts what was learned, and people are told far sooner than on the schedule alone.
    const durations = Array.from({ length: 150 }, (_, i) => 62_000 + ((i * 37) % 150) * 400);
    const starts = durations.map((_, i) => i * 6_000);
    const first = spread(40, 62_000, 122_000);
    const [learning, alone] = [
      follow(durations, starts, first, true),
      follow(durations, starts, first, false),
    ];
    expect(learning.contradictions).toBe(0);
    expect(learning.late).toBeLessThan(0.7 * alone.late);
  });

  it('stops trusting what it learned while transactions still running say it is wrong', () => {
    const learned = spread(40, 55_000, 65_000);
    const tail = learnedTailMs(learned, learn) ?? 0;
    expect(tail).toBeGreaterThan(60_000);
    expect(tail).toBeLessThanOrEqual(65_000);
    // Two of 42 seen running past the learned 95th percentile are its 5 %; three are more: the type has
    // become slower (or many started together), and the schedule alone decides until it is learned.
    expect(contradicted(learned.length, 2)).toBe(false);
    expect(contradicted(learned.length, 3)).toBe(true);
    expect(learnedTailMs([], learn)).toBeUndefined();
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
