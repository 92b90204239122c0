// Secure Client upgrades of ASAs across managed tenants. The request is checked for shape, version and
// platforms at once (400); the devices are validated asynchronously, as the reference says: a device
// that fails ends the run in ERROR after its VALIDATING_INPUTS step, naming the offenders. Otherwise one
// ordinary upgrade run is started in each tenant involved (its own run and transaction, visible with the
// tenant's token), and the MSP run is their aggregate: the least advanced tenant's stage while they run,
// then DONE, DONE_WITH_DEVICE_WARNINGS, DONE_WITH_DEVICE_ERRORS or ERROR, with the MSP transaction
// settled at the same moment.

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requirePortal, requireWrite } from '../auth.js';
import { invalidInput, notFound } from '../errors.js';
import type { Handler, RequestContext } from '../http/context.js';
import { requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { iso, type SimRuntime } from '../runtime.js';
import type { Platform, SimState, UpgradedDevice, UpgradeRunRecord } from '../state/model.js';
import {
  type MspRunStatus,
  type MspTenantLeg,
  type MspUpgradeRunRecord,
  mspWorld,
  tenantOffer,
} from '../state/mspWorld.js';
import type { ManagedDevice } from './mspDevices.js';
import { describeFailures, ineligibility, resolveDeviceSet } from './mspSecureClient.js';
import { incompatibility } from './secureClient.js';
import { openTransaction, transactionDto, updateTransaction } from './transactions.js';
import { isTerminalRunStatus, startRun, upgradeRunDto } from './upgradeRuns.js';

/** How often the portal looks at its tenants' runs (simulated ms). */
const SETTLE_EVERY_MS = 1_000;
const VALIDATION_MS = { min: 3_000, max: 8_000 } as const;
const TERMINAL = new Set<MspRunStatus>([
  'DONE',
  'DONE_WITH_DEVICE_WARNINGS',
  'DONE_WITH_DEVICE_ERRORS',
  'ERROR',
]);

const samePlatform = (a: Platform, b: Platform) => a.os === b.os && a.cpuArchitecture === b.cpuArchitecture;

/** The MSP stage a tenant run's granular status belongs to. */
function stageOf(status: UpgradeRunRecord['status']): MspRunStatus {
  switch (status) {
    case 'VALIDATING_INPUTS':
    case 'FETCHING_CURRENTLY_INSTALLED_PACKAGES':
    case 'CHECKING_ASA_DEVICES_DNS':
    case 'CHECKING_ASA_DEVICES_DNS_RESULTS':
    case 'VALIDATING_RA_VPN_SLOT_CONFLICTS':
      return 'VALIDATING_INPUTS';
    case 'UPLOADING_IMAGES':
    case 'CHECKING_IMAGES_UPLOAD_RESULTS':
      return 'UPLOADING_IMAGES';
    default:
      return 'PERFORMING_UPGRADE';
  }
}
const STAGE_ORDER: MspRunStatus[] = ['VALIDATING_INPUTS', 'UPLOADING_IMAGES', 'PERFORMING_UPGRADE'];

function legRuns(state: SimState, run: MspUpgradeRunRecord): UpgradeRunRecord[] {
  return run.legs.flatMap((leg) => {
    const r = leg.runUid === undefined ? undefined : state.upgradeRuns.get(leg.runUid);
    return r === undefined ? [] : [r];
  });
}

function devicesOf(state: SimState, run: MspUpgradeRunRecord): UpgradedDevice[] {
  const legs = legRuns(state, run);
  return legs.length === 0 ? run.devices : legs.flatMap((r) => r.devices);
}

/** Settles the run once every tenant's run has ended; true when the run is (now) finished. */
function settle(sim: SimRuntime, run: MspUpgradeRunRecord): boolean {
  if (TERMINAL.has(run.status)) return true;
  const runs = legRuns(sim.state, run);
  if (runs.length === 0) return false;
  const tx = sim.state.transactions.get(run.transactionUid);
  if (!runs.every((r) => isTerminalRunStatus(r.status))) {
    if (tx?.status === 'PENDING' && runs.some((r) => r.status !== 'VALIDATING_INPUTS')) {
      updateTransaction(sim, tx, { status: 'IN_PROGRESS' });
    }
    return false;
  }
  const devices = runs.flatMap((r) => r.devices);
  const failed = devices.filter((d) => d.status === 'FAILED').length;
  const status: MspRunStatus =
    failed === devices.length
      ? 'ERROR'
      : failed > 0
        ? 'DONE_WITH_DEVICE_ERRORS'
        : devices.some((d) => d.status === 'CLEANUP_FAILED')
          ? 'DONE_WITH_DEVICE_WARNINGS'
          : 'DONE';
  run.status = status;
  run.lastUpdatedTime = Math.max(...runs.map((r) => r.lastUpdatedTime));
  if (status === 'ERROR') run.errorMsg = 'All devices failed to upgrade';
  if (tx !== undefined) {
    updateTransaction(sim, tx, {
      status: status === 'ERROR' ? 'ERROR' : 'DONE',
      details: { upgradeRunStatus: status },
      ...(run.errorMsg === undefined ? {} : { errorMessage: run.errorMsg }),
    });
  }
  return true;
}

function progressOf(state: SimState, run: MspUpgradeRunRecord, now: number) {
  if (TERMINAL.has(run.status)) {
    return { status: run.status, percentageComplete: run.status === 'ERROR' ? null : 1 };
  }
  const active = legRuns(state, run).filter((r) => !isTerminalRunStatus(r.status));
  if (active.length === 0) return { status: run.status, percentageComplete: 0 };
  const stage = STAGE_ORDER.find((s) => active.some((r) => stageOf(r.status) === s)) ?? 'PERFORMING_UPGRADE';
  const inStage = active.filter((r) => stageOf(r.status) === stage);
  const mean =
    inStage.reduce((sum, r) => sum + (upgradeRunDto(r, now).percentageComplete ?? 0), 0) / inStage.length;
  return { status: stage, percentageComplete: Math.round(mean * 100) / 100 };
}

function legDto(state: SimState, leg: MspTenantLeg, now: number): Model.ManagedTenantUpgradeDto {
  const r = leg.runUid === undefined ? undefined : state.upgradeRuns.get(leg.runUid);
  const tx = leg.transactionUid === undefined ? undefined : state.transactions.get(leg.transactionUid);
  const dto = r === undefined ? undefined : upgradeRunDto(r, now);
  // A seeded (historical) tenant transaction has expired: its status follows from the run's.
  const txStatus = tx?.status ?? (r === undefined ? undefined : r.status === 'ERROR' ? 'ERROR' : 'DONE');
  return {
    managedTenantUid: leg.tenantUid,
    managedTenantDisplayName: leg.displayName,
    transactionUid: leg.transactionUid ?? null,
    ...(txStatus === undefined ? {} : { transactionStatus: txStatus }),
    upgradeRunUid: leg.runUid ?? null,
    upgradeRunStatus: r?.status ?? null,
    upgradeRunStepPercentageComplete: dto?.percentageComplete ?? null,
    errorMsg: leg.errorMsg ?? r?.errorMsg ?? null,
  };
}

export function mspRunDto(sim: SimRuntime, run: MspUpgradeRunRecord): Model.MspSecureClientUpgradeRunDto {
  settle(sim, run);
  const now = sim.clock.now();
  const { status, percentageComplete } = progressOf(sim.state, run, now);
  const legs = legRuns(sim.state, run);
  const lastUpdatedTime = TERMINAL.has(run.status)
    ? run.lastUpdatedTime
    : Math.max(run.lastUpdatedTime, ...legs.map((r) => r.lastUpdatedTime));
  return {
    uid: run.uid,
    name: run.name,
    upgradeRunType: 'ASA_SECURE_CLIENT_UPGRADE',
    upgradeRunStatus: status,
    secureClientVersion: run.version,
    username: run.username,
    transactionUid: run.transactionUid,
    submissionTime: iso(run.submissionTime),
    lastUpdatedTime: iso(lastUpdatedTime),
    percentageComplete,
    ...(run.errorMsg === undefined ? {} : { errorMsg: run.errorMsg }),
    devices: devicesOf(sim.state, run).map((d) => ({ ...d })),
    managedTenantUpgrades: run.legs.map((leg) => legDto(sim.state, leg, now)),
  };
}

const runFields: FieldTable<Model.MspSecureClientUpgradeRunDto> = {
  uid: { kind: 'string', get: (r) => r.uid },
  name: { kind: 'string', get: (r) => r.name },
  upgradeRunStatus: { kind: 'string', get: (r) => r.upgradeRunStatus },
  upgradeRunType: { kind: 'string', get: (r) => r.upgradeRunType },
  secureClientVersion: { kind: 'string', get: (r) => r.secureClientVersion },
  username: { kind: 'string', get: (r) => r.username },
  transactionUid: { kind: 'string', get: (r) => r.transactionUid },
  submissionTime: { kind: 'date', get: (r) => r.submissionTime },
  lastUpdatedTime: { kind: 'date', get: (r) => r.lastUpdatedTime },
  deviceUid: { kind: 'string', get: (r) => (r.devices ?? []).map((d) => d.uid) },
  deviceName: { kind: 'string', get: (r) => (r.devices ?? []).map((d) => d.name) },
  managedTenantUid: {
    kind: 'string',
    get: (r) => (r.managedTenantUpgrades ?? []).map((t) => t.managedTenantUid),
  },
  managedTenantDisplayName: {
    kind: 'string',
    get: (r) => (r.managedTenantUpgrades ?? []).map((t) => t.managedTenantDisplayName),
  },
};

function portalRuns(ctx: RequestContext): Model.MspSecureClientUpgradeRunDto[] {
  requirePortal(ctx.principal);
  return [...mspWorld(ctx.state).runs.values()]
    .filter((r) => r.portalUid === ctx.principal.tenant.uid)
    .sort((a, b) => b.submissionTime - a.submissionTime)
    .map((r) => mspRunDto(ctx.sim, r));
}

export const getMspSecureClientUpgradeRuns: Handler = (ctx) => ({
  status: 200,
  body: listPage(ctx.query, portalRuns(ctx), { fields: runFields, search: true, sort: true }),
});

export const getMspSecureClientUpgradeRun: Handler = (ctx) => {
  requirePortal(ctx.principal);
  const uid = uuidParam(ctx, 'upgradeRunUid');
  const run = mspWorld(ctx.state).runs.get(uid);
  if (run === undefined || run.portalUid !== ctx.principal.tenant.uid) {
    throw notFound(`MSP Secure Client upgrade run ${uid} not found`, { upgradeRunUid: { value: uid } });
  }
  return { status: 200, body: mspRunDto(ctx.sim, run) };
};

export const getMspSecureClientUpgradeRunsAttributeValues: Handler = (ctx) => {
  const runs = portalRuns(ctx);
  const distinct = <T>(values: (T | null | undefined)[]) =>
    [...new Set(values)].filter((v): v is T => v !== null && v !== undefined);
  const body: Model.MspSecureClientUpgradeRunsAttributeValues = {
    upgradeRunStatuses: distinct(runs.map((r) => r.upgradeRunStatus)),
    upgradeRunTypes: distinct(runs.map((r) => r.upgradeRunType)),
    users: distinct(runs.map((r) => r.username)),
  };
  return { status: 200, body };
};

/** The per-device checks of the reference, decided now and reported when validation ends. */
function validationFailures(
  ctx: RequestContext,
  found: readonly ManagedDevice[],
  unknown: readonly string[],
  version: string,
  platforms: Platform[] | undefined,
): Map<string, { name?: string; reason: string }> {
  const failures = new Map<string, { name?: string; reason: string }>();
  for (const uid of unknown)
    failures.set(uid, { reason: 'is not a device of a tenant managed by this MSP portal' });
  const busy = new Set(
    [...ctx.state.upgradeRuns.values()]
      .filter((r) => !isTerminalRunStatus(r.status))
      .flatMap((r) => r.devices.map((d) => d.uid)),
  );
  for (const { record, tenant } of found) {
    const offered = tenantOffer(ctx.state, tenant.uid).find((v) => v.version === version);
    const catalogued = ctx.state.catalogue.find((v) => v.version === version);
    const missing = (platforms ?? []).filter(
      (p) => !(offered?.platforms ?? []).some((q) => samePlatform(p, q)),
    );
    const reason =
      ineligibility(record) ??
      (offered === undefined || catalogued === undefined
        ? `tenant ${tenant.name} does not offer Secure Client ${version}`
        : missing.length > 0
          ? `tenant ${tenant.name} offers no Secure Client ${version} package for ${missing.map((p) => `${p.os}/${p.cpuArchitecture}`).join(', ')}`
          : (incompatibility(record, catalogued) ??
            (busy.has(record.device.uid) ? 'is already in a running Secure Client upgrade' : undefined)));
    if (reason !== undefined) failures.set(record.device.uid, { name: record.device.name, reason });
  }
  return failures;
}

export const upgradeMspManagedAsaSecureClientPackages: Handler = (ctx) => {
  requirePortal(ctx.principal);
  requireWrite(ctx.principal);
  const input = requireBody(ctx, Input.MspUpgradeSecureClientPackagesInput);
  const { sim, state } = ctx;
  const version = state.catalogue.find((v) => v.version === input.version);
  if (version === undefined) {
    throw invalidInput(`Secure Client ${input.version} is not in the package catalogue`, {
      version: { value: input.version, available: state.catalogue.map((v) => v.version) },
    });
  }
  const unavailable = (input.platforms ?? []).filter(
    (p) => !version.platforms.some((v) => samePlatform(p, v)),
  );
  if (unavailable.length > 0) {
    throw invalidInput(
      `Secure Client ${version.version} has no package for ${unavailable.map((p) => `${p.os}/${p.cpuArchitecture}`).join(', ')}`,
      { platforms: { unavailable, available: version.platforms } },
    );
  }
  const { found, unknown } = resolveDeviceSet(ctx, input.deviceUids);
  const failures = validationFailures(ctx, found, unknown, version.version, input.platforms);

  const uid = state.rng.uuid();
  const name = input.name ?? `msp-secure-client-${version.version}-${uid.slice(0, 8)}`;
  const tx = openTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_UPGRADE_SECURE_CLIENT_PACKAGES',
    entityUid: uid,
    entityUrl: `${sim.baseUrl}/v1/msp/inventory/devices/secure-client/upgrades/runs/${uid}`,
    details: { upgradeRunUid: uid, secureClientVersion: version.version },
  });
  const byTenant = new Map<string, ManagedDevice[]>();
  for (const d of found) byTenant.set(d.tenant.uid, [...(byTenant.get(d.tenant.uid) ?? []), d]);
  const run: MspUpgradeRunRecord = {
    uid,
    portalUid: ctx.principal.tenant.uid,
    name,
    version: version.version,
    username: ctx.principal.username,
    transactionUid: tx.uid,
    submissionTime: ctx.now,
    lastUpdatedTime: ctx.now,
    status: 'VALIDATING_INPUTS',
    legs: [],
    devices: [],
  };
  mspWorld(state).runs.set(uid, run);

  if (failures.size > 0) {
    const reasons = Object.fromEntries(
      [...failures].map(([deviceUid, f]) => [
        f.name === undefined ? deviceUid : `${f.name} (${deviceUid})`,
        f.reason,
      ]),
    );
    // Until validation ends the run looks like any other: devices PENDING, tenants not yet triggered.
    // A UID that names no managed device is reported under that UID.
    const pending = (uid: string, name = uid): UpgradedDevice => ({ uid, name, status: 'PENDING' });
    run.devices = [
      ...unknown.map((u) => pending(u)),
      ...found.map(({ record }) => pending(record.device.uid, record.device.name)),
    ];
    run.legs = [...byTenant].map(([tenantUid, devices]) => ({
      tenantUid,
      displayName: devices[0]?.tenant.displayName ?? '',
    }));
    const validatedAt = ctx.now + sim.clock.span(state.rng.int(VALIDATION_MS.min, VALIDATION_MS.max));
    sim.clock.schedule(ctx.now + sim.clock.span(1_000), () => {
      if (sim.state === state && tx.status === 'PENDING')
        updateTransaction(sim, tx, { status: 'IN_PROGRESS' });
    });
    sim.clock.schedule(validatedAt, () => {
      if (sim.state !== state) return;
      for (const device of run.devices) {
        const failure = failures.get(device.uid);
        device.status = 'FAILED';
        device.errorMsg =
          failure === undefined
            ? 'Not upgraded: other devices of the run failed validation'
            : `Device ${failure.reason}`;
      }
      for (const leg of run.legs) {
        const own = (byTenant.get(leg.tenantUid) ?? [])
          .filter((d) => failures.has(d.record.device.uid))
          .map((d) => d.record.device.name);
        leg.errorMsg =
          own.length > 0
            ? `Not triggered: ${own.join(', ')} failed validation`
            : 'Not triggered: devices of other tenants failed validation';
      }
      run.status = 'ERROR';
      run.errorMsg = `${failures.size === 1 ? '1 device' : `${failures.size} devices`} failed validation: ${describeFailures(reasons)}`;
      run.lastUpdatedTime = validatedAt;
      updateTransaction(sim, tx, { status: 'ERROR', errorMessage: run.errorMsg, errorDetails: reasons });
    });
    return { status: 202, body: transactionDto(sim, tx) };
  }

  for (const [tenantUid, devices] of byTenant) {
    const tenant = devices[0]?.tenant;
    const offered = tenantOffer(state, tenantUid).find((v) => v.version === version.version);
    const tenantRun = startRun(ctx, {
      type: 'ASA_SECURE_CLIENT_UPGRADE',
      version: version.version,
      platforms: input.platforms ?? offered?.platforms ?? version.platforms,
      devices: devices.map((d) => d.record),
      name,
      tenantUid,
      username: ctx.principal.username,
    });
    run.legs.push({
      tenantUid,
      displayName: tenant?.displayName ?? '',
      runUid: tenantRun.uid,
      transactionUid: tenantRun.transactionUid,
    });
  }
  const tick = (): void => {
    if (sim.state !== state || settle(sim, run)) return;
    sim.clock.schedule(sim.clock.now() + sim.clock.span(SETTLE_EVERY_MS), tick);
  };
  sim.clock.schedule(ctx.now + sim.clock.span(SETTLE_EVERY_MS), tick);
  return { status: 202, body: transactionDto(sim, tx) };
};
