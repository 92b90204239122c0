// What polling alone can achieve on the tracking benchmark's workload: durations log-uniform between
// `minS` and `maxS` seconds. Exact figures of a poll schedule (reads per transaction, median, mean and p95
// delay between completion and the poll that sees it), and the fewest reads any schedule needs to keep
// its p95 delay under a target (a dynamic programme over every schedule on a grid). No Slack, Redis or
// worker overhead: the benchmark's measured delays add those on top.

import { type PollSchedule, pollDelayMs } from '../../src/jobs/schedule.js';

export interface Workload {
  minS: number;
  maxS: number;
}

export interface PollingFigures {
  /** SCC reads per transaction, the one that sees it finished included. */
  reads: number;
  p50: number;
  mean: number;
  p95: number;
}

function cdf(workload: Workload): (t: number) => number {
  const span = Math.log(workload.maxS / workload.minS);
  return (t) => (t <= workload.minS ? 0 : t >= workload.maxS ? 1 : Math.log(t / workload.minS) / span);
}

/**
 * Poll times (seconds after following began, the first at 0) of a tracking schedule up to `untilS`, from
 * the workers' own pollDelayMs, so the figures are those of the schedule fwbot ships.
 */
export function pollTimes(schedule: PollSchedule, untilS: number): number[] {
  const times = [0];
  let atMs = 0;
  for (let step = 1; atMs < untilS * 1000; step += 1) {
    atMs += pollDelayMs(schedule, step, undefined, atMs);
    times.push(atMs / 1000);
  }
  return times;
}

/** Exact figures of a schedule on the workload (poll times in seconds, ascending, the first at 0). */
export function pollingFigures(workload: Workload, times: readonly number[]): PollingFigures {
  const F = cdf(workload);
  let reads = 0;
  const gaps: [number, number][] = [];
  let previous: number | undefined;
  for (const at of times) {
    // A poll is made for every transaction still running after the previous one.
    reads += previous === undefined ? 1 : 1 - F(previous);
    if (previous !== undefined) gaps.push([previous, at]);
    previous = at;
    if (at >= workload.maxS) break;
  }
  // P(delay > x): finished in (a, b − x] of a gap (a, b], seen at b.
  const later = (x: number) => gaps.reduce((sum, [a, b]) => sum + Math.max(0, F(b - x) - F(a)), 0);
  const quantile = (p: number) => {
    let low = 0;
    let high = workload.maxS;
    for (let i = 0; i < 60; i += 1) {
      const mid = (low + high) / 2;
      if (later(mid) > 1 - p) low = mid;
      else high = mid;
    }
    return high;
  };
  let mean = 0;
  const step = 0.01;
  for (let x = 0; x < workload.maxS; x += step) {
    const share = later(x);
    if (share === 0) break;
    mean += share * step;
  }
  return { reads, p50: quantile(0.5), mean, p95: quantile(0.95) };
}

export interface ReadsBound {
  /** No schedule on the grid keeps p95 ≤ the target with fewer reads per transaction than this. */
  atLeast: number;
  /** A schedule that keeps p95 ≤ the target: its poll times and its own figures. */
  attained: PollingFigures & { times: number[] };
}

/**
 * The fewest reads per transaction of any schedule whose p95 delay is at most `targetS`: an exact dynamic
 * programme over poll times on a `gridS` grid, whose state is the time of the last poll and the share of
 * transactions seen later than the target so far (in steps of `shareStep`). Rounding each gap's late share
 * down gives a lower bound; rounding it up gives a schedule that really meets the target.
 */
export function readsBoundForP95(
  workload: Workload,
  targetS: number,
  options: { gridS?: number; shareStep?: number; maxGapS?: number } = {},
): ReadsBound {
  const gridS = options.gridS ?? 0.5;
  const shareStep = options.shareStep ?? 0.0002;
  const F = cdf(workload);
  const n = Math.round(workload.maxS / gridS) + 1;
  const levels = Math.round(0.05 / shareStep);
  // Any gap up to the whole span: the bound covers every schedule on the grid.
  const window = Math.round((options.maxGapS ?? workload.maxS) / gridS);
  const solve = (round: (units: number) => number) => {
    const width = levels + 1;
    const best = new Float64Array(n * width).fill(Number.POSITIVE_INFINITY);
    const from = new Int32Array(n * width).fill(-1);
    best[0] = 1;
    for (let b = 1; b < n; b += 1) {
      const seenLate = F(b * gridS - targetS);
      for (let a = Math.max(0, b - window); a < b; a += 1) {
        const reads = 1 - F(a * gridS);
        const late = round(Math.max(0, seenLate - F(a * gridS)) / shareStep);
        for (let k = 0; k + late <= levels; k += 1) {
          const value = (best[a * width + k] ?? Number.POSITIVE_INFINITY) + reads;
          const to = b * width + k + late;
          if (value < (best[to] ?? Number.POSITIVE_INFINITY)) {
            best[to] = value;
            from[to] = a * width + k;
          }
        }
      }
    }
    let end = -1;
    for (let k = 0; k <= levels; k += 1) {
      const at = (n - 1) * width + k;
      if (end < 0 || (best[at] ?? Number.POSITIVE_INFINITY) < (best[end] ?? Number.POSITIVE_INFINITY))
        end = at;
    }
    const times: number[] = [];
    for (let i = end; i >= 0; i = from[i] ?? -1) times.unshift(Math.floor(i / width) * gridS);
    return { value: best[end] ?? Number.POSITIVE_INFINITY, times };
  };
  const lower = solve((units) => Math.floor(units + 1e-9));
  const upper = solve((units) => Math.ceil(units - 1e-9));
  return { atLeast: lower.value, attained: { ...pollingFigures(workload, upper.times), times: upper.times } };
}
