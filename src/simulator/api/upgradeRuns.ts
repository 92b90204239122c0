// Secure Client upgrades: a trigger validates every device (400 names the ineligible ones), then creates
// a transaction and an upgrade run that walks the real run statuses on the simulated clock, with
// per-step progress and per-device results, ending DONE, DONE_WITH_DEVICE_WARNINGS,
// DONE_WITH_DEVICE_ERRORS or ERROR. Runs are listed, read, and summarised (attribute values).

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requireWrite } from '../auth.js';
import { type ErrorDetails, invalidInput, notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { iso, type SimRuntime } from '../runtime.js';
import type {
  DeviceRecord,
  Platform,
  UpgradeFault,
  UpgradeRunRecord,
  UpgradeRunStatus,
  UpgradeRunType,
} from '../state/model.js';
import { packageFileName } from '../state/seedSecureClient.js';
import { devicesForSet, incompatibility, packagesOf, parsePackageFileName } from './secureClient.js';
import { openTransaction, transactionDto, updateTransaction } from './transactions.js';

const ASA_STEPS: UpgradeRunStatus[] = [
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
];
/** FTDs have no DNS check and nothing to write to memory: the FMC deploys the policy. */
const FTD_STEPS = ASA_STEPS.filter(
  (s) => !s.startsWith('CHECKING_ASA_DEVICES_DNS') && !/WRIT(E|ING)_/.test(s),
);
export const STEP_MS = { min: 5_000, max: 20_000 } as const;
const TERMINAL = new Set<UpgradeRunStatus>([
  'DONE',
  'DONE_WITH_DEVICE_WARNINGS',
  'DONE_WITH_DEVICE_ERRORS',
  'ERROR',
]);
export const isTerminalRunStatus = (status: UpgradeRunStatus): boolean => TERMINAL.has(status);

export function upgradeRunDto(run: UpgradeRunRecord, now: number): Model.SecureClientUpgradeRunDto {
  const terminal = TERMINAL.has(run.status);
  const progress = terminal
    ? run.status === 'ERROR'
      ? null
      : 1
    : Math.round(
        Math.min(1, Math.max(0, (now - run.stepStartedAt) / Math.max(1, run.stepDurationMs))) * 100,
      ) / 100;
  return {
    uid: run.uid,
    name: run.name,
    upgradeRunType: run.type,
    upgradeRunStatus: run.status,
    secureClientVersion: run.version,
    username: run.username,
    transactionUid: run.transactionUid,
    submissionTime: iso(run.submissionTime),
    lastUpdatedTime: iso(run.lastUpdatedTime),
    percentageComplete: progress,
    ...(run.errorMsg === undefined ? {} : { errorMsg: run.errorMsg }),
    devices: run.devices.map((d) => ({ ...d })),
  };
}

const runFields: FieldTable<UpgradeRunRecord> = {
  uid: { kind: 'string', get: (r) => r.uid },
  name: { kind: 'string', get: (r) => r.name },
  upgradeRunStatus: { kind: 'string', get: (r) => r.status },
  upgradeRunType: { kind: 'string', get: (r) => r.type },
  secureClientVersion: { kind: 'string', get: (r) => r.version },
  username: { kind: 'string', get: (r) => r.username },
  transactionUid: { kind: 'string', get: (r) => r.transactionUid },
  submissionTime: { kind: 'date', get: (r) => r.submissionTime },
  lastUpdatedTime: { kind: 'date', get: (r) => r.lastUpdatedTime },
  deviceUid: { kind: 'string', get: (r) => r.devices.map((d) => d.uid) },
  deviceName: { kind: 'string', get: (r) => r.devices.map((d) => d.name) },
};

const tenantRuns = (ctx: RequestContext) =>
  [...ctx.state.upgradeRuns.values()]
    .filter((r) => r.tenantUid === ctx.principal.tenant.uid)
    .sort((a, b) => b.submissionTime - a.submissionTime);

export const getSecureClientUpgradeRuns: Handler = (ctx) => {
  const page = listPage(ctx.query, tenantRuns(ctx), { fields: runFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map((r) => upgradeRunDto(r, ctx.now)) } };
};

export const getSecureClientUpgradeRun: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'upgradeRunUid');
  const run = ctx.state.upgradeRuns.get(uid);
  if (run === undefined || run.tenantUid !== ctx.principal.tenant.uid) {
    throw notFound(`Secure Client upgrade run ${uid} not found`, { upgradeRunUid: { value: uid } });
  }
  return { status: 200, body: upgradeRunDto(run, ctx.now) };
};

export const getSecureClientUpgradeRunsAttributeValues: Handler = (ctx) => {
  const runs = tenantRuns(ctx);
  const distinct = <T>(values: T[]) => [...new Set(values)];
  const body: Model.SecureClientUpgradeRunAttributeValues = {
    upgradeRunStatuses: distinct(runs.map((r) => r.status)),
    upgradeRunTypes: distinct(runs.map((r) => r.type)),
    users: distinct(runs.map((r) => r.username)),
  };
  return { status: 200, body };
};

function trigger(kind: 'ASA' | 'FTD', type: UpgradeRunType): Handler {
  return (ctx) => {
    requireWrite(ctx.principal);
    const input = requireBody(ctx, Input.TriggerSecureClientUpgradeInput);
    const version = ctx.state.catalogue.find((v) => v.version === input.version);
    if (version === undefined) {
      throw invalidInput(`Secure Client ${input.version} is not in the package catalogue`, {
        version: { value: input.version, available: ctx.state.catalogue.map((v) => v.version) },
      });
    }
    const platforms = input.platforms ?? version.platforms;
    const missing = platforms.filter(
      (p) => !version.platforms.some((v) => v.os === p.os && v.cpuArchitecture === p.cpuArchitecture),
    );
    if (missing.length > 0) {
      throw invalidInput(
        `Secure Client ${version.version} has no package for ${missing.map((p) => `${p.os}/${p.cpuArchitecture}`).join(', ')}`,
        {
          platforms: { unavailable: missing, available: version.platforms },
        },
      );
    }
    const devices = devicesForSet(
      ctx,
      input.deviceUids.map((u) => u.toLowerCase()),
      kind,
    );
    const busy = new Set(
      [...ctx.state.upgradeRuns.values()]
        .filter((r) => !TERMINAL.has(r.status))
        .flatMap((r) => r.devices.map((d) => d.uid)),
    );
    const details: ErrorDetails = {};
    for (const d of devices) {
      const reason = busy.has(d.device.uid)
        ? 'is already in a running Secure Client upgrade'
        : incompatibility(d, version);
      if (reason !== undefined) details[d.device.uid] = { name: d.device.name, reason };
    }
    if (Object.keys(details).length > 0) {
      const names = Object.values(details).map((d) => String(d.name));
      throw invalidInput(
        `${names.length === 1 ? '1 device is' : `${names.length} devices are`} not eligible for Secure Client ${version.version}: ${names.join(', ')}`,
        details,
      );
    }
    const run = startRun(ctx, { type, version: version.version, platforms, devices, name: input.name });
    const tx = ctx.state.transactions.get(run.transactionUid);
    if (tx === undefined) throw new Error('upgrade run started without its transaction');
    return { status: 202, body: transactionDto(ctx.sim, tx) };
  };
}

export const triggerSecureClientUpgrade = trigger('ASA', 'ASA_SECURE_CLIENT_UPGRADE');
export const triggerFtdSecureClientUpgrade = trigger('FTD', 'FTD_SECURE_CLIENT_UPGRADE');

export interface RunRequest {
  type: UpgradeRunType;
  version: string;
  platforms: Platform[];
  devices: DeviceRecord[];
  name: string | undefined;
  /** The tenant the run belongs to and who started it (default: the caller's); MSP upgrades set both. */
  tenantUid?: string;
  username?: string;
}

/** Documented trigger: a run whose name contains "fail" fails while uploading images (run ERROR). */
const runFailsUpload = (name: string) => name.toLowerCase().includes('fail');

export function startRun(ctx: RequestContext, request: RunRequest): UpgradeRunRecord {
  const { sim, state } = ctx;
  const now = ctx.now;
  const tenantUid = request.tenantUid ?? ctx.principal.tenant.uid;
  const steps = request.type === 'ASA_SECURE_CLIENT_UPGRADE' ? ASA_STEPS : FTD_STEPS;
  const durations = steps.map(() => sim.clock.span(state.rng.int(STEP_MS.min, STEP_MS.max)));
  const uid = state.rng.uuid();
  const tx = openTransaction(sim, {
    tenantUid,
    type: 'UPGRADE_SECURE_CLIENT_PACKAGES',
    entityUid: uid,
    entityUrl: `${sim.baseUrl}/v1/inventory/devices/secure-client/upgrades/runs/${uid}`,
    details: { upgradeRunUid: uid, secureClientVersion: request.version },
  });
  const run: UpgradeRunRecord = {
    uid,
    tenantUid,
    name: request.name ?? `secure-client-${request.version}-${uid.slice(0, 8)}`,
    type: request.type,
    version: request.version,
    platforms: request.platforms,
    username: request.username ?? ctx.principal.username,
    transactionUid: tx.uid,
    submissionTime: now,
    lastUpdatedTime: now,
    status: 'VALIDATING_INPUTS',
    stepStartedAt: now,
    stepDurationMs: durations[0] ?? STEP_MS.min,
    devices: request.devices.map((d) => ({ uid: d.device.uid, name: d.device.name, status: 'PENDING' })),
  };
  state.upgradeRuns.set(uid, run);

  let at = now;
  steps.forEach((step, i) => {
    const startsAt = at;
    const duration = durations[i] ?? STEP_MS.min;
    if (i > 0) {
      sim.clock.schedule(startsAt, () => {
        if (sim.state !== state || TERMINAL.has(run.status)) return;
        enterStep(sim, run, step, startsAt, duration);
      });
    }
    at += duration;
  });
  sim.clock.schedule(at, () => {
    if (sim.state !== state || TERMINAL.has(run.status)) return;
    finishRun(sim, run, request);
  });
  return run;
}

/** How a device fares in this run: as an admin route said for this run, else as the device always does. */
const faultOf = (sim: SimRuntime, run: UpgradeRunRecord, deviceUid: string): UpgradeFault | undefined =>
  run.deviceFaults?.[deviceUid] ?? sim.state.devices.get(deviceUid)?.upgradeFault;

function enterStep(
  sim: SimRuntime,
  run: UpgradeRunRecord,
  step: UpgradeRunStatus,
  at: number,
  duration: number,
): void {
  const tx = sim.state.transactions.get(run.transactionUid);
  // Leaving a step applies what that step decided.
  if (run.status === 'UPLOADING_IMAGES' && runFailsUpload(run.name)) {
    for (const d of run.devices)
      Object.assign(d, { status: 'FAILED', errorMsg: 'Image upload to the device failed' });
    endRun(sim, run, 'ERROR', 'Uploading the Secure Client images failed');
    return;
  }
  if (run.status === 'CHECKING_IMAGES_UPLOAD_RESULTS') {
    for (const d of run.devices) {
      const fault = faultOf(sim, run, d.uid);
      if (fault?.status === 'FAILED') Object.assign(d, { status: 'FAILED', errorMsg: fault.errorMsg });
    }
    if (run.devices.every((d) => d.status === 'FAILED')) {
      endRun(sim, run, 'ERROR', 'All devices failed to upgrade');
      return;
    }
  }
  if (step === 'UPLOADING_IMAGES') for (const d of run.devices) d.status = 'IN_PROGRESS';
  run.status = step;
  run.stepStartedAt = at;
  run.stepDurationMs = duration;
  run.lastUpdatedTime = at;
  if (tx !== undefined && tx.status === 'PENDING') updateTransaction(sim, tx, { status: 'IN_PROGRESS' });
}

function finishRun(sim: SimRuntime, run: UpgradeRunRecord, request: RunRequest): void {
  for (const d of run.devices) {
    if (d.status === 'FAILED') continue;
    const fault = faultOf(sim, run, d.uid);
    if (fault?.status === 'CLEANUP_FAILED')
      Object.assign(d, { status: 'CLEANUP_FAILED', errorMsg: fault.errorMsg });
    else d.status = 'SUCCESS';
    installPackages(sim, d.uid, request, d.status === 'SUCCESS');
  }
  const failed = run.devices.filter((d) => d.status === 'FAILED').length;
  const warned = run.devices.some((d) => d.status === 'CLEANUP_FAILED');
  const status: UpgradeRunStatus =
    failed === run.devices.length
      ? 'ERROR'
      : failed > 0
        ? 'DONE_WITH_DEVICE_ERRORS'
        : warned
          ? 'DONE_WITH_DEVICE_WARNINGS'
          : 'DONE';
  endRun(sim, run, status, status === 'ERROR' ? 'All devices failed to upgrade' : undefined);
}

function endRun(sim: SimRuntime, run: UpgradeRunRecord, status: UpgradeRunStatus, errorMsg?: string): void {
  const now = sim.clock.now();
  run.status = status;
  run.lastUpdatedTime = now;
  run.stepStartedAt = now;
  run.stepDurationMs = 0;
  if (errorMsg !== undefined) run.errorMsg = errorMsg;
  const tx = sim.state.transactions.get(run.transactionUid);
  if (tx === undefined) return;
  updateTransaction(sim, tx, {
    status: status === 'ERROR' ? 'ERROR' : 'DONE',
    details: { upgradeRunStatus: status },
    ...(errorMsg === undefined ? {} : { errorMessage: errorMsg }),
  });
}

/** New packages land on the device (or the FTD's policy); old ones go unless their clean-up failed. */
function installPackages(sim: SimRuntime, deviceUid: string, request: RunRequest, removeOld: boolean): void {
  const device = sim.state.devices.get(deviceUid);
  if (device === undefined) return;
  const current = packagesOf(sim.state, device);
  if (removeOld) {
    for (const p of current)
      if (parsePackageFileName(p.fileName) !== undefined) sim.state.packages.delete(p.uid);
  }
  for (const platform of request.platforms) {
    const fileName = packageFileName(request.version, platform);
    if (current.some((p) => p.fileName === fileName) && !removeOld) continue;
    const uid = sim.state.rng.uuid();
    sim.state.packages.set(uid, { uid, deviceUid, fileName });
  }
}

/** Secure Client upgrade runs of the tenant: this file's handlers, which the table (operations.ts) spreads. */
export const upgradeRunHandlers = {
  getSecureClientUpgradeRuns,
  getSecureClientUpgradeRun,
  getSecureClientUpgradeRunsAttributeValues,
  triggerSecureClientUpgrade,
  triggerFtdSecureClientUpgrade,
} satisfies Partial<OperationHandlers>;
