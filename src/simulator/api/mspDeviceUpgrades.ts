// Software upgrades across the MSP portal's managed tenants: the ASA versions each device can move to
// (answered at once, each version with the devices that can take it), the FTD versions (a calculation:
// 202, then its result by UID), the ASA and FTD upgrades (one ordinary device upgrade run per tenant,
// readable with the tenant's token, and an MSP run over them), and the MSP runs (list, read, delete,
// attribute values). At most 50 devices per hardware model per managed tenant in one upgrade (400 beyond).

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requirePortal, requireWrite } from '../auth.js';
import { type ErrorDetails, invalidInput, notFound, SimError } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { iso } from '../runtime.js';
import type { DeviceKind, MspDeviceUpgradeRunRecord, UpgradeCompatibilityRecord } from '../state/model.js';
import {
  ASA_RELEASES,
  asaReleasesFor,
  dottedAsaVersion,
  FTD_RELEASES,
  ftdPackage,
  ftdReleasesFor,
} from '../state/softwareReleases.js';
import { deviceUpgradeStatusDtos, mspRunProgress, startDeviceUpgrade } from './deviceUpgradeEngine.js';
import { asaVersionDto, checkRunName, refuse } from './deviceUpgrades.js';
import { findManagedDevice, type ManagedDevice } from './mspDevices.js';
import { deviceUidsParam } from './secureClient.js';
import { accepted, openTransaction, startTransaction } from './transactions.js';

/** The reference's limit on the cross-tenant upgrades: per hardware model, per managed tenant, per request. */
export const MAX_PER_MODEL_PER_TENANT = 50;

/** The managed devices a request names, all of `kind`: 404 for a device outside the portal, 422 for another type. */
function managedOfKind(ctx: RequestContext, uids: readonly string[], kind: DeviceKind): ManagedDevice[] {
  requirePortal(ctx.principal);
  const found: ManagedDevice[] = [];
  const unknown: string[] = [];
  const wrong: ErrorDetails = {};
  for (const uid of uids.map((u) => u.toLowerCase())) {
    const device = findManagedDevice(ctx, uid);
    if (device === undefined) unknown.push(uid);
    else if (device.record.kind !== kind)
      wrong[uid] = {
        name: device.record.device.name,
        reason: `is a ${device.record.device.deviceType}, not ${kind === 'ASA' ? 'an ASA' : 'a cdFMC-managed FTD'}`,
      };
    else found.push(device);
  }
  if (unknown.length > 0)
    throw notFound(
      `${unknown.length === 1 ? '1 device is' : `${unknown.length} devices are`} not in a tenant managed by this MSP portal: ${unknown.join(', ')}`,
      Object.fromEntries(unknown.map((uid) => [uid, { reason: 'device not found' }])),
    );
  if (Object.keys(wrong).length > 0)
    throw new SimError(
      422,
      'UNPROCESSABLE_ENTITY',
      `Not ${kind === 'ASA' ? 'ASAs' : 'FTDs'}: ${Object.values(wrong)
        .map((w) => String(w.name))
        .join(', ')}`,
      wrong,
    );
  return found;
}

const compatibleDevice = ({ record, tenant }: ManagedDevice): Model.CompatibleDevice => ({
  uid: record.device.uid,
  name: record.device.name,
  hardwareModel: record.device.hardwareModel ?? 'unknown',
  managedTenantUid: tenant.uid,
  managedTenantName: tenant.name,
  managedTenantDisplayName: tenant.displayName,
  ...(record.device.softwareVersion ? { currentSoftwareVersion: record.device.softwareVersion } : {}),
});

const getMspAsaCompatibleUpgradeVersions: Handler = (ctx) => {
  const devices = managedOfKind(ctx, deviceUidsParam(ctx.query), 'ASA');
  const compatibleVersions: Model.CompatibleVersionInfo[] = [];
  for (const release of [...ASA_RELEASES].reverse()) {
    const able = devices.filter((d) => asaReleasesFor(d.record).includes(release));
    if (able.length === 0) continue;
    const dto = asaVersionDto(release);
    compatibleVersions.push({
      softwareVersion: release.softwareVersion,
      asdmVersion: release.asdmVersion,
      ...(dto.softwareImageUrl === undefined ? {} : { softwareImageUrl: dto.softwareImageUrl }),
      ...(dto.asdmImageUrl === undefined ? {} : { asdmImageUrl: dto.asdmImageUrl }),
      compatibleDevices: able.map(compatibleDevice),
    });
  }
  const body: Model.MspAsaCompatibleVersionsDto = { compatibleVersions };
  return { status: 200, body };
};

/** Each FTD version with the devices that can take it, newest first. */
function ftdVersions(devices: readonly ManagedDevice[]): Model.CompatibleVersionInfoDto[] {
  const out: Model.CompatibleVersionInfoDto[] = [];
  for (const release of [...FTD_RELEASES].reverse()) {
    const able = devices.filter((d) => ftdReleasesFor(d.record).includes(release));
    if (able.length === 0) continue;
    out.push({
      softwareVersion: release.softwareVersion,
      upgradeType: release.upgradeType,
      isSuggestedVersion: release.suggested,
      releaseDate: release.releaseDate,
      compatibleDevices: able.map(compatibleDevice),
    });
  }
  return out;
}

const calculateMspFtdCompatibleUpgradeVersions: Handler = (ctx) => {
  const input = requireBody(ctx, Input.MspCalculateCompatibleUpgradeVersionsInput);
  const uids = input.deviceUids ?? [];
  if (uids.length === 0)
    throw invalidInput('deviceUids is required (1 to 50 device UUIDs)', {
      deviceUids: { message: 'required' },
    });
  const devices = managedOfKind(ctx, uids, 'FTD');
  const { sim, state } = ctx;
  const uid = state.rng.uuid();
  const record: UpgradeCompatibilityRecord = {
    uid,
    portalUid: ctx.principal.tenant.uid,
    status: 'IN_PROGRESS',
    deviceUids: devices.map((d) => d.record.device.uid),
  };
  state.upgradeCompatibility.set(uid, record);
  const tx = startTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_GET_COMPATIBLE_FTD_UPGRADE_PACKAGES',
    entityUid: uid,
    entityUrl: `${sim.baseUrl}/v1/msp/inventory/devices/ftds/upgrades/versions/${uid}`,
    details: { upgradeVersionUid: uid },
    pendingMs: 1_000,
    runningMs: state.rng.int(3_000, 8_000),
    finish: () => {
      // The reference: every device must be ONLINE, checked as the calculation runs.
      const offline = devices.filter((d) => d.record.device.connectivityState !== 'ONLINE');
      if (offline.length > 0) {
        record.status = 'ERROR';
        record.errorMessage = `An error has occurred retrieving compatibility information. The details of the error/s are: ${offline.map((d) => `${d.record.device.name} (${d.record.device.uid}) is ${d.record.device.connectivityState ?? 'UNKNOWN'}, not ONLINE`).join('; ')}`;
        return { ok: false, errorMessage: record.errorMessage };
      }
      record.status = 'DONE';
      record.versions = ftdVersions(devices);
      return { ok: true };
    },
  });
  return accepted(sim, tx);
};

const getMspFtdCompatibleUpgradeVersions: Handler = (ctx) => {
  requirePortal(ctx.principal);
  const uid = uuidParam(ctx, 'upgradeVersionUid');
  const record = ctx.state.upgradeCompatibility.get(uid);
  if (record === undefined || record.portalUid !== ctx.principal.tenant.uid)
    throw notFound(`Compatible upgrade versions ${uid} not found`, { upgradeVersionUid: { value: uid } });
  const body: Model.UpgradeCompatibilityInfoDto = {
    uid: record.uid,
    status: record.status,
    ...(record.versions === undefined ? {} : { compatibleVersions: record.versions }),
    ...(record.errorMessage === undefined ? {} : { errorMessage: record.errorMessage }),
  };
  return { status: 200, body };
};

/** 400 when a tenant has more than 50 devices of one hardware model in the request. */
function checkModelLimit(devices: readonly ManagedDevice[]): void {
  const counts = new Map<string, { tenant: string; model: string; count: number }>();
  for (const { record, tenant } of devices) {
    const model = record.device.hardwareModel ?? 'unknown';
    const key = `${tenant.uid}\u0000${model}`;
    const entry = counts.get(key) ?? { tenant: tenant.name, model, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  const over = [...counts.values()].filter((c) => c.count > MAX_PER_MODEL_PER_TENANT);
  if (over.length === 0) return;
  throw invalidInput(
    `deviceUids: at most ${MAX_PER_MODEL_PER_TENANT} devices per hardware model per managed tenant are allowed: ${over.map((o) => `${o.tenant} has ${o.count} ${o.model}`).join('; ')}`,
    Object.fromEntries(
      over.map((o) => [`${o.tenant}/${o.model}`, { count: o.count, limit: MAX_PER_MODEL_PER_TENANT }]),
    ),
  );
}

function triggerMsp(
  ctx: RequestContext,
  kind: 'ASA' | 'FTD',
  input: Input.MspUpgradeAsaDevicesInput | Input.MspUpgradeFtdDevicesInput,
) {
  requirePortal(ctx.principal);
  requireWrite(ctx.principal);
  const devices = managedOfKind(ctx, input.deviceUids, kind);
  checkModelLimit(devices);
  const version =
    input.softwareVersion === undefined
      ? undefined
      : kind === 'ASA'
        ? dottedAsaVersion(input.softwareVersion)
        : input.softwareVersion.trim();
  if (version === undefined || version === '')
    throw invalidInput('softwareVersion is required', {
      softwareVersion: { value: input.softwareVersion ?? null },
    });
  const forceUpgrade = 'forceUpgrade' in input ? (input.forceUpgrade ?? false) : false;
  refuse(
    ctx,
    devices.map((d) => d.record),
    { softwareVersion: version, forceUpgrade },
    { ineligible: 400, conflict: 409 },
  );
  const byTenant = new Map<string, ManagedDevice[]>();
  for (const d of devices) byTenant.set(d.tenant.uid, [...(byTenant.get(d.tenant.uid) ?? []), d]);
  for (const tenantUid of byTenant.keys()) checkRunName(ctx, tenantUid, input.name);

  const { sim, state } = ctx;
  const type = kind === 'ASA' ? 'ASA_DEVICE_UPGRADE' : 'FTD_DEVICE_UPGRADE';
  const uid = state.rng.uuid();
  const name = input.name ?? `msp-${kind.toLowerCase()}-upgrade-${version}-${uid.slice(0, 8)}`;
  const asdmVersion =
    kind === 'ASA'
      ? (('asdmVersion' in input ? input.asdmVersion : undefined) ??
        ASA_RELEASES.find((r) => r.softwareVersion === version)?.asdmVersion)
      : undefined;
  const tx = openTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: kind === 'ASA' ? 'MSP_UPGRADE_ASAS' : 'MSP_UPGRADE_FTDS',
    entityUid: uid,
    entityUrl: `${sim.baseUrl}/v1/msp/inventory/devices/upgrades/runs/${uid}`,
    details: { upgradeRunUid: uid, softwareVersion: version },
    status: 'IN_PROGRESS',
  });
  const run: MspDeviceUpgradeRunRecord = {
    uid,
    portalUid: ctx.principal.tenant.uid,
    name,
    type,
    softwareVersion: version,
    ...(asdmVersion === undefined ? {} : { asdmVersion }),
    stageUpgradeOnly: input.stageUpgradeOnly ?? false,
    forceUpgrade,
    username: ctx.principal.username,
    transactionUid: tx.uid,
    submissionTime: ctx.now,
    tenantRunUids: [],
  };
  state.mspDeviceUpgradeRuns.set(uid, run);
  for (const [tenantUid, group] of byTenant) {
    // FTDs of one tenant may be of several models, each with its own package: one run per model there.
    const parts =
      kind === 'ASA'
        ? [{ devices: group, packageUid: undefined }]
        : [...new Set(group.map((d) => d.record.device.hardwareModel ?? ''))].map((model) => ({
            devices: group.filter((d) => (d.record.device.hardwareModel ?? '') === model),
            packageUid: FTD_RELEASES.filter((r) => r.softwareVersion === version).map(
              (r) => ftdPackage(r, model).uid,
            )[0],
          }));
    for (const part of parts) {
      const tenantRun = startDeviceUpgrade(sim, {
        tenantUid,
        type,
        devices: part.devices.map((d) => d.record),
        softwareVersion: version,
        ...(asdmVersion === undefined ? {} : { asdmVersion }),
        ...(part.packageUid === undefined ? {} : { upgradePackageUid: part.packageUid }),
        stageUpgradeOnly: run.stageUpgradeOnly,
        forceUpgrade,
        ignoreMaintenanceWindow: input.ignoreMaintenanceWindow ?? false,
        name: parts.length === 1 ? name : `${name} (${part.devices[0]?.record.device.hardwareModel ?? ''})`,
        username: ctx.principal.username,
        mspRunUid: uid,
      });
      run.tenantRunUids.push(tenantRun.uid);
    }
  }
  return accepted(sim, tx);
}

const upgradeMspManagedAsaDevices: Handler = (ctx) =>
  triggerMsp(ctx, 'ASA', requireBody(ctx, Input.MspUpgradeAsaDevicesInput));

const upgradeMspManagedFtdDevices: Handler = (ctx) =>
  triggerMsp(ctx, 'FTD', requireBody(ctx, Input.MspUpgradeFtdDevicesInput));

function mspRunDto(ctx: RequestContext, run: MspDeviceUpgradeRunRecord): Model.MspUpgradeRunDto {
  const progress = mspRunProgress(ctx.state, run);
  return {
    uid: run.uid,
    name: run.name,
    upgradeRunType: run.type,
    upgradeRunStatus: progress.status,
    softwareVersion: run.softwareVersion,
    ...(run.asdmVersion === undefined ? {} : { asdmVersion: run.asdmVersion }),
    stageUpgradeOnly: run.stageUpgradeOnly,
    forceUpgrade: run.forceUpgrade,
    username: run.username,
    transactionUid: run.transactionUid,
    submissionTime: iso(run.submissionTime),
    lastUpdatedTime: iso(progress.lastUpdatedTime),
    ...(progress.errorMsg === undefined ? {} : { errorMsg: progress.errorMsg }),
    metadata: { devices: progress.runs.flatMap((r) => deviceUpgradeStatusDtos(r, ctx.now)) },
  };
}

const mspRunFields: FieldTable<Model.MspUpgradeRunDto> = {
  uid: { kind: 'string', get: (r) => r.uid },
  name: { kind: 'string', get: (r) => r.name },
  upgradeRunStatus: { kind: 'string', get: (r) => r.upgradeRunStatus },
  upgradeRunType: { kind: 'string', get: (r) => r.upgradeRunType },
  softwareVersion: { kind: 'string', get: (r) => r.softwareVersion },
  username: { kind: 'string', get: (r) => r.username },
  transactionUid: { kind: 'string', get: (r) => r.transactionUid },
  submissionTime: { kind: 'date', get: (r) => r.submissionTime },
  lastUpdatedTime: { kind: 'date', get: (r) => r.lastUpdatedTime },
};

function portalRuns(ctx: RequestContext): Model.MspUpgradeRunDto[] {
  requirePortal(ctx.principal);
  return [...ctx.state.mspDeviceUpgradeRuns.values()]
    .filter((r) => r.portalUid === ctx.principal.tenant.uid && r.deleted !== true)
    .sort((a, b) => b.submissionTime - a.submissionTime)
    .map((r) => mspRunDto(ctx, r));
}

function mspRunOf(ctx: RequestContext): MspDeviceUpgradeRunRecord {
  requirePortal(ctx.principal);
  const uid = uuidParam(ctx, 'uid');
  const run = ctx.state.mspDeviceUpgradeRuns.get(uid);
  if (run === undefined || run.deleted === true || run.portalUid !== ctx.principal.tenant.uid)
    throw notFound(`MSP device upgrade run ${uid} not found`, { uid: { value: uid } });
  return run;
}

const getMspDeviceUpgradeRuns: Handler = (ctx) => ({
  status: 200,
  body: listPage(ctx.query, portalRuns(ctx), { fields: mspRunFields, search: true, sort: true }),
});

const getMspDeviceUpgradeRun: Handler = (ctx) => ({ status: 200, body: mspRunDto(ctx, mspRunOf(ctx)) });

/** The MSP run and its tenants' runs leave every read; the upgrades they started go on (the reference's caution). */
const deleteMspDeviceUpgradeRun: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const run = mspRunOf(ctx);
  run.deleted = true;
  for (const uid of run.tenantRunUids) {
    const tenantRun = ctx.state.deviceUpgradeRuns.get(uid);
    if (tenantRun !== undefined) tenantRun.deleted = true;
  }
  return { status: 204 };
};

const getMspDeviceUpgradeRunsAttributeValues: Handler = (ctx) => {
  const runs = portalRuns(ctx);
  const distinct = <T>(values: (T | null | undefined)[]) =>
    [...new Set(values)].filter((v): v is T => v !== undefined && v !== null);
  const body: Model.MspUpgradeRunsAttributeValues = {
    upgradeRunStatuses: distinct(runs.map((r) => r.upgradeRunStatus)),
    upgradeRunTypes: distinct(runs.map((r) => r.upgradeRunType)),
    users: distinct(runs.map((r) => r.username)),
  };
  return { status: 200, body };
};

/** Device software upgrades across tenants: this file's handlers, which the table (operations.ts) spreads. */
export const mspDeviceUpgradeHandlers = {
  getMspAsaCompatibleUpgradeVersions,
  calculateMspFtdCompatibleUpgradeVersions,
  getMspFtdCompatibleUpgradeVersions,
  upgradeMspManagedAsaDevices,
  upgradeMspManagedFtdDevices,
  getMspDeviceUpgradeRuns,
  getMspDeviceUpgradeRun,
  deleteMspDeviceUpgradeRun,
  getMspDeviceUpgradeRunsAttributeValues,
} satisfies Partial<OperationHandlers>;
