import { describe, expect, it } from 'vitest';
import { fixedPollerFigures, mixedReadsBound, pricedReads } from '../../bench/support/mixedBound.js';
import type { WorkType } from '../../bench/support/mixedWorkload.js';

const type = (minMs: number, maxMs: number, share = 1): WorkType => ({
  type: `T${minMs}-${maxMs}`,
  share,
  minMs,
  maxMs,
  source: 'test',
});

/** Exact figures of poll times `times` (s, ascending, the last at or past the end) on one uniform type. */
function figures(t: WorkType, times: readonly number[], targets: { p50S: number; p95S: number }) {
  const [a, b] = [t.minMs / 1000, t.maxMs / 1000];
  const width = b - a;
  const running = (s: number) => Math.min(1, Math.max(0, (b - s) / width));
  let reads = 2;
  let previous = 0;
  const late = { p50: 0, p95: 0 };
  for (const at of times) {
    if (at < b) reads += running(at);
    const from = Math.max(previous, a);
    late.p50 += Math.max(0, Math.min(at, b) - targets.p50S - from) / width;
    late.p95 += Math.max(0, Math.min(at, b) - targets.p95S - from) / width;
    previous = at;
  }
  return { reads, meets: late.p50 <= 0.5 + 1e-12 && late.p95 <= 0.05 + 1e-12 };
}

describe('the fewest reads of any tracker on the mixed workload (bench/support/mixedBound.ts)', () => {
  it("measures a fixed poller's reads and delays on the model exactly", () => {
    // A duration uniform in [10 s, 20 s], read every 10 s: reads at 0, 10 and 20; the delay 20 − d.
    const uniform = fixedPollerFigures(10, [type(10_000, 20_000)]);
    expect(uniform.reads).toBeCloseTo(3, 6);
    expect(uniform.p50).toBeCloseTo(5, 2);
    expect(uniform.p95).toBeCloseTo(9.5, 2);
    // One duration of 4 s read every 2 s: seen the instant it ends.
    expect(fixedPollerFigures(2, [type(4_000, 4_000)])).toMatchObject({ reads: 3, p50: 0, p95: 0 });
  });

  it('is the two reads a type needs when its delays are no constraint', () => {
    const loose = { p50S: 60, p95S: 60 };
    expect(pricedReads(type(4_000, 9_000), loose, 5, 5, 0.1)).toBeCloseTo(2, 6);
    expect(
      mixedReadsBound(loose, { types: [type(4_000, 9_000), type(9_000, 9_000)], gridS: 0.1 }).atLeast,
    ).toBeCloseTo(2, 6);
  });

  it('is never above the reads of a schedule that meets the delays (random schedules)', () => {
    const t = type(4_000, 9_000);
    const targets = { p50S: 1, p95S: 1.88 };
    const bound = mixedReadsBound(targets, { types: [t], gridS: 0.05 }).atLeast;
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let meeting = 0;
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3_000; i += 1) {
      const times: number[] = [];
      for (let at = 4 + 2.4 * random(); at < 9; at += 0.3 + 2.2 * random()) times.push(at);
      times.push(9);
      const { reads, meets } = figures(t, times, targets);
      if (!meets) continue;
      meeting += 1;
      best = Math.min(best, reads);
      expect(reads).toBeGreaterThanOrEqual(bound - 1e-9);
    }
    expect(meeting).toBeGreaterThan(100);
    // And not far below the best of them: the bound is a real constraint, not a vacuous one.
    expect(bound).toBeGreaterThan(best - 0.5);
  });

  it("puts the 2 s poller's delays out of reach at the 30 s poller's reads, on the benchmark's mix", () => {
    const [fast, slow] = [fixedPollerFigures(2), fixedPollerFigures(30)];
    const bound = mixedReadsBound({ p50S: fast.p50, p95S: fast.p95 }, { gridS: 0.1 });
    expect(bound.atLeast).toBeGreaterThan(slow.reads);
    // The 2 s poller itself meets its own delays: the bound is below its reads.
    expect(bound.atLeast).toBeLessThan(fast.reads);
  });
});
