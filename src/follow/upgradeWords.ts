// Words and measures shared by the two kinds that follow Secure Client upgrade runs (one tenant's, and
// across managed tenants) and by the watches that announce runs ending (src/jobs/watchScan.ts): how a run
// is named, which statuses end it and what each means, each device's result, and how far a run is (0–1)
// by its step and the step's percentage. Mrkdwn, escaped where it quotes SCC (see words.ts).
import { counted } from '../render/format.js';
import { escapeAll } from '../render/mrkdwn.js';
import { describeProgress, pipelineOf, type RunProgress, runProgress } from '../render/upgradeProgress.js';
import type { MspSecureClientUpgradeRunDto, SecureClientUpgradeRunDto } from '../scc/generated/models.js';
import type { Outcome } from './kind.js';
import { sentence, statusWords } from './words.js';

export const UPGRADE_TERMINAL = [
  'DONE',
  'DONE_WITH_DEVICE_WARNINGS',
  'DONE_WITH_DEVICE_ERRORS',
  'ERROR',
] as const;

export function isUpgradeTerminal(status: string | null | undefined): boolean {
  return (UPGRADE_TERMINAL as readonly string[]).includes(status ?? '');
}

/** How each end status reads, and what it counts as. */
export const UPGRADE_ENDINGS: Record<string, { status: Outcome['status']; words: string }> = {
  DONE: { status: 'succeeded', words: 'finished on every device' },
  DONE_WITH_DEVICE_WARNINGS: { status: 'succeeded', words: 'finished with warnings on some devices' },
  DONE_WITH_DEVICE_ERRORS: { status: 'failed', words: 'finished with errors on some devices' },
  ERROR: { status: 'failed', words: 'failed' },
};

export function runName(run: SecureClientUpgradeRunDto | MspSecureClientUpgradeRunDto): string {
  const version = run.secureClientVersion ? ` to Secure Client ${escapeAll(run.secureClientVersion)}` : '';
  return `${run.name ? `*${escapeAll(run.name)}*` : `run \`${escapeAll(run.uid ?? '?')}\``}${version}`;
}

/**
 * The step and the whole run, so the number never falls back at a new step: "step 6 of 14, uploading
 * images 52%; overall 39%". A status outside the pipeline (ERROR) is said in words alone.
 */
export function stepAndOverall(status: string | null | undefined, progress: RunProgress): string {
  const said = describeProgress(progress);
  if (progress.kind === 'done') return `${statusWords(status)}, ${escapeAll(said ?? '')}`;
  return said === undefined ? statusWords(status) : escapeAll(said);
}

/** Each device's result, one line each. */
export function deviceLines(run: SecureClientUpgradeRunDto): string {
  const devices = run.devices ?? [];
  if (devices.length === 0) return '';
  const lines = devices.map((device) => {
    const name = device.name ?? device.uid ?? 'unnamed device';
    const error = device.errorMsg ? ` — ${device.errorMsg}` : '';
    return escapeAll(`• ${name}: ${device.status ?? 'UNKNOWN'}${error}`);
  });
  return `\n${lines.join('\n')}`;
}

/** What SCC said of a failed run, as a sentence to append. */
export function sccSays(run: { errorMsg?: string | null | undefined }): string {
  return run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
}

/** The run's overall progress as its messages show it, while it runs. */
function overall(progress: RunProgress): number | undefined {
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

/** Progress in words, without the label (each thread shows its own label in front). */
export function upgradeProgress(run: SecureClientUpgradeRunDto): string {
  const count = run.devices?.length ?? 0;
  const devices = count > 0 ? `, ${counted(count, 'device')}` : '';
  const where = stepAndOverall(
    run.upgradeRunStatus,
    runProgress(run.upgradeRunStatus, run.percentageComplete, pipelineOf(run.upgradeRunType)),
  );
  return `upgrade ${runName(run)}: ${where}${devices}.`;
}

/** A watched channel's announcement of a run that ended. */
export function watchAnnouncement(profile: string, run: SecureClientUpgradeRunDto): string {
  const ending = UPGRADE_ENDINGS[run.upgradeRunStatus ?? '']?.words ?? 'ended';
  const who = run.username ? `, started by ${escapeAll(run.username)}` : '';
  return (
    `A VPN client upgrade run ended (profile \`${escapeAll(profile)}\`${who}): ${runName(run)} ${ending} ` +
    `(${escapeAll(run.upgradeRunStatus ?? '')}).${sccSays(run)}${deviceLines(run)}`
  );
}
