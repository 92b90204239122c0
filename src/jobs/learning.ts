// How long SCC's work takes, learned from what fwbot has followed to the end, and where to poll next
// because of it (issue 18). Pure: durations in, poll times out; the Redis side is learningStore.ts.
//
// The durations of one kind of work on one SCC (profile, transaction type) are kept newest first, and a
// duration's weight halves with every `halfLife` newer ones, so a slower SCC outweighs the past within a
// few transactions. From them a smoothed distribution (a kernel estimate on log-durations: work takes
// "seconds" or "minutes", so the smoothing scales with the duration): S(t), the share still running at
// t, and f(t), the share ending around t. A poll at t costs a read for every transaction still running,
// S(t); if each second a finished transaction waits is worth c reads, the gap that balances the two is
// √(2·S(t) / (c·f(t))) (the classic inspection-spacing result): short where work is likely to end, long
// where it is not, and shorter as the distribution narrows. c is the highest whose polls cost, on the
// learned durations, no more reads than the schedule alone would (times `readBudget`): learning spends
// the same reads where the work ends instead of where it does not. Every gap stays between `minGapMs`
// and the kind's cap (the late cap once past lateAfterMs), never longer than the schedule alone allows.
//
// Two rules keep learning from costing more than it saves (issue 18, the uniform workload):
// - The plan ends at the first poll past the longest duration learned, or sooner where the smoothed
//   distribution has only `PLAN_END` of the work still running. Work still running past the plan is
//   slower than (nearly) everything learned, and what was learned says little about when it will end:
//   from there it is read when the schedule alone would have read it (the schedule's own poll times,
//   counted from when following began), so a straggler costs no more reads than without learning. This
//   matters most when many transactions start together: the short ones end and are learned first, so
//   the plans lean short, and a long transaction is always just past them. Re-planned densely at every
//   new plan (the kernel's tail, then the schedule's growth restarted at the end of each plan), a
//   long transaction cost up to three times the schedule's reads.
// - A plan is used only when, on the learned durations themselves, it tells people sooner than the
//   schedule alone by a clear margin (`MIN_GAIN` of the mean delay) and no later at the 95th percentile.
//   Durations spread over everything from a second to ten minutes (the schedule's own design case) give a
//   plan no better than the schedule: the schedule is kept.
// - Learned durations are those that have ended, and when many transactions of a type start close
//   together, the short ones end first: what has been learned then says the type is shorter than it is.
//   The transactions of the type still running say otherwise, and so does any of them seen running past
//   nearly everything learned. When more of them have been seen running past the learned 95th percentile
//   than PLAN_END of all the evidence (learned and running), what was learned is contradicted, and the
//   schedule alone decides until it no longer is (`contradicted`). The same rule notices a type that has
//   become slower before the first slow transaction ends.
import { type Learning, type PollSchedule, pollDelayMs } from './schedule.js';

/** The share of learned work still running at which the plan ends: past it, the schedule's own times. */
const PLAN_END = 0.05;
/** A plan must cut the mean delay on the learned durations at least this much (0.2: by a fifth). */
const MIN_GAIN = 0.2;
const MIN_BANDWIDTH = 0.02;
/** Points of the tabulated distribution. */
const GRID = 200;

/** The learned distribution of durations (ms), smoothed: share still running at t, density at t. */
export interface LearnedDistribution {
  survival(t: number): number;
  density(t: number): number;
  /** The longest duration learned, widened by the smoothing. */
  readonly upperMs: number;
}

/** Error function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7): enough to place polls. */
function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - poly * Math.exp(-a * a));
}

const normalCdf = (z: number) => 0.5 * (1 + erf(z / Math.SQRT2));
const normalPdf = (z: number) => Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);

/**
 * The distribution of `newestFirst` durations (ms, positive), each weighted 2^(−rank/halfLife): a
 * Gaussian kernel on log-durations, its bandwidth Silverman's rule on the weighted spread.
 */
export function learnedDistribution(newestFirst: readonly number[], halfLife: number): LearnedDistribution {
  const logs = newestFirst.filter((ms) => ms > 0).map((ms) => Math.log(ms));
  const weights = recencyWeights(logs.length, halfLife);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const mean = logs.reduce((sum, y, i) => sum + (weights[i] ?? 0) * y, 0) / total;
  const variance = logs.reduce((sum, y, i) => sum + (weights[i] ?? 0) * (y - mean) ** 2, 0) / total;
  // The effective number of durations, so that old ones with little weight do not narrow the kernel.
  const effective = total ** 2 / weights.reduce((sum, w) => sum + w * w, 0);
  const h = Math.max(MIN_BANDWIDTH, 1.06 * Math.sqrt(variance) * effective ** -0.2);
  const exactSurvival = (y: number) =>
    logs.reduce((sum, x, i) => sum + (weights[i] ?? 0) * (1 - normalCdf((y - x) / h)), 0) / total;
  const exactDensity = (y: number) =>
    logs.reduce((sum, x, i) => sum + (weights[i] ?? 0) * normalPdf((y - x) / h), 0) / total / h;
  // Tabulated once on a grid of log-durations and interpolated: a plan asks thousands of times.
  const from = Math.min(...logs) - 4 * h;
  const to = Math.max(...logs) + 4 * h;
  const step = (to - from) / (GRID - 1);
  const grid = Array.from({ length: GRID }, (_, i) => from + i * step);
  const survivals = grid.map(exactSurvival);
  const densities = grid.map(exactDensity);
  const lookup = (table: readonly number[], below: number, above: number) => (t: number) => {
    if (t <= 0) return below;
    const at = (Math.log(t) - from) / step;
    if (at <= 0) return below;
    if (at >= GRID - 1) return above;
    const i = Math.floor(at);
    const a = table[i] ?? 0;
    return a + ((table[i + 1] ?? a) - a) * (at - i);
  };
  const survival = lookup(survivals, 1, 0);
  const logDensity = lookup(densities, 0, 0);
  return {
    survival,
    density: (t: number) => (t > 0 ? logDensity(t) / t : 0),
    upperMs: Math.exp(Math.max(...logs) + 3 * h),
  };
}

/**
 * The learned durations' 95th percentile, weighted as in the distribution: a transaction seen running past
 * it is evidence against them. Undefined when nothing is learned.
 */
export function learnedTailMs(newestFirst: readonly number[], learn: Learning): number | undefined {
  const durations = usable(newestFirst, learn);
  if (durations.length === 0) return undefined;
  return weightedQuantile(durations, recencyWeights(durations.length, learn.halfLife), 1 - PLAN_END);
}

/**
 * Whether the transactions still running contradict what was learned: more of them seen running past the
 * learned tail (learnedTailMs) than PLAN_END of all the evidence, the `learned` durations and those.
 */
export function contradicted(learned: number, runningPastTail: number): boolean {
  return runningPastTail > PLAN_END * (learned + runningPastTail);
}

const usable = (newestFirst: readonly number[], learn: Learning) =>
  newestFirst.slice(0, learn.keep).filter((ms) => Number.isFinite(ms) && ms > 0);

const recencyWeights = (count: number, halfLife: number) =>
  Array.from({ length: count }, (_, rank) => 2 ** (-rank / halfLife));

/** The cap of a schedule at `elapsedMs`: the late cap once past lateAfterMs. */
function capAt(poll: PollSchedule, elapsedMs: number): number {
  const late = poll.lateAfterMs !== undefined && elapsedMs >= poll.lateAfterMs;
  return late ? (poll.lateCapMs ?? poll.capMs) : poll.capMs;
}

/** The range searched for the worth of a second of delay, in reads. */
const DELAY_COST = { min: 0.05, max: 100 } as const;
const SEARCH_STEPS = 10;

/**
 * Poll times (ms after following began, the first poll at 0 not included) for a learned distribution
 * when a second of delay is worth `delayCost` reads, up to where almost all of the work has ended.
 */
export function placePolls(
  learned: LearnedDistribution,
  poll: PollSchedule,
  minGapMs: number,
  delayCost: number,
  /** The plan ends at its first poll at or past this, or sooner where only PLAN_END is still running. */
  endMs = Number.POSITIVE_INFINITY,
): number[] {
  // The balanced gap at s, in ms (densities are per ms, delayCost per second of delay).
  const balanced = (s: number) => {
    const density = learned.density(s);
    if (density <= 0) return Number.POSITIVE_INFINITY;
    return Math.sqrt((2000 * learned.survival(s)) / (delayCost * density));
  };
  const times: number[] = [];
  let at = 0;
  while (learned.survival(at) > PLAN_END && at < Math.min(learned.upperMs, endMs) && at < poll.deadlineMs) {
    const cap = capAt(poll, at);
    // A gap is kept no longer than the balance anywhere it spans: a poll never steps over where work is
    // likely to end.
    const probe = minGapMs / 2;
    let gap = minGapMs;
    let tightest = Number.POSITIVE_INFINITY;
    for (let ahead = probe; ahead <= cap; ahead += probe) {
      tightest = Math.min(tightest, balanced(at + ahead));
      if (ahead > tightest) break;
      gap = Math.max(minGapMs, ahead);
    }
    at += Math.round(Math.min(cap, gap));
    times.push(at);
  }
  return times;
}

/** SCC reads to see work of `durationMs` ended, the first poll at 0 included, delays from `next`. */
export function readsFor(durationMs: number, next: (step: number, elapsedMs: number) => number): number {
  let at = 0;
  let reads = 1;
  for (let step = 1; at < durationMs; step += 1) {
    at += Math.max(1, next(step, at));
    reads += 1;
  }
  return reads;
}

/**
 * Poll times (ms after following began, the first poll at 0 not included) for work whose learned
 * durations are `newestFirst` (SCC ms); undefined when too little is known (the schedule alone decides).
 * The worth of a second of delay is the highest whose polls, on the learned durations (weighted as in
 * the distribution), cost no more than `readBudget` times the reads of the schedule alone.
 */
export function learnedPollTimes(
  newestFirst: readonly number[],
  poll: PollSchedule,
  learn: Learning,
): number[] | undefined {
  const durations = usable(newestFirst, learn);
  if (!learn.enabled || durations.length < learn.minSamples) return undefined;
  const learned = learnedDistribution(durations, learn.halfLife);
  const weights = recencyWeights(durations.length, learn.halfLife);
  const weighted = (reads: (ms: number) => number) =>
    durations.reduce((sum, ms, i) => sum + (weights[i] ?? 0) * reads(ms), 0);
  // No further than the first poll past the longest duration learned: beyond, nothing learned says
  // when work ends (and when many start together, the longest learned is where the plan stops).
  const endMs = Math.max(...durations);
  const budget =
    learn.readBudget * weighted((ms) => readsFor(ms, (step, at) => pollDelayMs(poll, step, undefined, at)));
  let low: number = DELAY_COST.min;
  let high: number = DELAY_COST.max;
  let best = placePolls(learned, poll, learn.minGapMs, low, endMs);
  for (let i = 0; i < SEARCH_STEPS; i += 1) {
    const cost = Math.sqrt(low * high);
    const plan = placePolls(learned, poll, learn.minGapMs, cost, endMs);
    const reads = weighted((ms) => readsOnPlan(plan, ms, poll, learn));
    if (reads <= budget) {
      low = cost;
      best = plan;
    } else high = cost;
  }
  return worthIt(best, durations, weights, poll, learn) ? best : undefined;
}

/**
 * Whether `plan` beats the schedule alone on the learned durations (weighted as in the distribution):
 * a mean delay at least MIN_GAIN lower, and a 95th percentile no higher.
 */
function worthIt(
  plan: readonly number[],
  durations: readonly number[],
  weights: readonly number[],
  poll: PollSchedule,
  learn: Learning,
): boolean {
  const alone = (step: number, at: number) => pollDelayMs(poll, step, undefined, at);
  const planned = (step: number, at: number) => plannedDelay(plan, poll, learn, at) ?? alone(step, at);
  const late = (next: (step: number, at: number) => number) => durations.map((ms) => seenAfter(ms, next));
  const [withPlan, without] = [late(planned), late(alone)];
  const mean = (values: readonly number[]) => values.reduce((sum, v, i) => sum + v * (weights[i] ?? 0), 0);
  return (
    mean(withPlan) <= (1 - MIN_GAIN) * mean(without) &&
    weightedQuantile(withPlan, weights, 0.95) <= weightedQuantile(without, weights, 0.95)
  );
}

/** How long after work of `durationMs` ended the poll that sees it comes, delays from `next`. */
function seenAfter(durationMs: number, next: (step: number, elapsedMs: number) => number): number {
  let at = 0;
  for (let step = 1; at < durationMs; step += 1) at += Math.max(1, next(step, at));
  return at - durationMs;
}

/** The smallest of `values` with at least share `p` of the weight at or below it. */
function weightedQuantile(values: readonly number[], weights: readonly number[], p: number): number {
  const order = values.map((_, i) => i).sort((a, b) => (values[a] ?? 0) - (values[b] ?? 0));
  const total = weights.reduce((sum, w) => sum + w, 0);
  let below = 0;
  for (const i of order) {
    below += weights[i] ?? 0;
    if (below >= p * total) return values[i] ?? 0;
  }
  return values[order.at(-1) ?? 0] ?? 0;
}

/**
 * SCC reads to see work of `durationMs` ended when polled on `plan` (the first poll at 0 included): the
 * plan's gaps are all at least minGapMs, so polls on time visit every planned time in turn.
 */
function readsOnPlan(plan: readonly number[], durationMs: number, poll: PollSchedule, learn: Learning) {
  let low = 0;
  let high = plan.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((plan[mid] ?? 0) >= durationMs) high = mid;
    else low = mid + 1;
  }
  if (low < plan.length) return low + 2;
  let at = plan.at(-1) ?? 0;
  let reads = plan.length + 1;
  while (at < durationMs) {
    at += plannedDelay(plan, poll, learn, at) ?? poll.capMs;
    reads += 1;
  }
  return reads;
}

export interface NextPoll {
  poll: PollSchedule;
  learn: Learning;
  /** Polls made so far (1 after the first). */
  step: number;
  /** Since following (this leg) began, now. */
  elapsedMs: number;
  /** Learned durations of this kind of work on this SCC, newest first; absent when none. */
  durations?: readonly number[] | undefined;
  /** SCC's Retry-After, when it gave one: it wins when longer. */
  retryAfterMs?: number | undefined;
  /** The plan for `durations`, when the caller has it already (learnedPollTimes of the same). */
  plan?: readonly number[] | undefined;
}

/** The delay before the next poll: the learned plan when there is one, the schedule otherwise. */
export function nextPollDelayMs(next: NextPoll): number {
  const { poll, learn, step, elapsedMs, retryAfterMs } = next;
  const plan = next.plan ?? learnedPollTimes(next.durations ?? [], poll, learn);
  const planned = plan === undefined ? undefined : plannedDelay(plan, poll, learn, elapsedMs);
  const delay = planned ?? pollDelayMs(poll, step, undefined, elapsedMs);
  return Math.max(delay, retryAfterMs ?? 0);
}

function plannedDelay(
  plan: readonly number[],
  poll: PollSchedule,
  learn: Learning,
  elapsedMs: number,
): number | undefined {
  if (plan.length === 0) return undefined;
  // A poll that ran a little late skips the planned times it has passed, and those too close to it.
  const nextAt = plan.find((at) => at >= elapsedMs + learn.minGapMs / 2);
  if (nextAt !== undefined) return Math.min(nextAt - elapsedMs, capAt(poll, elapsedMs));
  // Slower than nearly everything learned: when the schedule alone would read it next.
  return Math.min(capAt(poll, elapsedMs), scheduledAfter(poll, elapsedMs, learn.minGapMs / 2) - elapsedMs);
}

/**
 * The schedule alone's first poll time (ms since following began) at least `marginMs` after
 * `elapsedMs`: where work past the learned plan is read, as it would have been without learning.
 */
function scheduledAfter(poll: PollSchedule, elapsedMs: number, marginMs = 0): number {
  let at = 0;
  for (let step = 1; at < elapsedMs + marginMs; step += 1) at += pollDelayMs(poll, step, undefined, at);
  return at;
}
