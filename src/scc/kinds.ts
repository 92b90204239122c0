// What kinds of devices and interfaces SCC has, as fwbot names and reads them: a device's kind from its
// deviceType, an interface's kind from its interfaceType (or the list it came from), the SCC operations
// that list and read each kind of interface, and a device or an interface found by name with its kind.
// Plain vocabulary: the renderers and the catalogue's name resolution (catalogue/resolve.ts) share it.
import type { AsaInterface, Device } from './generated/models.js';

export type DeviceKind = 'asa' | 'ftd' | 'fmc' | 'other';

const DEVICE_KINDS: Readonly<Record<string, DeviceKind>> = {
  ASA: 'asa',
  CDFMC_MANAGED_FTD: 'ftd',
  ONPREM_FMC_MANAGED_FTD: 'ftd',
  FDM_MANAGED_FTD: 'ftd',
  CDFMC: 'fmc',
  ONPREM_FMC: 'fmc',
};

export const DEVICE_KIND_NAMES: Readonly<Record<DeviceKind, string>> = {
  asa: 'an ASA',
  ftd: 'a threat-defense device (FTD)',
  fmc: 'a Firewall Management Center',
  other: 'a device of another kind',
};

export function deviceKind(device: Pick<Device, 'deviceType'>): DeviceKind {
  return DEVICE_KINDS[device.deviceType] ?? 'other';
}

export interface ResolvedDevice {
  uid: string;
  name: string;
  kind: DeviceKind;
  device: Device;
}

export const INTERFACE_KINDS = ['physical', 'etherchannel', 'subinterface', 'vlan', 'vti'] as const;
export type InterfaceKind = (typeof INTERFACE_KINDS)[number];

export const INTERFACE_KIND_NAMES: Readonly<Record<InterfaceKind, string>> = {
  physical: 'physical interface',
  etherchannel: 'EtherChannel interface',
  subinterface: 'subinterface',
  vlan: 'VLAN interface',
  vti: 'virtual tunnel interface',
};

export const INTERFACE_LISTS = {
  physical: 'getAsaPhysicalInterfaces',
  etherchannel: 'getAsaEtherChannelInterfaces',
  subinterface: 'getAsaSubInterfaces',
  vlan: 'getAsaVlanInterfaces',
  vti: 'getAsaVirtualTunnelInterfaces',
} as const;

/** The read of one interface, by kind (by UUID). */
export const INTERFACE_GET = {
  physical: 'getAsaPhysicalInterface',
  etherchannel: 'getAsaEtherChannelInterface',
  subinterface: 'getAsaSubInterface',
  vlan: 'getAsaVlanInterface',
  vti: 'getAsaVirtualTunnelInterface',
} as const;

export const INTERFACE_TYPES: Readonly<Record<string, InterfaceKind>> = {
  PHYSICAL_INTERFACE: 'physical',
  ETHER_CHANNEL_INTERFACE: 'etherchannel',
  SUB_INTERFACE: 'subinterface',
  VLAN_INTERFACE: 'vlan',
  VIRTUAL_TUNNEL_INTERFACE: 'vti',
};

export interface ResolvedInterface {
  uid: string;
  kind: InterfaceKind;
  /** `inside (GigabitEthernet1/2)`, or the hardware name alone when there is no logical name. */
  label: string;
  iface: AsaInterface;
}

export function interfaceLabel(iface: AsaInterface): string {
  const hardware = iface.hardwareName ?? iface.uid ?? '?';
  return iface.name ? `${iface.name} (${hardware})` : hardware;
}
