// Words for firewall software upgrade runs (ASA and FTD; scc-openapi-upgrades.yaml): which statuses end a
// run and how each reads. SCC spells one of them UGPRADE_STAGING_FAILED as well as UPGRADE_STAGING_FAILED;
// both are read the same. A stage-only run ends at UPGRADE_STAGED. Mrkdwn, escaped where it quotes SCC.
import { escapeAll } from '../render/mrkdwn.js';
import type { DeviceUpgradeStatusDto, MspUpgradeRunDto, UpgradeRunDto } from '../scc/generated/models.js';
import type { Outcome } from './kind.js';

/** How each end status reads, and what it counts as. */
export const DEVICE_UPGRADE_ENDINGS: Record<string, { status: Outcome['status']; words: string }> = {
  UPGRADE_COMPLETED: { status: 'succeeded', words: 'completed' },
  UPGRADE_STAGED: { status: 'succeeded', words: 'is staged (the image is on the devices, not yet applied)' },
  UPGRADE_FAILED: { status: 'failed', words: 'failed' },
  UPGRADE_STAGING_FAILED: {
    status: 'failed',
    words: 'failed before the upgrade (image upload or readiness check)',
  },
  UGPRADE_STAGING_FAILED: {
    status: 'failed',
    words: 'failed before the upgrade (image upload or readiness check)',
  },
};

export type DeviceUpgradeRun = UpgradeRunDto | MspUpgradeRunDto;

const DEVICE_RUN_TYPES = new Set(['ASA_DEVICE_UPGRADE', 'FTD_DEVICE_UPGRADE']);

/** Whether a run read from SCC is a firewall software upgrade (not a Secure Client one). */
export function isDeviceUpgradeRun(run: { upgradeRunType?: string | null | undefined }): boolean {
  return DEVICE_RUN_TYPES.has(run.upgradeRunType ?? '');
}

/** Whether the run has ended: failed, completed, or staged by a stage-only run. */
export function isDeviceUpgradeEnded(
  run: Pick<DeviceUpgradeRun, 'upgradeRunStatus' | 'stageUpgradeOnly'>,
): boolean {
  const status = run.upgradeRunStatus ?? '';
  if (status === 'UPGRADE_STAGED') return run.stageUpgradeOnly === true;
  return status in DEVICE_UPGRADE_ENDINGS;
}

/** Statuses at which an upgrade applied something to a device: what a proof would have compared. */
const APPLIED = new Set(['UPGRADE_COMPLETED', 'UPGRADE_FAILED']);

/**
 * The end of a run kept no baseline for (one tenant's or the MSP portal's): it says plainly that its devices
 * are not proven, and why.
 */
export function unprovenOutcome(outcome: Outcome, run: DeviceUpgradeRun, why: string): Outcome {
  if (!APPLIED.has(run.upgradeRunStatus ?? '') || run.stageUpgradeOnly === true) return outcome;
  return { ...outcome, text: `${outcome.text}\n:warning: Not proven: ${escapeAll(why)}` };
}

/** A field only the MSP portal's runs have (the loose models would let any value through `in`). */
function mspText(run: DeviceUpgradeRun, field: 'softwareVersion' | 'username'): string | undefined {
  const value = (run as MspUpgradeRunDto)[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Who started the run, where SCC says (the MSP portal's runs). */
export const startedBy = (run: DeviceUpgradeRun): string | undefined => mspText(run, 'username');

/** Whether the run is the MSP portal's, across tenants. */
export const isAcrossTenants = (run: DeviceUpgradeRun): boolean =>
  (run as MspUpgradeRunDto).metadata !== undefined && (run as MspUpgradeRunDto).metadata !== null;

export function deviceRunName(run: DeviceUpgradeRun): string {
  const target = mspText(run, 'softwareVersion');
  const version = target ? ` to ${escapeAll(target)}` : '';
  const kind = run.upgradeRunType === 'FTD_DEVICE_UPGRADE' ? 'FTD' : 'ASA';
  const named = run.name ? `*${escapeAll(run.name)}*` : `run \`${escapeAll(run.uid ?? '?')}\``;
  return `${kind} software upgrade ${named}${version}`;
}

/** Each device (each node of an HA pair) with SCC's last message for it, one line each. */
export function deviceUpgradeLines(run: DeviceUpgradeRun): { lines: string[]; deviceUids: string[] } {
  const statuses: DeviceUpgradeStatusDto[] =
    (run as MspUpgradeRunDto).metadata?.devices ?? (run as UpgradeRunDto).deviceUpgradeStatuses ?? [];
  const lines = statuses.flatMap((device) =>
    (device.completionStatuses ?? []).map((node) =>
      escapeAll(`• ${node.name ?? device.uid ?? 'unnamed device'}: ${node.message ?? 'no message'}`),
    ),
  );
  return { lines, deviceUids: statuses.flatMap((device) => (device.uid ? [device.uid] : [])) };
}
