// What an approval is bound to: a snapshot of the target taken when the request is made, and the
// comparison with a fresh read just before executing. Pure: reading the target is targetReader.ts's job.
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const DeviceRef = z.object({ uid: z.string(), name: z.string() });
export type DeviceRef = z.infer<typeof DeviceRef>;

/** The facts of an interface that an approver judges, all as people read them (names, not UUIDs). */
export const InterfaceFacts = z.object({
  uid: z.string(),
  /** SCC's interfaceType, e.g. ETHER_CHANNEL_INTERFACE. */
  type: z.string(),
  name: z.string().nullable(),
  hardwareName: z.string().nullable(),
  vlanId: z.number().int().nullable(),
  subInterfaceId: z.number().int().nullable(),
  /** EtherChannel members (freed by the delete), by hardware name where known; sorted. */
  members: z.array(z.string()),
  /** The parent of a subinterface, by hardware name where known. */
  parent: z.string().nullable(),
  ipv4: z.string().nullable(),
  ipv6: z.array(z.string()),
  /** Subinterfaces that live on this interface and go with it; sorted. */
  subinterfaces: z.array(z.string()),
});
export type InterfaceFacts = z.infer<typeof InterfaceFacts>;

export const TenantFacts = z.object({
  uid: z.string(),
  name: z.string(),
  displayName: z.string(),
  deviceCount: z.number().int().nullable(),
});
export type TenantFacts = z.infer<typeof TenantFacts>;

export const TargetSnapshot = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('interface'), device: DeviceRef, interface: InterfaceFacts }),
  z.object({ kind: z.literal('tenant'), tenant: TenantFacts }),
  z.object({
    kind: z.literal('tenantUsers'),
    tenant: TenantFacts,
    /** The usernames to remove, all present when the request was made; sorted. */
    usernames: z.array(z.string()),
  }),
  z.object({ kind: z.literal('devices'), devices: z.array(DeviceRef), detail: z.string() }),
]);
export type TargetSnapshot = z.infer<typeof TargetSnapshot>;

/** A fresh read of the target: what it is now, or gone. */
export type TargetRead = { found: true; snapshot: TargetSnapshot } | { found: false; reason: string };

const INTERFACE_KINDS: Record<string, string> = {
  ETHER_CHANNEL_INTERFACE: 'EtherChannel',
  SUB_INTERFACE: 'subinterface',
  VLAN_INTERFACE: 'VLAN interface',
  PHYSICAL_INTERFACE: 'physical interface',
  VIRTUAL_TUNNEL_INTERFACE: 'virtual tunnel interface',
};

export function interfaceKind(type: string): string {
  return INTERFACE_KINDS[type] ?? type;
}

/** How people name an interface: `inside (Port-channel1)`, or whichever of the two it has. */
export function interfaceLabel(facts: InterfaceFacts): string {
  if (facts.name && facts.hardwareName) return `${facts.name} (${facts.hardwareName})`;
  return facts.name ?? facts.hardwareName ?? facts.uid;
}

/** One line naming the target, for the audit trail and the card's summary. */
export function describeTarget(target: TargetSnapshot): string {
  switch (target.kind) {
    case 'interface':
      return `${interfaceKind(target.interface.type)} ${interfaceLabel(target.interface)} on ${target.device.name}`;
    case 'tenant':
      return `tenant ${target.tenant.name}`;
    case 'tenantUsers':
      return `${target.usernames.join(', ')} in tenant ${target.tenant.name}`;
    case 'devices':
      return `${target.devices.map((d) => d.name).join(', ')} (${target.detail})`;
  }
}

/** A digest of the facts, short enough to show in the audit trail as proof of what was approved. */
export function fingerprint(target: TargetSnapshot): string {
  return createHash('sha256').update(stableStringify(target)).digest('hex').slice(0, 16);
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const show = (value: string | number | null): string => (value === null ? 'none' : String(value));
const showList = (values: readonly string[]): string => (values.length === 0 ? 'none' : values.join(', '));

function changed(label: string, before: string, after: string): string | undefined {
  return before === after ? undefined : `${label} changed from ${before} to ${after}`;
}

function interfaceChanges(before: InterfaceFacts, after: InterfaceFacts): string[] {
  return [
    changed('kind', interfaceKind(before.type), interfaceKind(after.type)),
    changed('name', show(before.name), show(after.name)),
    changed('hardware name', show(before.hardwareName), show(after.hardwareName)),
    changed('VLAN id', show(before.vlanId), show(after.vlanId)),
    changed('subinterface id', show(before.subInterfaceId), show(after.subInterfaceId)),
    changed('members', showList(before.members), showList(after.members)),
    changed('parent', show(before.parent), show(after.parent)),
    changed('IPv4 address', show(before.ipv4), show(after.ipv4)),
    changed('IPv6 addresses', showList(before.ipv6), showList(after.ipv6)),
    changed('subinterfaces on it', showList(before.subinterfaces), showList(after.subinterfaces)),
  ].filter((line): line is string => line !== undefined);
}

function tenantChanges(before: TenantFacts, after: TenantFacts): string[] {
  return [
    changed('name', before.name, after.name),
    changed('display name', before.displayName, after.displayName),
    changed('device count', show(before.deviceCount), show(after.deviceCount)),
  ].filter((line): line is string => line !== undefined);
}

/**
 * What differs between the approved target and a fresh read, in sentences for the thread; empty when
 * nothing that was approved has changed. A different kind of target counts as a change of everything.
 */
export function describeChanges(before: TargetSnapshot, after: TargetSnapshot): string[] {
  if (before.kind === 'interface' && after.kind === 'interface') {
    const device = changed('device name', before.device.name, after.device.name);
    return [...(device ? [device] : []), ...interfaceChanges(before.interface, after.interface)];
  }
  if (before.kind === 'tenant' && after.kind === 'tenant') return tenantChanges(before.tenant, after.tenant);
  if (before.kind === 'tenantUsers' && after.kind === 'tenantUsers') {
    const gone = before.usernames.filter((u) => !after.usernames.includes(u));
    return [
      ...tenantChanges(before.tenant, after.tenant),
      ...(gone.length > 0 ? [`no longer in the tenant: ${gone.join(', ')}`] : []),
    ];
  }
  if (before.kind === 'devices' && after.kind === 'devices') {
    return [
      changed(
        'devices',
        showList(before.devices.map((d) => d.name)),
        showList(after.devices.map((d) => d.name)),
      ),
      changed('details', before.detail, after.detail),
    ].filter((line): line is string => line !== undefined);
  }
  return [`the target is now ${describeTarget(after)}, not ${describeTarget(before)}`];
}
