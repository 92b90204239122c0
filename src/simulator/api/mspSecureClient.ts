// Secure Client versions across managed tenants. The calculation is asynchronous: a transaction whose
// entity URL names a compatibility-info UID, readable at once (IN_PROGRESS) and DONE or ERROR when the
// transaction ends. The result is the intersection over the requested devices and their tenants: a
// version each device can run and every involved tenant offers, with the platforms all of them offer.
// Also the device rules both cross-tenant operations share (the reference's list for `deviceUids`).

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { requirePortal } from '../auth.js';
import { type ErrorDetails, invalidInput, notFound } from '../errors.js';
import type { Handler, RequestContext } from '../http/context.js';
import { requireBody, uuidParam } from '../http/input.js';
import type { CatalogueVersion, DeviceRecord, Platform, TenantRecord } from '../state/model.js';
import { type CompatibilityRecord, mspWorld, tenantOffer } from '../state/mspWorld.js';
import { findManagedDevice, type ManagedDevice } from './mspDevices.js';
import { compareVersions, incompatibility } from './secureClient.js';
import { accepted, startTransaction } from './transactions.js';

/** The reference's limit: at most 50 devices per managed tenant in one request. */
export const MAX_DEVICES_PER_TENANT = 50;

/**
 * Counts the known devices of a request per tenant (400 beyond 50 in one tenant). Unknown UIDs are
 * returned as such: whether that is an error is the operation's call.
 */
export function resolveDeviceSet(
  ctx: RequestContext,
  uids: readonly string[],
): { found: ManagedDevice[]; unknown: string[] } {
  const found: ManagedDevice[] = [];
  const unknown: string[] = [];
  for (const uid of uids.map((u) => u.toLowerCase())) {
    const device = findManagedDevice(ctx, uid);
    if (device === undefined) unknown.push(uid);
    else found.push(device);
  }
  const perTenant = new Map<string, number>();
  for (const { tenant } of found) perTenant.set(tenant.uid, (perTenant.get(tenant.uid) ?? 0) + 1);
  const over = [...perTenant].filter(([, n]) => n > MAX_DEVICES_PER_TENANT);
  if (over.length > 0) {
    const details: ErrorDetails = {};
    for (const [tenantUid, count] of over) details[tenantUid] = { count, limit: MAX_DEVICES_PER_TENANT };
    throw invalidInput(
      `deviceUids: at most ${MAX_DEVICES_PER_TENANT} devices per managed tenant are allowed`,
      details,
    );
  }
  return { found, unknown };
}

/** Why a device fails the per-device checks of the cross-tenant Secure Client operations. */
export function ineligibility(record: DeviceRecord): string | undefined {
  const d = record.device;
  if (record.kind !== 'ASA') return `is a ${d.deviceType}, not an ASA`;
  if (!(d.deviceRoles ?? []).includes('ASA_RA_VPN_HEADEND'))
    return 'does not have the ASA_RA_VPN_HEADEND role';
  if (d.connectivityState !== 'ONLINE') return `is ${d.connectivityState ?? 'UNKNOWN'}, not ONLINE`;
  if (d.configState !== 'SYNCED') return `is ${d.configState ?? 'UNKNOWN'}, not SYNCED`;
  if (d.softwareVersion === undefined || d.softwareVersion === null) return 'has no known software version';
  return undefined;
}

const samePlatform = (a: Platform, b: Platform) => a.os === b.os && a.cpuArchitecture === b.cpuArchitecture;

/** Versions every device can run and every tenant offers, newest first, with the common platforms. */
export function commonVersions(
  ctx: RequestContext,
  devices: readonly ManagedDevice[],
): { version: string; platforms: Platform[] }[] {
  const tenants = new Map<string, TenantRecord>(devices.map((d) => [d.tenant.uid, d.tenant]));
  const offers = [...tenants.keys()].map((uid) => tenantOffer(ctx.state, uid));
  const out: { version: string; platforms: Platform[] }[] = [];
  for (const version of ctx.state.catalogue) {
    const offered = offers.map((offer) => offer.find((v) => v.version === version.version));
    if (offered.some((v) => v === undefined)) continue;
    if (devices.some((d) => incompatibility(d.record, version) !== undefined)) continue;
    const platforms = version.platforms.filter((p) =>
      offered.every((v) => (v as CatalogueVersion).platforms.some((q) => samePlatform(p, q))),
    );
    if (platforms.length > 0) out.push({ version: version.version, platforms });
  }
  return out.sort((a, b) => compareVersions(b.version, a.version));
}

/** A list of "name (uid): reason" for an errorMessage. */
export const describeFailures = (failures: Record<string, string>): string =>
  Object.entries(failures)
    .map(([who, why]) => `${who}: ${why}`)
    .join('; ');

export const calculateMspCompatibleSecureClientVersions: Handler = (ctx) => {
  requirePortal(ctx.principal);
  const input = requireBody(ctx, Input.MspCalculateCompatibleSecureClientVersionsInput);
  const { found, unknown } = resolveDeviceSet(ctx, input.deviceUids);
  if (unknown.length > 0) {
    throw notFound(
      `${unknown.length === 1 ? '1 device is' : `${unknown.length} devices are`} not in a tenant managed by this MSP portal: ${unknown.join(', ')}`,
      Object.fromEntries(unknown.map((uid) => [uid, { reason: 'device not found' }])),
    );
  }
  const { sim, state } = ctx;
  const uid = state.rng.uuid();
  const record: CompatibilityRecord = {
    uid,
    portalUid: ctx.principal.tenant.uid,
    transactionUid: '',
    status: 'IN_PROGRESS',
  };
  const tx = startTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_GET_COMPATIBLE_SECURE_CLIENT_UPGRADE_PACKAGES',
    entityUid: uid,
    entityUrl: `${sim.baseUrl}/v1/msp/inventory/devices/secure-client/upgrades/versions/${uid}`,
    details: { compatibilityInfoUid: uid, deviceCount: String(found.length) },
    pendingMs: 1_000,
    runningMs: state.rng.int(2_000, 6_000),
    finish: () => {
      // Checked against each tenant as it is when the calculation runs, as SCC does.
      const failures: Record<string, string> = {};
      for (const d of found) {
        const reason = ineligibility(d.record);
        if (reason !== undefined) failures[`${d.record.device.name} (${d.record.device.uid})`] = reason;
      }
      if (Object.keys(failures).length > 0) {
        record.status = 'ERROR';
        record.errorMessage = `An error has occurred retrieving compatibility information. The details of the error/s are: ${describeFailures(failures)}`;
        return { ok: false, errorMessage: record.errorMessage, errorDetails: failures };
      }
      record.status = 'DONE';
      record.versions = commonVersions(ctx, found);
      return { ok: true, details: { compatibleVersionCount: String(record.versions.length) } };
    },
  });
  record.transactionUid = tx.uid;
  mspWorld(state).compatibility.set(uid, record);
  return accepted(sim, tx);
};

export const getMspCompatibleSecureClientVersions: Handler = (ctx) => {
  requirePortal(ctx.principal);
  const uid = uuidParam(ctx, 'compatibilityInfoUid');
  const record = mspWorld(ctx.state).compatibility.get(uid);
  if (record === undefined || record.portalUid !== ctx.principal.tenant.uid) {
    throw notFound(`Secure Client compatibility information ${uid} not found`, {
      compatibilityInfoUid: { value: uid },
    });
  }
  const body: Model.MspSecureClientUpgradeCompatibilityInfoDto = {
    uid: record.uid,
    status: record.status,
    ...(record.versions === undefined
      ? {}
      : {
          compatibleVersions: record.versions.map((v) => ({
            version: v.version,
            platforms: v.platforms.map((p) => ({ ...p })),
          })),
        }),
    ...(record.errorMessage === undefined ? {} : { errorMessage: record.errorMessage }),
  };
  return { status: 200, body };
};
