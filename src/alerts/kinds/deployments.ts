// Deployments: deployment runs that end (completed or failed), those started outside fwbot too, with each
// device's result. Read: the newest updated deployment runs, every minute (one page). SCC has no list of
// deployment runs across managed tenants, so this kind is the profile's own tenant only.
import { untrusted } from '../../render/untrusted.js';
import type { DeploymentRunDto } from '../../scc/generated/models.js';
import { ANY_READER, alreadyOver, defineAlertKind } from './kind.js';
import { detectRuns, RunState } from './runs.js';

const ENDED: Record<string, string> = { DEPLOY_COMPLETED: 'finished', DEPLOY_FAILED: 'failed' };

function deviceLine(device: NonNullable<DeploymentRunDto['deviceDeploymentStatuses']>[number]): string {
  const why = device.errorMsg ? ` — ${untrusted(device.errorMsg)}` : '';
  return `• ${untrusted(device.name ?? device.uid ?? 'unnamed device')}: ${untrusted(device.status ?? 'UNKNOWN')}${why}`;
}

export const deployments = defineAlertKind({
  kind: 'deployments',
  summary: 'deployment runs that fail or finish, also those started outside fwbot, with per-device results',
  tokenRoles: ANY_READER,
  words: {
    opened: 'deployment failing',
    closed: 'deployment over',
    noun: 'deployment',
    notice: 'ended deployment run',
    now: ['failing deployment', 'failing deployments'],
  },
  source: { from: 'deploymentRuns' },
  acrossTenants: false,
  intervalMs: 60_000,
  state: RunState,
  current: alreadyOver,
  detect: (input) =>
    detectRuns(
      'deployments',
      input,
      (run) =>
        run.uid
          ? {
              uid: run.uid,
              status: run.deploymentRunStatus ?? 'UNKNOWN',
              ended: (run.deploymentRunStatus ?? '') in ENDED,
              ...(run.lastUpdatedTime ? { at: run.lastUpdatedTime } : {}),
            }
          : undefined,
      (run, view) => {
        const name = run.name ? untrusted(run.name) : `run ${untrusted(view.uid)}`;
        const who = run.deployerUsername ? ` (deployed by ${untrusted(run.deployerUsername)})` : '';
        const devices = run.deviceDeploymentStatuses ?? [];
        const why = run.errorMsg ? [`SCC says: ${untrusted(run.errorMsg)}`] : [];
        return {
          subject: { type: 'run', uid: view.uid, name: run.name || view.uid },
          headline: `Deployment ${name} ${ENDED[view.status] ?? 'ended'}${who}`,
          details: [...why, ...devices.map(deviceLine)],
          actions: [],
          deviceUids: [
            ...new Set([...(run.deviceUids ?? []), ...devices.flatMap((d) => (d.uid ? [d.uid] : []))]),
          ],
        };
      },
    ),
});
