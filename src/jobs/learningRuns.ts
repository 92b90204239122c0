// Runs that say how far they have got (issue 18): an upgrade run's steps and its step's percentage, a
// deploy's devices and theirs. Pure: how far a run is (0–1), and when to read it next. A run is read on
// its kind's schedule, unless at the pace it has kept since its progress last changed it would end
// sooner; then the next read goes where it should end (never sooner than learning.minGapMs after the
// last). Stalled progress, or none, leaves the schedule alone; SCC's Retry-After still wins.
import type { DeploymentRunDto, SecureClientUpgradeRunDto } from '../scc/generated/models.js';
import { type Learning, type PollSchedule, pollDelayMs } from './schedule.js';

/** The steps of a Secure Client upgrade on ASAs, in SCC's order (upgradeRunStatus before the end). */
const ASA_UPGRADE_STEPS = [
  'VALIDATING_INPUTS',
  'FETCHING_CURRENTLY_INSTALLED_PACKAGES',
  'CHECKING_ASA_DEVICES_DNS',
  'CHECKING_ASA_DEVICES_DNS_RESULTS',
  'VALIDATING_RA_VPN_SLOT_CONFLICTS',
  'UPLOADING_IMAGES',
  'CHECKING_IMAGES_UPLOAD_RESULTS',
  'REGISTERING_NEW_RA_VPN_IMAGES',
  'CHECKING_REGISTER_NEW_RA_VPN_IMAGES_RESULTS',
  'UNREGISTERING_OLD_RA_VPN_IMAGES',
  'CHECKING_UNREGISTER_OLD_RA_VPN_IMAGES_RESULTS',
  'WRITING_CHANGES_TO_MEMORY',
  'CHECKING_WRITE_CHANGES_TO_MEMORY_RESULTS',
  'DELETING_OLD_IMAGES',
] as const;

/** FTDs have no DNS checks and no check of the write to memory (as the simulator models them). */
const FTD_UPGRADE_STEPS = ASA_UPGRADE_STEPS.filter(
  (step) => !step.startsWith('CHECKING_ASA_DEVICES_DNS') && !step.includes('WRITE'),
);

/** The stages of an upgrade across tenants; its percentage is that of the stage. */
const MSP_UPGRADE_STAGES = ['VALIDATING_INPUTS', 'UPLOADING_IMAGES', 'PERFORMING_UPGRADE'] as const;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** (steps done + the current step's share) / steps; undefined when the status is not a known step. */
function stepFraction(steps: readonly string[], status: string | null | undefined, percentage: number) {
  const index = steps.indexOf(status ?? '');
  return index < 0 ? undefined : (index + clamp01(percentage)) / steps.length;
}

/** How far a Secure Client upgrade run is, by its step and the step's percentageComplete. */
export function upgradeRunFraction(
  run: Pick<SecureClientUpgradeRunDto, 'upgradeRunStatus' | 'percentageComplete'> & {
    upgradeRunType?: string | null | undefined;
  },
): number | undefined {
  const steps = run.upgradeRunType === 'FTD_SECURE_CLIENT_UPGRADE' ? FTD_UPGRADE_STEPS : ASA_UPGRADE_STEPS;
  return stepFraction(steps, run.upgradeRunStatus, run.percentageComplete ?? 0);
}

/** How far an upgrade across tenants is, by its stage and the stage's percentageComplete. */
export function mspUpgradeRunFraction(run: {
  upgradeRunStatus?: string | null | undefined;
  percentageComplete?: number | null | undefined;
}): number | undefined {
  return stepFraction(MSP_UPGRADE_STAGES, run.upgradeRunStatus, run.percentageComplete ?? 0);
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
