// Software upgrades of a tenant's ASAs and FTDs (../shared/reference/scc-openapi-upgrades.yaml): the versions
// each device can move to (by its model and current version, state/softwareReleases.ts), the FTD package
// cache, the upgrade triggers (one device or up to 50), and the device upgrade runs (list, read, rename,
// delete). The runs themselves move in deviceUpgradeEngine.ts.
//
// Refusals: an unknown device is a 404; a device that cannot take the version (wrong type, not ONLINE, not
// newer, not for its model) a 400 naming each (FTD single-device: 422, as declared); a device already in a
// live run, or holding another staged upgrade without `forceUpgrade`, a 409 CONFLICT (FTD single-device:
// 422). The reference declares no 4xx for the ASA triggers: these are the simulator's, as for other
// operations (docs/developing/simulator.md).

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requireWrite } from '../auth.js';
import { type ErrorDetails, invalidInput, notFound, SimError } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import type { DeviceRecord, DeviceUpgradeRunRecord } from '../state/model.js';
import {
  type AsaRelease,
  asaImageFiles,
  asaReleasesFor,
  dottedAsaVersion,
  type FtdRelease,
  findFtdPackage,
  ftdPackage,
  ftdReleasesFor,
} from '../state/softwareReleases.js';
import { deviceOfKind } from './devices.js';
import { busyDevices, deviceUpgradeRunDto, startDeviceUpgrade } from './deviceUpgradeEngine.js';
import { devicesForSet, deviceUidsParam } from './secureClient.js';
import { accepted, startTransaction } from './transactions.js';

/** Where the simulator says an image lives (never fetched). */
const IMAGE_BASE = 'https://software.example.invalid/asa';

export function asaVersionDto(release: AsaRelease): Model.AsaCompatibleVersion {
  const files = asaImageFiles(release);
  return {
    softwareVersion: release.softwareVersion,
    asdmVersion: release.asdmVersion,
    softwareImageUrl: `${IMAGE_BASE}/${files.software}`,
    asdmImageUrl: `${IMAGE_BASE}/${files.asdm}`,
  };
}

export function ftdVersionDto(release: FtdRelease, model: string): Model.FtdVersion {
  const pkg = ftdPackage(release, model);
  return {
    softwareVersion: release.softwareVersion,
    upgradePackageUid: pkg.uid,
    filename: pkg.filename,
    upgradeType: release.upgradeType,
    isSuggestedVersion: release.suggested,
  };
}

/** Newest first, as SCC lists them. */
const newestFirst = <T>(items: readonly T[]): T[] => [...items].reverse();

/** The one hardware model of a set of devices; 400 when they mix models. */
function oneModel(devices: readonly DeviceRecord[]): string {
  const models = [...new Set(devices.map((d) => d.device.hardwareModel ?? 'unknown'))];
  if (models.length > 1) {
    throw invalidInput(`The devices must be of one hardware model; these are of ${models.join(', ')}`, {
      deviceUids: { models },
    });
  }
  return models[0] ?? 'unknown';
}

/** Releases every device of the set can move to. */
function common<T extends { softwareVersion: string }>(
  devices: readonly DeviceRecord[],
  of: (d: DeviceRecord) => T[],
): T[] {
  const [first, ...rest] = devices;
  if (first === undefined) return [];
  return of(first).filter((r) =>
    rest.every((d) => of(d).some((o) => o.softwareVersion === r.softwareVersion)),
  );
}

const getAsaUpgradeVersions: Handler = (ctx) => {
  const device = deviceOfKind(ctx, 'ASA');
  const items = newestFirst(asaReleasesFor(device)).map(asaVersionDto);
  return { status: 200, body: { count: items.length, items } };
};

const getCompatibleAsaVersionsForMultipleAsas: Handler = (ctx) => {
  const devices = devicesForSet(ctx, deviceUidsParam(ctx.query), 'ASA');
  const body: Model.AsaCompatibilityVersion = {
    hardwareModel: oneModel(devices),
    deviceUids: devices.map((d) => d.device.uid),
    compatibleAsaVersions: newestFirst(common(devices, asaReleasesFor)).map(asaVersionDto),
  };
  return { status: 200, body };
};

const getCompatibleFtdVersions: Handler = (ctx) => {
  const device = deviceOfKind(ctx, 'FTD');
  const model = device.device.hardwareModel ?? '';
  const items = newestFirst(ftdReleasesFor(device)).map((r) => ftdVersionDto(r, model));
  return { status: 200, body: { count: items.length, items } };
};

/** The tenant's FTD package cache, built in 20–40 s (a read that needs one starts a shorter computation). */
function buildCache(ctx: RequestContext, runningMs: number) {
  const { sim, state } = ctx;
  const tenantUid = ctx.principal.tenant.uid;
  const cache = state.ftdUpgradeCaches.get(tenantUid) ?? { stale: new Set<string>() };
  state.ftdUpgradeCaches.set(tenantUid, cache);
  const building =
    cache.buildingTransactionUid === undefined
      ? undefined
      : state.transactions.get(cache.buildingTransactionUid);
  if (building !== undefined && (building.status === 'PENDING' || building.status === 'IN_PROGRESS'))
    return building;
  const tx = startTransaction(sim, {
    tenantUid,
    type: 'UPGRADE_FTD_CACHE',
    pendingMs: 1_000,
    runningMs,
    finish: () => {
      cache.stale.clear();
      delete cache.buildingTransactionUid;
      return { ok: true };
    },
  });
  cache.buildingTransactionUid = tx.uid;
  return tx;
}

const updateFtdUpgradePackagesCache: Handler = (ctx) => {
  requireWrite(ctx.principal);
  return accepted(ctx.sim, buildCache(ctx, ctx.state.rng.int(20_000, 40_000)));
};

const getCompatibleFtdVersionsForMultipleFtds: Handler = (ctx) => {
  const devices = devicesForSet(ctx, deviceUidsParam(ctx.query), 'FTD');
  const model = oneModel(devices);
  const cache = ctx.state.ftdUpgradeCaches.get(ctx.principal.tenant.uid);
  const building = cache?.buildingTransactionUid !== undefined;
  if (building || devices.some((d) => cache?.stale.has(d.device.uid) === true)) {
    // Not in the cache (their software changed since it was built): computed first, as the reference says.
    return accepted(ctx.sim, buildCache(ctx, ctx.state.rng.int(5_000, 15_000)));
  }
  const body: Model.FtdCompatibilityVersion = {
    hardwareModel: model,
    deviceUids: devices.map((d) => d.device.uid),
    compatibleFtdVersions: newestFirst(common(devices, ftdReleasesFor)).map((r) => ftdVersionDto(r, model)),
  };
  return { status: 200, body };
};

export interface UpgradeTarget {
  softwareVersion: string;
  asdmVersion?: string;
  upgradePackageUid?: string;
  forceUpgrade: boolean;
}

/**
 * Why each device cannot take the target now: `ineligible` (type, connectivity, version) and `conflicts`
 * (a live run on it, or another upgrade staged on it without forceUpgrade).
 */
export function upgradeRefusals(
  ctx: RequestContext,
  devices: readonly DeviceRecord[],
  target: UpgradeTarget,
): { ineligible: ErrorDetails; conflicts: ErrorDetails } {
  const ineligible: ErrorDetails = {};
  const conflicts: ErrorDetails = {};
  const busy = busyDevices(ctx.state.deviceUpgradeRuns.values());
  for (const d of devices) {
    const name = d.device.name;
    const releases = d.kind === 'ASA' ? asaReleasesFor(d) : d.kind === 'FTD' ? ftdReleasesFor(d) : [];
    const fits = releases.some((r) => r.softwareVersion === target.softwareVersion);
    if (d.kind !== 'ASA' && d.kind !== 'FTD')
      ineligible[d.device.uid] = { name, reason: `is a ${d.device.deviceType}` };
    else if (d.device.connectivityState !== 'ONLINE')
      ineligible[d.device.uid] = {
        name,
        reason: `is ${d.device.connectivityState ?? 'UNKNOWN'}, not ONLINE`,
      };
    else if (!fits)
      ineligible[d.device.uid] = {
        name,
        reason: `cannot move from ${d.device.softwareVersion ?? 'an unknown version'} to ${target.softwareVersion} on a ${d.device.hardwareModel ?? 'device of unknown model'}`,
      };
    const run = busy.get(d.device.uid);
    const staged = d.stagedUpgrade;
    if (run !== undefined)
      conflicts[d.device.uid] = {
        name,
        reason: `is already being upgraded by run ${run.name}`,
        upgradeRunUid: run.uid,
      };
    else if (
      staged !== undefined &&
      staged.softwareVersion !== target.softwareVersion &&
      !target.forceUpgrade
    )
      conflicts[d.device.uid] = {
        name,
        reason: `has an upgrade to ${staged.softwareVersion} staged (forceUpgrade replaces it)`,
      };
  }
  return { ineligible, conflicts };
}

const names = (details: ErrorDetails) =>
  Object.values(details).map((d) => `${String(d.name)} ${String(d.reason)}`);

/** Throws the refusal for these devices, with the statuses the operation uses; nothing when all may go. */
export function refuse(
  ctx: RequestContext,
  devices: readonly DeviceRecord[],
  target: UpgradeTarget,
  statuses: { ineligible: 400 | 422; conflict: 409 | 422 },
): void {
  const { ineligible, conflicts } = upgradeRefusals(ctx, devices, target);
  const fail = (status: number, details: ErrorDetails) =>
    new SimError(
      status,
      status === 422 ? 'UNPROCESSABLE_ENTITY' : status === 409 ? 'CONFLICT' : 'INVALID_INPUT',
      `Cannot upgrade to ${target.softwareVersion}: ${names(details).join('; ')}`,
      details,
    );
  if (Object.keys(ineligible).length > 0) throw fail(statuses.ineligible, ineligible);
  if (Object.keys(conflicts).length > 0) throw fail(statuses.conflict, conflicts);
}

/** Upgrade run names are unique in a tenant (the reference says so): 400 for one in use. */
export function checkRunName(
  ctx: RequestContext,
  tenantUid: string,
  name: string | undefined | null,
  except?: string,
): void {
  if (name === undefined || name === null) return;
  for (const run of ctx.state.deviceUpgradeRuns.values()) {
    if (
      run.tenantUid === tenantUid &&
      run.deleted !== true &&
      run.uid !== except &&
      run.name.toLowerCase() === name.toLowerCase()
    )
      throw invalidInput(`An upgrade run named ${name} already exists`, {
        name: { value: name, upgradeRunUid: run.uid },
      });
  }
}

function asaTarget(
  version: string | undefined,
  asdm: string | undefined,
  force: boolean | undefined,
): UpgradeTarget {
  const softwareVersion = version === undefined ? undefined : dottedAsaVersion(version);
  if (softwareVersion === undefined)
    throw invalidInput('softwareVersion is required (e.g. 9.20.3 or 9.20(3))', {
      softwareVersion: { value: version ?? null },
    });
  return {
    softwareVersion,
    ...(asdm === undefined ? {} : { asdmVersion: asdm }),
    forceUpgrade: force ?? false,
  };
}

function triggerAsa(ctx: RequestContext, devices: DeviceRecord[], input: Input.UpgradeAsaDeviceInput) {
  requireWrite(ctx.principal);
  const target = asaTarget(input.softwareVersion, input.asdmVersion, input.forceUpgrade);
  refuse(ctx, devices, target, { ineligible: 400, conflict: 409 });
  checkRunName(ctx, ctx.principal.tenant.uid, input.name);
  const release = asaReleasesFor(devices[0] as DeviceRecord).find(
    (r) => r.softwareVersion === target.softwareVersion,
  );
  const run = startDeviceUpgrade(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'ASA_DEVICE_UPGRADE',
    devices,
    softwareVersion: target.softwareVersion,
    ...(release === undefined ? {} : { asdmVersion: target.asdmVersion ?? release.asdmVersion }),
    stageUpgradeOnly: input.stageUpgrade ?? false,
    forceUpgrade: target.forceUpgrade,
    ignoreMaintenanceWindow: input.ignoreMaintenanceWindow ?? false,
    name: input.name,
    username: ctx.principal.username,
  });
  return acceptedRun(ctx, run);
}

function acceptedRun(ctx: RequestContext, run: DeviceUpgradeRunRecord) {
  const tx = ctx.state.transactions.get(run.transactionUid);
  if (tx === undefined) throw new Error('upgrade run started without its transaction');
  return accepted(ctx.sim, tx);
}

const upgradeAsaDevice: Handler = (ctx) => {
  const device = deviceOfKind(ctx, 'ASA');
  return triggerAsa(ctx, [device], requireBody(ctx, Input.UpgradeAsaDeviceInput));
};

const upgradeAsaDevices: Handler = (ctx) => {
  const input = requireBody(ctx, Input.UpgradeAsaDevicesInput);
  const devices = devicesForSet(
    ctx,
    input.deviceUids.map((u) => u.toLowerCase()),
    'ASA',
  );
  return triggerAsa(ctx, devices, input);
};

function triggerFtd(
  ctx: RequestContext,
  devices: DeviceRecord[],
  input: {
    upgradePackageUid: string;
    stageUpgrade?: boolean | undefined;
    ignoreMaintenanceWindow?: boolean | undefined;
    name?: string | null | undefined;
  },
  statuses: { ineligible: 400 | 422; conflict: 409 | 422 },
) {
  requireWrite(ctx.principal);
  const found = findFtdPackage(input.upgradePackageUid.toLowerCase());
  if (found === undefined)
    throw notFound(`Upgrade package ${input.upgradePackageUid} not found`, {
      upgradePackageUid: { value: input.upgradePackageUid },
    });
  const target: UpgradeTarget = {
    softwareVersion: found.release.softwareVersion,
    upgradePackageUid: input.upgradePackageUid.toLowerCase(),
    forceUpgrade: false,
  };
  // A package is for one model family: a device of another cannot take it.
  const wrongModel: ErrorDetails = {};
  for (const d of devices) {
    const model = d.device.hardwareModel ?? '';
    if (ftdPackage(found.release, model).uid !== target.upgradePackageUid)
      wrongModel[d.device.uid] = {
        name: d.device.name,
        reason: `is a ${model}, which this package is not for`,
      };
  }
  if (Object.keys(wrongModel).length > 0)
    throw new SimError(
      statuses.ineligible,
      statuses.ineligible === 422 ? 'UNPROCESSABLE_ENTITY' : 'INVALID_INPUT',
      `Cannot upgrade with this package: ${names(wrongModel).join('; ')}`,
      wrongModel,
    );
  refuse(ctx, devices, target, statuses);
  checkRunName(ctx, ctx.principal.tenant.uid, input.name);
  const run = startDeviceUpgrade(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'FTD_DEVICE_UPGRADE',
    devices,
    softwareVersion: target.softwareVersion,
    upgradePackageUid: target.upgradePackageUid as string, // set just above
    stageUpgradeOnly: input.stageUpgrade ?? false,
    forceUpgrade: false,
    ignoreMaintenanceWindow: input.ignoreMaintenanceWindow ?? false,
    name: input.name ?? undefined,
    username: ctx.principal.username,
  });
  return acceptedRun(ctx, run);
}

const upgradeFtdDevice: Handler = (ctx) => {
  const device = deviceOfKind(ctx, 'FTD');
  return triggerFtd(ctx, [device], requireBody(ctx, Input.UpgradeFtdDeviceInput), {
    ineligible: 422,
    conflict: 422,
  });
};

const upgradeFtdDevices: Handler = (ctx) => {
  const input = requireBody(ctx, Input.UpgradeFtdDevicesInput);
  const devices = devicesForSet(
    ctx,
    input.deviceUids.map((u) => u.toLowerCase()),
    'FTD',
  );
  return triggerFtd(ctx, devices, input, { ineligible: 400, conflict: 409 });
};

const runFields: FieldTable<DeviceUpgradeRunRecord> = {
  uid: { kind: 'string', get: (r) => r.uid },
  name: { kind: 'string', get: (r) => r.name },
  upgradeRunStatus: { kind: 'string', get: (r) => r.status },
  upgradeRunType: { kind: 'string', get: (r) => r.type },
  stageUpgradeOnly: { kind: 'string', get: (r) => String(r.stageUpgradeOnly) },
  transactionUid: { kind: 'string', get: (r) => r.transactionUid },
  upgradePackageUid: { kind: 'string', get: (r) => r.upgradePackageUid },
  deviceUids: { kind: 'string', get: (r) => r.devices.map((d) => d.uid) },
  submissionTime: { kind: 'date', get: (r) => r.submissionTime },
};

const tenantRuns = (ctx: RequestContext) =>
  [...ctx.state.deviceUpgradeRuns.values()]
    .filter((r) => r.tenantUid === ctx.principal.tenant.uid && r.deleted !== true)
    .sort((a, b) => b.submissionTime - a.submissionTime);

function runOf(ctx: RequestContext, param: string): DeviceUpgradeRunRecord {
  const uid = uuidParam(ctx, param);
  const run = ctx.state.deviceUpgradeRuns.get(uid);
  if (run === undefined || run.deleted === true || run.tenantUid !== ctx.principal.tenant.uid)
    throw notFound(`Device upgrade run ${uid} not found`, { [param]: { value: uid } });
  return run;
}

const getDeviceUpgradeRuns: Handler = (ctx) => {
  const page = listPage(ctx.query, tenantRuns(ctx), { fields: runFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map((r) => deviceUpgradeRunDto(r, ctx.now)) } };
};

const getDeviceUpgradeRun: Handler = (ctx) => ({
  status: 200,
  body: deviceUpgradeRunDto(runOf(ctx, 'upgradeRunUid'), ctx.now),
});

/** Renames the run; the reference answers the page shape (FtdUpgradeRunDtoPage), holding that one run. */
const modifyDeviceUpgradeRun: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const run = runOf(ctx, 'upgradeRunUid');
  const input = requireBody(ctx, Input.UpgradeRunModifyInput);
  checkRunName(ctx, run.tenantUid, input.name, run.uid);
  run.name = input.name;
  run.lastUpdatedTime = ctx.now;
  const body: Model.FtdUpgradeRunDtoPage = {
    count: 1,
    limit: 1,
    offset: 0,
    items: [deviceUpgradeRunDto(run, ctx.now)],
  };
  return { status: 200, body };
};

/** Gone from every read at once; what it started on the devices goes on, and they are no longer seen as busy. */
const deleteDeviceUpgradeRun: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const run = runOf(ctx, 'uid');
  run.deleted = true;
  return { status: 204 };
};

/** Device software upgrades of the tenant: this file's handlers, which the table (operations.ts) spreads. */
export const deviceUpgradeHandlers = {
  getAsaUpgradeVersions,
  getCompatibleAsaVersionsForMultipleAsas,
  upgradeAsaDevice,
  upgradeAsaDevices,
  getCompatibleFtdVersions,
  updateFtdUpgradePackagesCache,
  getCompatibleFtdVersionsForMultipleFtds,
  upgradeFtdDevice,
  upgradeFtdDevices,
  getDeviceUpgradeRuns,
  getDeviceUpgradeRun,
  modifyDeviceUpgradeRun,
  deleteDeviceUpgradeRun,
} satisfies Partial<OperationHandlers>;
