// ASA configuration as text, and the CLI a deploy runs: renders one copy of an ASA's interfaces (the
// device's running config or SCC's staged copy) as plausible `show running-config` output, and computes the
// commands that turn the device's copy into SCC's, block by block in an order the ASA accepts (children
// removed before parents, EtherChannel members before their channel, parents before subinterfaces, names
// before the global `mtu` lines that use them). Pure functions: no state, no clock.
import { createHash } from 'node:crypto';
import { policySections } from './asaPolicyLines.js';
import type { DeviceRecord, InterfaceRecord } from './model.js';

/** A line of an interface block, keyed so two copies of one interface compare line by line. */
type Lines = Map<string, string>;

/** The keys of an interface block in the order `show running-config` prints them. */
const KEY_ORDER = [
  'description',
  'vlan',
  'channel-group',
  'switchport',
  'management-only',
  'shutdown',
  'lacp',
  'nameif',
  'security-level',
  'ip address',
  'tunnel source',
  'tunnel mode',
  'tunnel protection',
] as const;

/** The block of a deploy that holds the access policy's commands (state/asaPolicyDiff.ts), not an interface's. */
export const POLICY_BLOCK = 'access policy';

/** What a deploy does to one interface (or to the access policy: POLICY_BLOCK), and the commands that do it. */
export interface ChangeBlock {
  hardwareName: string;
  /** `add`: only SCC has it; `remove`: only the device has it; `modify`: both, differently. */
  action: 'add' | 'remove' | 'modify';
  /** The interface block's commands (`interface X` first, or `no interface X`). */
  commands: string[];
  /** Global commands that depend on the block (`mtu <nameif> <bytes>`), run after every block. */
  globalCommands: string[];
  /**
   * Documented trigger: renaming an interface (a `nameif` replaced by another) cannot be applied line by
   * line, because access rules, routes and NAT refer to interfaces by name; it needs a full-config apply.
   */
  unsupported: boolean;
}

// --- rendering ---------------------------------------------------------------------------------------

const PREFIX_RANK = ['GigabitEthernet', 'Management', 'Port-channel', 'Tunnel', 'Vlan'];

/** Interfaces in the order an ASA lists them: ports, subinterfaces after their parent, then logical ones. */
export function compareHardwareNames(a: string, b: string): number {
  const key = (name: string) => {
    const prefix = /^[A-Za-z-]+/.exec(name)?.[0] ?? '';
    const rank = PREFIX_RANK.indexOf(prefix);
    return {
      rank: rank === -1 ? PREFIX_RANK.length : rank,
      prefix,
      numbers: (name.match(/\d+/g) ?? []).map(Number),
    };
  };
  const x = key(a);
  const y = key(b);
  if (x.rank !== y.rank) return x.rank - y.rank;
  if (x.prefix !== y.prefix) return x.prefix < y.prefix ? -1 : 1;
  for (let i = 0; i < Math.min(x.numbers.length, y.numbers.length); i += 1) {
    const d = (x.numbers[i] ?? 0) - (y.numbers[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.numbers.length - y.numbers.length;
}

const named = (i: InterfaceRecord): string | undefined =>
  i.name !== undefined && i.name !== null && i.name !== '' ? i.name : undefined;

function ipLine(i: InterfaceRecord): string | undefined {
  const ipv4 = i.ipv4;
  if (ipv4?.ipType === 'DHCP') return 'ip address dhcp setroute';
  const address = ipv4?.ipAddress?.ipAddress;
  if (address === undefined || address === null) return undefined;
  return `ip address ${address} ${ipv4?.ipAddress?.netmask ?? '255.255.255.0'}`;
}

/** The keyed lines of one interface, given the other interfaces of the same copy (channels, VLANs). */
function interfaceLines(i: InterfaceRecord, all: readonly InterfaceRecord[]): Lines {
  const lines: Lines = new Map();
  const set = (key: string, line: string | undefined) => {
    if (line !== undefined) lines.set(key, line);
  };
  const description = i.description ?? undefined;
  if (description !== undefined && description !== '') set('description', `description ${description}`);
  const name = named(i);
  const channel =
    typeof i.etherChannelGroupUid === 'string'
      ? all.find((c) => c.uid === i.etherChannelGroupUid)
      : undefined;
  /** Name, security level and address, or the lines that clear them. */
  const routed = () => {
    set('nameif', name === undefined ? 'no nameif' : `nameif ${name}`);
    set(
      'security-level',
      name === undefined ? 'no security-level' : `security-level ${i.securityLevel ?? 0}`,
    );
    set('ip address', ipLine(i) ?? 'no ip address');
  };
  switch (i.interfaceType) {
    case 'PHYSICAL_INTERFACE': {
      if (channel !== undefined) {
        const mode = (channel.lacpMode ?? 'ACTIVE').toLowerCase();
        set('channel-group', `channel-group ${channel.etherChannelId ?? 0} mode ${mode}`);
      }
      const vlan = all.find(
        (v) => v.interfaceType === 'VLAN_INTERFACE' && v.memberInterfaces?.includes(i.uid),
      );
      if (vlan !== undefined) set('switchport', `switchport access vlan ${vlan.vlanId ?? 0}`);
      if (i.managementOnly) set('management-only', 'management-only');
      if (i.enabled === false) set('shutdown', 'shutdown');
      // A member of an EtherChannel takes its name and address from the channel.
      if (channel === undefined) routed();
      break;
    }
    case 'ETHER_CHANNEL_INTERFACE':
    case 'SUB_INTERFACE':
    case 'VLAN_INTERFACE': {
      if (i.interfaceType === 'SUB_INTERFACE') set('vlan', `vlan ${i.vlanPrimaryId ?? 0}`);
      if (i.interfaceType === 'ETHER_CHANNEL_INTERFACE') set('lacp', 'lacp max-bundle 8');
      if (i.managementOnly) set('management-only', 'management-only');
      if (i.enabled === false) set('shutdown', 'shutdown');
      routed();
      break;
    }
    case 'VIRTUAL_TUNNEL_INTERFACE': {
      if (i.enabled === false) set('shutdown', 'shutdown');
      set('nameif', name === undefined ? 'no nameif' : `nameif ${name}`);
      set('ip address', ipLine(i) ?? 'no ip address');
      set('tunnel source', 'tunnel source interface outside');
      set('tunnel mode', 'tunnel mode ipsec ipv4');
      set('tunnel protection', 'tunnel protection ipsec profile default-vti');
      break;
    }
  }
  return lines;
}

const ordered = (lines: Lines): string[] =>
  KEY_ORDER.flatMap((key) => {
    const line = lines.get(key);
    return line === undefined ? [] : [line];
  });

/** `mtu <nameif> <bytes>`: a global command on an ASA, for every named interface that is not a member. */
function mtuLine(i: InterfaceRecord): string | undefined {
  const name = named(i);
  if (name === undefined || typeof i.etherChannelGroupUid === 'string') return undefined;
  return `mtu ${name} ${i.mtu ?? 1500}`;
}

const sorted = (interfaces: readonly InterfaceRecord[]) =>
  [...interfaces].sort((a, b) => compareHardwareNames(a.hardwareName, b.hardwareName));

/** `9.20.2` → `9.20(2)`, as `show version` prints it. */
const asaVersion = (software: string | null | undefined) => {
  const [major = '9', minor = '0', patch = '1'] = (software ?? '9.0.1').split('.');
  return `${major}.${minor}(${patch})`;
};

/**
 * A plausible `show running-config` of an ASA whose interfaces are `interfaces` and whose access policy is
 * `policy` (its lines, state/asaPolicy.ts): objects and access lists after the DNS settings, object NAT
 * after `arp timeout`, access-group bindings and routes where the routes go (the policy's routes, or the
 * default route through the outside interface when it has none).
 */
export function renderAsaConfig(
  device: DeviceRecord,
  interfaces: readonly InterfaceRecord[],
  policy: readonly string[] = [],
): string {
  const sections = policySections(policy);
  const d = device.device;
  const out: string[] = [
    ': Saved',
    ':',
    `: Serial Number: ${d.serial ?? 'JAD0000000'}`,
    `: Hardware:   ${d.modelNumber ?? 'ASA5516'}, 8192 MB RAM, CPU Atom C2000 series 2416 MHz, 1 CPU (8 cores)`,
    ':',
    `ASA Version ${asaVersion(d.softwareVersion)}`,
    '!',
    `hostname ${d.name}`,
    'domain-name acme.example',
    'enable password ***** pbkdf2',
    'names',
    'no mac-address auto',
    '!',
  ];
  const all = sorted(interfaces);
  for (const i of all)
    out.push(`interface ${i.hardwareName}`, ...ordered(interfaceLines(i, all)).map((l) => ` ${l}`), '!');
  const outside = all.find((i) => i.name === 'outside')?.ipv4?.ipAddress?.ipAddress;
  out.push(
    'ftp mode passive',
    'dns server-group DefaultDNS',
    ' domain-name acme.example',
    'same-security-traffic permit inter-interface',
    ...sections.definitions,
    'pager lines 24',
    'logging enable',
    'logging timestamp',
    ...all.flatMap((i) => mtuLine(i) ?? []),
    ...(d.asaFailoverMode === 'ACTIVE_STANDBY'
      ? ['failover', 'failover lan unit primary', 'failover key *****']
      : ['no failover']),
    'icmp unreachable rate-limit 1 burst-size 1',
    `asdm image disk0:/asdm-${(d.asdmVersion ?? '7.20(1)').replace(/\D/g, '')}.bin`,
    'no arp permit-nonconnected',
    'arp timeout 14400',
    ...sections.nat,
    ...sections.bindings,
    ...(sections.routes.length > 0
      ? sections.routes
      : outside
        ? [`route outside 0.0.0.0 0.0.0.0 ${outside.replace(/\.\d+$/, '.1')} 1`]
        : []),
    'http server enable',
    'http 192.168.45.0 255.255.255.0 management',
    'crypto ipsec ikev2 ipsec-proposal AES256',
    ' protocol esp encryption aes-256',
    ' protocol esp integrity sha-256',
    'crypto ipsec profile default-vti',
    ' set ikev2 ipsec-proposal AES256',
    'ssh 192.168.45.0 255.255.255.0 management',
    'ssh version 2',
    'username admin password ***** pbkdf2 privilege 15',
  );
  const body = out.join('\n');
  const checksum = createHash('md5').update(body).digest('hex');
  return `${body}\nCryptochecksum:${checksum}\n: end\n`;
}

// --- the commands of a deploy ------------------------------------------------------------------------

/** `no` form of a running-config line. */
function negate(key: string, line: string): string {
  if (key === 'switchport' || key === 'management-only' || key === 'shutdown' || key === 'channel-group')
    return `no ${line}`;
  return `no ${key}`;
}

/** Where a block goes in the deploy: removals of children, ports, removals of channels, then creations. */
function phase(i: InterfaceRecord, action: ChangeBlock['action']): number {
  if (action === 'remove') return i.interfaceType === 'ETHER_CHANNEL_INTERFACE' ? 2 : 0;
  switch (i.interfaceType) {
    case 'PHYSICAL_INTERFACE':
      return 1;
    case 'ETHER_CHANNEL_INTERFACE':
      return 3;
    case 'SUB_INTERFACE':
      return 4;
    case 'VLAN_INTERFACE':
      return 5;
    default:
      return 6;
  }
}

/**
 * The blocks a deploy runs to make the device's interfaces (`onDevice`) into SCC's (`onCloud`), in the order
 * it runs them. Empty when both copies render the same.
 */
export function changeBlocks(
  onDevice: readonly InterfaceRecord[],
  onCloud: readonly InterfaceRecord[],
): ChangeBlock[] {
  const device = new Map(onDevice.map((i) => [i.hardwareName, i]));
  const cloud = new Map(onCloud.map((i) => [i.hardwareName, i]));
  const names = [...new Set([...device.keys(), ...cloud.keys()])].sort(compareHardwareNames);
  const blocks: { block: ChangeBlock; phase: number }[] = [];
  for (const hardwareName of names) {
    const before = device.get(hardwareName);
    const after = cloud.get(hardwareName);
    const mtuBefore = before === undefined ? undefined : mtuLine(before);
    const mtuAfter = after === undefined ? undefined : mtuLine(after);
    const globalCommands = mtuAfter !== undefined && mtuAfter !== mtuBefore ? [mtuAfter] : [];
    if (after === undefined && before !== undefined) {
      blocks.push({
        phase: phase(before, 'remove'),
        block: {
          hardwareName,
          action: 'remove',
          commands: [`no interface ${hardwareName}`],
          globalCommands: [],
          unsupported: false,
        },
      });
      continue;
    }
    if (after === undefined) continue;
    const next = interfaceLines(after, onCloud);
    if (before === undefined) {
      const lines = ordered(next).filter((l) => !l.startsWith('no '));
      if (after.enabled !== false) lines.push('no shutdown');
      blocks.push({
        phase: phase(after, 'add'),
        block: {
          hardwareName,
          action: 'add',
          commands: [`interface ${hardwareName}`, ...lines],
          globalCommands,
          unsupported: false,
        },
      });
      continue;
    }
    const previous = interfaceLines(before, onDevice);
    const commands: string[] = [];
    for (const key of KEY_ORDER) {
      const was = previous.get(key);
      const is = next.get(key);
      if (was === is) continue;
      if (is !== undefined && !(is.startsWith('no ') && was === undefined)) commands.push(is);
      else if (is === undefined && was !== undefined && !was.startsWith('no '))
        commands.push(negate(key, was));
    }
    if (commands.length === 0 && globalCommands.length === 0) continue;
    const oldName = previous.get('nameif');
    const newName = next.get('nameif');
    const renamed =
      oldName !== undefined &&
      newName !== undefined &&
      oldName !== newName &&
      !oldName.startsWith('no ') &&
      !newName.startsWith('no ');
    blocks.push({
      phase: phase(after, 'modify'),
      block: {
        hardwareName,
        action: 'modify',
        commands: commands.length === 0 ? [] : [`interface ${hardwareName}`, ...commands],
        globalCommands,
        unsupported: renamed,
      },
    });
  }
  return blocks.sort((a, b) => a.phase - b.phase).map((b) => b.block);
}

/** Every command of the blocks, in the order a deploy runs them. */
export function commandsOf(blocks: readonly ChangeBlock[]): string[] {
  return [...blocks.flatMap((b) => b.commands), ...blocks.flatMap((b) => b.globalCommands)];
}

/**
 * The device's interfaces after a deploy that applied `applied` (hardware names) of the blocks: applied
 * interfaces take SCC's version (or disappear), the others keep the device's.
 */
export function mergeApplied(
  onDevice: readonly InterfaceRecord[],
  onCloud: readonly InterfaceRecord[],
  applied: ReadonlySet<string>,
): InterfaceRecord[] {
  const device = new Map(onDevice.map((i) => [i.hardwareName, i]));
  const cloud = new Map(onCloud.map((i) => [i.hardwareName, i]));
  const out: InterfaceRecord[] = [];
  for (const hardwareName of [...new Set([...device.keys(), ...cloud.keys()])]) {
    const chosen = applied.has(hardwareName) ? cloud.get(hardwareName) : device.get(hardwareName);
    if (chosen !== undefined) out.push(structuredClone(chosen));
  }
  return out;
}

// --- what the device refuses -------------------------------------------------------------------------

const toInt = (ip: string) => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

function network(i: InterfaceRecord): { base: number; mask: number } | undefined {
  const address = i.ipv4?.ipAddress?.ipAddress;
  if (address === undefined || address === null || named(i) === undefined) return undefined;
  const mask = toInt(i.ipv4?.ipAddress?.netmask ?? '255.255.255.0');
  return { base: toInt(address) & mask, mask };
}

/**
 * Documented trigger: the ASA refuses an `ip address` whose network overlaps another named interface's.
 * Returns the ASA's error for a block's interface in the target configuration, or undefined.
 */
export function rejectedBy(target: InterfaceRecord, all: readonly InterfaceRecord[]): string | undefined {
  const mine = network(target);
  if (mine === undefined) return undefined;
  for (const other of sorted(all)) {
    if (other.hardwareName === target.hardwareName) continue;
    const theirs = network(other);
    if (theirs === undefined) continue;
    const mask = mine.mask & theirs.mask;
    if ((mine.base & mask) === (theirs.base & mask)) {
      return `ERROR: Failed to apply IP address to interface ${target.hardwareName}, as the network overlaps with interface ${other.hardwareName}. Two interfaces cannot be in the same subnet.`;
    }
  }
  return undefined;
}
