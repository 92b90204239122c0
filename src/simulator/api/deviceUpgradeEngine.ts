// How a software upgrade run of ASAs or FTDs moves on the simulated clock: UPLOADING_IMAGE →
// PERFORMING_READINESS_CHECK → UPGRADE_STAGED, where a stage-only run stops (the image stays staged on the
// devices), else → PERFORMING_UPGRADE (each device at once; an HA pair's secondary first, then its primary,
// the pair failing over between them and back) → UPGRADE_COMPLETED or UPGRADE_FAILED. A readiness check
// that fails ends the run UPGRADE_STAGING_FAILED (SCC's misspelt UGPRADE_STAGING_FAILED on FTD runs); a
// device outside its maintenance window stops the upgrade (unless ignoreMaintenanceWindow). A finished
// upgrade changes what the device reports (softwareVersion, asdmVersion, the mate's version; `show version`
// reads them). Deleting a run hides it, and the work goes on: the devices are no longer seen as busy.

import type * as Model from '../../scc/generated/models.js';
import { iso, type SimRuntime } from '../runtime.js';
import { editBothCopies } from '../state/asaPolicyLines.js';
import { maintenanceWindowDto } from '../state/maintenanceWindow.js';
import type {
  DeviceRecord,
  DeviceUpgradeRunRecord,
  DeviceUpgradeRunStatus,
  MspDeviceUpgradeRunRecord,
  SimState,
  SoftwareUpgradeFault,
  TransactionRecord,
  UpgradeNodeRecord,
  UpgradeRunDeviceRecord,
} from '../state/model.js';
import { openTransaction, updateTransaction } from './transactions.js';

/** Simulated durations (ms) at speed 1: an image upload, the readiness checks, one unit's upgrade and reload. */
export const UPGRADE_TIMINGS = {
  ASA_DEVICE_UPGRADE: {
    upload: [45_000, 90_000],
    readiness: [20_000, 40_000],
    node: [180_000, 300_000],
  },
  FTD_DEVICE_UPGRADE: {
    upload: [60_000, 120_000],
    readiness: [120_000, 240_000],
    node: [600_000, 900_000],
  },
} as const;
/** How long a full run rests at UPGRADE_STAGED before it upgrades; an image already staged uploads in this long. */
const PAUSE_MS = 5_000;

const ENDED = new Set<DeviceUpgradeRunStatus>([
  'UPGRADE_STAGING_FAILED',
  'UGPRADE_STAGING_FAILED',
  'UPGRADE_COMPLETED',
  'UPGRADE_FAILED',
]);

/** Whether the run has ended: failed, completed, or staged by a stage-only run. */
export const hasEnded = (run: DeviceUpgradeRunRecord): boolean =>
  ENDED.has(run.status) || (run.stageUpgradeOnly && run.status === 'UPGRADE_STAGED');

/** The devices a live (not deleted, not ended) run is upgrading: SCC refuses another upgrade of them. */
export function busyDevices(runs: Iterable<DeviceUpgradeRunRecord>): Map<string, DeviceUpgradeRunRecord> {
  const busy = new Map<string, DeviceUpgradeRunRecord>();
  for (const run of runs) {
    if (run.deleted === true || hasEnded(run)) continue;
    for (const d of run.devices) busy.set(d.uid, run);
  }
  return busy;
}

export interface DeviceUpgradeRequest {
  tenantUid: string;
  type: DeviceUpgradeRunRecord['type'];
  devices: readonly DeviceRecord[];
  softwareVersion: string;
  asdmVersion?: string;
  upgradePackageUid?: string;
  stageUpgradeOnly: boolean;
  forceUpgrade: boolean;
  ignoreMaintenanceWindow: boolean;
  name?: string | undefined;
  username: string;
  mspRunUid?: string;
}

const isHa = (d: DeviceRecord): boolean => d.device.asaFailoverMode === 'ACTIVE_STANDBY';

function nodesOf(d: DeviceRecord, now: number): UpgradeNodeRecord[] {
  const start = { message: 'Waiting to upload the image', startedAt: now, durationMs: 0 };
  if (!isHa(d)) return [{ name: d.device.name, ...start }];
  return [
    { name: `${d.device.name}-primary`, nodeType: 'HA_PRIMARY', ...start },
    { name: `${d.device.name}-secondary`, nodeType: 'HA_SECONDARY', ...start },
  ];
}

export function startDeviceUpgrade(sim: SimRuntime, request: DeviceUpgradeRequest): DeviceUpgradeRunRecord {
  const { state } = sim;
  const now = sim.clock.now();
  const uid = state.rng.uuid();
  const timing = UPGRADE_TIMINGS[request.type];
  const draw = ([min, max]: readonly [number, number]) => sim.clock.span(state.rng.int(min, max));
  const tx = openTransaction(sim, {
    tenantUid: request.tenantUid,
    type: request.type === 'ASA_DEVICE_UPGRADE' ? 'UPGRADE_ASA' : 'UPGRADE_FTD',
    entityUid: uid,
    entityUrl: `${sim.baseUrl}/v1/inventory/devices/upgrades/runs/${uid}`,
    details: { upgradeRunUid: uid, softwareVersion: request.softwareVersion },
  });
  const run: DeviceUpgradeRunRecord = {
    uid,
    tenantUid: request.tenantUid,
    name:
      request.name ??
      `${request.type === 'ASA_DEVICE_UPGRADE' ? 'asa' : 'ftd'}-upgrade-${request.softwareVersion}-${uid.slice(0, 8)}`,
    type: request.type,
    softwareVersion: request.softwareVersion,
    ...(request.asdmVersion === undefined ? {} : { asdmVersion: request.asdmVersion }),
    ...(request.upgradePackageUid === undefined ? {} : { upgradePackageUid: request.upgradePackageUid }),
    stageUpgradeOnly: request.stageUpgradeOnly,
    forceUpgrade: request.forceUpgrade,
    ignoreMaintenanceWindow: request.ignoreMaintenanceWindow,
    username: request.username,
    transactionUid: tx.uid,
    submissionTime: now,
    lastUpdatedTime: now,
    status: 'UPLOADING_IMAGE',
    devices: request.devices.map((d) => ({ uid: d.device.uid, name: d.device.name, nodes: nodesOf(d, now) })),
    ...(request.mspRunUid === undefined ? {} : { mspRunUid: request.mspRunUid }),
  };
  state.deviceUpgradeRuns.set(uid, run);

  const live = () => sim.state === state && !hasEnded(run);
  const alreadyStaged = request.devices.every((d) => stagedFor(d, run));
  const upload = alreadyStaged ? sim.clock.span(PAUSE_MS) : draw(timing.upload);
  for (const d of run.devices) {
    const device = state.devices.get(d.uid);
    const staged = device !== undefined && stagedFor(device, run);
    for (const node of d.nodes)
      setTask(node, staged ? 'The image is already staged on the device' : uploadMessage(run), now, upload);
  }
  sim.clock.schedule(now + sim.clock.span(1_000), () => {
    if (sim.state === state && tx.status === 'PENDING') updateTransaction(sim, tx, { status: 'IN_PROGRESS' });
  });
  const readinessAt = now + upload;
  const readiness = draw(timing.readiness);
  sim.clock.schedule(readinessAt, () => {
    if (!live()) return;
    enter(run, 'PERFORMING_READINESS_CHECK', readinessAt);
    for (const d of run.devices)
      for (const node of d.nodes)
        setTask(node, 'Running the upgrade readiness checks', readinessAt, readiness);
  });
  const stagedAt = readinessAt + readiness;
  sim.clock.schedule(stagedAt, () => {
    if (!live()) return;
    if (!finishReadiness(sim, run, stagedAt)) return;
    if (run.stageUpgradeOnly) {
      end(sim, run, 'UPGRADE_STAGED', stagedAt);
      return;
    }
    const upgradeAt = stagedAt + sim.clock.span(PAUSE_MS);
    sim.clock.schedule(upgradeAt, () => {
      if (sim.state === state && !hasEnded(run)) performUpgrade(sim, run, upgradeAt, () => draw(timing.node));
    });
  });
  return run;
}

const uploadMessage = (run: DeviceUpgradeRunRecord): string =>
  run.type === 'ASA_DEVICE_UPGRADE'
    ? `Uploading ASA ${run.softwareVersion} and ASDM ${run.asdmVersion ?? ''} images`.trim()
    : `Uploading the upgrade package for ${run.softwareVersion}`;

/** The device has this run's target staged already (a stage-only run before): nothing to upload. */
function stagedFor(device: DeviceRecord, run: DeviceUpgradeRunRecord): boolean {
  const staged = device.stagedUpgrade;
  return (
    staged !== undefined &&
    staged.softwareVersion === run.softwareVersion &&
    staged.upgradePackageUid === run.upgradePackageUid
  );
}

function setTask(node: UpgradeNodeRecord, message: string, at: number, durationMs: number): void {
  node.message = message;
  node.startedAt = at;
  node.durationMs = durationMs;
}

function enter(run: DeviceUpgradeRunRecord, status: DeviceUpgradeRunStatus, at: number): void {
  run.status = status;
  run.lastUpdatedTime = at;
}

function end(
  sim: SimRuntime,
  run: DeviceUpgradeRunRecord,
  status: DeviceUpgradeRunStatus,
  at: number,
  errorMsg?: string,
): void {
  enter(run, status, at);
  if (errorMsg !== undefined) run.errorMsg = errorMsg;
  for (const d of run.devices)
    for (const node of d.nodes) if (node.completedAt === undefined) node.completedAt = at;
  const tx = sim.state.transactions.get(run.transactionUid);
  if (tx !== undefined) settleTransaction(sim, tx, status, errorMsg);
  const msp = run.mspRunUid === undefined ? undefined : sim.state.mspDeviceUpgradeRuns.get(run.mspRunUid);
  if (msp === undefined) return;
  const aggregate = mspRunProgress(sim.state, msp);
  const mspTx = sim.state.transactions.get(msp.transactionUid);
  if (aggregate.ended && mspTx !== undefined)
    settleTransaction(sim, mspTx, aggregate.status, aggregate.errorMsg);
}

function settleTransaction(
  sim: SimRuntime,
  tx: TransactionRecord,
  status: DeviceUpgradeRunStatus,
  errorMsg: string | undefined,
): void {
  const failed = status !== 'UPGRADE_STAGED' && status !== 'UPGRADE_COMPLETED';
  updateTransaction(sim, tx, {
    status: failed ? 'ERROR' : 'DONE',
    details: { upgradeRunStatus: status },
    ...(errorMsg === undefined ? {} : { errorMessage: errorMsg }),
  });
}

/** The order runs move in: an MSP run shows its least advanced tenant's status while any still runs. */
const PROGRESS: DeviceUpgradeRunStatus[] = [
  'UPLOADING_IMAGE',
  'PERFORMING_READINESS_CHECK',
  'UPGRADE_STAGED',
  'PERFORMING_UPGRADE',
];

/** The tenants' runs of an MSP run, taken together: its status, whether it has ended, and why it failed. */
export function mspRunProgress(
  state: SimState,
  msp: MspDeviceUpgradeRunRecord,
): {
  status: DeviceUpgradeRunStatus;
  ended: boolean;
  errorMsg?: string;
  runs: DeviceUpgradeRunRecord[];
  lastUpdatedTime: number;
} {
  const runs = msp.tenantRunUids.flatMap((uid) => {
    const run = state.deviceUpgradeRuns.get(uid);
    return run === undefined ? [] : [run];
  });
  const lastUpdatedTime = Math.max(msp.submissionTime, ...runs.map((r) => r.lastUpdatedTime));
  const live = runs.filter((r) => !hasEnded(r));
  if (live.length > 0) {
    const status = PROGRESS.find((s) => live.some((r) => r.status === s)) ?? 'PERFORMING_UPGRADE';
    return { status, ended: false, runs, lastUpdatedTime };
  }
  const errors = runs.flatMap((r) => (r.errorMsg === undefined ? [] : [r.errorMsg]));
  const errorMsg = errors.length === 0 ? undefined : errors.join('; ');
  const statuses = new Set(runs.map((r) => r.status));
  const status: DeviceUpgradeRunStatus =
    statuses.has('UPGRADE_STAGING_FAILED') || statuses.has('UGPRADE_STAGING_FAILED')
      ? msp.type === 'FTD_DEVICE_UPGRADE'
        ? 'UGPRADE_STAGING_FAILED'
        : 'UPGRADE_STAGING_FAILED'
      : statuses.has('UPGRADE_FAILED')
        ? 'UPGRADE_FAILED'
        : msp.stageUpgradeOnly
          ? 'UPGRADE_STAGED'
          : 'UPGRADE_COMPLETED';
  return { status, ended: true, ...(errorMsg === undefined ? {} : { errorMsg }), runs, lastUpdatedTime };
}

/** Applies a fault of the device's, counting it down; the fault as it applies to this run, if any. */
function takeFault(device: DeviceRecord | undefined, kind: SoftwareUpgradeFault['kind']) {
  const fault = device?.softwareUpgradeFault;
  if (device === undefined || fault === undefined || fault.kind !== kind) return undefined;
  if (fault.times !== undefined) {
    fault.times -= 1;
    if (fault.times <= 0) delete device.softwareUpgradeFault;
  }
  return fault;
}

/** Ends the readiness checks: the devices that passed hold the image staged; false when the run failed. */
function finishReadiness(sim: SimRuntime, run: DeviceUpgradeRunRecord, at: number): boolean {
  const failures: string[] = [];
  for (const d of run.devices) {
    const device = sim.state.devices.get(d.uid);
    const fault = takeFault(device, 'READINESS_CHECK');
    if (fault !== undefined) {
      failures.push(`${d.name}: ${fault.message}`);
      for (const node of d.nodes)
        Object.assign(node, { message: fault.message, failed: true, completedAt: at });
      continue;
    }
    if (device !== undefined) {
      device.stagedUpgrade = {
        softwareVersion: run.softwareVersion,
        ...(run.asdmVersion === undefined ? {} : { asdmVersion: run.asdmVersion }),
        ...(run.upgradePackageUid === undefined ? {} : { upgradePackageUid: run.upgradePackageUid }),
        runUid: run.uid,
      };
    }
    for (const node of d.nodes) {
      setTask(node, 'Readiness checks passed; the upgrade is staged', at, 0);
      if (run.stageUpgradeOnly) node.completedAt = at;
    }
  }
  if (failures.length > 0) {
    const status = run.type === 'FTD_DEVICE_UPGRADE' ? 'UGPRADE_STAGING_FAILED' : 'UPGRADE_STAGING_FAILED';
    end(sim, run, status, at, `Readiness check failed on ${failures.join('; ')}`);
    return false;
  }
  enter(run, 'UPGRADE_STAGED', at);
  return true;
}

function outsideWindow(sim: SimRuntime, run: DeviceUpgradeRunRecord, at: number): string[] {
  if (run.ignoreMaintenanceWindow) return [];
  return run.devices
    .filter((d) => {
      const window = sim.state.devices.get(d.uid)?.maintenanceWindow;
      return window !== undefined && !maintenanceWindowDto(window, at).isOpen;
    })
    .map((d) => d.name);
}

function performUpgrade(
  sim: SimRuntime,
  run: DeviceUpgradeRunRecord,
  at: number,
  nodeTime: () => number,
): void {
  const closed = outsideWindow(sim, run, at);
  if (closed.length > 0) {
    for (const d of run.devices)
      for (const node of d.nodes)
        setTask(node, closed.includes(d.name) ? 'Outside the maintenance window' : 'Not upgraded', at, 0);
    end(
      sim,
      run,
      'UPGRADE_FAILED',
      at,
      `Outside the maintenance window: ${closed.join(', ')}; the upgrade stays staged`,
    );
    return;
  }
  enter(run, 'PERFORMING_UPGRADE', at);
  const state = sim.state;
  let remaining = run.devices.length;
  const deviceDone = (when: number) => {
    remaining -= 1;
    if (remaining > 0 || sim.state !== state || hasEnded(run)) return;
    const failed = run.devices.filter((d) => d.nodes.some((n) => n.failed === true));
    if (failed.length === 0) end(sim, run, 'UPGRADE_COMPLETED', when);
    else
      end(
        sim,
        run,
        'UPGRADE_FAILED',
        when,
        `The upgrade failed on ${failed.map((d) => `${d.name} (${d.nodes.find((n) => n.failed)?.message ?? ''})`).join('; ')}`,
      );
  };
  for (const d of run.devices) upgradeDevice(sim, run, d, at, nodeTime, deviceDone);
}

/** One device: its nodes one after the other (an HA pair's secondary first), then the new version. */
function upgradeDevice(
  sim: SimRuntime,
  run: DeviceUpgradeRunRecord,
  d: UpgradeRunDeviceRecord,
  at: number,
  nodeTime: () => number,
  done: (at: number) => void,
): void {
  const state = sim.state;
  const device = state.devices.get(d.uid);
  const order = [...d.nodes].sort((a, b) =>
    a.nodeType === 'HA_SECONDARY' ? -1 : b.nodeType === 'HA_SECONDARY' ? 1 : 0,
  );
  const fault = takeFault(device, 'NODE');
  const ranBefore = {
    own: device?.device.softwareVersion,
    mate: device?.device.asaFailoverMate?.softwareVersion,
  };
  const failing =
    fault === undefined
      ? undefined
      : (order.find((n) => n.nodeType === (fault.node ?? 'HA_PRIMARY')) ?? order[0]);
  for (const node of order) setTask(node, 'Waiting for its turn', at, 0);
  let t = at;
  const step = (i: number) => {
    const node = order[i];
    if (node === undefined || sim.state !== state) return;
    const duration = nodeTime();
    setTask(node, `Installing ${run.softwareVersion} and reloading`, t, duration);
    if (node.nodeType === 'HA_PRIMARY' && device !== undefined) failover(device, 'secondary-active');
    const endsAt = t + duration;
    sim.clock.schedule(endsAt, () => {
      if (sim.state !== state) return;
      if (node === failing && fault !== undefined) {
        Object.assign(node, { message: fault.message, failed: true, completedAt: endsAt });
        if (device !== undefined)
          failover(device, node.nodeType === 'HA_SECONDARY' ? 'secondary-failed' : 'primary-failed');
        for (const rest of order.slice(i + 1))
          Object.assign(rest, { message: 'Not upgraded', completedAt: endsAt });
        done(endsAt);
        return;
      }
      Object.assign(node, { message: `Running ${run.softwareVersion}`, completedAt: endsAt });
      if (device !== undefined) installed(sim, device, run, node);
      t = endsAt;
      if (i + 1 < order.length) step(i + 1);
      else {
        if (device !== undefined) {
          const after =
            takeFault(device, 'VERSION') ?? takeFault(device, 'FAILOVER') ?? takeFault(device, 'CONFIG');
          failover(device, after?.kind === 'FAILOVER' ? 'secondary-active' : 'restored');
          if (after?.kind === 'VERSION') reloadedIntoOldImage(device, ranBefore);
          if (after?.kind === 'CONFIG') dropFirstPermit(sim.state, device);
          delete device.stagedUpgrade;
        }
        done(endsAt);
      }
    });
  };
  step(0);
}

/** A unit now runs the target: an HA secondary is the mate; the primary (or a standalone unit) the device. */
function installed(
  sim: SimRuntime,
  device: DeviceRecord,
  run: DeviceUpgradeRunRecord,
  node: UpgradeNodeRecord,
): void {
  const d = device.device;
  if (node.nodeType === 'HA_SECONDARY') {
    if (d.asaFailoverMate) d.asaFailoverMate.softwareVersion = run.softwareVersion;
    return;
  }
  d.softwareVersion = run.softwareVersion;
  if (run.asdmVersion !== undefined && device.kind === 'ASA') d.asdmVersion = run.asdmVersion;
  if (device.kind === 'FTD') {
    // Its cache entry no longer holds: the next multi-device read computes its versions again.
    const cache = sim.state.ftdUpgradeCaches.get(device.tenantUid) ?? { stale: new Set<string>() };
    cache.stale.add(d.uid);
    sim.state.ftdUpgradeCaches.set(device.tenantUid, cache);
  }
}

/** A VERSION fault: the units reloaded into the images they ran before; SCC reads the old version again. */
function reloadedIntoOldImage(
  device: DeviceRecord,
  before: { own?: string | null; mate?: string | null },
): void {
  const d = device.device;
  if (before.own) d.softwareVersion = before.own;
  if (d.asaFailoverMate && before.mate) d.asaFailoverMate.softwareVersion = before.mate;
}

/** A CONFIG fault: the new version dropped the first `access-list … permit` line (both copies, as a reload). */
function dropFirstPermit(state: SimState, device: DeviceRecord): void {
  if (device.kind !== 'ASA') return;
  editBothCopies(state, device.device.uid, (lines) => {
    const at = lines.findIndex((line) => /^access-list \S+ extended permit /.test(line));
    return at < 0 ? [...lines] : [...lines.slice(0, at), ...lines.slice(at + 1)];
  });
}

type FailoverMoment = 'secondary-active' | 'secondary-failed' | 'primary-failed' | 'restored';

/** An HA pair while it upgrades: the secondary takes over while the primary reloads, then hands back. */
function failover(device: DeviceRecord, moment: FailoverMoment): void {
  const d = device.device;
  if (d.asaFailoverMode !== 'ACTIVE_STANDBY' || d.asaFailoverMate === undefined || d.asaFailoverMate === null)
    return;
  const states: Record<FailoverMoment, [string, string]> = {
    'secondary-active': ['Primary - Standby Ready', 'Secondary - Active'],
    'secondary-failed': ['Primary - Active', 'Secondary - Failed'],
    'primary-failed': ['Primary - Failed', 'Secondary - Active'],
    restored: ['Primary - Active', 'Secondary - Standby Ready'],
  };
  const [own, mate] = states[moment];
  d.asaFailoverState = own;
  d.asaFailoverMate.failoverState = mate;
}

/** 0–1, as SCC's other progress figures (a deployment's completion status, a Secure Client run): the current task's. */
function fraction(node: UpgradeNodeRecord, now: number): number {
  if (node.completedAt !== undefined) return 1;
  if (node.durationMs <= 0) return 0;
  return Math.round(Math.min(1, Math.max(0, (now - node.startedAt) / node.durationMs)) * 100) / 100;
}

export function deviceUpgradeStatusDtos(
  run: DeviceUpgradeRunRecord,
  now: number,
): Model.DeviceUpgradeStatusDto[] {
  return run.devices.map((d) => ({
    uid: d.uid,
    completionStatuses: d.nodes.map((node) => ({
      name: node.name,
      ...(node.nodeType === undefined ? {} : { nodeType: node.nodeType }),
      message: node.message,
      percentageComplete: fraction(node, now),
      ...(node.completedAt === undefined ? {} : { completedAt: iso(node.completedAt) }),
    })),
  }));
}

export function deviceUpgradeRunDto(run: DeviceUpgradeRunRecord, now: number): Model.UpgradeRunDto {
  return {
    uid: run.uid,
    name: run.name,
    upgradeRunType: run.type,
    upgradeRunStatus: run.status,
    stageUpgradeOnly: run.stageUpgradeOnly,
    transactionUid: run.transactionUid,
    deviceUids: run.devices.map((d) => d.uid),
    deviceUpgradeStatuses: deviceUpgradeStatusDtos(run, now),
    ...(run.upgradePackageUid === undefined ? {} : { upgradePackageUid: run.upgradePackageUid }),
    ...(run.errorMsg === undefined ? {} : { errorMsg: run.errorMsg }),
  };
}
