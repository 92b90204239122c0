// Following a deploy to ASAs: the run its transaction started, found by the transaction's uid, read until
// it reaches DEPLOY_COMPLETED or DEPLOY_FAILED. The thread keeps one progress message; the outcome names
// each device's result and where to read what was deployed. The deploy's device holds end with it.
import { z } from 'zod';
import { counted } from '../render/format.js';
import { escapeAll } from '../render/mrkdwn.js';
import type { DeploymentRunDto } from '../scc/generated/models.js';
import { defineFollowKind, end, KeptSnapshot, type Outcome, unlessGone } from './kind.js';
import { RunState, readRun, runRequest } from './runs.js';
import { sentence, statusWords } from './words.js';

const SECOND = 1_000;
const HOUR = 60 * 60 * SECOND;

export const deployment = defineFollowKind({
  kind: 'deployment',
  // The snapshots kept before the deploy was sent: what its end compares the devices with; the id its
  // device holds were taken under (the approval's), released when the run ends.
  request: runRequest('deployment').extend({
    snapshots: z.array(KeptSnapshot).optional(),
    holder: z.string().optional(),
  }),
  // `transactionRead`: the deploy's transaction was read once, first, for what SCC says of cancelling it
  // (the run that follows does not say); from then on each step reads the run.
  state: RunState.extend({ transactionRead: z.boolean().optional() }),
  id: (request) => request.transactionUid,
  sccId: (request) => request.transactionUid,
  // A deploy writes a few lines to each device: seconds to minutes, at most 50 devices at once.
  poll: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 20 * SECOND, deadlineMs: 2 * HOUR },
  configBefore: (request) => request.snapshots ?? [],
  holder: (request) => request.holder,
  describe: (request) => `the deploy started by transaction \`${request.transactionUid}\``,
  async step(ctx, request, state) {
    const scc = ctx.client;
    if (!state.transactionRead) {
      const uid = request.transactionUid;
      // However it stands (ended, or no longer kept by SCC), the run tells how the deploy ends.
      const transaction = await unlessGone(() => scc.transactions.get(uid));
      return {
        kind: 'continue',
        state: {
          ...state,
          transactionRead: true,
          lastStatus: transaction?.cdoTransactionStatus ?? undefined,
        },
        // The run is read at once: this read only asked SCC whether the deploy may be cancelled.
        delayMs: 0,
        ...(transaction?.cancellable === true ? { cancellable: true } : {}),
      };
    }
    const found = await readRun<DeploymentRunDto, typeof state>(ctx, request.transactionUid, state, {
      read: (runUid) =>
        unlessGone(
          async () => (await scc.call('getDeviceDeploymentRun', { path: { deploymentRunUid: runUid } })).data,
        ),
      find: async (transactionUid) => {
        const { data } = await scc.call('getDeviceDeploymentRuns', {
          query: { q: `transactionUid:"${transactionUid}"`, limit: '1' },
        });
        return data.items?.find((item) => item.transactionUid === transactionUid && item.uid);
      },
      uid: (run) => run.uid,
      gone: (runUid) => end(goneOutcome(runUid)),
      waiting: 'waiting for SCC to start the deployment run.',
    });
    if ('result' in found) return found.result;
    const { run, runUid } = found;
    const outcome = deploymentOutcome(run);
    if (outcome) return end(outcome);
    const fraction = deploymentFraction(run);
    return {
      kind: 'continue',
      state: { ...state, runUid, lastStatus: run.deploymentRunStatus ?? undefined },
      progress: deploymentProgress(run),
      ...(fraction === undefined ? {} : { fraction }),
    };
  },
});

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

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

function deploymentDevices(run: DeploymentRunDto): string {
  const devices = run.deviceDeploymentStatuses ?? [];
  if (devices.length === 0) return '';
  const lines = devices.map((device) => {
    const name = device.name ?? device.uid ?? 'unnamed device';
    const result =
      device.status === 'SKIPPED' ? 'SKIPPED (nothing was pending)' : (device.status ?? 'UNKNOWN');
    const error = device.errorMsg ? ` — ${device.errorMsg}` : '';
    return escapeAll(`• ${name}: ${result}${error}`);
  });
  return `\n${lines.join('\n')}`;
}

export function deploymentProgress(run: DeploymentRunDto): string {
  const count = run.deviceDeploymentStatuses?.length ?? run.deviceUids?.length ?? 0;
  const devices = count > 0 ? `, ${counted(count, 'device')}` : '';
  return `deployment run \`${escapeAll(run.uid ?? '?')}\`: ${statusWords(run.deploymentRunStatus)}${devices}.`;
}

function goneOutcome(runUid: string): Outcome {
  return {
    status: 'unknown',
    text: `outcome unknown: SCC no longer knows deployment run \`${escapeAll(runUid)}\`. Check the deployments in SCC.`,
  };
}

/** The run's end, each device's result, and where to read what was deployed; undefined while it runs. */
export function deploymentOutcome(run: DeploymentRunDto): Outcome | undefined {
  const uid = escapeAll(run.uid ?? '?');
  const read = `\nWhat was deployed: \`/fw deployments show ${uid}\`.`;
  const error = run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
  if (run.deploymentRunStatus === 'DEPLOY_COMPLETED') {
    const warned = (run.deviceDeploymentStatuses ?? []).some((d) => d.status === 'WARNING');
    return {
      status: 'succeeded',
      text: `deployed${warned ? ', with warnings' : ''}: the changes are on the devices now (run \`${uid}\`).${deploymentDevices(run)}${read}`,
      progressText: deploymentProgress(run),
    };
  }
  if (run.deploymentRunStatus === 'DEPLOY_FAILED') {
    const why = run.failureReason ? ` (${statusWords(run.failureReason)})` : '';
    return {
      status: 'failed',
      text: `the deploy failed${why} (run \`${uid}\`).${error}${deploymentDevices(run)}${read}`,
      progressText: deploymentProgress(run),
    };
  }
  return undefined;
}
