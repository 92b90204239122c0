// Runs that say how far they have got (issue 18): an upgrade run's steps and its step's percentage, a
// deploy's devices and theirs (each run kind says how far it is, 0–1: src/follow/). Pure: when to read it
// next. A run is read on its kind's schedule, unless at the pace it has kept since its progress last
// changed it would end sooner; then the next read goes where it should end (never sooner than
// learning.minGapMs after the last). Stalled progress, or none, leaves the schedule alone; SCC's
// Retry-After still wins.

import { type Learning, type PollSchedule, pollDelayMs } from './schedule.js';

/** How far a run was, and when fwbot read it (ms since following began). */
export interface RunProgress {
  fraction: number;
  atMs: number;
}

export interface NextRunPoll {
  poll: PollSchedule;
  learn: Learning;
  /** Polls made so far. */
  step: number;
  /** Since following began, now; the latest read was at this time too. */
  elapsedMs: number;
  /** The read at which the progress last changed before this one. */
  before?: RunProgress | undefined;
  /** How far the run is by this read. */
  fraction?: number | undefined;
  retryAfterMs?: number | undefined;
}

/** When the run should end at the pace it kept from `before` to now (ms since following began). */
export function expectedEndMs(before: RunProgress, now: RunProgress): number | undefined {
  const gained = now.fraction - before.fraction;
  const took = now.atMs - before.atMs;
  if (!(gained > 0) || !(took > 0) || now.fraction >= 1) return undefined;
  return now.atMs + ((1 - now.fraction) * took) / gained;
}

/** The delay before the next read of a run that reports its progress. */
export function nextRunPollDelayMs(next: NextRunPoll): number {
  const { poll, learn, step, elapsedMs, before, fraction, retryAfterMs } = next;
  const scheduled = pollDelayMs(poll, step, undefined, elapsedMs);
  const end =
    learn.enabled && before && fraction !== undefined
      ? expectedEndMs(before, { fraction, atMs: elapsedMs })
      : undefined;
  const delay =
    end === undefined ? scheduled : Math.min(scheduled, Math.max(learn.minGapMs, end - elapsedMs));
  return Math.max(Math.round(delay), retryAfterMs ?? 0);
}

/** The progress to keep for the next read: the latest whose fraction differs from the one kept. */
export function progressToKeep(
  kept: RunProgress | undefined,
  fraction: number | undefined,
  elapsedMs: number,
): RunProgress | undefined {
  if (fraction === undefined) return kept;
  if (kept && kept.fraction === fraction) return kept;
  return { fraction, atMs: elapsedMs };
}
