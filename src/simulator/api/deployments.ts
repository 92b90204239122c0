// Deploying staged changes to ASAs: one transaction and one deployment run per request, walking PENDING →
// VALIDATING_DEVICES → DEPLOYING → DEPLOY_COMPLETED or DEPLOY_FAILED on the simulated clock, with a status
// per device (SKIPPED when nothing is pending, ERROR when the device is unreachable or refuses a command,
// WARNING when changes that cannot be applied line by line were skipped, DONE otherwise). What each device
// was sent is kept (initialConfig / deployedConfig) and runs are listed and read like SCC's. Each device's
// deploy (or failure to) is an event of its change log, by the deployer, tied to the change request its
// description names (api/governance.ts). Cancelling its transaction ends the run with nothing applied.
import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requireWrite } from '../auth.js';
import { type ErrorDetails, invalidInput, notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { iso, type SimRuntime } from '../runtime.js';
import { type ChangeBlock, commandsOf, mergeApplied, POLICY_BLOCK, rejectedBy } from '../state/asaCli.js';
import {
  asaConfigOf,
  cloudInterfaces,
  pendingBlocks,
  renderConfig,
  setRunningConfig,
} from '../state/asaConfig.js';
import { deployPolicyLines, devicePolicyLinesOf, policyLinesOf } from '../state/asaPolicyLines.js';
import { recordDeviceChange } from '../state/changeLog.js';
import { changeRequestNamedBy } from '../state/governance.js';
import type {
  DeploymentRunRecord,
  DeploymentRunStatus,
  DeviceDeploymentRecord,
  DeviceRecord,
  InterfaceRecord,
} from '../state/model.js';
import { accepted, openTransaction, updateTransaction } from './transactions.js';

/**
 * Simulated durations: 2 s PENDING, 5 s VALIDATING_DEVICES, then each device in parallel 8 s plus 1 s per
 * command (at most 60 s), or 45 s for a full-configuration apply (forced unsupported commands).
 */
export const DEPLOY_MS = {
  pending: 2_000,
  validating: 5_000,
  deviceBase: 8_000,
  perCommand: 1_000,
  deviceMax: 60_000,
  fullConfig: 45_000,
} as const;

const TERMINAL = new Set<DeploymentRunStatus>(['DEPLOY_COMPLETED', 'DEPLOY_FAILED']);

function progressOf(d: DeviceDeploymentRecord, now: number): number {
  if (d.status !== 'IN_PROGRESS') return 1;
  if (d.startedAt === undefined || d.durationMs === undefined) return 0;
  return Math.round(Math.min(1, Math.max(0, (now - d.startedAt) / Math.max(1, d.durationMs))) * 100) / 100;
}

export function deploymentRunDto(run: DeploymentRunRecord, now: number): Model.DeploymentRunDto {
  return {
    uid: run.uid,
    name: run.name,
    ...(run.description === undefined ? {} : { description: run.description }),
    deployerUsername: run.deployerUsername,
    deploymentRunStatus: run.status,
    deploymentType: 'ASA_DEVICE_DEPLOY',
    deviceUids: run.devices.map((d) => d.uid),
    deviceDeploymentStatuses: run.devices.map((d) => ({
      uid: d.uid,
      name: d.name,
      status: d.status,
      ...(d.errorMsg === undefined ? {} : { errorMsg: d.errorMsg }),
      ...(d.errorDetails === undefined ? {} : { errorDetails: d.errorDetails.map((e) => ({ ...e })) }),
      completionStatus: {
        name: d.name,
        percentageComplete: progressOf(d, now),
        ...(d.message === undefined ? {} : { message: d.message }),
        ...(d.completedAt === undefined ? {} : { completedAt: iso(d.completedAt) }),
      },
    })),
    ...(run.errorMsg === undefined ? {} : { errorMsg: run.errorMsg }),
    ...(run.failureReason === undefined ? {} : { failureReason: run.failureReason }),
    ignoreWarnings: false,
    submissionTime: iso(run.submissionTime),
    lastUpdatedTime: iso(run.lastUpdatedTime),
    transactionUid: run.transactionUid,
  };
}

const runFields: FieldTable<DeploymentRunRecord> = {
  uid: { kind: 'string', get: (r) => r.uid },
  name: { kind: 'string', get: (r) => r.name },
  description: { kind: 'string', get: (r) => r.description },
  deploymentRunStatus: { kind: 'string', get: (r) => r.status },
  deploymentType: { kind: 'string', get: () => 'ASA_DEVICE_DEPLOY' },
  deployerUsername: { kind: 'string', get: (r) => r.deployerUsername },
  failureReason: { kind: 'string', get: (r) => r.failureReason },
  transactionUid: { kind: 'string', get: (r) => r.transactionUid },
  deviceUids: { kind: 'string', get: (r) => r.devices.map((d) => d.uid) },
  submissionTime: { kind: 'date', get: (r) => r.submissionTime },
  lastUpdatedTime: { kind: 'date', get: (r) => r.lastUpdatedTime },
};

const tenantRuns = (ctx: RequestContext) =>
  [...ctx.state.deploymentRuns.values()]
    .filter((r) => r.tenantUid === ctx.principal.tenant.uid)
    .sort((a, b) => b.submissionTime - a.submissionTime);

function runOf(ctx: RequestContext): DeploymentRunRecord {
  const uid = uuidParam(ctx, 'deploymentRunUid');
  const run = ctx.state.deploymentRuns.get(uid);
  if (run === undefined || run.tenantUid !== ctx.principal.tenant.uid) {
    throw notFound(`Deployment run ${uid} not found`, { deploymentRunUid: { value: uid } });
  }
  return run;
}

const getDeviceDeploymentRuns: Handler = (ctx) => {
  const page = listPage(ctx.query, tenantRuns(ctx), { fields: runFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map((r) => deploymentRunDto(r, ctx.now)) } };
};

const getDeviceDeploymentRun: Handler = (ctx) => ({
  status: 200,
  body: deploymentRunDto(runOf(ctx), ctx.now),
});

const getChangesDeployedInDeploymentRun: Handler = (ctx) => {
  const run = runOf(ctx);
  const deviceUid = uuidParam(ctx, 'deviceUid');
  const device = run.devices.find((d) => d.uid === deviceUid);
  if (device === undefined) {
    throw notFound(`Device ${deviceUid} is not part of deployment run ${run.uid}`, {
      deviceUid: { value: deviceUid },
    });
  }
  const change = device.change;
  // The reference types both configurations as strings: a missing snapshot is left out rather than null.
  const items: Model.AsaChangeItemDto[] =
    change === undefined
      ? []
      : [
          {
            uid: change.uid,
            deploymentRunUid: run.uid,
            deploymentType: 'ASA_DEVICE_DEPLOY',
            deviceUid,
            ...(change.initialConfig === null ? {} : { initialConfig: change.initialConfig }),
            ...(change.deployedConfig === null ? {} : { deployedConfig: change.deployedConfig }),
          },
        ];
  return { status: 200, body: items };
};

/** The ASAs of the request, in the caller's tenant and not already being deployed; else 400 naming each. */
function devicesToDeploy(ctx: RequestContext, uids: readonly string[]): DeviceRecord[] {
  const busy = new Map<string, string>();
  for (const run of ctx.state.deploymentRuns.values())
    if (!TERMINAL.has(run.status)) for (const d of run.devices) busy.set(d.uid, run.uid);
  const details: ErrorDetails = {};
  const devices: DeviceRecord[] = [];
  for (const uid of uids) {
    const record = ctx.state.devices.get(uid);
    if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid) {
      details[uid] = { message: 'device not found' };
    } else if (record.kind !== 'ASA') {
      details[uid] = { name: record.device.name, message: 'is not an ASA' };
    } else if (busy.has(uid)) {
      details[uid] = {
        name: record.device.name,
        message: `is already being deployed (run ${busy.get(uid)})`,
      };
    } else {
      devices.push(record);
    }
  }
  if (Object.keys(details).length > 0) {
    throw invalidInput(
      `${Object.keys(details).length === 1 ? '1 device' : `${Object.keys(details).length} devices`} cannot be deployed`,
      details,
    );
  }
  return devices;
}

const deployChangesToMultipleAsaDevices: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const input = requireBody(ctx, Input.AsaMultiDeviceDeploymentInput);
  const devices = devicesToDeploy(
    ctx,
    input.deviceUids.map((u) => u.toLowerCase()),
  );
  const { sim, state } = ctx;
  const changeRequest = changeRequestNamedBy(state, ctx.principal.tenant.uid, input.description);
  const uid = state.rng.uuid();
  const tx = openTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'DEPLOY_ASA_DEVICE_CHANGES',
    entityUid: uid,
    entityUrl: `${sim.baseUrl}/v1/inventory/devices/deployments/runs/${uid}`,
    details: { deploymentRunUid: uid },
  });
  const run: DeploymentRunRecord = {
    uid,
    tenantUid: ctx.principal.tenant.uid,
    name: `asa-deployment-${uid.slice(0, 8)}`,
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.deploymentNotes === undefined ? {} : { deploymentNotes: input.deploymentNotes }),
    deployerUsername: ctx.principal.username,
    forceDeployUnsupportedCommands: input.forceDeployUnsupportedCommands ?? false,
    transactionUid: tx.uid,
    submissionTime: ctx.now,
    lastUpdatedTime: ctx.now,
    status: 'PENDING',
    devices: devices.map((d) => ({ uid: d.device.uid, name: d.device.name, status: 'IN_PROGRESS' })),
    ...(changeRequest === undefined ? {} : { changeRequest }),
  };
  state.deploymentRuns.set(uid, run);

  const live = () => sim.state === state && !TERMINAL.has(run.status);
  const validatingAt = ctx.now + sim.clock.span(DEPLOY_MS.pending);
  sim.clock.schedule(validatingAt, () => {
    if (!live()) return;
    run.status = 'VALIDATING_DEVICES';
    run.lastUpdatedTime = validatingAt;
    updateTransaction(sim, tx, { status: 'IN_PROGRESS' });
  });
  sim.clock.schedule(validatingAt + sim.clock.span(DEPLOY_MS.validating), () => {
    if (live()) validateAndDeploy(sim, run, devices);
  });
  return accepted(sim, tx);
};

/** What one device's deploy will do, decided when validation ends (SCC's copy is snapshotted then). */
interface DevicePlan {
  device: DeviceRecord;
  entry: DeviceDeploymentRecord;
  onDevice: InterfaceRecord[];
  onCloud: InterfaceRecord[];
  /** The policy lines the device runs, and SCC's copy of them, when validation ended. */
  policyOnDevice: string[];
  policyOnCloud: string[];
  /** Blocks the deploy runs, in order (unsupported ones left out unless forced). */
  blocks: ChangeBlock[];
  skipped: ChangeBlock[];
  fullConfig: boolean;
  /** Set by an admin route: the device fails with this error before any command is applied. */
  fault: string | undefined;
}

function validateAndDeploy(
  sim: SimRuntime,
  run: DeploymentRunRecord,
  devices: readonly DeviceRecord[],
): void {
  const { state } = sim;
  const now = sim.clock.now();
  const plans: DevicePlan[] = [];
  for (const [index, device] of devices.entries()) {
    const entry = run.devices[index];
    if (entry === undefined) continue;
    const connectivity = device.device.connectivityState ?? 'UNKNOWN';
    if (connectivity !== 'ONLINE') {
      // Unreachable: no snapshot could be taken, so the change item has neither configuration.
      const errorMsg = `Device ${device.device.name} is unreachable (connectivity state ${connectivity})`;
      recordDeviceChange(state, device, {
        action: 'ERROR',
        username: run.deployerUsername,
        ...underChangeRequest(run),
        at: now,
        description: `Deployment ${run.name} failed: ${errorMsg}`,
        pending: device.device.configState === 'NOT_SYNCED',
      });
      finishDevice(entry, now, 'ERROR', {
        errorMsg,
        errorDetails: [
          {
            code: 'DEVICE_UNREACHABLE',
            severity: 'ERROR',
            description: `SCC cannot reach ${device.device.name}`,
            details: { connectivityState: connectivity },
          },
        ],
      });
      entry.change = { uid: state.rng.uuid(), initialConfig: null, deployedConfig: null };
      continue;
    }
    const onDevice = asaConfigOf(state, device.device.uid).onDevice.map((i) => structuredClone(i));
    const policyOnDevice = devicePolicyLinesOf(state, device.device.uid);
    const policyOnCloud = policyLinesOf(state, device.device.uid);
    const initialConfig = renderConfig(state, device, onDevice, policyOnDevice);
    const all = pendingBlocks(state, device);
    const fault = run.deviceFaults?.[device.device.uid];
    if (all.length === 0 && fault === undefined) {
      finishDevice(entry, now, 'SKIPPED', { message: 'No changes to deploy' });
      entry.change = { uid: state.rng.uuid(), initialConfig, deployedConfig: null };
      continue;
    }
    const onCloud = cloudInterfaces(state, device.device.uid).map((i) => structuredClone(i));
    const unsupported = all.filter((b) => b.unsupported);
    const fullConfig = unsupported.length > 0 && run.forceDeployUnsupportedCommands;
    const blocks = fullConfig ? all : all.filter((b) => !b.unsupported);
    const skipped = fullConfig ? [] : unsupported;
    const attempted = mergeApplied(onDevice, onCloud, new Set(blocks.map((b) => b.hardwareName)));
    const policyAttempted = blocks.some((b) => b.hardwareName === POLICY_BLOCK)
      ? policyOnCloud
      : policyOnDevice;
    entry.change = {
      uid: state.rng.uuid(),
      initialConfig,
      deployedConfig: renderConfig(state, device, attempted, policyAttempted),
    };
    plans.push({
      device,
      entry,
      onDevice,
      onCloud,
      policyOnDevice,
      policyOnCloud,
      blocks,
      skipped,
      fullConfig,
      fault,
    });
  }
  run.lastUpdatedTime = now;
  if (plans.length === 0) {
    endRun(sim, run);
    return;
  }
  run.status = 'DEPLOYING';
  const state0 = state;
  for (const plan of plans) {
    const commands = plan.blocks.reduce((n, b) => n + b.commands.length + b.globalCommands.length, 0);
    const durationMs = sim.clock.span(
      plan.fullConfig
        ? DEPLOY_MS.fullConfig
        : Math.min(DEPLOY_MS.deviceMax, DEPLOY_MS.deviceBase + DEPLOY_MS.perCommand * commands),
    );
    plan.entry.startedAt = now;
    plan.entry.durationMs = durationMs;
    plan.entry.message = plan.fullConfig
      ? 'Applying the full configuration'
      : `Applying ${commands} command${commands === 1 ? '' : 's'}`;
    sim.clock.schedule(now + durationMs, () => {
      if (sim.state !== state0 || TERMINAL.has(run.status)) return;
      applyPlan(sim, run, plan);
      run.lastUpdatedTime = sim.clock.now();
      if (run.devices.every((d) => d.status !== 'IN_PROGRESS')) endRun(sim, run);
    });
  }
}

/**
 * Runs a device's blocks in order; the first refused command stops it (nothing is rolled back). The
 * device's change log gets the deploy, or its failure, with the commands that were applied.
 */
function applyPlan(sim: SimRuntime, run: DeploymentRunRecord, plan: DevicePlan): void {
  const now = sim.clock.now();
  if (plan.fault !== undefined) {
    recordDeviceChange(sim.state, plan.device, {
      action: 'ERROR',
      username: run.deployerUsername,
      at: now,
      description: `Deployment ${run.name} failed on ${plan.device.device.name}: ${plan.fault}`,
      pending: plan.device.device.configState === 'NOT_SYNCED',
    });
    finishDevice(plan.entry, now, 'ERROR', {
      errorMsg: plan.fault,
      errorDetails: [{ code: 'DEPLOY_FAILED', severity: 'ERROR', description: plan.fault, details: {} }],
    });
    return;
  }
  const applied = new Set<string>();
  let refusal: { block: ChangeBlock; error: string; command: string } | undefined;
  for (const block of plan.blocks) {
    const target = plan.onCloud.find((i) => i.hardwareName === block.hardwareName);
    const command = block.commands.find((c) => c.startsWith('ip address'));
    const error =
      target !== undefined && command !== undefined ? rejectedBy(target, plan.onCloud) : undefined;
    if (error !== undefined && command !== undefined) {
      refusal = { block, error, command };
      break;
    }
    applied.add(block.hardwareName);
  }
  const running = mergeApplied(plan.onDevice, plan.onCloud, applied);
  // The access policy's commands run after every interface block: applied only when none was refused.
  const policy = applied.has(POLICY_BLOCK) ? plan.policyOnCloud : plan.policyOnDevice;
  deployPolicyLines(sim.state, plan.device.device.uid, policy);
  setRunningConfig(sim.state, plan.device, running, refusal === undefined);
  const ran = plan.blocks.filter((b) => applied.has(b.hardwareName));
  const count = commandsOf(ran).length;
  recordDeviceChange(sim.state, plan.device, {
    action: refusal === undefined ? 'UPDATE' : 'ERROR',
    username: run.deployerUsername,
    ...underChangeRequest(run),
    at: now,
    description:
      refusal === undefined
        ? `Deployed ${count} command${count === 1 ? '' : 's'} to ${plan.device.device.name} (deployment ${run.name})`
        : `Deployment ${run.name} failed on ${plan.device.device.name}: the device refused "${refusal.command}" on ${refusal.block.hardwareName}`,
    before: renderConfig(sim.state, plan.device, plan.onDevice, plan.policyOnDevice),
    after: renderConfig(sim.state, plan.device, running, policy),
    commands: commandsOf(ran),
    pending: plan.device.device.configState === 'NOT_SYNCED',
  });
  if (refusal !== undefined) {
    finishDevice(plan.entry, now, 'ERROR', {
      errorMsg: `${plan.device.device.name} refused "${refusal.command}" on ${refusal.block.hardwareName}: ${refusal.error}`,
      errorDetails: [
        {
          code: 'COMMAND_REJECTED',
          severity: 'ERROR',
          description: refusal.error,
          details: { interface: refusal.block.hardwareName, command: refusal.command },
        },
      ],
    });
    return;
  }
  if (plan.skipped.length > 0) {
    const names = plan.skipped.map((b) => b.hardwareName).join(', ');
    finishDevice(plan.entry, now, 'WARNING', {
      message: 'Deployed, except changes that cannot be applied line by line',
      errorMsg: `Skipped changes that cannot be applied line by line (${names}); they stay staged. Deploy with forceDeployUnsupportedCommands to apply the full configuration, which drops every active connection through the device.`,
      errorDetails: [
        {
          code: 'UNSUPPORTED_COMMANDS',
          severity: 'WARNING',
          description: `Renaming an interface cannot be applied line by line: ${names}`,
          details: { interfaces: names, commands: plan.skipped.flatMap((b) => b.commands).join('\n') },
        },
      ],
    });
    return;
  }
  finishDevice(plan.entry, now, 'DONE', {
    message: plan.fullConfig
      ? 'Applied the full configuration; active connections through the device were dropped'
      : 'Deployed',
  });
}

function finishDevice(
  entry: DeviceDeploymentRecord,
  at: number,
  status: DeviceDeploymentRecord['status'],
  outcome: Pick<DeviceDeploymentRecord, 'errorMsg' | 'errorDetails' | 'message'>,
): void {
  entry.status = status;
  entry.completedAt = at;
  if (outcome.errorMsg !== undefined) entry.errorMsg = outcome.errorMsg;
  if (outcome.errorDetails !== undefined) entry.errorDetails = outcome.errorDetails;
  if (outcome.message !== undefined) entry.message = outcome.message;
}

/** The change request a run's change-log events are tied to, as recordDeviceChange takes it. */
const underChangeRequest = (run: DeploymentRunRecord) =>
  run.changeRequest === undefined ? {} : { changeRequest: run.changeRequest };

/**
 * Ends the run of a cancelled deploy transaction: nothing more is applied (a device's deploy applies only
 * when it completes), the devices still waiting are SKIPPED and their changes stay staged.
 */
export function cancelDeploymentRun(sim: SimRuntime, transactionUid: string): void {
  const run = [...sim.state.deploymentRuns.values()].find((r) => r.transactionUid === transactionUid);
  if (run === undefined || TERMINAL.has(run.status)) return;
  const now = sim.clock.now();
  for (const d of run.devices)
    if (d.status === 'IN_PROGRESS')
      finishDevice(d, now, 'SKIPPED', { message: 'Cancelled before it was applied' });
  run.status = 'DEPLOY_FAILED';
  run.errorMsg = 'The deployment was cancelled';
  run.lastUpdatedTime = now;
}

/** DEPLOY_FAILED when any device failed (its transaction ERROR), else DEPLOY_COMPLETED (DONE). */
function endRun(sim: SimRuntime, run: DeploymentRunRecord): void {
  const now = sim.clock.now();
  const failed = run.devices.filter((d) => d.status === 'ERROR');
  const deployed = run.devices.some((d) => d.startedAt !== undefined);
  run.status = failed.length > 0 ? 'DEPLOY_FAILED' : 'DEPLOY_COMPLETED';
  run.lastUpdatedTime = now;
  if (failed.length > 0) {
    run.failureReason = deployed ? 'DEVICE_DEPLOY_FAILED' : 'VALIDATION_FAILED';
    run.errorMsg = `Deployment failed on ${failed.length} of ${run.devices.length} device${run.devices.length === 1 ? '' : 's'}: ${failed.map((d) => d.name).join(', ')}`;
  } else if (run.devices.some((d) => d.status === 'WARNING')) {
    run.failureReason = 'DEVICE_DEPLOY_COMPLETED_WITH_WARNINGS';
  }
  const tx = sim.state.transactions.get(run.transactionUid);
  if (tx === undefined) return;
  const details = { deploymentRunUid: run.uid, deploymentRunStatus: run.status };
  if (failed.length > 0) {
    updateTransaction(sim, tx, {
      status: 'ERROR',
      details,
      errorMessage: run.errorMsg ?? 'Deployment failed',
      errorDetails: Object.fromEntries(failed.map((d) => [d.uid, d.errorMsg ?? 'failed'])),
    });
  } else {
    updateTransaction(sim, tx, { status: 'DONE', details });
  }
}

export const deploymentHandlers = {
  deployChangesToMultipleAsaDevices,
  getDeviceDeploymentRuns,
  getDeviceDeploymentRun,
  getChangesDeployedInDeploymentRun,
} satisfies Partial<OperationHandlers>;
