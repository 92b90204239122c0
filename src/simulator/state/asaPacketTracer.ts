// `packet-tracer` on the simulated ASA: evaluates a packet against the device's configuration
// (asaPolicyEval.ts) and answers as real ASAs print it (the answers kept in test/fixtures/packet-tracer/):
// the layer-2 MAC access list as phase 1, UN-NAT for a static NAT's mapped address (so access lists match
// real addresses, as on 8.3 and later), the route lookup, the access-list phase only when an access list
// applies (a packet the security levels let through has none), source NAT as `Static translate` or
// `Dynamic translate`, the per-session, IP-options, failover (on a pair) and flow-creation phases, and the
// Result block. Drops print as devices print them: the access-list phase that dropped ends the answer; no
// route is a Result block without phases; a failed translation (PAT to an interface without an address)
// and a source translated onto its own destination (the ASA's land check) end after the phases with only
// the Result block's drop reason. Newer releases add elapsed times and the drop location. Computed, never
// canned; pure functions.
import { createHash } from 'node:crypto';
import { countHit } from './asaAccessListHits.js';
import { cidrContains, formatIp, type Ip, parseIp, translate } from './asaAddresses.js';
import type { AsaDeviceView, LineOutcome, Token } from './asaCommandLine.js';
import { type AclDecision, decideAccess, type Flow, ICMP_TYPE_NAMES, lookupRoute } from './asaPolicyEval.js';
import type { Cidr, DynamicNat, StaticNat } from './asaPolicyModel.js';
import { shunOf } from './asaShun.js';
import type { InterfaceRecord } from './model.js';

export type TraceProtocol = 'tcp' | 'udp' | 'icmp';

/** The packet a `packet-tracer` line describes. */
export interface TracePacket {
  inputInterface: string;
  protocol: TraceProtocol;
  source: Ip;
  destination: Ip;
  /** tcp/udp. */
  sourcePort?: number;
  destinationPort?: number;
  /** icmp. */
  icmpType?: number;
  icmpCode?: number;
}

/** Port names the ASA accepts in place of numbers (the common ones). */
export const ASA_PORT_NAMES: Readonly<Record<string, number>> = {
  ftp: 21,
  ssh: 22,
  telnet: 23,
  smtp: 25,
  domain: 53,
  www: 80,
  http: 80,
  pop3: 110,
  ntp: 123,
  snmp: 161,
  ldap: 389,
  https: 443,
  syslog: 514,
  ldaps: 636,
  sqlnet: 1521,
};

// --- parsing ----------------------------------------------------------------------------------------

const number = (text: string, max: number): number | undefined =>
  /^\d{1,5}$/.test(text) && Number(text) <= max ? Number(text) : undefined;

const port = (text: string): number | undefined => {
  const n = ASA_PORT_NAMES[text] ?? number(text, 65535);
  return n !== undefined && n >= 1 ? n : undefined;
};

/**
 * Parses `packet-tracer input <ifc> tcp|udp <src> <sport> <dst> <dport>` and
 * `packet-tracer input <ifc> icmp <src> <type> <code> <dst>`; undefined when the line is not a
 * packet-tracer command, the column of the first wrong word when it is one the ASA rejects.
 */
export function parsePacketTracer(
  tokens: readonly Token[],
  interfaceNames: readonly string[],
): TracePacket | { invalidAt: number } | undefined {
  if (tokens[0]?.text !== 'packet-tracer') return undefined;
  const word = (i: number) => tokens[i]?.text ?? '';
  // Where the ASA puts its marker for a missing word: just past the end of the line.
  const at = (i: number) => {
    const token = tokens[i];
    if (token !== undefined) return token.at;
    const last = tokens[tokens.length - 1];
    return last === undefined ? 0 : last.at + last.text.length + 1;
  };
  if (word(1) !== 'input') return { invalidAt: at(1) };
  if (!interfaceNames.includes(word(2))) return { invalidAt: at(2) };
  const protocol = word(3);
  if (protocol !== 'tcp' && protocol !== 'udp' && protocol !== 'icmp') return { invalidAt: at(3) };
  const source = parseIp(word(4));
  if (source === undefined) return { invalidAt: at(4) };
  const sameFamily = (ip: Ip | undefined) => ip !== undefined && ip.family === source.family;
  if (protocol === 'icmp') {
    const icmpType = ICMP_TYPE_NAMES[word(5)] ?? number(word(5), 255);
    if (icmpType === undefined) return { invalidAt: at(5) };
    const icmpCode = number(word(6), 255);
    if (icmpCode === undefined) return { invalidAt: at(6) };
    const destination = parseIp(word(7));
    if (!sameFamily(destination) || destination === undefined) return { invalidAt: at(7) };
    if (tokens.length > 8) return { invalidAt: at(8) };
    return { inputInterface: word(2), protocol, source, destination, icmpType, icmpCode };
  }
  const sourcePort = port(word(5));
  if (sourcePort === undefined) return { invalidAt: at(5) };
  const destination = parseIp(word(6));
  if (!sameFamily(destination) || destination === undefined) return { invalidAt: at(6) };
  const destinationPort = port(word(7));
  if (destinationPort === undefined) return { invalidAt: at(7) };
  if (tokens.length > 8) return { invalidAt: at(8) };
  return { inputInterface: word(2), protocol, source, destination, sourcePort, destinationPort };
}

// --- NAT --------------------------------------------------------------------------------------------

interface NatMatch {
  nat: StaticNat | DynamicNat;
  kind: 'static' | 'dynamic';
  from: Ip;
  /** Undefined: the translation failed (PAT to an interface that has no address). */
  to?: Ip;
}

const natApplies = (ifc: string, wanted: string) => ifc === wanted || ifc === 'any';

/** A static NAT whose mapped address is `destination`, for traffic entering on its mapped interface. */
function untranslation(view: AsaDeviceView, input: string, destination: Ip): NatMatch | undefined {
  for (const nat of view.policy.nats) {
    if (!natApplies(nat.mappedInterface, input)) continue;
    for (const [i, mapped] of nat.mapped.entries()) {
      const real = nat.real[i] ?? nat.real[0];
      if (real === undefined || !cidrContains(mapped, destination)) continue;
      const to = translate(destination, mapped, real);
      if (to !== undefined) return { nat, kind: 'static', from: destination, to };
    }
  }
  return undefined;
}

/** The address of an interface by nameif, when it has one (of the family asked). */
function interfaceAddress(view: AsaDeviceView, nameif: string, family: 4 | 6): Ip | undefined {
  const record = view.interfaces.find((i) => i.name === nameif);
  const text = family === 4 ? record?.ipv4?.ipAddress?.ipAddress : record?.ipv6?.ipAddresses?.[0]?.ipAddress;
  const ip = typeof text === 'string' ? parseIp(text) : undefined;
  return ip?.family === family ? ip : undefined;
}

/** The source NAT of the source's object from the input interface toward the egress: static, else dynamic. */
function sourceTranslation(
  view: AsaDeviceView,
  input: string,
  egress: string,
  source: Ip,
): NatMatch | undefined {
  const applies = (nat: StaticNat | DynamicNat) =>
    natApplies(nat.realInterface, input) && natApplies(nat.mappedInterface, egress);
  for (const nat of view.policy.nats) {
    if (!applies(nat)) continue;
    for (const [i, real] of nat.real.entries()) {
      const mapped = nat.mapped[i] ?? nat.mapped[0];
      if (mapped === undefined || !cidrContains(real, source)) continue;
      const to = translate(source, real, mapped);
      if (to !== undefined) return { nat, kind: 'static', from: source, to };
    }
  }
  for (const nat of view.policy.dynamicNats) {
    if (!applies(nat) || !nat.real.some((real) => cidrContains(real, source))) continue;
    const to =
      nat.mapped === 'interface'
        ? interfaceAddress(view, egress, source.family)
        : firstHost(nat.mapped, source.family);
    return { nat, kind: 'dynamic', from: source, ...(to ? { to } : {}) };
  }
  return undefined;
}

function firstHost(networks: readonly Cidr[], family: 4 | 6): Ip | undefined {
  const cidr = networks.find((n) => n.family === family);
  return cidr === undefined ? undefined : parseIp(cidr.address);
}

const natConfig = (nat: StaticNat | DynamicNat) => [
  `object network ${nat.objectName}`,
  ` ${nat.text.trim()}`,
];

// --- the answer -------------------------------------------------------------------------------------

interface Phase {
  type: string;
  subtype: string;
  result: 'ALLOW' | 'DROP';
  config: string[];
  info: string[];
}

const phase = (type: string, subtype = '', config: string[] = [], info: string[] = []): Phase => ({
  type,
  subtype,
  result: 'ALLOW',
  config,
  info,
});

const endpoint = (ip: Ip, port: number | undefined) => `${formatIp(ip)}/${port ?? 0}`;

function statusOf(record: InterfaceRecord | undefined): { status: string; line: string } {
  const enabled = record?.enabled !== false;
  const linkUp = record?.runtimeData?.linkState !== 'DOWN';
  return { status: enabled ? 'up' : 'down', line: enabled && linkUp ? 'up' : 'down' };
}

/** The interface names a `packet-tracer input` accepts: the device's named interfaces. */
export const interfaceNames = (view: AsaDeviceView): string[] =>
  view.interfaces.flatMap((i) => (typeof i.name === 'string' && i.name !== '' ? [i.name] : []));

/** What the trace found: the phases printed, the egress, and the drop reason when dropped. */
interface Trace {
  phases: Phase[];
  egress?: string;
  drop?: string;
}

const DROP = {
  acl: '(acl-drop) Flow is denied by configured rule',
  noRoute: '(no-route) No route to host',
  natFailed: '(nat-xlate-failed) NAT failed',
  security: '(sp-security-failed) Slowpath security checks failed',
  // A shunned source's drop: the simulator's wording, not checked against a real device's answer.
  shunned: '(shunned) Packet dropped due to shun',
};

function accessPhase(decision: AclDecision): Phase {
  const allowed = decision.action === 'permit';
  if (decision.kind === 'rule')
    return {
      ...phase('ACCESS-LIST', 'log', [decision.group, decision.entry.text.trim()]),
      result: allowed ? 'ALLOW' : 'DROP',
    };
  return { ...phase('ACCESS-LIST', '', ['Implicit Rule']), result: allowed ? 'ALLOW' : 'DROP' };
}

function flowOf(packet: TracePacket, destination: Ip): Flow {
  return {
    protocol: packet.protocol === 'icmp' && packet.source.family === 6 ? 'icmp6' : packet.protocol,
    source: packet.source,
    destination,
    ...(packet.sourcePort === undefined ? {} : { sourcePort: packet.sourcePort }),
    ...(packet.destinationPort === undefined ? {} : { destinationPort: packet.destinationPort }),
    ...(packet.icmpType === undefined ? {} : { icmpType: packet.icmpType }),
  };
}

/** A stable number for this packet and what is asked (flow ids, elapsed times): answers repeat. */
function stable(range: number, packet: TracePacket, ...parts: string[]): number {
  const key = [formatIp(packet.source), formatIp(packet.destination), packet.inputInterface, ...parts];
  return createHash('sha256').update(key.join('\u0000')).digest().readUInt32BE(0) % range;
}

/** Evaluates the packet: the phases a real ASA prints for it, in its order. */
function evaluate(view: AsaDeviceView, packet: TracePacket): Trace {
  const input = packet.inputInterface;
  // A shunned source is dropped on arrival, before any phase: only the Result block says why.
  if (shunOf(view, packet.source) !== undefined) return { phases: [], drop: DROP.shunned };
  // Every frame passes the layer-2 access list first; it never decides a routed packet.
  const phases: Phase[] = [phase('ACCESS-LIST', '', ['Implicit Rule'], ['MAC Access list'])];
  const divert = untranslation(view, input, packet.destination);
  const destination = divert?.to ?? packet.destination;
  let egress: string | undefined;
  if (divert !== undefined) {
    egress = divert.nat.realInterface;
    phases.push(
      phase('UN-NAT', 'static', natConfig(divert.nat), [
        `NAT divert to egress interface ${egress}`,
        `Untranslate ${endpoint(divert.from, packet.destinationPort)} to ${endpoint(destination, packet.destinationPort)}`,
      ]),
    );
  } else {
    const route = lookupRoute(view, destination);
    // No route: the ASA prints no phase at all, only the Result block.
    if (route === undefined) return { phases: [], drop: DROP.noRoute };
    egress = route.nameif;
    const nextHop = route.gateway ?? formatIp(destination);
    phases.push(
      phase(
        'ROUTE-LOOKUP',
        'Resolve Egress Interface',
        [],
        [`found next-hop ${nextHop} using egress ifc  ${egress}`],
      ),
    );
  }
  const decision = decideAccess(view, input, egress, flowOf(packet, destination));
  // The rule that decided counts one hit, as a real ASA's packet-tracer adds to `show access-list`.
  if (decision.kind === 'rule') countHit(view, decision.entry);
  const bound = decision.kind === 'rule' || decision.action === 'deny';
  // A packet the security levels let through meets no access list: the ASA prints no phase for it.
  if (bound) phases.push(accessPhase(decision));
  if (decision.action !== 'permit') return { phases, egress, drop: DROP.acl };

  const source = sourceTranslation(view, input, egress, packet.source);
  if (source !== undefined) {
    const kind = source.kind === 'static' ? 'Static' : 'Dynamic';
    const info = source.to
      ? [
          `${kind} translate ${endpoint(source.from, packet.sourcePort)} to ${endpoint(source.to, packet.sourcePort)}`,
        ]
      : [];
    phases.push(phase('NAT', '', natConfig(source.nat), info));
  }
  phases.push(phase('NAT', 'per-session'), phase('IP-OPTIONS'));
  // PAT to an interface without an address: the translation fails after the phases, no phase drops.
  if (source !== undefined && source.to === undefined) return { phases, egress, drop: DROP.natFailed };
  if (view.device.device.asaFailoverMode !== undefined && view.device.device.asaFailoverMode !== 'OFF')
    phases.push(phase('FOVER', 'standby-update'));
  if (divert !== undefined) phases.push(phase('NAT', 'rpf-check', natConfig(divert.nat)));
  // A source translated onto its own destination is a land attack to the ASA's slow-path checks.
  if (source?.to !== undefined && formatIp(source.to) === formatIp(destination))
    return { phases, egress, drop: DROP.security };
  phases.push(phase('NAT', 'per-session'), phase('IP-OPTIONS'));
  const flowId = 10_000 + stable(9_000_000, packet, 'flow');
  phases.push(
    phase('FLOW-CREATION', '', [], [`New flow created with id ${flowId}, packet dispatched to next module`]),
  );
  return { phases, egress };
}

/** Releases from 9.12 on print each phase's elapsed time, the total and the drop location. */
function printsTimes(view: AsaDeviceView): boolean {
  const [major = 0, minor = 0] = (view.device.device.softwareVersion ?? '').split('.').map(Number);
  return major > 9 || (major === 9 && minor >= 12);
}

function render(view: AsaDeviceView, packet: TracePacket, trace: Trace): string {
  const timed = printsTimes(view);
  const lines: string[] = [];
  let total = 0;
  for (const [i, p] of trace.phases.entries()) {
    const elapsed = 200 + stable(60_000, packet, 'phase', String(i), p.type);
    total += elapsed;
    lines.push(
      `Phase: ${i + 1}`,
      `Type: ${p.type}`,
      p.subtype === '' ? 'Subtype:' : `Subtype: ${p.subtype}`,
      `Result: ${p.result}`,
      ...(timed ? [`Elapsed time: ${elapsed} ns`] : []),
      'Config:',
      ...p.config,
      'Additional Information:',
      ...p.info,
      '',
    );
  }
  const byName = (nameif: string) => view.interfaces.find((i) => i.name === nameif);
  const inputStatus = statusOf(byName(packet.inputInterface));
  lines.push(
    'Result:',
    `input-interface: ${packet.inputInterface}`,
    `input-status: ${inputStatus.status}`,
    `input-line-status: ${inputStatus.line}`,
  );
  if (trace.egress !== undefined) {
    const outputStatus = statusOf(byName(trace.egress));
    lines.push(
      `output-interface: ${trace.egress}`,
      `output-status: ${outputStatus.status}`,
      `output-line-status: ${outputStatus.line}`,
    );
  }
  lines.push(`Action: ${trace.drop === undefined ? 'allow' : 'drop'}`);
  if (timed) lines.push(`Time Taken: ${total + 1_000 + stable(20_000, packet, 'total')} ns`);
  if (trace.drop !== undefined) {
    const frame = (0x5555_0000_0000 + stable(0xffff_ffff, packet, 'frame')).toString(16).padStart(16, '0');
    lines.push(`Drop-reason: ${trace.drop}${timed ? `, Drop-location: frame 0x${frame} flow (NA)/NA` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Evaluates the packet and answers with the ASA's phases and Result block. */
export function tracePacket(view: AsaDeviceView, packet: TracePacket): string {
  return render(view, packet, evaluate(view, packet));
}

/** The command-line runner for `packet-tracer` lines. */
export function runPacketTracer(tokens: Token[], view: AsaDeviceView): LineOutcome | undefined {
  const parsed = parsePacketTracer(tokens, interfaceNames(view));
  if (parsed === undefined) return undefined;
  if ('invalidAt' in parsed) return parsed;
  return { output: tracePacket(view, parsed) };
}
