// The editable settings of an ASA interface, declared once for the create and edit forms: the modal
// field, the argument rule (ranges from the reference: MTU 64–9198, security level 0–100, VLAN IDs), and
// how the value goes into SCC's body.
import { z } from 'zod';
import { ipv4Text } from '../render/interfaces.js';
import type { AsaInterface } from '../scc/generated/models.js';
import { choice, optionalBoolean, optionalInt, optionalText } from './args.js';
import type { ModalField, ModalOption, Param, RawArgs } from './operation.js';
import type { ResolvedInterface } from './resolve.js';

export const MTU_RANGE = [64, 9198] as const;
export const SECURITY_LEVEL_RANGE = [0, 100] as const;
/** Subinterface VLAN IDs (vlanPrimaryId) and VLAN interface IDs (vlanId) have different ranges. */
export const SUBINTERFACE_VLAN_RANGE = [1, 4094] as const;
export const VLAN_INTERFACE_RANGE = [1, 4070] as const;
export const SUBINTERFACE_ID_RANGE = [1, 4_294_967_295] as const;
export const ETHERCHANNEL_ID_RANGE = [1, 48] as const;
export const LACP_MODES = ['ACTIVE', 'PASSIVE', 'ON'] as const;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV4_MESSAGE = 'must be an address with its prefix (10.1.0.1/24), an address and a netmask, or dhcp.';

function maskOf(prefix: number): string {
  const bits = '1'.repeat(prefix).padEnd(32, '0');
  return [0, 8, 16, 24].map((i) => Number.parseInt(bits.slice(i, i + 8), 2)).join('.');
}

/** `10.1.0.1/24`, `10.1.0.1 255.255.255.0` or `dhcp`, as SCC's InterfaceIpv4Address. */
export function parseIpv4(
  text: string,
): { ipType: 'STATIC' | 'DHCP'; ipAddress?: { ipAddress: string; netmask: string } } | undefined {
  const trimmed = text.trim();
  if (/^dhcp$/i.test(trimmed)) return { ipType: 'DHCP' };
  const [address = '', rest = ''] = trimmed.split(/\s*\/\s*|\s+/);
  if (!IPV4.test(address)) return undefined;
  if (/^\d{1,2}$/.test(rest) && Number(rest) <= 32) {
    return { ipType: 'STATIC', ipAddress: { ipAddress: address, netmask: maskOf(Number(rest)) } };
  }
  const bits = rest
    .split('.')
    .map((o) => Number(o).toString(2).padStart(8, '0'))
    .join('');
  if (IPV4.test(rest) && /^1*0*$/.test(bits))
    return { ipType: 'STATIC', ipAddress: { ipAddress: address, netmask: rest } };
  return undefined;
}

export function ipv4Arg() {
  return optionalText().pipe(
    z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const parsed = parseIpv4(value);
        if (parsed) return parsed;
        ctx.addIssue({ code: 'custom', message: IPV4_MESSAGE });
        return z.NEVER;
      }),
  );
}

/** Arguments every create and edit form shares. */
export const commonSettings = {
  name: optionalText(),
  description: optionalText(),
  enabled: optionalBoolean(),
  ipv4: ipv4Arg(),
  'security-level': optionalInt(...SECURITY_LEVEL_RANGE),
  mtu: optionalInt(...MTU_RANGE),
};

export interface CommonSettings {
  name?: string | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
  ipv4?: ReturnType<typeof parseIpv4>;
  'security-level'?: number | undefined;
  mtu?: number | undefined;
}

/** The common settings as SCC's body fields; settings not given are left out. */
export function commonBody(args: CommonSettings) {
  return {
    ...(args.name !== undefined ? { name: args.name } : {}),
    ...(args.description !== undefined ? { description: args.description } : {}),
    ...(args.enabled !== undefined ? { enabled: args.enabled } : {}),
    ...(args.ipv4 !== undefined ? { ipv4: args.ipv4 } : {}),
    ...(args['security-level'] !== undefined ? { securityLevel: args['security-level'] } : {}),
    ...(args.mtu !== undefined ? { mtu: args.mtu } : {}),
  };
}

export const lacpMode = choice(LACP_MODES, { optional: true });

/** A form field's flag: the same argument, written `--name value` (so a script needs no form). */
function settingFlag(
  name: string,
  kind: Param['kind'],
  description: string,
  extra: Partial<Param> = {},
): Param {
  return { name, kind, flag: true, optional: true, description, ...extra };
}

/** Flags of the common settings, one per field of commonFields (same names, same rules). */
export const COMMON_FLAGS: readonly Param[] = [
  settingFlag('name', 'word', 'the interface name (nameif), e.g. guest'),
  settingFlag('ipv4', 'word', 'IPv4 address: 10.30.0.1/24, "10.30.0.1 255.255.255.0" or dhcp'),
  settingFlag('security-level', 'int', 'security level, 0–100'),
  settingFlag('mtu', 'int', 'MTU, 64–9198'),
  settingFlag('description', 'word', 'a description'),
  settingFlag('enabled', 'word', 'enabled (--enabled=false disables it)', { boolean: true }),
];

export const LACP_FLAG = settingFlag('lacp-mode', 'choice', 'LACP mode', {
  choices: LACP_MODES.map((mode) => mode.toLowerCase()),
});

export const MEMBERS_FLAG = settingFlag(
  'members',
  'word',
  'member ports, comma-separated names or UUIDs (GigabitEthernet0/3,GigabitEthernet0/4)',
);

/** Form fields of the common settings, filled with an interface's current values when editing. */
export function commonFields(current?: AsaInterface): ModalField[] {
  const ip = current ? ipv4Text(current.ipv4) : undefined;
  return [
    {
      name: 'name',
      label: 'Name (nameif)',
      input: 'text',
      optional: true,
      initial: current?.name ?? undefined,
    },
    {
      name: 'ipv4',
      label: 'IPv4 address',
      input: 'text',
      optional: true,
      placeholder: '10.1.0.1/24 or dhcp',
      initial: ip && ip !== '—' ? ip : undefined,
    },
    {
      name: 'security-level',
      label: 'Security level (0–100)',
      input: 'number',
      optional: true,
      initial: current?.securityLevel?.toString(),
    },
    {
      name: 'mtu',
      label: 'MTU (64–9198)',
      input: 'number',
      optional: true,
      initial: (current?.mtu ?? 1500).toString(),
    },
    {
      name: 'description',
      label: 'Description',
      input: 'text',
      optional: true,
      initial: current?.description ?? undefined,
    },
    {
      name: 'enabled',
      label: 'Enabled',
      input: 'checkbox',
      optional: true,
      initial: current?.enabled ?? true,
    },
  ];
}

/** Physical ports an EtherChannel may take: unnamed data ports in no other channel, without subinterfaces. */
export function freePorts(all: readonly ResolvedInterface[], channelUid?: string): ResolvedInterface[] {
  const parents = new Set(all.map((i) => i.iface.parentInterfaceUid).filter(Boolean));
  return all.filter(
    ({ kind, iface, uid }) =>
      kind === 'physical' &&
      !iface.managementInterface &&
      (!iface.etherChannelGroupUid || iface.etherChannelGroupUid === channelUid) &&
      (!iface.name || (channelUid !== undefined && iface.etherChannelGroupUid === channelUid)) &&
      !parents.has(uid),
  );
}

/**
 * A fitted static list, not an external select: the choices are one ASA's own ports (free ports for an
 * EtherChannel's members, possible parents of a subinterface), already fetched to fit the form, and few
 * — an ASA has tens of data ports, well under Slack's 100 options — so no search is needed.
 */
export function interfaceOptions(interfaces: readonly ResolvedInterface[]): ModalOption[] {
  return interfaces.slice(0, 100).map((i) => ({ label: i.label.slice(0, 75), value: i.uid }));
}

/** The typed value of a raw argument that must be a single string (a prefilled device or interface). */
export function rawText(raw: RawArgs, name: string): string {
  const value = raw[name];
  return typeof value === 'string' ? value : '';
}
