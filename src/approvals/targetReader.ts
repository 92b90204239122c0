// Reads the target of a destructive operation from SCC: at request time by the names people typed (and
// binds the arguments to the UUIDs found, so the approved command cannot land on another object that
// takes the name later), and again by those UUIDs just before executing.

import { UserError } from '../catalogue/errors.js';
import type { Operation, Param, RawArgs } from '../catalogue/operation.js';
import {
  type DeviceRequirement,
  listDeviceInterfaces,
  type ResolvedInterface,
  resolveDevice,
  resolveDevices,
  resolveInterface,
  resolveTenant,
  type SccReader,
} from '../catalogue/resolve.js';
import { SccApiError } from '../scc/errors.js';
import type { AsaInterface, MspManagedTenantDto } from '../scc/generated/models.js';
import { VPN_UPGRADE_OPERATION } from './settings.js';
import type { InterfaceFacts, TargetRead, TargetSnapshot, TenantFacts } from './snapshot.js';

/** The operations whose targets fwbot can describe and re-read; a destructive one missing here is refused. */
export const TARGET_OPERATIONS = [
  'interfaces.delete',
  'tenants.remove',
  'tenants.users.remove',
  VPN_UPGRADE_OPERATION,
];

const DELETABLE_INTERFACES = new Set(['etherchannel', 'subinterface', 'vlan']);
const ASA_ONLY: DeviceRequirement = { kinds: ['asa'], why: 'interfaces are managed on ASAs only' };

export interface BoundTarget {
  snapshot: TargetSnapshot;
  /** The raw arguments with names replaced by the UUIDs they resolved to. */
  raw: RawArgs;
}

function paramOf(operation: Operation, test: (param: Param) => boolean, what: string): Param {
  const param = operation.params.find(test);
  if (!param)
    throw new Error(`${operation.id} declares no ${what} parameter; approvals cannot read its target`);
  return param;
}

function single(raw: RawArgs, param: Param): string {
  const value = raw[param.name];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new UserError(`${param.name} is required.`);
}

function many(raw: RawArgs, param: Param): string[] {
  const value = raw[param.name];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  const cleaned = [...new Set(list.map((v) => v.trim()).filter((v) => v !== ''))];
  if (cleaned.length === 0) throw new UserError(`${param.name} is required.`);
  return cleaned;
}

function isNotFound(error: unknown): boolean {
  return error instanceof SccApiError && error.status === 404;
}

/** `255.255.255.0` → `24`; anything that is not a contiguous dotted mask is shown as given. */
function prefixLength(netmask: string): string {
  const octets = netmask.split('.').map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) return netmask;
  const bits = octets.map((o) => o.toString(2).padStart(8, '0')).join('');
  if (!/^1*0*$/.test(bits)) return netmask;
  const zero = bits.indexOf('0');
  return String(zero === -1 ? 32 : zero);
}

function address(
  ip: { ipAddress?: string | null; netmask?: string | null } | null | undefined,
): string | null {
  if (!ip?.ipAddress) return null;
  return ip.netmask ? `${ip.ipAddress}/${prefixLength(ip.netmask)}` : ip.ipAddress;
}

function ipv4Of(iface: AsaInterface): string | null {
  const fixed = address(iface.ipv4?.ipAddress);
  if (fixed) return fixed;
  const type = iface.ipv4?.ipType;
  return type && type !== 'STATIC' ? type : null;
}

/** VLAN interfaces carry `vlanId`; subinterfaces carry their VLAN as `vlanPrimaryId`. */
function vlanOf(iface: AsaInterface): number | null {
  return iface.vlanId ?? iface.vlanPrimaryId ?? null;
}

/** The facts of one interface, with related interfaces named the way people know them. */
export function interfaceFacts(target: ResolvedInterface, all: readonly ResolvedInterface[]): InterfaceFacts {
  const uid = target.uid.toLowerCase();
  const byUid = new Map(all.map((i) => [i.uid.toLowerCase(), i]));
  const nameOf = (other: string) => {
    const found = byUid.get(other.toLowerCase());
    return found ? (found.iface.hardwareName ?? found.label) : other;
  };
  const iface = target.iface;
  // Members are listed on the EtherChannel, and each member points back at its group: take both.
  const memberUids = new Set((iface.memberInterfaces ?? []).map((m) => m.toLowerCase()));
  for (const other of all) {
    if (other.iface.etherChannelGroupUid?.toLowerCase() === uid) memberUids.add(other.uid.toLowerCase());
  }
  const subinterfaces = all
    .filter((i) => i.kind === 'subinterface' && i.iface.parentInterfaceUid?.toLowerCase() === uid)
    .map((i) => {
      const vlan = vlanOf(i.iface);
      return vlan === null ? i.label : `${i.label} VLAN ${vlan}`;
    });
  return {
    uid: target.uid,
    type: iface.interfaceType ?? target.kind,
    name: iface.name ?? null,
    hardwareName: iface.hardwareName ?? null,
    vlanId: vlanOf(iface),
    subInterfaceId: iface.subInterfaceId ?? null,
    members: [...memberUids].map(nameOf).sort(),
    parent: iface.parentInterfaceUid ? nameOf(iface.parentInterfaceUid) : null,
    ipv4: ipv4Of(iface),
    ipv6: (iface.ipv6?.ipAddresses ?? []).flatMap((ip) => address(ip) ?? []).sort(),
    subinterfaces: subinterfaces.sort(),
  };
}

function tenantFacts(tenant: MspManagedTenantDto): TenantFacts {
  return {
    uid: tenant.uid,
    name: tenant.name,
    displayName: tenant.displayName,
    deviceCount: tenant.deviceCount ?? null,
  };
}

/** Usernames of the tenant (names and email addresses, lower-cased), every page. */
async function tenantUsernames(scc: SccReader, tenantUid: string): Promise<Set<string>> {
  const names = new Set<string>();
  const users = scc.paginate('getHumanUsersInMspManagedTenant', { path: { tenantUid } });
  for await (const user of users) {
    if (user.name) names.add(user.name.toLowerCase());
    if (user.emailAddress) names.add(user.emailAddress.toLowerCase());
  }
  return names;
}

async function bindInterface(operation: Operation, raw: RawArgs, scc: SccReader): Promise<BoundTarget> {
  const deviceParam = paramOf(operation, (p) => p.kind === 'device', 'device');
  const ifaceParam = paramOf(operation, (p) => p.kind === 'interface', 'interface');
  const device = await resolveDevice(scc, single(raw, deviceParam), ASA_ONLY);
  const found = await resolveInterface(scc, device, single(raw, ifaceParam));
  if (!DELETABLE_INTERFACES.has(found.kind)) {
    throw new UserError(
      `${found.label} is not an EtherChannel, subinterface or VLAN interface; it cannot be deleted.`,
    );
  }
  const all = await listDeviceInterfaces(scc, device.uid);
  return {
    snapshot: {
      kind: 'interface',
      device: { uid: device.uid, name: device.name },
      interface: interfaceFacts(found, all),
    },
    raw: { ...raw, [deviceParam.name]: device.uid, [ifaceParam.name]: found.uid },
  };
}

async function bindTenantUsers(operation: Operation, raw: RawArgs, scc: SccReader): Promise<BoundTarget> {
  const tenantParam = paramOf(operation, (p) => p.kind === 'tenant', 'tenant');
  const usersParam = paramOf(operation, (p) => p.variadic === true && p.kind === 'word', 'username');
  const tenant = await resolveTenant(scc, single(raw, tenantParam));
  const wanted = many(raw, usersParam);
  const present = await tenantUsernames(scc, tenant.uid);
  const missing = wanted.filter((u) => !present.has(u.toLowerCase()));
  if (missing.length > 0) throw new UserError(`Not users of tenant ${tenant.name}: ${missing.join(', ')}.`);
  return {
    snapshot: { kind: 'tenantUsers', tenant: tenantFacts(tenant), usernames: [...wanted].sort() },
    raw: { ...raw, [tenantParam.name]: tenant.uid },
  };
}

async function bindDevices(operation: Operation, raw: RawArgs, scc: SccReader): Promise<BoundTarget> {
  const devicesParam = paramOf(operation, (p) => p.kind === 'device', 'device');
  const devices = await resolveDevices(scc, many(raw, devicesParam));
  const version = typeof raw.version === 'string' ? raw.version : 'the chosen version';
  return {
    snapshot: {
      kind: 'devices',
      devices: devices.map((d) => ({ uid: d.uid, name: d.name })),
      detail: `to version ${version}`,
    },
    raw: { ...raw, [devicesParam.name]: devices.map((d) => d.uid) },
  };
}

/** Reads the target named by `raw` (a UserError when it does not exist) and binds `raw` to it. */
export async function bindTarget(operation: Operation, raw: RawArgs, scc: SccReader): Promise<BoundTarget> {
  switch (operation.id) {
    case 'interfaces.delete':
      return bindInterface(operation, raw, scc);
    case 'tenants.remove': {
      const tenantParam = paramOf(operation, (p) => p.kind === 'tenant', 'tenant');
      const tenant = await resolveTenant(scc, single(raw, tenantParam));
      return {
        snapshot: { kind: 'tenant', tenant: tenantFacts(tenant) },
        raw: { ...raw, [tenantParam.name]: tenant.uid },
      };
    }
    case 'tenants.users.remove':
      return bindTenantUsers(operation, raw, scc);
    case VPN_UPGRADE_OPERATION:
      return bindDevices(operation, raw, scc);
    default:
      throw new Error(`approvals cannot describe the target of ${operation.id}; add it to targetReader.ts`);
  }
}

/** 404 → gone; anything else is a failure to read, which must stop the execution too. */
async function orGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Reads the approved target again by its UUIDs. */
export async function rereadTarget(before: TargetSnapshot, scc: SccReader): Promise<TargetRead> {
  switch (before.kind) {
    case 'interface': {
      const device = await orGone(scc.call('getDevice', { path: { deviceUid: before.device.uid } }));
      if (!device)
        return { found: false, reason: `device ${before.device.name} is no longer in the inventory` };
      const all = await listDeviceInterfaces(scc, before.device.uid);
      const now = all.find((i) => i.uid.toLowerCase() === before.interface.uid.toLowerCase());
      if (!now) return { found: false, reason: `the interface no longer exists on ${before.device.name}` };
      const snapshot: TargetSnapshot = {
        kind: 'interface',
        device: { uid: before.device.uid, name: device.data.name },
        interface: interfaceFacts(now, all),
      };
      return { found: true, snapshot };
    }
    case 'tenant':
    case 'tenantUsers': {
      const path = { managedTenantUid: before.tenant.uid };
      const tenant = await orGone(scc.call('getMspManagedTenant', { path }));
      if (!tenant)
        return { found: false, reason: `tenant ${before.tenant.name} is no longer in the MSP portal` };
      if (before.kind === 'tenant')
        return { found: true, snapshot: { kind: 'tenant', tenant: tenantFacts(tenant.data) } };
      const present = await tenantUsernames(scc, before.tenant.uid);
      const usernames = before.usernames.filter((u) => present.has(u.toLowerCase()));
      if (usernames.length === 0)
        return { found: false, reason: `none of ${before.usernames.join(', ')} is in the tenant any more` };
      return { found: true, snapshot: { kind: 'tenantUsers', tenant: tenantFacts(tenant.data), usernames } };
    }
    case 'devices': {
      const devices = [];
      for (const ref of before.devices) {
        const device = await orGone(scc.call('getDevice', { path: { deviceUid: ref.uid } }));
        if (!device) return { found: false, reason: `device ${ref.name} is no longer in the inventory` };
        devices.push({ uid: ref.uid, name: device.data.name });
      }
      return { found: true, snapshot: { kind: 'devices', devices, detail: before.detail } };
    }
  }
}
