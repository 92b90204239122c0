// Runs that say how far they have got (issue 18): an upgrade run's steps and its step's percentage, a
// deploy's devices and theirs. Pure: how far a run is (0–1), and when to read it next. A run is read on
// its kind's schedule, unless at the pace it has kept since its progress last changed it would end
// sooner; then the next read goes where it should end (never sooner than learning.minGapMs after the
// last). Stalled progress, or none, leaves the schedule alone; SCC's Retry-After still wins.

import { pipelineOf, type RunProgress as RunSteps, runProgress } from '../render/upgradeProgress.js';
import type { DeploymentRunDto, SecureClientUpgradeRunDto } from '../scc/generated/models.js';
import { type Learning, type PollSchedule, pollDelayMs } from './schedule.js';

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** The run's overall progress as its messages show it (render/upgradeProgress.ts), while it runs. */
function overall(progress: RunSteps): number | undefined {
  return progress.kind === 'step' ? progress.overall : undefined;
}

/** How far a Secure Client upgrade run is, by its step and the step's percentageComplete. */
export function upgradeRunFraction(
  run: Pick<SecureClientUpgradeRunDto, 'upgradeRunStatus' | 'percentageComplete'> & {
    upgradeRunType?: string | null | undefined;
  },
): number | undefined {
  return overall(runProgress(run.upgradeRunStatus, run.percentageComplete, pipelineOf(run.upgradeRunType)));
}

/** How far an upgrade across tenants is, by its stage and the stage's percentageComplete. */
export function mspUpgradeRunFraction(run: {
  upgradeRunStatus?: string | null | undefined;
  percentageComplete?: number | null | undefined;
}): number | undefined {
  return overall(runProgress(run.upgradeRunStatus, run.percentageComplete, 'msp'));
}

/** How far a deploy is: nothing before DEPLOYING, then the mean of its devices' percentageComplete. */
export function deploymentFraction(
  run: Pick<DeploymentRunDto, 'deploymentRunStatus' | 'deviceDeploymentStatuses'>,
): number | undefined {
  if (run.deploymentRunStatus === 'PENDING' || run.deploymentRunStatus === 'VALIDATING_DEVICES') return 0;
  if (run.deploymentRunStatus !== 'DEPLOYING') return undefined;
  const devices = run.deviceDeploymentStatuses ?? [];
  if (devices.length === 0) return undefined;
  const done = (device: (typeof devices)[number]) =>
    device.status === 'IN_PROGRESS' ? clamp01(device.completionStatus?.percentageComplete ?? 0) : 1;
  return devices.reduce((sum, device) => sum + done(device), 0) / devices.length;
}

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
