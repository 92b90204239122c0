// The `show` commands the simulated ASA answers, each from the model in the ASA's own format: `show route
// <ip>`, `show conn address <ip>` (none of a shunned address's), `show xlate local <ip>`, `show failover` (asaShowFailover.ts), `show
// interface <name>` and `show version`. Connections are derived from the policy (flows its access lists permit, checked with
// the packet tracer's own evaluation), so they never contradict a trace. Counters and idle times are
// derived from the device and the address, not from a random source, so an answer repeats.
import { createHash } from 'node:crypto';
import { cidrContains, formatIp, type Ip, parseIp, prefixToMask, translate } from './asaAddresses.js';
import type { AsaDeviceView, LineOutcome, Token } from './asaCommandLine.js';
import { decideAccess, type Flow, lookupRoute } from './asaPolicyEval.js';
import type { Cidr } from './asaPolicyModel.js';
import { showFailover } from './asaShowFailover.js';
import { asaUptime, asaVersion, stable } from './asaShowFormat.js';
import { shunOf } from './asaShun.js';
import type { InterfaceRecord } from './model.js';

const network = (cidr: Cidr) =>
  cidr.family === 4 ? `${cidr.address} ${prefixToMask(cidr.prefix)}` : `${cidr.address}/${cidr.prefix}`;

// --- show route -------------------------------------------------------------------------------------

function showRoute(view: AsaDeviceView, ip: Ip): string {
  const route = lookupRoute(view, ip);
  if (route === undefined) return '% Network not in table\n';
  const isDefault = route.network.prefix === 0;
  const head = `Routing entry for ${network(route.network)}${isDefault ? ', supernet' : ''}`;
  if (route.kind === 'connected') {
    return [
      head,
      '  Known via "connected", distance 0, metric 0 (connected, via interface)',
      '  Routing Descriptor Blocks:',
      `  * directly connected, via ${route.nameif}`,
      '      Route metric is 0, traffic share count is 1',
      '',
    ].join('\n');
  }
  return [
    head,
    `  Known via "static", distance 1, metric ${route.metric}${isDefault ? ', candidate default path' : ''}`,
    '  Routing Descriptor Blocks:',
    `  * ${route.gateway ?? ''}, via ${route.nameif}`,
    `      Route metric is ${route.metric}, traffic share count is 1`,
    '',
  ].join('\n');
}

// --- show conn address ------------------------------------------------------------------------------

interface Conn {
  protocol: 'TCP' | 'UDP';
  input: string;
  egress: string;
  source: Ip;
  sourcePort: number;
  destination: Ip;
  destinationPort: number;
}

/** A host to stand for a network operand: the address itself, or a host inside the network. */
function hostIn(networks: readonly Cidr[], family: 4 | 6, stand: string): Ip | undefined {
  const cidr = networks.find((n) => n.family === family);
  if (cidr === undefined) return undefined;
  if (cidr.prefix === 0) return parseIp(stand);
  const base = parseIp(cidr.address);
  if (base === undefined) return undefined;
  const hostBits = (family === 4 ? 32 : 128) - cidr.prefix;
  return hostBits === 0 ? base : { family, value: base.value + (hostBits >= 5 ? 25n : 1n) };
}

/**
 * Connections through `ip`: for each permit rule of a list applied `in` whose source or destination
 * names it (not through `any`), the flow that rule lets through, kept only when the whole policy agrees.
 */
function connectionsOf(view: AsaDeviceView, ip: Ip): Conn[] {
  const { policy } = view;
  const conns: Conn[] = [];
  const seen = new Set<string>();
  const standIn = ip.family === 4 ? '198.51.100.7' : '2001:db8:100::7';
  const standOut = ip.family === 4 ? '198.51.100.80' : '2001:db8:200::80';
  for (const binding of policy.accessGroups) {
    if (binding.direction !== 'in' || binding.interface === undefined) continue;
    for (const entry of policy.accessLists.get(binding.acl) ?? []) {
      if (entry.kind !== 'rule' || entry.inactive || entry.action !== 'permit' || conns.length >= 3) continue;
      const protocol = (entry.protocol ?? 'ip').toLowerCase();
      const proto = protocol === 'udp' ? 'udp' : protocol === 'tcp' || protocol === 'ip' ? 'tcp' : undefined;
      if (proto === undefined) continue;
      const named = (networks: readonly Cidr[] | undefined) =>
        (networks ?? []).some((n) => n.prefix > 0 && cidrContains(n, ip));
      const destinationPort = entry.destinationPorts?.ports[0]?.low ?? 443;
      // Traffic to `ip` arrives on the list's interface; a mapped address is reached through its NAT.
      const mapped = policy.nats.find((n) => n.real.some((r) => cidrContains(r, ip)));
      let source: Ip | undefined;
      let destination: Ip | undefined;
      if (named(entry.destination?.networks)) {
        source = hostIn(entry.source?.networks ?? [], ip.family, standIn);
        destination = ip;
      } else if (named(entry.source?.networks)) {
        source = ip;
        destination = hostIn(entry.destination?.networks ?? [], ip.family, standOut);
      }
      if (source === undefined || destination === undefined) continue;
      const egress =
        destination === ip && mapped !== undefined
          ? mapped.realInterface
          : lookupRoute(view, destination)?.nameif;
      if (egress === undefined || egress === binding.interface) continue;
      // The ASA's reverse-path view: a connection arrives on the interface its source is routed to.
      if (lookupRoute(view, source)?.nameif !== binding.interface) continue;
      const key = `${proto} ${formatIp(source)} ${formatIp(destination)}:${destinationPort}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const sourcePort = 49152 + stable(16000, view.device.device.uid, formatIp(source), entry.uid);
      const flow: Flow = { protocol: proto, source, destination, sourcePort, destinationPort };
      if (decideAccess(view, binding.interface, egress, flow).action !== 'permit') continue;
      conns.push({
        protocol: proto === 'tcp' ? 'TCP' : 'UDP',
        input: binding.interface,
        egress,
        source,
        sourcePort,
        destination,
        destinationPort,
      });
    }
  }
  return conns;
}

function showConn(view: AsaDeviceView, ip: Ip): string {
  const uid = view.device.device.uid;
  // A shun removed every connection of the address it blocks, and none can be built while it stands.
  const shunned = (address: Ip) => shunOf(view, address) !== undefined;
  const conns = connectionsOf(view, ip).filter((c) => !shunned(c.source) && !shunned(c.destination));
  const mostUsed = conns.length + 20 + stable(400, uid, 'conn');
  const lines = [`${conns.length} in use, ${mostUsed} most used`];
  if (conns.length > 0) lines.push('');
  for (const c of conns) {
    const key = [uid, formatIp(c.source), String(c.sourcePort)];
    const idle = `0:00:${String(stable(60, ...key, 'idle')).padStart(2, '0')}`;
    const bytes = 1000 + stable(500_000, ...key, 'bytes');
    lines.push(
      `${c.protocol} ${c.egress}  ${formatIp(c.destination)}:${c.destinationPort} ${c.input}  ${formatIp(c.source)}:${c.sourcePort}, idle ${idle}, bytes ${bytes}, flags UIO`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// --- show xlate local -------------------------------------------------------------------------------

function showXlate(view: AsaDeviceView, ip: Ip): string {
  const { nats } = view.policy;
  const total = nats.reduce((n, nat) => n + nat.real.length, 0);
  const lines = [
    `${total} in use, ${total} most used`,
    'Flags: D - DNS, e - extended, I - identity, i - dynamic, r - portmap,',
    '       s - static, T - twice, N - net-to-net',
  ];
  for (const nat of nats) {
    for (const [i, real] of nat.real.entries()) {
      const mapped = nat.mapped[i] ?? nat.mapped[0];
      if (mapped === undefined || !cidrContains(real, ip)) continue;
      const host = real.prefix === (real.family === 4 ? 32 : 128);
      const shown = (cidr: Cidr) => (host ? cidr.address : `${cidr.address}/${cidr.prefix}`);
      const translated = host ? translate(ip, real, mapped) : undefined;
      const idle = stable(36_000, view.device.device.uid, nat.objectName);
      const clock = `${Math.floor(idle / 3600)}:${String(Math.floor(idle / 60) % 60).padStart(2, '0')}:${String(idle % 60).padStart(2, '0')}`;
      lines.push(
        `NAT from ${nat.realInterface}:${shown(real)} to ${nat.mappedInterface}:${translated === undefined ? shown(mapped) : formatIp(translated)}`,
        `    flags ${host ? 's' : 'sN'} idle ${clock} timeout 0:00:00`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

// --- show interface ---------------------------------------------------------------------------------

function findInterface(view: AsaDeviceView, name: string): InterfaceRecord | undefined {
  return (
    view.interfaces.find((i) => i.hardwareName.toLowerCase() === name.toLowerCase()) ??
    view.interfaces.find((i) => i.name === name)
  );
}

function showInterface(view: AsaDeviceView, record: InterfaceRecord): string {
  const enabled = record.enabled !== false;
  const linkUp = enabled && record.runtimeData?.linkState !== 'DOWN';
  const state = !enabled ? 'is administratively down' : linkUp ? 'is up' : 'is down';
  const nameif = typeof record.name === 'string' ? record.name : '';
  const speed = record.runtimeData?.speedType === 'HUNDRED' ? 100 : 1000;
  const address = record.ipv4?.ipAddress;
  const uptimeSeconds = Math.max(1, Math.floor((view.now - view.bootTime) / 1000));
  const packets = linkUp ? uptimeSeconds * (5 + stable(50, record.uid, 'pps')) : 0;
  const lines = [
    `Interface ${record.hardwareName} "${nameif}", ${state}, line protocol is ${linkUp ? 'up' : 'down'}`,
    `  Hardware is Accelerator rev01, BW ${speed} Mbps, DLY 10 usec`,
  ];
  if (record.interfaceType === 'PHYSICAL_INTERFACE')
    lines.push(`\tAuto-Duplex(Full-duplex), Auto-Speed(${speed} Mbps)`);
  if (record.vlanPrimaryId !== undefined && record.vlanPrimaryId !== null)
    lines.push(`\tVLAN identifier ${record.vlanPrimaryId}`);
  if (typeof record.description === 'string' && record.description !== '')
    lines.push(`\tDescription: ${record.description}`);
  // A subinterface answers with its parent's MAC address, as on the ASA.
  const parent = view.interfaces.find((i) => i.uid === record.parentInterfaceUid);
  const mac = record.macAddress ?? parent?.macAddress ?? record.runtimeData?.macAddress ?? '0000.0000.0000';
  lines.push(`\tMAC address ${mac}, MTU ${record.mtu ?? 1500}`);
  lines.push(
    address?.ipAddress
      ? `\tIP address ${address.ipAddress}, subnet mask ${address.netmask ?? '255.255.255.0'}`
      : '\tIP address unassigned',
  );
  lines.push(
    `\t${packets} packets input, ${packets * 612} bytes, 0 no buffer`,
    `\t${Math.floor(packets * 0.9)} packets output, ${Math.floor(packets * 0.9) * 540} bytes, 0 underruns`,
  );
  if (nameif !== '') {
    lines.push(
      `  Traffic Statistics for "${nameif}":`,
      `\t${packets} packets input, ${packets * 590} bytes`,
      `\t${Math.floor(packets * 0.9)} packets output, ${Math.floor(packets * 0.9) * 520} bytes`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// --- show version -----------------------------------------------------------------------------------

function activationKey(uid: string): string {
  const hash = createHash('sha256').update(`activation\u0000${uid}`).digest();
  return [0, 4, 8, 12, 16].map((i) => `0x${hash.readUInt32BE(i).toString(16).padStart(8, '0')}`).join(' ');
}

/** `show version`'s licence table, as an ASA with a Security Plus licence prints it. */
const LICENSED_FEATURES: readonly (readonly [string, string])[] = [
  ['Maximum Physical Interfaces', 'Unlimited'],
  ['Maximum VLANs', '150'],
  ['Inside Hosts', 'Unlimited'],
  ['Failover', 'Disabled'],
  ['Encryption-DES', 'Enabled'],
  ['Encryption-3DES-AES', 'Enabled'],
  ['Security Contexts', '2'],
  ['Carrier', 'Disabled'],
  ['AnyConnect Premium Peers', '2'],
  ['AnyConnect Essentials', 'Disabled'],
  ['Other VPN Peers', '300'],
  ['Total VPN Peers', '300'],
  ['AnyConnect for Mobile', 'Disabled'],
  ['AnyConnect for Cisco VPN Phone', 'Disabled'],
  ['Advanced Endpoint Assessment', 'Disabled'],
  ['Shared License', 'Disabled'],
  ['Total TLS Proxy Sessions', '1000'],
  ['Botnet Traffic Filter', 'Disabled'],
  ['Cluster', 'Disabled'],
];

function showVersion(view: AsaDeviceView): string {
  const d = view.device.device;
  const software = d.softwareVersion ?? '9.20.2';
  const version = asaVersion(software);
  const pair = d.asaFailoverMode !== undefined && d.asaFailoverMode !== null && d.asaFailoverMode !== 'OFF';
  const ports = view.interfaces.filter((i) => i.interfaceType === 'PHYSICAL_INTERFACE');
  return [
    `Cisco Adaptive Security Appliance Software Version ${version}`,
    'SSP Operating System Version 2.14(1.162)',
    `Device Manager Version ${d.asdmVersion ?? '7.20(1)'}`,
    '',
    'Compiled on Tue 12-Dec-23 15:35 GMT by builders',
    `System image file is "disk0:/asa${software.replaceAll('.', '-')}-lfbff-k8.SPA"`,
    'Config file at boot was "startup-config"',
    '',
    `${d.name} up ${asaUptime(view.now - view.bootTime)}`,
    ...(pair ? [`failover cluster up ${asaUptime(view.now - view.bootTime)}`] : []),
    '',
    `Hardware:   ${d.modelNumber ?? 'ASA5516'}, 8192 MB RAM, CPU Atom C2000 series 2416 MHz, 1 CPU (8 cores)`,
    'Internal ATA Compact Flash, 8192MB',
    'BIOS Flash M25P64 @ 0xfed01000, 16384KB',
    '',
    ...ports.map(
      (p, i) =>
        `${String(i + 1).padStart(2)}: Ext: ${p.hardwareName.padEnd(20)}: address is ${p.macAddress ?? '0000.0000.0000'}, irq 255`,
    ),
    '',
    'Licensed features for this platform:',
    ...LICENSED_FEATURES.map(
      ([feature, value]) =>
        `${feature.padEnd(34)}: ${(feature === 'Failover' && pair ? 'Active/Standby' : value).padEnd(15)}perpetual`,
    ),
    '',
    'This platform has an ASA5516 Security Plus license.',
    '',
    `Serial Number: ${d.serial ?? ''}`,
    // A licence of the classic kind: its key, five words derived from the device (never a real one).
    `Running Permanent Activation Key: ${activationKey(d.uid)}`,
    'Configuration register is 0x1',
    'Image type          : Release',
    'Key Version         : A',
    '',
  ].join('\n');
}

// --- the runner -------------------------------------------------------------------------------------

/** The command-line runner for `show` lines: the fixed set above, anything else is invalid input. */
export function runShow(tokens: Token[], view: AsaDeviceView): LineOutcome | undefined {
  if (tokens[0]?.text !== 'show') return undefined;
  const words = tokens.map((t) => t.text);
  const invalid = (i: number): LineOutcome => {
    const token = tokens[i];
    const last = tokens[tokens.length - 1];
    return { invalidAt: token?.at ?? (last === undefined ? 0 : last.at + last.text.length + 1) };
  };
  const withIp = (i: number, answer: (ip: Ip) => string, family?: 4): LineOutcome => {
    if (tokens.length > i + 1) return invalid(i + 1);
    const ip = parseIp(words[i] ?? '');
    if (ip === undefined || (family !== undefined && ip.family !== family)) return invalid(i);
    return { output: answer(ip) };
  };
  const exactly = (n: number, answer: () => string): LineOutcome =>
    tokens.length > n ? invalid(n) : { output: answer() };
  switch (words[1]) {
    case 'route':
      // `show route` is IPv4 only on the ASA (IPv6 has `show ipv6 route`).
      return withIp(2, (ip) => showRoute(view, ip), 4);
    case 'conn':
      return words[2] === 'address' ? withIp(3, (ip) => showConn(view, ip)) : invalid(2);
    case 'xlate':
      return words[2] === 'local' ? withIp(3, (ip) => showXlate(view, ip)) : invalid(2);
    case 'failover':
      return exactly(2, () => showFailover(view));
    case 'version':
      return exactly(2, () => showVersion(view));
    case 'interface': {
      const record = findInterface(view, words[2] ?? '');
      if (record === undefined) return invalid(2);
      return exactly(3, () => showInterface(view, record));
    }
    default:
      return invalid(1);
  }
}
