// Staged changes and deploys. In SCC an interface change is only staged in SCC's copy of the ASA's
// configuration; it reaches the device when it is deployed (../shared/reference/README.md, "How SCC
// applies changes to an ASA"). `changes` shows the exact ASA commands a deploy would run, `deploy` runs
// them after a second person approves exactly those commands, `discard` throws the staged changes away
// (read configuration), and `deployments` lists what was deployed. This file holds the area's reads and its
// list of operations; `deploy` and `discard`, the two governed fates of staged changes, have a file each
// (deploy.ts, discard.ts), and what all of them read is pendingCommands.ts (the commands a deploy would run)
// and stagedDevices.ts (the devices a deploy or a discard acts on, and who staged what is pending there).
import { z } from 'zod';
import {
  type PendingChanges,
  renderDeployment,
  renderDeploymentList,
  renderPendingChanges,
} from '../render/changes.js';
import { pageInfo } from '../render/list.js';
import { AsaChangeItemDto } from '../scc/generated/models.js';
import { text, uuid } from './args.js';
import { DEVICE, listArgs, OFFSET, pageQuery, queryParam } from './common.js';
import { deploy } from './deploy.js';
import { discard } from './discard.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { ASA, PENDING_READS, pendingCommands } from './pendingCommands.js';
import { resolveDevice } from './resolve.js';

async function pendingOf(ctx: OperationContext, typed: string): Promise<PendingChanges> {
  const found = await resolveDevice(ctx.scc, typed, ASA);
  const [{ data: config }, pending] = await Promise.all([
    ctx.scc.call('getAsaConfiguration', { path: { deviceUid: found.uid } }),
    pendingCommands(ctx, found.uid),
  ]);
  return {
    device: { uid: found.uid, name: found.name },
    configState: found.device.configState ?? null,
    conflict: found.device.conflictDetectionState === 'CONFLICT_DETECTED',
    staged: (config.configOnCloud ?? '') !== (config.configOnDevice ?? ''),
    ...pending,
  };
}

export const changesShow = defineOperation({
  id: 'changes',
  words: ['changes'],
  area: 'changes',
  failure: 'Could not read what is staged on the ASA',
  summary: 'Show what is staged on an ASA: the exact commands a deploy would run',
  params: [DEVICE],
  args: z.object({ device: text() }),
  role: 'viewer',
  approval: 'never',
  scc: [...PENDING_READS, 'getAsaConfiguration'],
  examples: ['changes asa-hq-01'],
  offeredAsButton: true,
  run: (ctx, args) => pendingOf(ctx, args.device),
  render: (pending, _args, meta) => renderPendingChanges(pending, meta),
});

export const deploymentsList = defineOperation({
  id: 'deployments',
  words: ['deployments'],
  area: 'changes',
  failure: 'Could not list the deployment runs',
  summary: 'List deployment runs, newest first',
  params: [queryParam('deployment run'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  approval: 'never',
  scc: ['getDeviceDeploymentRuns'],
  examples: ['deployments', 'deployments deploymentRunStatus:DEPLOY_FAILED'],
  run: async (ctx, args) =>
    (
      await ctx.scc.call('getDeviceDeploymentRuns', {
        query: { ...pageQuery(args), sort: ['submissionTime:DESC'] },
      })
    ).data,
  render: (data, args, meta) =>
    renderDeploymentList(data.items ?? [], pageInfo(data, pageQuery(args)), args.query, meta),
});

export const deploymentsShow = defineOperation({
  id: 'deployments.show',
  words: ['deployments', 'show'],
  area: 'changes',
  failure: 'Could not show the deployment run',
  summary: 'Show one deployment run: each device’s result and what was deployed to it',
  params: [{ name: 'run', kind: 'uuid', description: 'the deployment run’s UUID' }],
  args: z.object({ run: uuid() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getDeviceDeploymentRun', 'getChangesDeployedInDeploymentRun'],
  examples: ['deployments show 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  run: async (ctx, args) => {
    const { data: run } = await ctx.scc.call('getDeviceDeploymentRun', {
      path: { deploymentRunUid: args.run },
    });
    const deviceUids = run.deviceUids?.length
      ? run.deviceUids
      : (run.deviceDeploymentStatuses ?? []).flatMap((d) => (d.uid ? [d.uid] : []));
    const changes = await Promise.all(
      deviceUids.map(async (deviceUid) => {
        const { data } = await ctx.scc.call('getChangesDeployedInDeploymentRun', {
          path: { deploymentRunUid: args.run, deviceUid },
        });
        // FTD and ASA items share the list; for an ASA, each carries the initial and the deployed config.
        const items = data.flatMap((item) =>
          item.deploymentType === 'ASA_DEVICE_DEPLOY' ? [AsaChangeItemDto.parse(item)] : [],
        );
        return { deviceUid, items };
      }),
    );
    return { run, changes };
  },
  render: ({ run, changes }, _args, meta) => renderDeployment(run, changes, meta),
});

/** Staged changes and deploys: this area's operations, in the order help and the command table list them. */
export const CHANGE_OPERATIONS: readonly Operation[] = [
  changesShow,
  deploy,
  discard,
  deploymentsList,
  deploymentsShow,
];
