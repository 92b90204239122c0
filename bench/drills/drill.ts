// What every drill reports: what it did, how many outcomes were lost and duplicated, and what it found
// on the way. The runner prints the reports and exits non-zero when anything was lost or duplicated.
import type { ScheduleOverrides } from '../../src/jobs/schedule.js';

export interface DrillReport {
  did: string[];
  lost: number;
  duplicated: number;
  /** Observations and checks that are neither loss nor duplication (a failed check makes `failed` true). */
  findings: string[];
  /** A check other than loss/duplication failed (e.g. a reply over Slack's limits). */
  failed?: boolean;
}

export interface Drill {
  name: string;
  summary: string;
  /** How long it may take (default: the runner's 5 minutes). */
  boundMs?: number;
  run(): Promise<DrillReport>;
}

/** Millisecond timings: the production machinery, fast enough for a drill of a few seconds. */
export const DRILL_SCHEDULE: ScheduleOverrides = {
  poll: {
    transaction: { firstDelayMs: 50, factor: 1.5, capMs: 300, deadlineMs: 120_000 },
    upgradeRun: { firstDelayMs: 50, factor: 1.5, capMs: 300, deadlineMs: 120_000 },
  },
  maxTransientFailures: 8,
  transientBaseMs: 50,
  transientCapMs: 1_000,
  slack: { postIntervalMs: 20, updateIntervalMs: 20, attempts: 8, backoffMs: 50, lockMs: 3_000 },
  // A killed worker's jobs are rescued about 1.5 s later (lock expiry, then a stall check).
  workers: { lockDurationMs: 1_000, stalledIntervalMs: 500, maxStalledCount: 10 },
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds or `timeoutMs` passes; returns whether it held. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}
