// Access lists and access groups of the simulated ASA's policy: each `access-list NAME extended|remark …`
// line read into an entry (action, protocol, the address and port operands with the objects and groups they
// name expanded, ICMP type, `inactive`, `log`), numbered as the ASA numbers a list's lines (remarks count),
// and each `access-group NAME in|out interface IFC` or `global` binding. Changing a list is
// asaAccessListEdits.ts; what its rules hide of one another, asaRuleIssues.ts. Pure functions.
import { stableUid } from '../random.js';
import { ANY_NETWORKS, maskToPrefix, writtenNetworks } from './asaAddresses.js';
import { type Definitions, networksOf, servicesOf } from './asaObjects.js';
import type { AccessGroupBinding, AccessListEntry, AddressOperand, PortOperand } from './asaPolicyModel.js';
import { portMatch } from './asaPorts.js';

/** A line of the running configuration and its 1-based line number there. */
export interface ConfigLine {
  text: string;
  configLine: number;
}

/** The address operand at tokens[i] (`any`, `host A`, `A M`, `object X`, `object-group X`, `interface I`). */
function addressOperand(
  defs: Definitions,
  t: readonly string[],
  i: number,
): { operand: AddressOperand; used: number } | undefined {
  const word = t[i];
  const next = t[i + 1];
  if (word === 'any') return { operand: { written: 'any', networks: [...ANY_NETWORKS] }, used: 1 };
  if (word === 'any4') return { operand: { written: 'any4', networks: [ANY_NETWORKS[0]] }, used: 1 };
  if (word === 'any6') return { operand: { written: 'any6', networks: [ANY_NETWORKS[1]] }, used: 1 };
  if (next === undefined) return undefined;
  if (word === 'object' || word === 'object-group') {
    return {
      operand: { written: `${word} ${next}`, objectName: next, networks: networksOf(defs, next) },
      used: 2,
    };
  }
  if (word === 'interface') return { operand: { written: `interface ${next}`, networks: [] }, used: 2 };
  if (word === 'host')
    return { operand: { written: `host ${next}`, networks: writtenNetworks(t.slice(i)) }, used: 2 };
  if (word?.includes('/')) return { operand: { written: word, networks: writtenNetworks([word]) }, used: 1 };
  if (word !== undefined && maskToPrefix(next) !== undefined) {
    return { operand: { written: `${word} ${next}`, networks: writtenNetworks([word, next]) }, used: 2 };
  }
  return undefined;
}

/** A port operand at tokens[i], when there is one (`eq https`, `object-group WEB-PORTS` of ports). */
function portOperand(
  defs: Definitions,
  t: readonly string[],
  i: number,
): { operand: PortOperand; used: number } | undefined {
  const m = portMatch(t, i);
  if (m !== undefined)
    return { operand: { written: t.slice(i, i + m.used).join(' '), ports: m.ports }, used: m.used };
  const name = t[i + 1];
  if (t[i] === 'object-group' && name !== undefined && defs.groups.get(name)?.type === 'service') {
    return {
      operand: {
        written: `object-group ${name}`,
        objectName: name,
        ports: servicesOf(defs, name).ports ?? [],
      },
      used: 2,
    };
  }
  return undefined;
}

const ICMP_TYPES = new Set([
  'echo',
  'echo-reply',
  'unreachable',
  'time-exceeded',
  'redirect',
  'source-quench',
  'parameter-problem',
  'timestamp-request',
  'timestamp-reply',
]);

/** One `access-list NAME extended …` line, or undefined when it cannot be read. */
export function parseAce(
  defs: Definitions,
  text: string,
): Omit<AccessListEntry, 'uid' | 'acl' | 'line' | 'configLine' | 'text' | 'kind' | 'inactive'> & {
  inactive: boolean;
} {
  const t = text.trim().split(/\s+/);
  // access-list NAME extended ACTION …
  let i = 3;
  const action = t[i] === 'deny' ? 'deny' : 'permit';
  i += 1;
  let protocol = t[i] ?? 'ip';
  let destinationPorts: PortOperand | undefined;
  if (protocol === 'object' || protocol === 'object-group') {
    const name = t[i + 1] ?? '';
    const service = servicesOf(defs, name);
    const protocols = [...service.protocols];
    protocol =
      protocols.length === 1
        ? (protocols[0] ?? 'ip')
        : protocols.includes('tcp') && protocols.includes('udp')
          ? 'tcp-udp'
          : 'ip';
    if (service.ports !== undefined) {
      destinationPorts = { written: `${t[i]} ${name}`, objectName: name, ports: service.ports };
    }
    i += 2;
  } else i += 1;
  const ported = protocol === 'tcp' || protocol === 'udp' || protocol === 'tcp-udp';
  const source = addressOperand(defs, t, i);
  i += source?.used ?? 1;
  const sourcePorts = ported ? portOperand(defs, t, i) : undefined;
  i += sourcePorts?.used ?? 0;
  const destination = addressOperand(defs, t, i);
  i += destination?.used ?? 1;
  let icmpType: string | undefined;
  if (ported) {
    const ports = portOperand(defs, t, i);
    if (ports !== undefined) {
      destinationPorts = ports.operand;
      i += ports.used;
    }
  } else if ((protocol === 'icmp' || protocol === 'icmp6') && t[i] !== undefined) {
    const word = t[i] ?? '';
    if (ICMP_TYPES.has(word) || /^\d+$/.test(word)) {
      icmpType = word;
      i += 1;
    }
  }
  let inactive = false;
  let timeRange: string | undefined;
  let log: AccessListEntry['log'];
  for (; i < t.length; i += 1) {
    if (t[i] === 'inactive') inactive = true;
    else if (t[i] === 'time-range' && t[i + 1] !== undefined) {
      timeRange = t[i + 1];
      i += 1;
    } else if (t[i] === 'log') {
      log = {};
      const level = t[i + 1];
      if (
        level !== undefined &&
        /^(\d|emergencies|alerts|critical|errors|warnings|notifications|informational|debugging)$/.test(level)
      ) {
        log.level = level;
        i += 1;
      }
      if (t[i + 1] === 'interval' && t[i + 2] !== undefined) {
        log.interval = Number(t[i + 2]);
        i += 2;
      }
    }
  }
  return {
    action,
    protocol,
    ...(source === undefined ? {} : { source: source.operand }),
    ...(sourcePorts === undefined ? {} : { sourcePorts: sourcePorts.operand }),
    ...(destination === undefined ? {} : { destination: destination.operand }),
    ...(destinationPorts === undefined ? {} : { destinationPorts }),
    ...(icmpType === undefined ? {} : { icmpType }),
    inactive,
    ...(timeRange === undefined ? {} : { timeRange }),
    ...(log === undefined ? {} : { log }),
  };
}

/** The access lists of a configuration (its `access-list` lines, in order), by name. */
export function accessListsOf(
  deviceUid: string,
  defs: Definitions,
  aclLines: readonly ConfigLine[],
): Map<string, AccessListEntry[]> {
  const accessLists = new Map<string, AccessListEntry[]>();
  const seen = new Map<string, number>();
  for (const { text: line, configLine } of aclLines) {
    const t = line.split(/\s+/);
    const acl = t[1] ?? '';
    const entries = accessLists.get(acl) ?? [];
    accessLists.set(acl, entries);
    const occurrence = (seen.get(`${acl}\n${line}`) ?? 0) + 1;
    seen.set(`${acl}\n${line}`, occurrence);
    const base = {
      uid: stableUid(deviceUid, 'access-list', acl, line, String(occurrence)),
      acl,
      line: entries.length + 1,
      configLine,
      text: line,
    };
    if (t[2] === 'remark') {
      entries.push({ ...base, kind: 'remark', inactive: false, remark: line.split(/\s+remark\s+/)[1] ?? '' });
    } else if (t[2] === 'extended') {
      entries.push({ ...base, kind: 'rule', ...parseAce(defs, line) });
    }
  }
  return accessLists;
}

/** The `access-group` bindings of a configuration, in order. */
export function accessGroupsOf(deviceUid: string, groupLines: readonly ConfigLine[]): AccessGroupBinding[] {
  return groupLines.flatMap(({ text: line, configLine }) => {
    const t = line.split(/\s+/);
    const acl = t[1] ?? '';
    const direction = t[2] === 'out' ? 'out' : t[2] === 'global' ? 'global' : 'in';
    const binding: AccessGroupBinding = {
      uid: stableUid(deviceUid, 'access-group', acl),
      acl,
      direction,
      text: line,
      configLine,
    };
    if (direction !== 'global' && t[4] !== undefined) binding.interface = t[4];
    return [binding];
  });
}
