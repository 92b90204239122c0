// Where a Secure Client upgrade run stands. SCC reports the current step (upgradeRunStatus) and how far
// that one step is (percentageComplete, "of the current step" in the reference), so a single number falls
// back at every new step (74% → 52% → 12%). Here the step is placed in the run's pipeline, in the
// reference's order, and the run's overall progress is worked out from it: it never goes backwards while
// the run moves forward, and it reaches 100% only when the run is done.

/** An ASA run's steps, in the reference's order (SecureClientUpgradeRunDto.upgradeRunStatus). */
const ASA_STEPS = [
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

/** FTDs have no DNS check and nothing to write to memory (the FMC deploys the policy). */
const FTD_STEPS = ASA_STEPS.filter(
  (s) => !s.startsWith('CHECKING_ASA_DEVICES_DNS') && !/WRIT(E|ING)_/.test(s),
);

/** A run across tenants has three stages (MspSecureClientUpgradeRunDto.upgradeRunStatus). */
const MSP_STAGES = ['VALIDATING_INPUTS', 'UPLOADING_IMAGES', 'PERFORMING_UPGRADE'] as const;

const DONE = new Set(['DONE', 'DONE_WITH_DEVICE_WARNINGS', 'DONE_WITH_DEVICE_ERRORS']);

export type Pipeline = 'asa' | 'ftd' | 'msp';

/** The pipeline of a single-tenant run, by its type (ASA when SCC does not say). */
export function pipelineOf(upgradeRunType: string | null | undefined): Pipeline {
  return upgradeRunType === 'FTD_SECURE_CLIENT_UPGRADE' ? 'ftd' : 'asa';
}

const STEPS: Record<Pipeline, readonly string[]> = { asa: ASA_STEPS, ftd: FTD_STEPS, msp: MSP_STAGES };

/** The statuses a pipeline walks, step 1 to n. */
export function pipelineSteps(pipeline: Pipeline): readonly string[] {
  return STEPS[pipeline];
}

export type RunProgress =
  | {
      kind: 'step';
      /** 1-based. */
      step: number;
      steps: number;
      status: string;
      /** The current step's own progress (0–1), when SCC tracks one. */
      stepFraction: number | undefined;
      /** The whole run (0–1): the steps before this one, and this one's part. */
      overall: number;
    }
  | { kind: 'done' }
  /** Ended in ERROR, or a status outside the pipeline: no number would be true. */
  | { kind: 'none' };

const clamp = (fraction: number) => Math.min(1, Math.max(0, fraction));

export function runProgress(
  status: string | null | undefined,
  fraction: number | null | undefined,
  pipeline: Pipeline,
): RunProgress {
  if (DONE.has(status ?? '')) return { kind: 'done' };
  const steps = STEPS[pipeline];
  const index = steps.indexOf(status ?? '');
  if (index === -1) return { kind: 'none' };
  const stepFraction = typeof fraction === 'number' ? clamp(fraction) : undefined;
  return {
    kind: 'step',
    step: index + 1,
    steps: steps.length,
    status: status ?? '',
    stepFraction,
    // Short of 100% until SCC says done: the last step at 100% is not the end of the run.
    overall: Math.min(0.999, (index + (stepFraction ?? 0)) / steps.length),
  };
}

/** A tenant's part of a run across tenants (ManagedTenantUpgradeDto). */
export interface TenantLeg {
  upgradeRunStatus?: string | null | undefined;
  upgradeRunStepPercentageComplete?: number | null | undefined;
  transactionStatus?: string | null | undefined;
}

/**
 * A run across tenants: its stage, as SCC reports it, and the whole run as the mean of its tenants' own
 * runs (each a single-tenant ASA run placed in its steps). SCC's stage percentage mixes the tenants' step
 * percentages, which fall back at each of their steps; each tenant's own progress does not, so the mean
 * does not either. A tenant whose run ended (done or failed) counts as complete, one not started as 0.
 */
export function mspRunProgress(
  status: string | null | undefined,
  fraction: number | null | undefined,
  legs: readonly TenantLeg[],
): RunProgress {
  const stage = runProgress(status, fraction, 'msp');
  if (stage.kind !== 'step' || legs.length === 0) return stage;
  const each = legs.map((leg) => {
    const own = runProgress(leg.upgradeRunStatus, leg.upgradeRunStepPercentageComplete, 'asa');
    if (own.kind === 'step') return own.overall;
    if (own.kind === 'done' || leg.upgradeRunStatus === 'ERROR') return 1;
    return ['DONE', 'ERROR', 'CANCELLED'].includes(leg.transactionStatus ?? '') ? 1 : 0;
  });
  const mean = each.reduce((sum, part) => sum + part, 0) / each.length;
  return { ...stage, overall: Math.min(0.999, mean) };
}

/** Rounded down, so that a run short of its end never reads 100%. */
function wholePercent(fraction: number): string {
  return `${Math.floor(fraction * 100)}%`;
}

/** UPLOADING_IMAGES → "uploading images". */
function stepName(status: string): string {
  return status.toLowerCase().replace(/_/g, ' ');
}

/** "step 6 of 14, uploading images 52%; overall 39%" (plain text: callers escape it for their format). */
export function describeProgress(progress: RunProgress): string | undefined {
  if (progress.kind === 'done') return 'overall 100%';
  if (progress.kind === 'none') return undefined;
  const own = progress.stepFraction === undefined ? '' : ` ${wholePercent(progress.stepFraction)}`;
  return (
    `step ${progress.step} of ${progress.steps}, ${stepName(progress.status)}${own}; ` +
    `overall ${wholePercent(progress.overall)}`
  );
}

/** The run's overall progress alone, for a table column: "39%", "100%", or undefined. */
export function overallPercent(progress: RunProgress): string | undefined {
  if (progress.kind === 'done') return '100%';
  return progress.kind === 'step' ? wholePercent(progress.overall) : undefined;
}
