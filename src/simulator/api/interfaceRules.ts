// The checks an ASA makes before it accepts an interface change, as pure functions over one device's
// interfaces: unique names, MTU 64–9198, security level 0–100, at most 48 EtherChannels with IDs 1–48 and
// members that are unused physical ports, subinterfaces on an existing physical or EtherChannel parent
// with VLAN IDs 1–4094 unique per parent, and VLAN interfaces with VLAN IDs 1–4070 unique per device.
import type { ErrorDetails } from '../errors.js';
import type { InterfaceRecord } from '../state/model.js';

export const MAX_ETHER_CHANNELS = 48;
export const MTU_RANGE = [64, 9198] as const;
export const SECURITY_LEVEL_RANGE = [0, 100] as const;
export const VLAN_PRIMARY_RANGE = [1, 4094] as const;
export const VLAN_INTERFACE_RANGE = [1, 4070] as const;
export const SUBINTERFACE_ID_RANGE = [1, 4_294_967_295] as const;
const MAX_MEMBERS = 16;
const MAX_NAME_LENGTH = 48;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Everything a create or a modify may set that the common checks look at. */
export interface CommonFields {
  name?: string | undefined;
  mtu?: number | undefined;
  securityLevel?: number | undefined;
  ipv4?: InterfaceRecord['ipv4'];
}

const inRange = (value: number, [min, max]: readonly [number, number]) => value >= min && value <= max;

/** Name uniqueness (per device, ignoring case), MTU, security level and IPv4 shape. */
export function checkCommon(
  details: ErrorDetails,
  device: readonly InterfaceRecord[],
  fields: CommonFields,
  self?: InterfaceRecord,
): void {
  const { name, mtu, securityLevel, ipv4 } = fields;
  if (name !== undefined && name !== '') {
    if (name.length > MAX_NAME_LENGTH || !/^[A-Za-z0-9_.-]+$/.test(name)) {
      details.name = {
        message: `must be 1–${MAX_NAME_LENGTH} letters, digits, '.', '-' or '_'`,
        value: name,
      };
    }
    const clash = device.find(
      (i) => i !== self && i.uid !== self?.uid && (i.name ?? '').toLowerCase() === name.toLowerCase(),
    );
    if (clash !== undefined) {
      details.name = { message: `name is already used by ${clash.hardwareName} on this device`, value: name };
    }
  }
  if (mtu !== undefined && !inRange(mtu, MTU_RANGE)) {
    details.mtu = { message: `must be from ${MTU_RANGE[0]} to ${MTU_RANGE[1]}`, value: mtu };
  }
  if (securityLevel !== undefined && !inRange(securityLevel, SECURITY_LEVEL_RANGE)) {
    details.securityLevel = {
      message: `must be from ${SECURITY_LEVEL_RANGE[0]} to ${SECURITY_LEVEL_RANGE[1]}`,
      value: securityLevel,
    };
  }
  if (ipv4?.ipType === 'STATIC' || ipv4?.ipAddress !== undefined) {
    const address = ipv4?.ipAddress?.ipAddress;
    const netmask = ipv4?.ipAddress?.netmask;
    if (ipv4?.ipType === 'STATIC' && (address === undefined || address === null)) {
      details['ipv4.ipAddress.ipAddress'] = { message: 'a static address needs an IPv4 address' };
    } else if (address !== undefined && address !== null && !IPV4.test(address)) {
      details['ipv4.ipAddress.ipAddress'] = { message: 'must be an IPv4 address', value: address };
    }
    if (netmask !== undefined && netmask !== null && !isNetmask(netmask)) {
      details['ipv4.ipAddress.netmask'] = { message: 'must be a contiguous IPv4 netmask', value: netmask };
    }
  }
}

function isNetmask(mask: string): boolean {
  if (!IPV4.test(mask)) return false;
  const bits = mask
    .split('.')
    .map((o) => Number(o).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(bits);
}

/** Members of an EtherChannel: up to 16 unused physical data ports of this device (none yet is allowed). */
export function checkMembers(
  details: ErrorDetails,
  device: readonly InterfaceRecord[],
  memberUids: readonly string[],
  etherChannel?: InterfaceRecord,
): void {
  if (memberUids.length > MAX_MEMBERS) {
    details.memberInterfaces = { message: `an EtherChannel has at most ${MAX_MEMBERS} member interfaces` };
    return;
  }
  for (const uid of memberUids) {
    const port = device.find((i) => i.uid === uid);
    const problem =
      port === undefined
        ? 'is not an interface of this device'
        : port.interfaceType !== 'PHYSICAL_INTERFACE'
          ? `${port.hardwareName} is not a physical interface`
          : port.managementInterface
            ? `${port.hardwareName} is a management interface`
            : port.etherChannelGroupUid !== undefined && port.etherChannelGroupUid !== etherChannel?.uid
              ? `${port.hardwareName} is already a member of another EtherChannel`
              : port.name !== undefined && port.name !== ''
                ? `${port.hardwareName} is in use (it has the name ${port.name})`
                : device.some((i) => i.parentInterfaceUid === uid)
                  ? `${port.hardwareName} is in use (it has subinterfaces)`
                  : undefined;
    if (problem !== undefined) details[`memberInterfaces.${uid}`] = { message: problem };
  }
}

export function checkEtherChannelId(
  details: ErrorDetails,
  device: readonly InterfaceRecord[],
  id: number,
): void {
  const channels = device.filter((i) => i.interfaceType === 'ETHER_CHANNEL_INTERFACE');
  if (channels.length >= MAX_ETHER_CHANNELS) {
    details.etherChannelId = {
      message: `this device already has the maximum of ${MAX_ETHER_CHANNELS} EtherChannels`,
    };
  } else if (!inRange(id, [1, MAX_ETHER_CHANNELS])) {
    details.etherChannelId = { message: `must be from 1 to ${MAX_ETHER_CHANNELS}`, value: id };
  } else if (channels.some((c) => c.etherChannelId === id)) {
    details.etherChannelId = { message: `Port-channel${id} already exists on this device`, value: id };
  }
}

/** The lowest free EtherChannel ID, used when a create does not give one. */
export function freeEtherChannelId(device: readonly InterfaceRecord[]): number {
  const used = new Set(device.map((i) => i.etherChannelId));
  for (let id = 1; id <= MAX_ETHER_CHANNELS; id += 1) if (!used.has(id)) return id;
  return MAX_ETHER_CHANNELS + 1;
}

/** A subinterface's parent must be a physical data port (not an EtherChannel member) or an EtherChannel. */
export function parentProblem(parent: InterfaceRecord): string | undefined {
  if (parent.interfaceType !== 'PHYSICAL_INTERFACE' && parent.interfaceType !== 'ETHER_CHANNEL_INTERFACE') {
    return `${parent.hardwareName} cannot have subinterfaces (only physical and EtherChannel interfaces can)`;
  }
  if (parent.managementInterface) return `${parent.hardwareName} is a management interface`;
  if (parent.etherChannelGroupUid !== undefined) return `${parent.hardwareName} is an EtherChannel member`;
  return undefined;
}

export function checkSubInterface(
  details: ErrorDetails,
  siblings: readonly InterfaceRecord[],
  fields: {
    subInterfaceId?: number | undefined;
    vlanPrimaryId?: number | undefined;
    vlanSecondaryIds?: { start?: number | undefined; end?: number | undefined }[] | undefined;
  },
): void {
  const { subInterfaceId, vlanPrimaryId, vlanSecondaryIds } = fields;
  if (subInterfaceId === undefined) {
    details.subInterfaceId = { message: 'is required' };
  } else if (!inRange(subInterfaceId, SUBINTERFACE_ID_RANGE)) {
    details.subInterfaceId = {
      message: `must be from 1 to ${SUBINTERFACE_ID_RANGE[1]}`,
      value: subInterfaceId,
    };
  } else if (siblings.some((s) => s.subInterfaceId === subInterfaceId)) {
    details.subInterfaceId = { message: 'is already used on this parent interface', value: subInterfaceId };
  }
  if (vlanPrimaryId === undefined) {
    details.vlanPrimaryId = { message: 'is required' };
  } else if (!inRange(vlanPrimaryId, VLAN_PRIMARY_RANGE)) {
    details.vlanPrimaryId = {
      message: `must be from ${VLAN_PRIMARY_RANGE[0]} to ${VLAN_PRIMARY_RANGE[1]}`,
      value: vlanPrimaryId,
    };
  } else if (siblings.some((s) => s.vlanPrimaryId === vlanPrimaryId)) {
    details.vlanPrimaryId = {
      message: 'VLAN is already used by another subinterface of this parent',
      value: vlanPrimaryId,
    };
  }
  (vlanSecondaryIds ?? []).forEach((range, i) => {
    const start = range.start ?? range.end;
    const end = range.end ?? range.start;
    if (
      start === undefined ||
      end === undefined ||
      !inRange(start, VLAN_PRIMARY_RANGE) ||
      !inRange(end, VLAN_PRIMARY_RANGE) ||
      start > end
    ) {
      details[`vlanSecondaryIds.${i}`] = {
        message: `must be a range within ${VLAN_PRIMARY_RANGE[0]}–${VLAN_PRIMARY_RANGE[1]}`,
      };
    } else if (vlanPrimaryId !== undefined && vlanPrimaryId >= start && vlanPrimaryId <= end) {
      details[`vlanSecondaryIds.${i}`] = { message: 'must not contain the primary VLAN' };
    }
  });
}

export function checkVlanId(
  details: ErrorDetails,
  device: readonly InterfaceRecord[],
  vlanId: number | undefined,
): void {
  if (vlanId === undefined) {
    details.vlanId = { message: 'is required' };
  } else if (!inRange(vlanId, VLAN_INTERFACE_RANGE)) {
    details.vlanId = {
      message: `must be from ${VLAN_INTERFACE_RANGE[0]} to ${VLAN_INTERFACE_RANGE[1]}`,
      value: vlanId,
    };
  } else if (device.some((i) => i.interfaceType === 'VLAN_INTERFACE' && i.vlanId === vlanId)) {
    details.vlanId = { message: `Vlan${vlanId} already exists on this device`, value: vlanId };
  }
}

/** Ports a VLAN interface may carry: physical data ports of this device that are not EtherChannel members. */
export function checkVlanMembers(
  details: ErrorDetails,
  device: readonly InterfaceRecord[],
  memberUids: readonly string[],
): void {
  for (const uid of memberUids) {
    const port = device.find((i) => i.uid === uid);
    const problem =
      port === undefined
        ? 'is not an interface of this device'
        : port.interfaceType !== 'PHYSICAL_INTERFACE'
          ? `${port.hardwareName} is not a physical interface`
          : port.managementInterface
            ? `${port.hardwareName} is a management interface`
            : port.etherChannelGroupUid !== undefined
              ? `${port.hardwareName} is an EtherChannel member`
              : undefined;
    if (problem !== undefined) details[`memberInterfaces.${uid}`] = { message: problem };
  }
}
