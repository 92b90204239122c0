// The fewest SCC reads any tracker can make on the mixed workload (bench/support/mixedWorkload.ts) while
// telling people as soon as a fixed poller does: a lower bound that holds for every schedule, with or
// without a cap, learned or known in advance. The tracker is even given what no real one has: each
// transaction's type and that type's exact duration distribution (the simulator's own). What it cannot
// know is one transaction's duration, because the simulator draws each independently: all a poll of
// running work tells is that it is still running, so every strategy for one transaction is a list of poll
// times fixed by its type.
//
// The bound is Lagrangian. To keep the p50 delay at most θ50 and the p95 at most θ95, at most half of
// the transactions may be seen later than θ50 and at most 5 % later than θ95. Pricing each late one at
// λ50 and λ95 reads and minimising reads plus price, type by type (an exact dynamic programme over poll
// times on a grid), gives, minus the prices of the allowed shares, a figure no schedule meeting both
// delays can beat, whatever λ; the bound is the best λ found.
import { WORK_TYPES, type WorkType } from './mixedWorkload.js';

export interface DelayTargets {
  /** p50 delay, seconds: at most half the transactions are seen later than this. */
  p50S: number;
  /** p95 delay, seconds: at most 5 % are seen later than this. */
  p95S: number;
}

export interface MixedReadsBound {
  /** No tracker meeting both delays reads a transaction fewer times than this, on average. */
  atLeast: number;
  /** The prices of a late transaction (reads) at which the bound was found. */
  lambda50: number;
  lambda95: number;
}

/**
 * The least of reads + λ50·P(seen later than θ50) + λ95·P(seen later than θ95) for one type, its duration
 * uniform in [minMs, maxMs]: the read at 0, the one that sees it ended, and one for every poll at t it
 * is still running at (S(t), the share still running). A type of one duration needs the two reads only.
 */
export function pricedReads(
  type: Pick<WorkType, 'minMs' | 'maxMs'>,
  targets: DelayTargets,
  lambda50: number,
  lambda95: number,
  gridS: number,
): number {
  const width = (type.maxMs - type.minMs) / 1000;
  if (width <= 0) return 2;
  const steps = Math.max(1, Math.ceil(width / gridS));
  const step = width / steps;
  // A real schedule's polls fall anywhere, not on the grid: each is priced as if it were as late in its
  // grid step as it could be (one step fewer still running) and each gap as one step shorter, so that no
  // schedule off the grid does better than the figure on it: a lower bound, tighter as the grid is finer.
  const late50 = targets.p50S / step;
  const late95 = targets.p95S / step;
  const price50 = (lambda50 * step) / width;
  const price95 = (lambda95 * step) / width;
  // best[k]: the least priced cost of the work still running at a + k·step, the last poll made there.
  const best = new Float64Array(steps + 1);
  for (let k = steps - 1; k >= 0; k -= 1) {
    let least = Number.POSITIVE_INFINITY;
    for (let m = k + 1; m <= steps; m += 1) {
      const gap = m - k - 1;
      const cost =
        Math.max(0, steps - m - 1) / steps +
        (gap > late50 ? price50 * (gap - late50) : 0) +
        (gap > late95 ? price95 * (gap - late95) : 0) +
        (best[m] ?? 0);
      if (cost < least) least = cost;
    }
    best[k] = least;
  }
  return 2 + (best[0] ?? 0);
}

/** The Lagrangian figure at one pair of prices: a lower bound on the reads whatever the prices. */
function boundAt(
  types: readonly WorkType[],
  targets: DelayTargets,
  lambda50: number,
  lambda95: number,
  gridS: number,
): number {
  const total = types.reduce((sum, t) => sum + t.share, 0);
  const priced = types.reduce(
    (sum, t) => sum + (t.share / total) * pricedReads(t, targets, lambda50, lambda95, gridS),
    0,
  );
  return priced - 0.5 * lambda50 - 0.05 * lambda95;
}

/** The best of a concave function of one variable on [low, high] (golden-section search). */
function maximise(f: (x: number) => number, low: number, high: number, rounds: number) {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let [a, b] = [low, high];
  let c = b - ratio * (b - a);
  let d = a + ratio * (b - a);
  let [fc, fd] = [f(c), f(d)];
  for (let i = 0; i < rounds; i += 1) {
    if (fc >= fd) {
      [b, d, fd] = [d, c, fc];
      c = b - ratio * (b - a);
      fc = f(c);
    } else {
      [a, c, fc] = [c, d, fd];
      d = a + ratio * (b - a);
      fd = f(d);
    }
  }
  const inside = fc >= fd ? { x: c, value: fc } : { x: d, value: fd };
  // No price at all is often best (a delay that binds nothing): the search never lands on the edge.
  const edge = f(low);
  return edge >= inside.value ? { x: low, value: edge } : inside;
}

/**
 * The fewest reads per transaction of any tracker on the mixed workload whose p50 and p95 delays are at
 * most `targets` (polling alone: Slack and worker overhead only add to a real tracker's delays, so the
 * bound holds for measured delays too). Every figure the search visits is itself a valid bound; the
 * search (concave in both prices) only looks for the highest.
 */
export function mixedReadsBound(
  targets: DelayTargets,
  options: { gridS?: number; maxPrice?: number; rounds?: number; types?: readonly WorkType[] } = {},
): MixedReadsBound {
  const gridS = options.gridS ?? 0.05;
  const maxPrice = options.maxPrice ?? 50;
  const rounds = options.rounds ?? 20;
  const types = options.types ?? WORK_TYPES;
  let lambda95 = 0;
  const outer = maximise(
    (l50) => {
      const inner = maximise((l95) => boundAt(types, targets, l50, l95, gridS), 0, maxPrice, rounds);
      lambda95 = inner.x;
      return inner.value;
    },
    0,
    maxPrice,
    rounds,
  );
  const lambda50 = outer.x;
  // The inner search is run again at the outer best, so the prices returned are the bound's own.
  const inner = maximise((l95) => boundAt(types, targets, lambda50, l95, gridS), 0, maxPrice, rounds);
  lambda95 = inner.x;
  return { atLeast: Math.max(0, inner.value), lambda50, lambda95 };
}

export interface FixedPollerFigures {
  everyS: number;
  /** SCC reads per transaction, the first at 0 and the one that sees it ended included. */
  reads: number;
  /** Delay from the end of the work to the poll that sees it, seconds. */
  p50: number;
  p95: number;
}

/**
 * A fixed poller every `everyS` seconds on the model itself (polling alone): 1 + ⌈d / every⌉ reads and a
 * delay of every·⌈d / every⌉ − d for a duration d, averaged over each type's uniform range (a fine sum).
 */
export function fixedPollerFigures(
  everyS: number,
  types: readonly WorkType[] = WORK_TYPES,
): FixedPollerFigures {
  const total = types.reduce((sum, t) => sum + t.share, 0);
  const every = everyS * 1000;
  // Each type's range in `points` equal parts, each part's midpoint standing for it.
  const points = 20_000;
  const samples: { weight: number; delayMs: number }[] = [];
  let reads = 0;
  for (const t of types) {
    const count = t.maxMs === t.minMs ? 1 : points;
    for (let i = 0; i < count; i += 1) {
      const ms = count === 1 ? t.minMs : t.minMs + ((t.maxMs - t.minMs) * (i + 0.5)) / count;
      const polls = Math.ceil(ms / every);
      const weight = t.share / total / count;
      reads += weight * (1 + polls);
      samples.push({ weight, delayMs: polls * every - ms });
    }
  }
  samples.sort((a, b) => a.delayMs - b.delayMs);
  const quantile = (p: number) => {
    let below = 0;
    for (const sample of samples) {
      below += sample.weight;
      if (below >= p - 1e-12) return sample.delayMs / 1000;
    }
    return (samples.at(-1)?.delayMs ?? 0) / 1000;
  };
  return { everyS, reads, p50: quantile(0.5), p95: quantile(0.95) };
}
