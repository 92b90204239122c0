// The device inventory: list and read the caller's tenant's devices, and the lookups other areas use
// (a device of a given kind in the caller's tenant, or 404). A device with a maintenance window answers
// it as the simulated clock has it (state/maintenanceWindow.ts). And the Secure Device Connectors the
// devices are reached through: one per connector UID the tenant's devices name, called after the site of
// its first device, heartbeating every minute.

import type * as Model from '../../scc/generated/models.js';
import { notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { maintenanceWindowDto } from '../state/maintenanceWindow.js';
import type { DeviceKind, DeviceRecord } from '../state/model.js';

/** What a device list searches and sorts by; the MSP's list across tenants adds the tenant's. */
export const deviceFields: FieldTable<Model.Device> = {
  uid: { kind: 'string', get: (d) => d.uid },
  name: { kind: 'string', get: (d) => d.name },
  deviceType: { kind: 'string', get: (d) => d.deviceType },
  connectivityState: { kind: 'string', get: (d) => d.connectivityState },
  configState: { kind: 'string', get: (d) => d.configState },
  softwareVersion: { kind: 'string', get: (d) => d.softwareVersion },
  serial: { kind: 'string', get: (d) => d.serial },
  address: { kind: 'string', get: (d) => d.address },
  hardwareModel: { kind: 'string', get: (d) => d.hardwareModel },
  modelNumber: { kind: 'string', get: (d) => d.modelNumber },
  redundancyMode: { kind: 'string', get: (d) => d.redundancyMode },
  deviceRoles: { kind: 'string', get: (d) => d.deviceRoles ?? [] },
  labels: { kind: 'string', get: (d) => d.labels?.ungroupedLabels ?? [] },
  certificateExpiryDate: { kind: 'date', get: (d) => d.certificateExpiryDate },
  raVpnCertificateExpiryDate: { kind: 'date', get: (d) => d.raVpnCertificateExpiryDate },
  conflictDetectionState: { kind: 'string', get: (d) => d.conflictDetectionState },
  connectorType: { kind: 'string', get: (d) => d.connectorType },
  asaFailoverMode: { kind: 'string', get: (d) => d.asaFailoverMode },
  asaFailoverState: { kind: 'string', get: (d) => d.asaFailoverState },
};

export function tenantDevices(ctx: RequestContext): DeviceRecord[] {
  return [...ctx.state.devices.values()].filter((d) => d.tenantUid === ctx.principal.tenant.uid);
}

/** The device named by a path parameter, of the given kind and in the caller's tenant, else 404. */
export function deviceOfKind(ctx: RequestContext, kind: DeviceKind, param = 'deviceUid'): DeviceRecord {
  const uid = uuidParam(ctx, param);
  const record = ctx.state.devices.get(uid);
  if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid || record.kind !== kind) {
    const what =
      kind === 'FTD'
        ? 'a cloud-delivered FMC-managed FTD'
        : kind === 'ASA'
          ? 'an ASA'
          : 'a cloud-delivered FMC';
    throw notFound(`Device ${uid} does not exist or is not ${what}`, { [param]: { value: uid } });
  }
  return record;
}

/** The device as SCC answers it at `now` (its maintenance window is open or closed by the clock). */
export const deviceDto = (record: DeviceRecord, now: number): Model.Device => ({
  ...structuredClone(record.device),
  ...(record.maintenanceWindow === undefined
    ? {}
    : { deviceMaintenanceWindow: maintenanceWindowDto(record.maintenanceWindow, now) }),
});

/** The device fields read from records, so a list builds DTOs for its page only. */
const recordFields: FieldTable<DeviceRecord> = Object.fromEntries(
  Object.entries(deviceFields).map(([name, spec]) => [
    name,
    { kind: spec.kind, get: (r: DeviceRecord) => spec.get(r.device) },
  ]),
);

export const getDevices: Handler = (ctx) => {
  const page = listPage(ctx.query, tenantDevices(ctx), { fields: recordFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map((r) => deviceDto(r, ctx.now)) } };
};

export const getDevice: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'deviceUid');
  const record = ctx.state.devices.get(uid);
  if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid) {
    throw notFound(`Device ${uid} not found`, { deviceUid: { value: uid } });
  }
  return { status: 200, body: deviceDto(record, ctx.now) };
};

const HEARTBEAT_MS = 60_000;
const SDC_VERSION = '202505201105';

/** The tenant's SDCs as SCC answers them at `now`, named and ordered by the devices behind them. */
export function tenantSdcs(ctx: RequestContext): Model.Sdc[] {
  const behind = new Map<string, Model.Device[]>();
  for (const { device } of tenantDevices(ctx)) {
    if (device.connectorType !== 'SDC' || !device.connectorUid) continue;
    behind.set(device.connectorUid, [...(behind.get(device.connectorUid) ?? []), device]);
  }
  const heartbeat = (at: number) => new Date(Math.floor(at / HEARTBEAT_MS) * HEARTBEAT_MS).toISOString();
  return [...behind].map(([uid, devices], index) => {
    const outage = ctx.state.connectorOutages.get(uid);
    return {
      uid,
      name: sdcName(devices, index),
      // A stopped connector sends no heartbeat: SCC keeps the last one and, after missing a few, marks it
      // INACTIVE (the simulator does at once).
      status: outage ? 'INACTIVE' : 'ACTIVE',
      lastHeartbeat: heartbeat(outage ? outage.since : ctx.now),
      softwareVersion: SDC_VERSION,
      ipAddress: `10.250.${index}.10`,
    };
  });
}

/** A connector's name: after the site of the first device behind it. */
function sdcName(devices: readonly Model.Device[], index: number): string {
  return `sdc-${devices[0]?.labels?.groupedLabels?.site?.[0] ?? index + 1}`;
}

/** Every tenant's connectors by UID with their name and the devices behind them (the admin routes'). */
export function connectorsOf(
  records: Iterable<DeviceRecord>,
): Map<string, { name: string; devices: DeviceRecord[] }> {
  const byTenant = new Map<string, Map<string, DeviceRecord[]>>();
  for (const record of records) {
    const { device } = record;
    if (device.connectorType !== 'SDC' || !device.connectorUid) continue;
    const tenant = byTenant.get(record.tenantUid) ?? new Map<string, DeviceRecord[]>();
    tenant.set(device.connectorUid, [...(tenant.get(device.connectorUid) ?? []), record]);
    byTenant.set(record.tenantUid, tenant);
  }
  const all = new Map<string, { name: string; devices: DeviceRecord[] }>();
  for (const tenant of byTenant.values()) {
    let index = 0;
    for (const [uid, devices] of tenant) {
      all.set(uid, {
        name: sdcName(
          devices.map((d) => d.device),
          index,
        ),
        devices,
      });
      index += 1;
    }
  }
  return all;
}

const sdcFields: FieldTable<Model.Sdc> = {
  uid: { kind: 'string', get: (s) => s.uid },
  name: { kind: 'string', get: (s) => s.name },
  status: { kind: 'string', get: (s) => s.status },
  softwareVersion: { kind: 'string', get: (s) => s.softwareVersion },
  ipAddress: { kind: 'string', get: (s) => s.ipAddress },
  lastHeartbeat: { kind: 'date', get: (s) => s.lastHeartbeat },
};

export const getSdcs: Handler = (ctx) => ({
  status: 200,
  body: listPage(ctx.query, tenantSdcs(ctx), { fields: sdcFields, search: true, sort: true }),
});

/** The device inventory: this file's handlers, which the table (operations.ts) spreads. */
export const deviceHandlers = {
  getDevices,
  getDevice,
  getSdcs,
} satisfies Partial<OperationHandlers>;
