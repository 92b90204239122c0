// `packet-tracer` on the simulated ASA: evaluates a packet against the device's access policy and prints
// the ASA's own phase format. ROUTE-LOOKUP (connected networks, then static routes, longest prefix),
// UN-NAT (a static NAT's mapped address back to the real one, so access lists match real addresses as on
// ASA 8.3+), ACCESS-LIST (first match over the list applied `in` on the input interface, then the global
// one, then the implicit deny; with no list at all, the security levels decide), NAT (source static NAT
// toward the egress), and the Result block. The verdict is computed, never canned. Pure functions.
import { cidrContains, connectedNetworks, formatIp, type Ip, parseIp, translate } from './asaAddresses.js';
import type { AsaDeviceView, LineOutcome, Token } from './asaCommandLine.js';
import type { AccessListEntry, AsaPolicy, Cidr, PortRange, StaticNat } from './asaPolicyModel.js';
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

/** ICMP type names the ASA accepts in place of numbers. */
export const ICMP_TYPE_NAMES: Readonly<Record<string, number>> = {
  'echo-reply': 0,
  unreachable: 3,
  'source-quench': 4,
  redirect: 5,
  echo: 8,
  'router-advertisement': 9,
  'router-solicitation': 10,
  'time-exceeded': 11,
  'parameter-problem': 12,
  'timestamp-request': 13,
  'timestamp-reply': 14,
  'mask-request': 17,
  'mask-reply': 18,
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

// --- routing ----------------------------------------------------------------------------------------

/** The route a destination takes: a connected network or a static route. */
export interface RouteChoice {
  kind: 'connected' | 'static';
  nameif: string;
  network: Cidr;
  /** The gateway of a static route; a connected route's next hop is the destination itself. */
  gateway?: string;
  distance: number;
  metric: number;
}

/** Longest prefix wins; on a tie the lower administrative distance (connected 0, static 1), then metric. */
export function lookupRoute(view: AsaDeviceView, destination: Ip): RouteChoice | undefined {
  const candidates: RouteChoice[] = [
    ...connectedNetworks(view.interfaces).map(
      (c): RouteChoice => ({
        kind: 'connected',
        nameif: c.nameif,
        network: c.network,
        distance: 0,
        metric: 0,
      }),
    ),
    ...view.policy.routes.map(
      (r): RouteChoice => ({
        kind: 'static',
        nameif: r.interface,
        network: r.network,
        gateway: r.gateway,
        distance: 1,
        metric: r.metric,
      }),
    ),
  ].filter((c) => cidrContains(c.network, destination));
  candidates.sort(
    (a, b) => b.network.prefix - a.network.prefix || a.distance - b.distance || a.metric - b.metric,
  );
  return candidates[0];
}

// --- NAT --------------------------------------------------------------------------------------------

interface NatMatch {
  nat: StaticNat;
  from: Ip;
  to: Ip;
}

const natApplies = (ifc: string, wanted: string) => ifc === wanted || ifc === 'any';

/** A static NAT whose mapped address is `destination`, for traffic entering on its mapped interface. */
function untranslation(policy: AsaPolicy, input: string, destination: Ip): NatMatch | undefined {
  for (const nat of policy.nats) {
    if (!natApplies(nat.mappedInterface, input)) continue;
    for (const [i, mapped] of nat.mapped.entries()) {
      const real = nat.real[i] ?? nat.real[0];
      if (real === undefined || !cidrContains(mapped, destination)) continue;
      const to = translate(destination, mapped, real);
      if (to !== undefined) return { nat, from: destination, to };
    }
  }
  return undefined;
}

/** A static NAT of the source's object from the input interface toward the egress. */
function sourceTranslation(
  policy: AsaPolicy,
  input: string,
  egress: string,
  source: Ip,
): NatMatch | undefined {
  for (const nat of policy.nats) {
    if (!natApplies(nat.realInterface, input) || !natApplies(nat.mappedInterface, egress)) continue;
    for (const [i, real] of nat.real.entries()) {
      const mapped = nat.mapped[i] ?? nat.mapped[0];
      if (mapped === undefined || !cidrContains(real, source)) continue;
      const to = translate(source, real, mapped);
      if (to !== undefined) return { nat, from: source, to };
    }
  }
  return undefined;
}

const natConfig = (nat: StaticNat) => [`object network ${nat.objectName}`, ` ${nat.text.trim()}`];

// --- access lists -----------------------------------------------------------------------------------

/** The packet as the access lists see it: after UN-NAT, so with the real destination. */
export interface Flow {
  protocol: 'tcp' | 'udp' | 'icmp' | 'icmp6';
  source: Ip;
  destination: Ip;
  sourcePort?: number;
  destinationPort?: number;
  icmpType?: number;
}

const PROTOCOL_NUMBERS: Readonly<Record<string, string>> = {
  '1': 'icmp',
  '6': 'tcp',
  '17': 'udp',
  '58': 'icmp6',
};

function protocolMatches(written: string, flow: Flow): boolean {
  const p = PROTOCOL_NUMBERS[written] ?? written;
  if (p === 'ip') return true;
  if (p === 'tcp-udp') return flow.protocol === 'tcp' || flow.protocol === 'udp';
  return p === flow.protocol;
}

const inRanges = (value: number | undefined, ranges: readonly PortRange[] | undefined): boolean =>
  ranges === undefined ||
  ranges.length === 0 ||
  (value !== undefined && ranges.some((r) => value >= r.low && value <= r.high));

const addressMatches = (networks: readonly Cidr[] | undefined, ip: Ip) =>
  networks === undefined || networks.some((n) => cidrContains(n, ip));

/**
 * The protocol and destination ports an entry's protocol field gives: a protocol keyword, or a service
 * object / object-group (`object HTTPS`, `object-group WEB-PORTS`) whose protocol and ports apply.
 */
function serviceOf(
  policy: AsaPolicy,
  written: string,
): { protocol: string; ports?: readonly PortRange[] } | undefined {
  const name = written.replace(/^(object|object-group)\s+/, '');
  const object = policy.objects.find((o) => o.type === 'service' && o.name === name);
  if (object !== undefined)
    return { protocol: object.protocol ?? 'ip', ...(object.ports ? { ports: object.ports } : {}) };
  const group = policy.objectGroups.find((g) => g.type === 'service' && g.name === name);
  if (group !== undefined)
    return { protocol: group.protocol ?? 'tcp-udp', ...(group.ports ? { ports: group.ports } : {}) };
  return undefined;
}

const KNOWN_PROTOCOLS = new Set([
  'ip',
  'tcp',
  'udp',
  'icmp',
  'icmp6',
  'tcp-udp',
  ...Object.keys(PROTOCOL_NUMBERS),
]);

function icmpTypeMatches(written: string | undefined, type: number | undefined): boolean {
  if (written === undefined) return true;
  const wanted = ICMP_TYPE_NAMES[written] ?? (/^\d+$/.test(written) ? Number(written) : undefined);
  return wanted === undefined || wanted === type;
}

/** Whether an active rule of an access list matches the flow (remarks and inactive lines never do). */
export function entryMatches(policy: AsaPolicy, entry: AccessListEntry, flow: Flow): boolean {
  if (entry.kind !== 'rule' || entry.inactive) return false;
  const written = (entry.protocol ?? 'ip').toLowerCase();
  let servicePorts: readonly PortRange[] | undefined;
  if (KNOWN_PROTOCOLS.has(written)) {
    if (!protocolMatches(written, flow)) return false;
  } else {
    const service = serviceOf(policy, entry.protocol ?? '');
    if (service === undefined || !protocolMatches(service.protocol.toLowerCase(), flow)) return false;
    servicePorts = service.ports;
  }
  if (!addressMatches(entry.source?.networks, flow.source)) return false;
  if (!addressMatches(entry.destination?.networks, flow.destination)) return false;
  if (flow.protocol === 'icmp' || flow.protocol === 'icmp6')
    return icmpTypeMatches(entry.icmpType, flow.icmpType);
  if (written === 'ip') return true;
  return (
    inRanges(flow.sourcePort, entry.sourcePorts?.ports) &&
    inRanges(flow.destinationPort, entry.destinationPorts?.ports) &&
    inRanges(flow.destinationPort, servicePorts)
  );
}

/** How the ACCESS-LIST phase decided. */
export type AclDecision =
  | { kind: 'rule'; action: 'permit' | 'deny'; group: string; entry: AccessListEntry }
  | { kind: 'implicit'; action: 'permit' | 'deny' };

function firstMatch(policy: AsaPolicy, acl: string, flow: Flow): AccessListEntry | undefined {
  return (policy.accessLists.get(acl) ?? []).find((entry) => entryMatches(policy, entry, flow));
}

const securityLevel = (view: AsaDeviceView, nameif: string) =>
  view.interfaces.find((i) => i.name === nameif)?.securityLevel ?? 0;

/**
 * The list applied `in` on the input interface, then the global list; the implicit deny after the last
 * list that applies. With no list applied at all, traffic may go from a higher to a lower security level.
 */
export function decideAccess(view: AsaDeviceView, input: string, egress: string, flow: Flow): AclDecision {
  const { policy } = view;
  const bindings = [
    ...policy.accessGroups.filter((g) => g.direction === 'in' && g.interface === input),
    ...policy.accessGroups.filter((g) => g.direction === 'global'),
  ];
  for (const binding of bindings) {
    const entry = firstMatch(policy, binding.acl, flow);
    if (entry !== undefined)
      return { kind: 'rule', action: entry.action ?? 'deny', group: binding.text.trim(), entry };
  }
  if (bindings.length > 0) return { kind: 'implicit', action: 'deny' };
  return {
    kind: 'implicit',
    action: securityLevel(view, input) > securityLevel(view, egress) ? 'permit' : 'deny',
  };
}

// --- the trace --------------------------------------------------------------------------------------

interface Phase {
  type: string;
  subtype: string;
  result: 'ALLOW' | 'DROP';
  config: string[];
  info: string[];
}

const endpoint = (ip: Ip, port: number | undefined) => `${formatIp(ip)}/${port ?? 0}`;

function statusOf(record: InterfaceRecord | undefined): { status: string; line: string } {
  const enabled = record?.enabled !== false;
  const linkUp = record?.runtimeData?.linkState !== 'DOWN';
  return { status: enabled ? 'up' : 'down', line: enabled && linkUp ? 'up' : 'down' };
}

/** The interface names a `packet-tracer input` accepts: the device's named interfaces. */
export const interfaceNames = (view: AsaDeviceView): string[] =>
  view.interfaces.flatMap((i) => (typeof i.name === 'string' && i.name !== '' ? [i.name] : []));

/** Evaluates the packet and answers with the ASA's phases and Result block. */
export function tracePacket(view: AsaDeviceView, packet: TracePacket): string {
  const { policy } = view;
  const input = packet.inputInterface;
  const phases: Phase[] = [];
  const divert = untranslation(policy, input, packet.destination);
  const destination = divert?.to ?? packet.destination;
  const route = lookupRoute(view, destination);
  const egress = divert?.nat.realInterface ?? route?.nameif;
  const nextHop =
    route !== undefined && route.nameif === egress && route.gateway !== undefined
      ? route.gateway
      : formatIp(destination);

  let drop: string | undefined;
  if (egress === undefined) {
    phases.push({
      type: 'ROUTE-LOOKUP',
      subtype: 'Resolve Egress Interface',
      result: 'DROP',
      config: [],
      info: [],
    });
    drop = '(no-route) No route to host';
  } else {
    phases.push({
      type: 'ROUTE-LOOKUP',
      subtype: 'Resolve Egress Interface',
      result: 'ALLOW',
      config: [],
      info: [`Found next-hop ${nextHop} using egress ifc  ${egress}`],
    });
    if (divert !== undefined) {
      phases.push({
        type: 'UN-NAT',
        subtype: 'static',
        result: 'ALLOW',
        config: natConfig(divert.nat),
        info: [
          `NAT divert to egress interface ${egress}`,
          `Untranslate ${endpoint(divert.from, packet.destinationPort)} to ${endpoint(divert.to, packet.destinationPort)}`,
        ],
      });
    }
    const flow: Flow = {
      protocol: packet.protocol === 'icmp' && packet.source.family === 6 ? 'icmp6' : packet.protocol,
      source: packet.source,
      destination,
      ...(packet.sourcePort === undefined ? {} : { sourcePort: packet.sourcePort }),
      ...(packet.destinationPort === undefined ? {} : { destinationPort: packet.destinationPort }),
      ...(packet.icmpType === undefined ? {} : { icmpType: packet.icmpType }),
    };
    const decision = decideAccess(view, input, egress, flow);
    const allowed = decision.action === 'permit';
    phases.push({
      type: 'ACCESS-LIST',
      subtype: decision.kind === 'rule' ? 'log' : '',
      result: allowed ? 'ALLOW' : 'DROP',
      config: decision.kind === 'rule' ? [decision.group, decision.entry.text.trim()] : ['Implicit Rule'],
      info: [],
    });
    if (!allowed) {
      drop = '(acl-drop) Flow is denied by configured rule';
    } else {
      const source = sourceTranslation(policy, input, egress, packet.source);
      if (source !== undefined) {
        phases.push({
          type: 'NAT',
          subtype: 'static',
          result: 'ALLOW',
          config: natConfig(source.nat),
          info: [
            `Translate ${endpoint(source.from, packet.sourcePort)} to ${endpoint(source.to, packet.sourcePort)}`,
          ],
        });
      }
      phases.push({ type: 'NAT', subtype: 'per-session', result: 'ALLOW', config: [], info: [] });
    }
  }
  return render(view, phases, input, egress, drop);
}

function render(
  view: AsaDeviceView,
  phases: readonly Phase[],
  input: string,
  egress: string | undefined,
  drop: string | undefined,
): string {
  const lines: string[] = [];
  for (const [i, phase] of phases.entries()) {
    lines.push(
      `Phase: ${i + 1}`,
      `Type: ${phase.type}`,
      phase.subtype === '' ? 'Subtype:' : `Subtype: ${phase.subtype}`,
      `Result: ${phase.result}`,
      'Config:',
      ...phase.config,
      'Additional Information:',
      ...phase.info,
      '',
    );
  }
  const byName = (nameif: string) => view.interfaces.find((i) => i.name === nameif);
  const inputStatus = statusOf(byName(input));
  lines.push(
    'Result:',
    `input-interface: ${input}`,
    `input-status: ${inputStatus.status}`,
    `input-line-status: ${inputStatus.line}`,
  );
  if (egress !== undefined) {
    const outputStatus = statusOf(byName(egress));
    lines.push(
      `output-interface: ${egress}`,
      `output-status: ${outputStatus.status}`,
      `output-line-status: ${outputStatus.line}`,
    );
  }
  lines.push(`Action: ${drop === undefined ? 'allow' : 'drop'}`);
  if (drop !== undefined) lines.push(`Drop-reason: ${drop}`);
  return `${lines.join('\n')}\n`;
}

/** The command-line runner for `packet-tracer` lines. */
export function runPacketTracer(tokens: Token[], view: AsaDeviceView): LineOutcome | undefined {
  const parsed = parsePacketTracer(tokens, interfaceNames(view));
  if (parsed === undefined) return undefined;
  if ('invalidAt' in parsed) return parsed;
  return { output: tracePacket(view, parsed) };
}
