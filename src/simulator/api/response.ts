// Incident response (the reference's scc-openapi-response.yaml): remote-access VPN sessions (list, read,
// terminate a device's or one user's, refresh), the VPN users' MFA events, reconnecting an ASA, accepting
// the new certificates of ASAs, and reading one Secure Device Connector.
//
// Documented behaviour modelled: sessions and MFA events are lists with Lucene `q`, `sort` and paging; a
// termination or refresh is asynchronous (202 Transaction of type TERMINATE_DEVICE_RA_VPN_SESSIONS,
// TERMINATE_USER_RA_VPN_SESSIONS or REFRESH_RA_VPN_SESSIONS) and only a device whose deviceRoles say it is
// an RA VPN headend has sessions (RaVpnDeviceInput's description); a terminated session stays listed with
// status TERMINATED. reconnectAsaDevice (RECONNECT_ASA) re-establishes SCC's connection to an ASA;
// bulkAcceptAsaCertificates (BULK_ACCEPT_ASA_CERTIFICATES, 1-50 unique ASA UUIDs) accepts the certificate
// an ASA now presents. Simulator's choices where the reference is silent: a device SCC cannot reach makes a
// termination end in ERROR; a reconnect cannot pass a device that presents a new certificate (ERROR, accept
// it first); a terminated session stops counting traffic.
import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { type ErrorDetails, invalidInput, notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { isUuid, parseBody, requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { iso } from '../runtime.js';
import type { DeviceRecord, MfaEventRecord, RaVpnSessionRecord } from '../state/model.js';
import { isRaVpnHeadend } from '../state/seedResponse.js';
import { deviceOfKind, tenantDevices, tenantSdcs } from './devices.js';
import { accepted, startTransaction } from './transactions.js';

/** Simulated time SCC takes to reach the devices and act. */
export const RESPONSE_PENDING_MS = 500;
export const RESPONSE_RUNNING_MS = 3_000;
export const UNREACHABLE = 'The device is not reachable';

// --- sessions ---------------------------------------------------------------------------------------

const sessionDto = (s: RaVpnSessionRecord): Model.RaVpnSession => ({
  uid: s.uid,
  deviceUid: s.deviceUid,
  username: s.username,
  publicIp: s.publicIp,
  assignedIpV4: s.assignedIpV4,
  loginTime: iso(s.loginTime),
  lastActiveTime: iso(s.lastActiveTime),
  bytesRx: s.bytesRx,
  bytesTx: s.bytesTx,
  status: s.status,
  location: { ...s.location },
  os: { ...s.os },
  auditSessionId: s.auditSessionId,
});

const sessionFields: FieldTable<RaVpnSessionRecord> = {
  uid: { kind: 'string', get: (s) => s.uid },
  deviceUid: { kind: 'string', get: (s) => s.deviceUid },
  username: { kind: 'string', get: (s) => s.username },
  publicIp: { kind: 'string', get: (s) => s.publicIp },
  assignedIpV4: { kind: 'string', get: (s) => s.assignedIpV4 },
  status: { kind: 'string', get: (s) => s.status },
  loginTime: { kind: 'date', get: (s) => s.loginTime },
  lastActiveTime: { kind: 'date', get: (s) => s.lastActiveTime },
  'location.city': { kind: 'string', get: (s) => s.location.city },
  'location.country': { kind: 'string', get: (s) => s.location.country },
  'os.type': { kind: 'string', get: (s) => s.os.type },
};

const tenantSessions = (ctx: RequestContext) =>
  [...ctx.state.raVpnSessions.values()]
    .filter((s) => s.tenantUid === ctx.principal.tenant.uid)
    .sort((a, b) => b.loginTime - a.loginTime);

const getRaVpnSessions: Handler = (ctx) => {
  const page = listPage(ctx.query, tenantSessions(ctx), { fields: sessionFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map(sessionDto) } };
};

const getRaVpnSession: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'raVpnSessionUid');
  const session = ctx.state.raVpnSessions.get(uid);
  if (session === undefined || session.tenantUid !== ctx.principal.tenant.uid)
    throw notFound(`RA VPN session ${uid} not found`, { raVpnSessionUid: { value: uid } });
  return { status: 200, body: sessionDto(session) };
};

/** The caller's device named by the path, which must be an RA VPN headend (404 / 400 otherwise). */
function headend(ctx: RequestContext): DeviceRecord {
  const uid = uuidParam(ctx, 'deviceUid');
  const record = ctx.state.devices.get(uid);
  if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid)
    throw notFound(`Device ${uid} not found`, { deviceUid: { value: uid } });
  if (!isRaVpnHeadend(record))
    throw invalidInput(`Device ${record.device.name} is not an RA VPN headend`, {
      deviceUid: { value: uid, message: 'deviceRoles has no RA_VPN_HEADEND' },
    });
  return record;
}

/** Starts the termination of `which` sessions of the device; they end when the transaction does. */
function terminate(
  ctx: RequestContext,
  device: DeviceRecord,
  type: 'TERMINATE_DEVICE_RA_VPN_SESSIONS' | 'TERMINATE_USER_RA_VPN_SESSIONS',
  which: (s: RaVpnSessionRecord) => boolean,
) {
  const { sim, state } = ctx;
  const tx = startTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type,
    entityUid: device.device.uid,
    entityUrl: `${sim.baseUrl}/v1/inventory/devices/${device.device.uid}`,
    pendingMs: RESPONSE_PENDING_MS,
    runningMs: RESPONSE_RUNNING_MS,
    finish: () => {
      if (device.device.connectivityState !== 'ONLINE') return { ok: false, errorMessage: UNREACHABLE };
      const now = sim.clock.now();
      let ended = 0;
      for (const session of state.raVpnSessions.values()) {
        if (session.deviceUid !== device.device.uid || session.status !== 'ACTIVE' || !which(session))
          continue;
        Object.assign(session, { status: 'TERMINATED', lastActiveTime: now });
        ended += 1;
      }
      return { ok: true, details: { terminatedSessions: String(ended) } };
    },
  });
  return accepted(sim, tx);
}

const terminateRaVpnSessionsByDevice: Handler = (ctx) =>
  terminate(ctx, headend(ctx), 'TERMINATE_DEVICE_RA_VPN_SESSIONS', () => true);

const terminateRaVpnSessionsByDeviceAndUserName: Handler = (ctx) => {
  const device = headend(ctx);
  const username = ctx.params.userName ?? '';
  if (username.trim() === '')
    throw invalidInput('userName must not be empty', { userName: { value: username } });
  return terminate(ctx, device, 'TERMINATE_USER_RA_VPN_SESSIONS', (s) => s.username === username);
};

/** SCC reads the sessions from the headends again: active sessions' last activity and counters move on. */
const refreshRaVpnSessionsByDevice: Handler = (ctx) => {
  const input = parseBody(ctx, Input.RaVpnDeviceInput, false);
  const mine = tenantDevices(ctx);
  let devices: DeviceRecord[];
  if (input === undefined) devices = mine.filter(isRaVpnHeadend);
  else {
    const details: ErrorDetails = {};
    devices = [];
    for (const raw of input.deviceUids) {
      const record = isUuid(raw) ? mine.find((d) => d.device.uid === raw.toLowerCase()) : undefined;
      if (!isUuid(raw)) details[raw] = { message: 'must be a UUID' };
      else if (record === undefined) details[raw] = { message: 'device not found' };
      else if (!isRaVpnHeadend(record))
        details[raw] = { name: record.device.name, message: 'is not an RA VPN headend' };
      else devices.push(record);
    }
    if (Object.keys(details).length > 0)
      throw invalidInput('Some devices cannot have their RA VPN sessions refreshed', details);
  }
  const { sim, state } = ctx;
  // Not tied to one entity, as the reference says of refresh transactions: no entityUid.
  const tx = startTransaction(sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'REFRESH_RA_VPN_SESSIONS',
    pendingMs: RESPONSE_PENDING_MS,
    runningMs: RESPONSE_RUNNING_MS,
    finish: () => {
      const now = sim.clock.now();
      const reached = new Set(
        devices.filter((d) => d.device.connectivityState === 'ONLINE').map((d) => d.device.uid),
      );
      for (const session of state.raVpnSessions.values()) {
        if (session.status !== 'ACTIVE' || !reached.has(session.deviceUid)) continue;
        const seconds = Math.max(0, Math.round((now - session.lastActiveTime) / 1000));
        Object.assign(session, {
          lastActiveTime: now,
          bytesRx: session.bytesRx + seconds * 1_200,
          bytesTx: session.bytesTx + seconds * 450,
        });
      }
      return { ok: true, details: { refreshedDevices: String(reached.size) } };
    },
  });
  return accepted(sim, tx);
};

// --- MFA events -------------------------------------------------------------------------------------

const mfaDto = (e: MfaEventRecord): Model.MfaEvent => ({
  uid: e.uid,
  username: e.username,
  timestamp: iso(e.timestamp),
  result: e.result,
  reason: e.reason,
  secondFactor: e.secondFactor,
  application: e.application,
  clientDevice: structuredClone(e.clientDevice),
});

const mfaFields: FieldTable<MfaEventRecord> = {
  uid: { kind: 'string', get: (e) => e.uid },
  username: { kind: 'string', get: (e) => e.username },
  result: { kind: 'string', get: (e) => e.result },
  reason: { kind: 'string', get: (e) => e.reason },
  secondFactor: { kind: 'string', get: (e) => e.secondFactor },
  application: { kind: 'string', get: (e) => e.application },
  timestamp: { kind: 'date', get: (e) => e.timestamp },
  'clientDevice.ipAddress': { kind: 'string', get: (e) => e.clientDevice.ipAddress },
};

/** Newest first unless `sort` says otherwise. */
const getMfaEvents: Handler = (ctx) => {
  const mine = ctx.state.mfaEvents
    .filter((e) => e.tenantUid === ctx.principal.tenant.uid)
    .sort((a, b) => b.timestamp - a.timestamp);
  const page = listPage(ctx.query, mine, { fields: mfaFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map(mfaDto) } };
};

// --- ASA connectivity and certificates ----------------------------------------------------------------

const reconnectAsaDevice: Handler = (ctx) => {
  const device = deviceOfKind(ctx, 'ASA');
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'RECONNECT_ASA',
    entityUid: device.device.uid,
    entityUrl: `${ctx.sim.baseUrl}/v1/inventory/devices/${device.device.uid}`,
    pendingMs: RESPONSE_PENDING_MS,
    runningMs: RESPONSE_RUNNING_MS,
    finish: () => {
      if (device.device.connectivityState === 'NEW_CERT_DETECTED')
        return {
          ok: false,
          errorMessage: `${device.device.name} presents a new certificate: accept it before reconnecting`,
        };
      device.device.connectivityState = 'ONLINE';
      return { ok: true };
    },
  });
  return accepted(ctx.sim, tx);
};

const bulkAcceptAsaCertificates: Handler = (ctx) => {
  const input = requireBody(ctx, Input.BulkOperationAsaDeviceRequest);
  const uids = (input.deviceUids ?? []).map((uid) => uid.toLowerCase());
  if (uids.length === 0)
    throw invalidInput('deviceUids must list 1 to 50 ASAs', { deviceUids: { message: 'missing' } });
  const details: ErrorDetails = {};
  const devices: DeviceRecord[] = [];
  for (const uid of uids) {
    const record = ctx.state.devices.get(uid);
    if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid)
      details[uid] = { message: 'device not found' };
    else if (record.kind !== 'ASA') details[uid] = { name: record.device.name, message: 'is not an ASA' };
    else if (devices.includes(record))
      details[uid] = { name: record.device.name, message: 'is listed twice' };
    else devices.push(record);
  }
  if (Object.keys(details).length > 0)
    throw invalidInput('Cannot accept certificates for these devices', details);
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'BULK_ACCEPT_ASA_CERTIFICATES',
    pendingMs: RESPONSE_PENDING_MS,
    runningMs: RESPONSE_RUNNING_MS,
    finish: () => {
      let accepted = 0;
      for (const device of devices) {
        if (device.device.connectivityState !== 'NEW_CERT_DETECTED') continue;
        device.device.connectivityState = 'ONLINE';
        accepted += 1;
      }
      return { ok: true, details: { acceptedCertificates: String(accepted) } };
    },
  });
  return accepted(ctx.sim, tx);
};

// --- one connector ----------------------------------------------------------------------------------

const getSdc: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'sdcUid');
  const sdc = tenantSdcs(ctx).find((s) => s.uid === uid);
  if (sdc === undefined) throw notFound(`SDC ${uid} not found`, { sdcUid: { value: uid } });
  return { status: 200, body: sdc };
};

/** Incident response: this file's handlers, which the table (operations.ts) spreads. */
export const responseHandlers = {
  getRaVpnSessions,
  getRaVpnSession,
  terminateRaVpnSessionsByDevice,
  terminateRaVpnSessionsByDeviceAndUserName,
  refreshRaVpnSessionsByDevice,
  getMfaEvents,
  reconnectAsaDevice,
  bulkAcceptAsaCertificates,
  getSdc,
} satisfies Partial<OperationHandlers>;
