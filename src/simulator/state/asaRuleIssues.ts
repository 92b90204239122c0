// The ASA-like analysis of an access list that SCC reports on each access rule: a rule an earlier active
// rule matches all the traffic of is SHADOWED (never hit), with what makes the earlier one wider; one that
// matches exactly the same traffic with the same action is a DUPLICATE. Over the parsed entries
// (asaAccessLists.ts); answered by api/policies.ts. Pure functions.
import { cidrCovers } from './asaAddresses.js';
import type { AccessListEntry, Cidr, PortRange } from './asaPolicyModel.js';

export type CauseType =
  | 'SHADOWED_BY_NETWORK_ADDRESS'
  | 'SHADOWED_BY_PORT'
  | 'SHADOWED_BY_ICMP'
  | 'SHADOWED_BY_ACTION';

export interface RuleIssue {
  issueType: 'SHADOWED' | 'DUPLICATE';
  causes: { causeTypes: CauseType[]; causingRule: string; causingRuleIdx: number }[];
}

const ALL_PORTS: PortRange[] = [{ low: 0, high: 65535 }];

const netsCover = (outer: readonly Cidr[], inner: readonly Cidr[]) =>
  inner.every((i) => outer.some((o) => cidrCovers(o, i)));
const portsCover = (outer: readonly PortRange[], inner: readonly PortRange[]) =>
  inner.every((i) => outer.some((o) => o.low <= i.low && o.high >= i.high));
const protocolsOf = (p: string | undefined): string[] =>
  p === undefined || p === 'ip' ? ['ip'] : p === 'tcp-udp' ? ['tcp', 'udp'] : [p];

interface Traffic {
  protocols: string[];
  source: Cidr[];
  destination: Cidr[];
  sourcePorts: PortRange[];
  destinationPorts: PortRange[];
  icmpType: string | undefined;
}

function trafficOf(e: AccessListEntry): Traffic {
  const protocols = protocolsOf(e.protocol);
  return {
    protocols,
    source: e.source?.networks ?? [],
    destination: e.destination?.networks ?? [],
    sourcePorts: e.sourcePorts?.ports ?? ALL_PORTS,
    destinationPorts: e.destinationPorts?.ports ?? ALL_PORTS,
    icmpType: e.icmpType,
  };
}

/** How `a` compares with `b` on each dimension: whether it covers it, and whether it is the same. */
function compareTraffic(a: Traffic, b: Traffic) {
  const protocolCovers = a.protocols.includes('ip') || b.protocols.every((p) => a.protocols.includes(p));
  const protocolSame =
    protocolCovers && (b.protocols.includes('ip') || a.protocols.every((p) => b.protocols.includes(p)));
  // Ports only mean something when both sides name tcp/udp; `ip` matches every port.
  const portsApply = !a.protocols.includes('ip');
  const network = {
    covers: netsCover(a.source, b.source) && netsCover(a.destination, b.destination),
    same:
      netsCover(a.source, b.source) &&
      netsCover(b.source, a.source) &&
      netsCover(a.destination, b.destination) &&
      netsCover(b.destination, a.destination),
  };
  const port = {
    covers:
      !portsApply ||
      (portsCover(a.sourcePorts, b.sourcePorts) && portsCover(a.destinationPorts, b.destinationPorts)),
    same:
      portsCover(a.sourcePorts, b.sourcePorts) &&
      portsCover(b.sourcePorts, a.sourcePorts) &&
      portsCover(a.destinationPorts, b.destinationPorts) &&
      portsCover(b.destinationPorts, a.destinationPorts),
  };
  const icmp = {
    covers: a.icmpType === undefined || a.icmpType === b.icmpType,
    same: a.icmpType === b.icmpType,
  };
  return { protocolCovers, protocolSame, network, port, icmp };
}

/**
 * The issues of each rule of one access list, by entry UID: a rule an earlier active rule matches all the
 * traffic of is SHADOWED (never hit), with what makes the earlier one wider (network, port, ICMP type) and
 * SHADOWED_BY_ACTION when it does the opposite; one matching exactly the same traffic with the same action
 * is a DUPLICATE. Inactive rules neither shadow nor are shadowed.
 */
export function analyseAccessList(entries: readonly AccessListEntry[]): Map<string, RuleIssue> {
  const out = new Map<string, RuleIssue>();
  // An `interface X` operand (the interface's own address) is not expanded: such lines are left out.
  const rules = entries.filter(
    (e) =>
      e.kind === 'rule' &&
      !e.inactive &&
      e.source?.written.startsWith('interface ') !== true &&
      e.destination?.written.startsWith('interface ') !== true,
  );
  for (const [j, rule] of rules.entries()) {
    const b = trafficOf(rule);
    let issue: RuleIssue | undefined;
    for (const earlier of rules.slice(0, j)) {
      const c = compareTraffic(trafficOf(earlier), b);
      if (!(c.protocolCovers && c.network.covers && c.port.covers && c.icmp.covers)) continue;
      const same = c.protocolSame && c.network.same && c.port.same && c.icmp.same;
      const sameAction = earlier.action === rule.action;
      const cause = { causingRule: earlier.text, causingRuleIdx: earlier.line };
      if (same && sameAction) {
        issue ??= { issueType: 'DUPLICATE', causes: [] };
        issue.causes.push({ ...cause, causeTypes: [] });
        continue;
      }
      const causeTypes: CauseType[] = [];
      if (!c.network.same) causeTypes.push('SHADOWED_BY_NETWORK_ADDRESS');
      if (!c.port.same || !c.protocolSame) causeTypes.push('SHADOWED_BY_PORT');
      if (!c.icmp.same) causeTypes.push('SHADOWED_BY_ICMP');
      if (!sameAction) causeTypes.push('SHADOWED_BY_ACTION');
      issue ??= { issueType: 'SHADOWED', causes: [] };
      issue.causes.push({ ...cause, causeTypes });
    }
    if (issue !== undefined) out.set(rule.uid, issue);
  }
  return out;
}
