// Objects and object-groups of the simulated ASA's policy: their blocks read from the running configuration
// (`object network|service NAME`, `object-group network|service NAME [PROTOCOL]` and their indented
// bodies), what each matches (hosts, subnets, ranges, services, nested groups expanded; a cycle stops), and
// the definitions an access-list line or a NAT line is read against. Object NAT lines sit in an object's
// block but are NAT's (asaNat.ts): the parse hands them back. Pure functions.
import { stableUid } from '../random.js';
import { rangeNetworks, writtenNetworks } from './asaAddresses.js';
import type { AsaPolicy, Cidr, PolicyObject, PolicyObjectGroup, PortRange } from './asaPolicyModel.js';
import { portMatch } from './asaPorts.js';

/** The objects and object-groups of one configuration, by name: what operands are read against. */
export interface Definitions {
  objects: Map<string, PolicyObject>;
  groups: Map<string, PolicyObjectGroup>;
}

export const emptyDefinitions = (): Definitions => ({ objects: new Map(), groups: new Map() });

/** The definitions of a parsed policy (a line about to be added is read against them). */
export function definitionsOf(policy: AsaPolicy): Definitions {
  return {
    objects: new Map(policy.objects.map((o) => [o.name, o])),
    groups: new Map(policy.objectGroups.map((g) => [g.name, g])),
  };
}

/** The head of a definition block: `object network WEB-01`, `object-group service WEB-PORTS tcp`. */
export interface DefinitionHead {
  kind: 'object' | 'object-group';
  type: 'network' | 'service';
  name: string;
  protocol: string | undefined;
}

export function definitionHead(line: string): DefinitionHead | undefined {
  const head = /^(object|object-group) (network|service) (\S+)(?: (\S+))?$/.exec(line);
  if (head === null) return undefined;
  const [, kind = '', type = '', name = '', protocol] = head;
  return {
    kind: kind as DefinitionHead['kind'],
    type: type as DefinitionHead['type'],
    name,
    protocol,
  };
}

/**
 * Adds one block (its head and trimmed body lines, the head at `configLine`) to the definitions; a later
 * block for the same object adds to it, as on an ASA. Answers the object's NAT lines, which are not its body.
 */
export function addDefinition(
  defs: Definitions,
  deviceUid: string,
  head: DefinitionHead,
  body: readonly string[],
  configLine: number,
): string[] {
  const { kind, type, name, protocol } = head;
  if (kind === 'object-group') {
    defs.groups.set(name, {
      uid: stableUid(deviceUid, 'object-group', name),
      name,
      type,
      body: [...body],
      references: [],
      ...(protocol === undefined ? {} : { protocol }),
      configLine,
    });
    return [];
  }
  const object: PolicyObject = defs.objects.get(name) ?? {
    uid: stableUid(deviceUid, 'object', name),
    name,
    type,
    body: [],
    configLine,
  };
  const nat: string[] = [];
  for (const b of body) {
    if (b.startsWith('nat ')) nat.push(b);
    else object.body.push(b);
  }
  defs.objects.set(name, object);
  return nat;
}

/** Fills in what each object, then each group, matches (a group's expansion needs every definition). */
export function completeDefinitions(defs: Definitions): void {
  for (const object of defs.objects.values()) {
    for (const b of object.body) {
      const t = b.split(/\s+/);
      if (t[0] === 'description') object.description = b.slice('description '.length);
      else if (object.type === 'network') {
        if (t[0] === 'host' || t[0] === 'subnet') {
          object.networks = [
            ...(object.networks ?? []),
            ...writtenNetworks(t[0] === 'host' ? t : t.slice(1)),
          ];
        } else if (t[0] === 'range' && t[1] !== undefined && t[2] !== undefined) {
          object.networks = [...(object.networks ?? []), ...rangeNetworks(t[1], t[2])];
        }
      } else if (t[0] === 'service') {
        const s = serviceBody(b);
        object.protocol = s.protocol;
        if (s.ports !== undefined) object.ports = s.ports;
      }
    }
  }
  for (const group of defs.groups.values()) {
    for (const b of group.body) {
      const t = b.split(/\s+/);
      if (t[0] === 'description') group.description = b.slice('description '.length);
      else if ((t[1] === 'object' && t[2] !== undefined) || (t[0] === 'group-object' && t[1] !== undefined)) {
        group.references.push((t[0] === 'group-object' ? t[1] : t[2]) ?? '');
      }
    }
    if (group.type === 'network') group.networks = networksOf(defs, group.name);
    else {
      const s = servicesOf(defs, group.name);
      if (group.protocol === undefined && s.protocols.size === 1)
        group.protocol = [...s.protocols][0] ?? 'ip';
      if (s.ports !== undefined) group.ports = s.ports;
    }
  }
}

/** What a network object or group (by name) matches, nested groups expanded; cycles stop. */
export function networksOf(defs: Definitions, name: string, seen = new Set<string>()): Cidr[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const object = defs.objects.get(name);
  if (object !== undefined) return object.networks ?? [];
  const group = defs.groups.get(name);
  if (group === undefined || group.type !== 'network') return [];
  const out: Cidr[] = [];
  for (const line of group.body) {
    const t = line.trim().split(/\s+/);
    if (t[0] === 'network-object') {
      if (t[1] === 'object' && t[2] !== undefined) out.push(...networksOf(defs, t[2], seen));
      else out.push(...writtenNetworks(t.slice(1)));
    } else if (t[0] === 'group-object' && t[1] !== undefined) out.push(...networksOf(defs, t[1], seen));
  }
  return out;
}

/** What a service object or group (by name) matches: its protocol and destination ports. */
export function servicesOf(
  defs: Definitions,
  name: string,
  seen = new Set<string>(),
): { protocols: Set<string>; ports: PortRange[] | undefined } {
  const out = { protocols: new Set<string>(), ports: [] as PortRange[] | undefined };
  if (seen.has(name)) return out;
  seen.add(name);
  const object = defs.objects.get(name);
  if (object?.type === 'service') {
    out.protocols.add(object.protocol ?? 'ip');
    out.ports = object.ports;
    return out;
  }
  const group = defs.groups.get(name);
  if (group === undefined || group.type !== 'service') return out;
  let anyPort = false;
  const ports: PortRange[] = [];
  if (group.protocol !== undefined) {
    for (const p of group.protocol === 'tcp-udp' ? ['tcp', 'udp'] : [group.protocol]) out.protocols.add(p);
  }
  for (const line of group.body) {
    const t = line.trim().split(/\s+/);
    if (t[0] === 'port-object') ports.push(...(portMatch(t, 1)?.ports ?? []));
    else if (t[0] === 'service-object' && t[1] === 'object' && t[2] !== undefined) {
      const inner = servicesOf(defs, t[2], seen);
      for (const p of inner.protocols) out.protocols.add(p);
      if (inner.ports === undefined) anyPort = true;
      else ports.push(...inner.ports);
    } else if (t[0] === 'service-object' && t[1] !== undefined) {
      out.protocols.add(t[1]);
      const at = t.indexOf('destination');
      const m = at === -1 ? undefined : portMatch(t, at + 1);
      if (m === undefined) anyPort = true;
      else ports.push(...m.ports);
    } else if (t[0] === 'group-object' && t[1] !== undefined) {
      const inner = servicesOf(defs, t[1], seen);
      for (const p of inner.protocols) out.protocols.add(p);
      if (inner.ports === undefined) anyPort = true;
      else ports.push(...inner.ports);
    }
  }
  out.ports = anyPort ? undefined : ports;
  return out;
}

/** `service tcp [source …] [destination eq 443]` of a service object. */
function serviceBody(line: string): { protocol: string; ports: PortRange[] | undefined } {
  const t = line.trim().split(/\s+/);
  const at = t.indexOf('destination');
  const m = at === -1 ? undefined : portMatch(t, at + 1);
  return { protocol: t[1] ?? 'ip', ports: m?.ports };
}
