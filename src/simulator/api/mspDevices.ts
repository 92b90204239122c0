// Devices across the MSP portal's managed tenants: the cross-tenant inventory (each device with its
// tenant's name, display name, region and UIDs; searchable and sortable like other lists), one device,
// and the Secure Client packages on one (405 for device types without packages). A device of a tenant
// that is not in the portal does not exist here.

import type * as Model from '../../scc/generated/models.js';
import { requirePortal } from '../auth.js';
import { notFound, SimError } from '../errors.js';
import type { Handler, RequestContext } from '../http/context.js';
import { uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { maintenanceWindowDto } from '../state/maintenanceWindow.js';
import type { DeviceRecord, Region, TenantRecord } from '../state/model.js';
import { deviceFields } from './devices.js';
import { packageDto, packagesOf } from './secureClient.js';

export interface ManagedDevice {
  record: DeviceRecord;
  tenant: TenantRecord;
}

/** Every device of every tenant the portal manages. */
export function managedDevices(ctx: RequestContext): ManagedDevice[] {
  requirePortal(ctx.principal);
  const out: ManagedDevice[] = [];
  for (const record of ctx.state.devices.values()) {
    const tenant = ctx.state.tenants.get(record.tenantUid);
    if (tenant?.inPortal === true) out.push({ record, tenant });
  }
  return out;
}

/** The device of a managed tenant with this UID, if any. */
export function findManagedDevice(ctx: RequestContext, uid: string): ManagedDevice | undefined {
  const record = ctx.state.devices.get(uid);
  const tenant = record === undefined ? undefined : ctx.state.tenants.get(record.tenantUid);
  return record !== undefined && tenant?.inPortal === true ? { record, tenant } : undefined;
}

function managedDevice(ctx: RequestContext): ManagedDevice {
  requirePortal(ctx.principal);
  const uid = uuidParam(ctx, 'deviceUid');
  const found = findManagedDevice(ctx, uid);
  if (found === undefined) {
    throw notFound(`Device ${uid} is not in a tenant managed by this MSP portal`, {
      deviceUid: { value: uid },
    });
  }
  return found;
}

/** SCC names an MSP tenant's region by its cluster, e.g. `us1` (the reference's example). */
export const regionCluster = (region: Region): string => `${region.toLowerCase()}1`;

/** The device as the MSP portal answers it at `now` (its maintenance window read from the clock). */
export function mspDeviceDto({ record, tenant }: ManagedDevice, now: number): Model.MspManagedDevice {
  const d = record.device;
  const copy = <K extends keyof Model.Device>(key: K) =>
    d[key] === undefined ? {} : { [key]: structuredClone(d[key]) };
  return {
    uid: d.uid,
    name: d.name,
    ...copy('deviceType'),
    ...copy('address'),
    ...copy('connectivityState'),
    ...copy('configState'),
    ...copy('conflictDetectionState'),
    ...copy('connectorType'),
    ...copy('softwareVersion'),
    ...copy('serial'),
    ...copy('chassisSerial'),
    ...copy('modelNumber'),
    ...copy('hardwareModel'),
    ...copy('asdmVersion'),
    ...copy('contextMode'),
    ...copy('firewallMode'),
    ...copy('asaFailoverMode'),
    ...copy('asaFailoverState'),
    ...copy('asaFailoverMate'),
    ...copy('redundancyMode'),
    ...copy('deviceRoles'),
    ...copy('deviceRecordOnFmc'),
    ...copy('labels'),
    ...copy('certificateExpiryDate'),
    ...copy('raVpnCertificateExpiryDate'),
    ...(record.maintenanceWindow === undefined
      ? {}
      : { deviceMaintenanceWindow: maintenanceWindowDto(record.maintenanceWindow, now) }),
    tenantUid: tenant.uid,
    managedTenantUid: tenant.uid,
    managedTenantName: tenant.name,
    managedTenantDisplayName: tenant.displayName,
    managedTenantRegion: regionCluster(tenant.region),
    managedSccOrganizationUid: tenant.sccOrganizationUid,
  };
}

/**
 * What the cross-tenant list searches and sorts by: the device's fields read from its record, and its
 * tenant's. Read from the records rather than from DTOs, so a list of 10 000 devices builds DTOs only for
 * the page it answers.
 */
const mspDeviceFields: FieldTable<ManagedDevice> = {
  ...Object.fromEntries(
    Object.entries(deviceFields).map(([name, spec]) => [
      name,
      { kind: spec.kind, get: (m: ManagedDevice) => spec.get(m.record.device) },
    ]),
  ),
  managedTenantUid: { kind: 'string', get: (m) => m.tenant.uid },
  managedTenantName: { kind: 'string', get: (m) => m.tenant.name },
  managedTenantDisplayName: { kind: 'string', get: (m) => m.tenant.displayName },
  managedTenantRegion: { kind: 'string', get: (m) => regionCluster(m.tenant.region) },
};

const packageFields: FieldTable<Model.MspSecureClientPackageDto> = {
  uid: { kind: 'string', get: (p) => p.uid },
  fileName: { kind: 'string', get: (p) => p.fileName },
  version: { kind: 'string', get: (p) => p.version },
  os: { kind: 'string', get: (p) => p.os },
  cpuArchitecture: { kind: 'string', get: (p) => p.cpuArchitecture },
};

export const getMspManagedDevices: Handler = (ctx) => {
  const page = listPage(ctx.query, managedDevices(ctx), {
    fields: mspDeviceFields,
    search: true,
    sort: true,
  });
  return { status: 200, body: { ...page, items: page.items.map((d) => mspDeviceDto(d, ctx.now)) } };
};

export const getMspManagedDevice: Handler = (ctx) => ({
  status: 200,
  body: mspDeviceDto(managedDevice(ctx), ctx.now),
});

export const getMspDeviceSecureClientPackages: Handler = (ctx) => {
  const { record } = managedDevice(ctx);
  if (record.kind !== 'ASA' && record.kind !== 'FTD') {
    throw new SimError(
      405,
      'METHOD_NOT_ALLOWED',
      `Device ${record.device.name} is a ${record.device.deviceType}: only ASAs and FTDs have Secure Client packages`,
    );
  }
  const packages: Model.MspSecureClientPackageDto[] = packagesOf(ctx.state, record).map(packageDto);
  return {
    status: 200,
    body: listPage(ctx.query, packages, { fields: packageFields, search: true, sort: true }),
  };
};
