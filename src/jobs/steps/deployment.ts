// Following a deploy to ASAs: the deploy's transaction names no run, so the run is found by its
// transactionUid in the deployment runs, then read directly until it reaches DEPLOY_COMPLETED or
// DEPLOY_FAILED. The thread keeps one progress message; the outcome names each device's result.
import type { DeploymentRunDto } from '../../scc/generated/models.js';
import { deploymentFraction } from '../learningRuns.js';
import {
  DEPLOYMENT_WAITING,
  deploymentGoneOutcome,
  deploymentOutcome,
  deploymentProgress,
} from '../messages.js';
import { end, type Step, unlessGone, untilTheRunExists } from './step.js';

export const stepDeployment: Step<'deployment'> = async (ctx, request, state) => {
  const scc = ctx.client;
  let runUid = state.runUid;
  let run: DeploymentRunDto | undefined;
  if (runUid) {
    const known = runUid;
    run = await unlessGone(
      async () => (await scc.call('getDeviceDeploymentRun', { path: { deploymentRunUid: known } })).data,
    );
    if (!run) return end(deploymentGoneOutcome(known));
  } else {
    const { data } = await scc.call('getDeviceDeploymentRuns', {
      query: { q: `transactionUid:"${request.transactionUid}"`, limit: '1' },
    });
    run = data.items?.find((item) => item.transactionUid === request.transactionUid && item.uid);
    runUid = run?.uid ?? undefined;
  }
  // No run yet: SCC may still be accepting the request, or its transaction may already have failed.
  if (!run || !runUid) return untilTheRunExists(ctx, request.transactionUid, state, DEPLOYMENT_WAITING);
  const outcome = deploymentOutcome(run);
  if (outcome) return end(outcome);
  const fraction = deploymentFraction(run);
  return {
    kind: 'continue',
    state: { ...state, runUid, lastStatus: run.deploymentRunStatus ?? undefined },
    progress: deploymentProgress(run),
    ...(fraction === undefined ? {} : { fraction }),
  };
};
