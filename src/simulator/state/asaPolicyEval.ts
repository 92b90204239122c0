// How the simulated ASA decides a packet's fate from its configuration: the route it takes (connected
// networks, then static routes, longest prefix) and what its access lists say (first match over the list
// applied `in` on the input interface, then the global one, then the implicit deny; with no list at all,
// the security levels decide). The packet tracer (asaPacketTracer.ts) prints it; `show conn`
// (asaShow.ts) derives its connections from it, so they never contradict a trace. Pure functions.
import { cidrContains, connectedNetworks, type Ip } from './asaAddresses.js';
import type { AsaDeviceView } from './asaCommandLine.js';
import type { AccessListEntry, AsaPolicy, Cidr, PortRange } from './asaPolicyModel.js';
import { timeRangeActive } from './asaTimeRanges.js';

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

/**
 * Whether an active rule of an access list matches the flow (remarks and inactive lines never do). At `at`
 * (the device's clock), a line naming a time-range matches only while the range is active.
 */
export function entryMatches(policy: AsaPolicy, entry: AccessListEntry, flow: Flow, at?: number): boolean {
  if (entry.kind !== 'rule' || entry.inactive) return false;
  if (entry.timeRange !== undefined && at !== undefined) {
    const range = policy.timeRanges?.find((r) => r.name === entry.timeRange);
    if (range === undefined || !timeRangeActive(range, at)) return false;
  }
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

function firstMatch(policy: AsaPolicy, acl: string, flow: Flow, at: number): AccessListEntry | undefined {
  return (policy.accessLists.get(acl) ?? []).find((entry) => entryMatches(policy, entry, flow, at));
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
    const entry = firstMatch(policy, binding.acl, flow, view.now);
    if (entry !== undefined)
      return { kind: 'rule', action: entry.action ?? 'deny', group: binding.text.trim(), entry };
  }
  if (bindings.length > 0) return { kind: 'implicit', action: 'deny' };
  return {
    kind: 'implicit',
    action: securityLevel(view, input) > securityLevel(view, egress) ? 'permit' : 'deny',
  };
}
