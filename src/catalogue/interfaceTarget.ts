// An ASA interface as the target of a governed call: the facts an approver judges (kind, names, VLAN,
// addresses, members, parent, the subinterfaces that depend on it), read once from the device's interface
// lists when the request is made, and read again by UUID right before executing: one GET of the interface
// itself, plus its subinterfaces for an EtherChannel. Related interfaces are kept with their UUIDs, so the
// comparison is by identity; their names are for people.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { code } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import type { AsaInterface } from '../scc/generated/models.js';
import type { TargetDescription, TargetRead } from './operation.js';
import {
  boundedPaginate,
  INTERFACE_GET,
  INTERFACE_KIND_NAMES,
  INTERFACE_KINDS,
  type InterfaceKind,
  type ResolvedInterface,
  type SccReader,
} from './resolve.js';
import { isNotFound } from './sccErrors.js';

const Ref = z.object({ uid: z.string(), name: z.string() });

export const InterfaceFacts = z.object({
  device: Ref,
  uid: z.string(),
  kind: z.enum(INTERFACE_KINDS),
  name: z.string().nullable(),
  hardwareName: z.string().nullable(),
  vlanId: z.number().int().nullable(),
  subInterfaceId: z.number().int().nullable(),
  /** EtherChannel members (freed by a delete); sorted by name. */
  members: z.array(Ref),
  /** The parent of a subinterface. */
  parent: Ref.nullable(),
  ipv4: z.string().nullable(),
  ipv6: z.array(z.string()),
  /** Subinterfaces that live on this interface and go with it, as people name them; sorted. */
  subinterfaces: z.array(z.string()),
});
export type InterfaceFacts = z.infer<typeof InterfaceFacts>;

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

/** `inside (Port-channel1)`, or whichever of the two names it has. */
function labelOf(iface: Pick<AsaInterface, 'name' | 'hardwareName' | 'uid'>): string {
  if (iface.name && iface.hardwareName) return `${iface.name} (${iface.hardwareName})`;
  return iface.name ?? iface.hardwareName ?? iface.uid ?? '?';
}

function subinterfaceLabel(iface: AsaInterface): string {
  const vlan = vlanOf(iface);
  return vlan === null ? labelOf(iface) : `${labelOf(iface)} VLAN ${vlan}`;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * The facts of one interface from a fresh GET of it; related interfaces are named from `names` (UUID →
 * name, lower-case keys), falling back to the UUID when the name is not known.
 */
function factsOf(
  device: { uid: string; name: string },
  kind: InterfaceKind,
  iface: AsaInterface,
  names: ReadonlyMap<string, string>,
  subinterfaces: readonly AsaInterface[],
): InterfaceFacts {
  const named = (uid: string) => ({ uid, name: names.get(uid.toLowerCase()) ?? uid });
  return {
    device,
    uid: iface.uid ?? '',
    kind,
    name: iface.name ?? null,
    hardwareName: iface.hardwareName ?? null,
    vlanId: vlanOf(iface),
    subInterfaceId: iface.subInterfaceId ?? null,
    members: (iface.memberInterfaces ?? []).map(named).sort(byName),
    parent: iface.parentInterfaceUid ? named(iface.parentInterfaceUid) : null,
    ipv4: ipv4Of(iface),
    ipv6: (iface.ipv6?.ipAddresses ?? []).flatMap((ip) => address(ip) ?? []).sort(),
    subinterfaces: subinterfaces.map(subinterfaceLabel).sort(),
  };
}

/** The facts of an interface found in the device's lists (`all`: every interface of the device). */
export function interfaceFacts(
  device: { uid: string; name: string },
  target: ResolvedInterface,
  all: readonly ResolvedInterface[],
): InterfaceFacts {
  const names = new Map(all.map((i) => [i.uid.toLowerCase(), i.iface.hardwareName ?? i.label]));
  const uid = target.uid.toLowerCase();
  const subinterfaces = all
    .filter((i) => i.kind === 'subinterface' && i.iface.parentInterfaceUid?.toLowerCase() === uid)
    .map((i) => i.iface);
  return factsOf(device, target.kind, target.iface, names, subinterfaces);
}

/**
 * The interface read again by its UUID: its own GET, and its subinterfaces when it can have any. Names of
 * related interfaces come from the facts read before (the UUIDs are what is compared).
 */
export async function rereadInterface(
  scc: SccReader,
  before: InterfaceFacts,
): Promise<TargetRead<InterfaceFacts>> {
  const path = { deviceUid: before.device.uid, interfaceUid: before.uid };
  let iface: AsaInterface;
  try {
    iface = (await scc.call(INTERFACE_GET[before.kind], { path })).data;
  } catch (error) {
    if (isNotFound(error))
      return { found: false, reason: `the interface no longer exists on ${before.device.name}` };
    throw error;
  }
  const canHaveSubinterfaces = before.kind === 'etherchannel' || before.kind === 'physical';
  const subinterfaces = canHaveSubinterfaces
    ? await boundedPaginate(
        scc,
        'getAsaInterfaceSubInterfaces',
        { path },
        `subinterfaces of ${labelOf(iface)}`,
      )
    : [];
  const names = new Map<string, string>();
  for (const ref of [...before.members, ...(before.parent ? [before.parent] : [])])
    names.set(ref.uid.toLowerCase(), ref.name);
  return { found: true, facts: factsOf(before.device, before.kind, iface, names, subinterfaces) };
}

/** Only these kinds can be deleted through SCC. */
export function checkDeletable(found: ResolvedInterface): void {
  if (found.kind === 'physical' || found.kind === 'vti') {
    throw new UserError(
      `${found.label} is a ${INTERFACE_KIND_NAMES[found.kind]}; SCC deletes only EtherChannel, VLAN and subinterfaces.`,
    );
  }
}

/** How people name the interface of the facts: `inside (Port-channel1)`. */
export function factsLabel(facts: InterfaceFacts): string {
  return labelOf({ name: facts.name, hardwareName: facts.hardwareName, uid: facts.uid });
}

const KIND_WORDS: Record<InterfaceKind, string> = {
  physical: 'physical interface',
  etherchannel: 'EtherChannel',
  subinterface: 'subinterface',
  vlan: 'VLAN interface',
  vti: 'virtual tunnel interface',
};

const show = (value: string | number | null): string => (value === null ? 'none' : String(value));
const showList = (values: readonly string[]): string => (values.length === 0 ? 'none' : values.join(', '));
const names = (refs: readonly { name: string }[]) => refs.map((r) => r.name);

function changed(label: string, before: string, after: string): string[] {
  return before === after ? [] : [`${label} changed from ${before} to ${after}`];
}

/** What differs between two reads of the same interface, one sentence each. */
export function compareInterfaces(before: InterfaceFacts, after: InterfaceFacts): string[] {
  const uids = (refs: readonly { uid: string }[]) =>
    refs
      .map((r) => r.uid.toLowerCase())
      .sort()
      .join(',');
  return [
    ...changed('kind', KIND_WORDS[before.kind], KIND_WORDS[after.kind]),
    ...changed('name', show(before.name), show(after.name)),
    ...changed('hardware name', show(before.hardwareName), show(after.hardwareName)),
    ...changed('VLAN id', show(before.vlanId), show(after.vlanId)),
    ...changed('subinterface id', show(before.subInterfaceId), show(after.subInterfaceId)),
    ...(uids(before.members) === uids(after.members)
      ? []
      : [`members changed from ${showList(names(before.members))} to ${showList(names(after.members))}`]),
    ...((before.parent?.uid ?? '').toLowerCase() === (after.parent?.uid ?? '').toLowerCase()
      ? []
      : [`parent changed from ${show(before.parent?.name ?? null)} to ${show(after.parent?.name ?? null)}`]),
    ...changed('IPv4 address', show(before.ipv4), show(after.ipv4)),
    ...changed('IPv6 addresses', showList(before.ipv6), showList(after.ipv6)),
    ...changed('subinterfaces on it', showList(before.subinterfaces), showList(after.subinterfaces)),
  ];
}

/**
 * The card's description of deleting the interface: its facts, and what goes with it. Names read from
 * SCC go into sentences through code() or untrusted() (render/untrusted.ts); field values are shown as
 * values by the card.
 */
export function describeDeletion(facts: InterfaceFacts): TargetDescription {
  const kind = KIND_WORDS[facts.kind];
  const label = factsLabel(facts);
  const fields = [
    { label: 'Device', value: facts.device.name },
    { label: 'Interface', value: label },
    { label: 'Kind', value: kind },
  ];
  if (facts.vlanId !== null) fields.push({ label: 'VLAN id', value: String(facts.vlanId) });
  if (facts.subInterfaceId !== null)
    fields.push({ label: 'Subinterface id', value: String(facts.subInterfaceId) });
  if (facts.parent !== null) fields.push({ label: 'Parent', value: facts.parent.name });
  if (facts.members.length > 0) fields.push({ label: 'Members', value: names(facts.members).join(', ') });
  fields.push({ label: 'IPv4', value: facts.ipv4 ?? 'none' });
  if (facts.ipv6.length > 0) fields.push({ label: 'IPv6', value: facts.ipv6.join(', ') });
  const warnings: string[] = [];
  if (facts.subinterfaces.length > 0)
    warnings.push(
      `:warning: Its subinterfaces depend on it: ${facts.subinterfaces.map(untrusted).join(', ')}.`,
    );
  if (facts.members.length > 0)
    warnings.push(
      `:warning: Its member ports are freed from the EtherChannel: ${names(facts.members).map(untrusted).join(', ')}.`,
    );
  return {
    action: `delete the ${kind} ${code(label)} on ${code(facts.device.name)}`,
    line: `${kind} ${untrusted(label)} on ${untrusted(facts.device.name)}`,
    fields,
    warnings,
  };
}
