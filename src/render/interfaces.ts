// Views of ASA interfaces: the list (all kinds or one), one interface in detail with its subinterfaces,
// and the announcements of creates, edits and deletes.

import type { RenderMeta, StagedItem } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type { AsaInterface, CdoTransaction, InterfaceIpv4Address } from '../scc/generated/models.js';
import {
  INTERFACE_KIND_NAMES,
  type InterfaceKind,
  interfaceLabel,
  type ResolvedDevice,
  type ResolvedInterface,
} from '../scc/kinds.js';
import { announcement } from './announce.js';
import { stagedNote, withStagedButtons } from './changes.js';
import { fieldBlocks, humanEnum, NONE, table } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';

/** `255.255.255.0` → 24, or undefined for something that is not a contiguous mask. */
export function prefixLength(netmask: string): number | undefined {
  const octets = netmask.split('.').map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) return undefined;
  const bits = octets.map((o) => o.toString(2).padStart(8, '0')).join('');
  return /^1*0*$/.test(bits) ? (bits.indexOf('0') === -1 ? 32 : bits.indexOf('0')) : undefined;
}

/** `10.1.0.1/24`, `DHCP`, or — when there is no IPv4 configuration. */
export function ipv4Text(ipv4: InterfaceIpv4Address | null | undefined): string {
  if (!ipv4) return NONE;
  if (ipv4.ipType && ipv4.ipType !== 'STATIC') return ipv4.ipType;
  const address = ipv4.ipAddress?.ipAddress;
  if (!address) return NONE;
  const mask = ipv4.ipAddress?.netmask;
  const prefix = mask ? prefixLength(mask) : undefined;
  return prefix === undefined ? (mask ? `${address} ${mask}` : address) : `${address}/${prefix}`;
}

function state(iface: AsaInterface): string {
  if (iface.enabled === false) return 'disabled';
  const link = iface.runtimeData?.linkState;
  return link ? link.toLowerCase() : 'enabled';
}

const KIND_SHORT: Record<InterfaceKind, string> = {
  physical: 'physical',
  etherchannel: 'etherchannel',
  subinterface: 'sub',
  vlan: 'vlan',
  vti: 'vti',
};

export function renderInterfaceList(
  device: ResolvedDevice,
  kind: InterfaceKind | undefined,
  interfaces: readonly ResolvedInterface[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  const what = kind ? `${INTERFACE_KIND_NAMES[kind]}s` : 'Interfaces';
  return listView(
    {
      title: `${what.charAt(0).toUpperCase()}${what.slice(1)} of ${device.name}`,
      page,
      query,
      columns: ['Interface', 'Name', 'Kind', 'IPv4', 'State'],
      rows: interfaces.map(({ iface, kind: k }) => [
        iface.hardwareName,
        iface.name,
        KIND_SHORT[k],
        ipv4Text(iface.ipv4),
        state(iface),
      ]),
      hint: `\`/fw interfaces show ${device.name} <interface>\` for details.`,
      empty: `no ${kind ? `${INTERFACE_KIND_NAMES[kind]}s` : 'interfaces'}.`,
    },
    meta,
  );
}

/** The fields that describe an interface, in the order people look for them. */
export function interfaceFields(
  iface: AsaInterface,
  kind: InterfaceKind,
  names: (uid: string | null | undefined) => string,
): [string, unknown][] {
  return [
    ['Kind', INTERFACE_KIND_NAMES[kind]],
    ['Hardware name', iface.hardwareName],
    ['Name', iface.name],
    ['UUID', iface.uid],
    ['State', state(iface)],
    ['IPv4', ipv4Text(iface.ipv4)],
    ['Standby IPv4', iface.ipv4?.ipAddress?.standbyIpAddress],
    ['Security level', iface.securityLevel],
    ['MTU', iface.mtu],
    ['Mode', humanEnum(iface.mode)],
    ['Description', iface.description],
    ['MAC address', iface.macAddress],
    ['Management only', iface.managementOnly ? true : undefined],
    [
      'Speed / duplex',
      iface.speedType ? `${humanEnum(iface.speedType)} / ${humanEnum(iface.duplexType)}` : undefined,
    ],
    ['EtherChannel ID', iface.etherChannelId],
    ['LACP mode', humanEnum(iface.lacpMode)],
    ['Members', (iface.memberInterfaces ?? []).map(names)],
    ['Member of', iface.etherChannelGroupUid ? names(iface.etherChannelGroupUid) : undefined],
    ['Parent', iface.parentInterfaceUid ? names(iface.parentInterfaceUid) : undefined],
    ['Subinterface ID', iface.subInterfaceId],
    ['VLAN', iface.vlanPrimaryId ?? iface.vlanId],
  ];
}

export interface InterfaceDetail {
  device: ResolvedDevice;
  kind: InterfaceKind;
  iface: AsaInterface;
  /** The device's interfaces by UUID, to name members and parents. */
  known: ReadonlyMap<string, string>;
  subinterfaces?: { items: readonly AsaInterface[]; count: number };
}

export function renderInterface(detail: InterfaceDetail): View {
  const { device, kind, iface, known } = detail;
  const names = (uid: string | null | undefined) => (uid ? (known.get(uid) ?? uid) : NONE);
  const title = `${interfaceLabel(iface)} on ${device.name}`;
  const blocks: ViewBlock[] = [
    { kind: 'header', text: title },
    ...fieldBlocks(interfaceFields(iface, kind, names)),
  ];
  const subs = detail.subinterfaces;
  if (subs && subs.items.length > 0) {
    const more = subs.count > subs.items.length ? ` (first ${subs.items.length} of ${subs.count})` : '';
    blocks.push({ kind: 'text', text: `*Subinterfaces*${more}` });
    blocks.push(
      table(
        ['Interface', 'Name', 'VLAN', 'IPv4'],
        subs.items.map((s) => [s.hardwareName, s.name, s.vlanPrimaryId, ipv4Text(s.ipv4)]),
      ),
    );
  }
  const next =
    kind === 'vti'
      ? 'Virtual tunnel interfaces are read-only in SCC.'
      : `\`/fw interfaces edit ${device.name} ${iface.hardwareName ?? iface.uid ?? ''}\` to change it.`;
  blocks.push({ kind: 'context', text: next });
  return { summary: `${INTERFACE_KIND_NAMES[kind]} ${title}`, blocks, visibility: 'ephemeral' };
}

export function renderInterfaceCreated(
  device: ResolvedDevice,
  kind: InterfaceKind,
  created: AsaInterface,
  names: ReadonlyMap<string, string>,
  meta: RenderMeta,
  staged?: readonly StagedItem[],
): View {
  const lookup = (uid: string | null | undefined) => (uid ? (names.get(uid) ?? uid) : NONE);
  const fields = interfaceFields(created, kind, lookup).filter(
    ([label]) => label !== 'Kind' && label !== 'State',
  );
  const view = announcement(
    {
      sentence: `staged the creation of ${INTERFACE_KIND_NAMES[kind]} *${interfaceLabel(created)}* on ${device.name}`,
      tense: 'done',
      details: fields,
      next: stagedNote(device.name, staged),
    },
    meta,
  );
  return withStagedButtons(view, device.name);
}

/** One line per changed field: `MTU: 1500 → 9000`. */
export function describeChanges(
  before: AsaInterface,
  after: AsaInterface,
  kind: InterfaceKind,
  names: (uid: string | null | undefined) => string,
): string[] {
  const old = new Map(
    interfaceFields(before, kind, names).map(([label, value]) => [label, JSON.stringify(value)]),
  );
  return interfaceFields(after, kind, names)
    .filter(([label, value]) => label !== 'State' && old.get(label) !== JSON.stringify(value))
    .map(([label, value]) => {
      const was = interfaceFields(before, kind, names).find(([l]) => l === label)?.[1];
      return `${label}: ${display(was)} → ${display(value)}`;
    });
}

function display(value: unknown): string {
  if (value === undefined || value === null || value === '') return NONE;
  if (Array.isArray(value)) return value.length ? value.join(', ') : NONE;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

export function renderInterfaceChanged(
  device: ResolvedDevice,
  kind: InterfaceKind,
  label: string,
  changes: readonly string[],
  meta: RenderMeta,
  staged?: readonly StagedItem[],
): View {
  const view = announcement(
    {
      sentence: `staged a change of ${INTERFACE_KIND_NAMES[kind]} *${label}* on ${device.name}`,
      tense: 'done',
    },
    meta,
  );
  const list: ViewBlock = {
    kind: 'text',
    text: changes.length ? changes.join('\n') : 'SCC reports no difference.',
  };
  return withStagedButtons(
    { ...view, blocks: [...view.blocks, list, { kind: 'context', text: stagedNote(device.name, staged) }] },
    device.name,
  );
}

/** An interface deleted in SCC, as its facts were read just before the call. */
export function renderInterfaceDeleted(
  deleted: {
    uid: string;
    kind: InterfaceKind;
    name: string | null;
    hardwareName: string | null;
    device: { uid: string; name: string };
  },
  meta: RenderMeta,
  /** The deploy started with it (approvals.deploy_with_change), when there was one. */
  deployment?: CdoTransaction,
  staged?: readonly StagedItem[],
): View {
  const label = interfaceLabel({ uid: deleted.uid, name: deleted.name, hardwareName: deleted.hardwareName });
  if (deployment) {
    return announcement(
      {
        sentence: `deleted ${INTERFACE_KIND_NAMES[deleted.kind]} *${label}* in SCC and asked SCC to deploy it to ${deleted.device.name}`,
        tense: 'done',
        details: [
          ['Interface UUID', deleted.uid],
          ['Device UUID', deleted.device.uid],
        ],
        transaction: deployment,
        next: 'Nothing else was pending on the device, so the deletion was approved together with its deploy. fwbot follows the deployment run and reports here when it is on the device.',
      },
      meta,
    );
  }
  const view = announcement(
    {
      sentence: `staged the deletion of ${INTERFACE_KIND_NAMES[deleted.kind]} *${label}* on ${deleted.device.name}`,
      tense: 'done',
      details: [
        ['Interface UUID', deleted.uid],
        ['Device UUID', deleted.device.uid],
      ],
      next: stagedNote(deleted.device.name, staged),
    },
    meta,
  );
  return withStagedButtons(view, deleted.device.name);
}
