// The access policy of each simulated ASA: the policy lines the world keeps per device
// (`SimState.asaPolicies`: objects, object-groups, access lists, access-group bindings, routes, object NAT),
// where they go in the running configuration, and the parse of that running configuration into the
// `AsaPolicy` model (asaPolicyModel.ts) every API answer and command-line evaluator reads. The parse reads
// the rendered text itself, so a rule's `configLine` is its line in what getAsaConfiguration answers.
// Also owns the ASA-like shadow / duplicate analysis of an access list. UIDs are hashes of the device UID,
// the kind and the name or line text, never drawn from the world's RNG (other UIDs are golden).
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { configOnDevice } from './asaConfig.js';
// Where the lines are kept and placed (asaPolicyLines.ts, which the configuration renderer also reads).
import { policyLinesOf } from './asaPolicyLines.js';
import type {
  AccessGroupBinding,
  AccessListEntry,
  AddressOperand,
  AsaPolicy,
  Cidr,
  DynamicNat,
  PolicyObject,
  PolicyObjectGroup,
  PortOperand,
  PortRange,
  StaticNat,
  StaticRoute,
} from './asaPolicyModel.js';
import type { DeviceRecord, SimState } from './model.js';

export { type PolicySections, policyLinesOf, policySections, setPolicyLines } from './asaPolicyLines.js';

// --- stable UIDs -------------------------------------------------------------------------------------

/** A UUID-shaped UID derived from its parts (name-based, like a v5 UUID), the same on every run. */
export function stableUid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// --- addresses and ports -----------------------------------------------------------------------------

/** A network as SCC lists it in a rule's or an object's elements: a host alone, `any4`/`any6`, else CIDR. */
export const cidrText = (c: Cidr): string =>
  (c.family === 4 && c.prefix === 32) || (c.family === 6 && c.prefix === 128)
    ? c.address
    : c.prefix === 0
      ? c.family === 4
        ? 'any4'
        : 'any6'
      : `${c.address}/${c.prefix}`;

const BITS = { 4: 32, 6: 128 } as const;

function ipValue(text: string): { family: 4 | 6; value: bigint } | undefined {
  const family = isIP(text);
  if (family === 4) {
    return { family: 4, value: text.split('.').reduce((a, o) => (a << 8n) | BigInt(Number(o)), 0n) };
  }
  if (family !== 6) return undefined;
  const [head = '', tail] = text.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return {
    family: 6,
    value: [...left, ...fill, ...right].reduce((a, h) => (a << 16n) | BigInt(`0x${h}`), 0n),
  };
}

const maskOf = (family: 4 | 6, prefix: number): bigint => {
  const bits = BigInt(BITS[family]);
  return ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(prefix))) - 1n);
};

function maskPrefix(mask: string): number | undefined {
  const v = ipValue(mask);
  if (v?.family !== 4) return undefined;
  const bits = v.value.toString(2).padStart(32, '0');
  return /^1*0*$/.test(bits) ? (bits.indexOf('0') === -1 ? 32 : bits.indexOf('0')) : undefined;
}

function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
}

/** `address/prefix` as a network (host bits cleared for IPv4). */
function cidr(address: string, prefix: number): Cidr | undefined {
  const v = ipValue(address);
  if (v === undefined) return undefined;
  if (v.family === 4) return { address: formatV4(v.value & maskOf(4, prefix)), prefix, family: 4 };
  return { address: address.toLowerCase(), prefix, family: 6 };
}

const ANY: Cidr[] = [
  { address: '0.0.0.0', prefix: 0, family: 4 },
  { address: '::', prefix: 0, family: 6 },
];

/** Whether network `outer` holds all of network `inner`. */
export function cidrCovers(outer: Cidr, inner: Cidr): boolean {
  if (outer.family !== inner.family || outer.prefix > inner.prefix) return false;
  const a = ipValue(outer.address);
  const b = ipValue(inner.address);
  if (a === undefined || b === undefined) return false;
  const mask = maskOf(outer.family, outer.prefix);
  return (a.value & mask) === (b.value & mask);
}

/** Whether `address` (text) is in `network`. */
export function cidrHolds(network: Cidr, address: string): boolean {
  const v = ipValue(address);
  if (v === undefined) return false;
  return cidrCovers(network, { address, prefix: BITS[v.family], family: v.family });
}

/** ASA port names (`eq https`) and their numbers. */
export const PORT_NAMES: Readonly<Record<string, number>> = {
  echo: 7,
  ftp: 21,
  ssh: 22,
  telnet: 23,
  smtp: 25,
  domain: 53,
  bootps: 67,
  bootpc: 68,
  tftp: 69,
  www: 80,
  http: 80,
  pop3: 110,
  ntp: 123,
  imap4: 143,
  snmp: 161,
  ldap: 389,
  https: 443,
  isakmp: 500,
  syslog: 514,
  ldaps: 636,
  sqlnet: 1521,
  h323: 1720,
  sip: 5060,
};

function portNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  return PORT_NAMES[text.toLowerCase()];
}

/** `eq X`, `lt X`, `gt X`, `neq X`, `range A B` at tokens[i]; the ranges and how many tokens were used. */
function portMatch(tokens: readonly string[], i: number): { ports: PortRange[]; used: number } | undefined {
  const op = tokens[i];
  const a = portNumber(tokens[i + 1]);
  if (a === undefined) return undefined;
  switch (op) {
    case 'eq':
      return { ports: [{ low: a, high: a }], used: 2 };
    case 'lt':
      return { ports: [{ low: 0, high: a - 1 }], used: 2 };
    case 'gt':
      return { ports: [{ low: a + 1, high: 65535 }], used: 2 };
    case 'neq':
      return {
        ports: [
          { low: 0, high: a - 1 },
          { low: a + 1, high: 65535 },
        ],
        used: 2,
      };
    case 'range': {
      const b = portNumber(tokens[i + 2]);
      return b === undefined ? undefined : { ports: [{ low: a, high: b }], used: 3 };
    }
    default:
      return undefined;
  }
}

// --- parsing the running configuration ---------------------------------------------------------------

interface Definitions {
  objects: Map<string, PolicyObject>;
  groups: Map<string, PolicyObjectGroup>;
}

/** What a network object or group (by name) matches, nested groups expanded; cycles stop. */
function networksOf(defs: Definitions, name: string, seen = new Set<string>()): Cidr[] {
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
      else out.push(...addressTokens(t.slice(1)));
    } else if (t[0] === 'group-object' && t[1] !== undefined) out.push(...networksOf(defs, t[1], seen));
  }
  return out;
}

/** `host A`, `A M`, `A/len`: the network they write. */
function addressTokens(t: readonly string[]): Cidr[] {
  if (t[0] === 'host' && t[1] !== undefined) {
    const v = ipValue(t[1]);
    const c = v === undefined ? undefined : cidr(t[1], BITS[v.family]);
    return c === undefined ? [] : [c];
  }
  if (t[0]?.includes('/')) {
    const [a = '', p = ''] = t[0].split('/');
    const c = cidr(a, Number(p));
    return c === undefined ? [] : [c];
  }
  if (t[0] !== undefined && t[1] !== undefined) {
    const prefix = maskPrefix(t[1]);
    const c = prefix === undefined ? undefined : cidr(t[0], prefix);
    return c === undefined ? [] : [c];
  }
  return [];
}

/** What a service object or group (by name) matches: its protocol and destination ports. */
function servicesOf(
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

/** The address operand at tokens[i] (`any`, `host A`, `A M`, `object X`, `object-group X`, `interface I`). */
function addressOperand(
  defs: Definitions,
  t: readonly string[],
  i: number,
): { operand: AddressOperand; used: number } | undefined {
  const word = t[i];
  const next = t[i + 1];
  if (word === 'any') return { operand: { written: 'any', networks: [...ANY] }, used: 1 };
  if (word === 'any4') return { operand: { written: 'any4', networks: [ANY[0] as Cidr] }, used: 1 };
  if (word === 'any6') return { operand: { written: 'any6', networks: [ANY[1] as Cidr] }, used: 1 };
  if (next === undefined) return undefined;
  if (word === 'object' || word === 'object-group') {
    return {
      operand: { written: `${word} ${next}`, objectName: next, networks: networksOf(defs, next) },
      used: 2,
    };
  }
  if (word === 'interface') return { operand: { written: `interface ${next}`, networks: [] }, used: 2 };
  if (word === 'host')
    return { operand: { written: `host ${next}`, networks: addressTokens(t.slice(i)) }, used: 2 };
  if (word?.includes('/')) return { operand: { written: word, networks: addressTokens([word]) }, used: 1 };
  if (word !== undefined && maskPrefix(next) !== undefined) {
    return { operand: { written: `${word} ${next}`, networks: addressTokens([word, next]) }, used: 2 };
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
function parseAce(
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
  let log: AccessListEntry['log'];
  for (; i < t.length; i += 1) {
    if (t[i] === 'inactive') inactive = true;
    else if (t[i] === 'log') {
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
    ...(log === undefined ? {} : { log }),
  };
}

/** The policy in an ASA's running configuration text (what `show running-config` prints). */
export function parsePolicy(deviceUid: string, config: string, lines: readonly string[] = []): AsaPolicy {
  const text = config.split('\n');
  const defs: Definitions = { objects: new Map(), groups: new Map() };
  const natLines: { object: string; line: string }[] = [];
  const aclLines: { text: string; configLine: number }[] = [];
  const groupLines: { text: string; configLine: number }[] = [];
  const routes: StaticRoute[] = [];

  // First pass: objects and groups with their bodies (a later block for the same object adds to it).
  for (let n = 0; n < text.length; n += 1) {
    const line = text[n] ?? '';
    const head = /^(object|object-group) (network|service) (\S+)(?: (\S+))?$/.exec(line);
    if (head === null) {
      if (line.startsWith('access-list ')) aclLines.push({ text: line, configLine: n + 1 });
      else if (line.startsWith('access-group ')) groupLines.push({ text: line, configLine: n + 1 });
      else if (line.startsWith('route ')) {
        const t = line.split(/\s+/);
        const prefix = maskPrefix(t[3] ?? '');
        const network = prefix === undefined ? undefined : cidr(t[2] ?? '', prefix);
        if (network !== undefined && t[1] !== undefined && t[4] !== undefined) {
          routes.push({ interface: t[1], network, gateway: t[4], metric: Number(t[5] ?? 1), text: line });
        }
      }
      continue;
    }
    const [, kind = '', type = '', name = '', protocol] = head;
    const body: string[] = [];
    while ((text[n + 1] ?? '').startsWith(' ')) {
      n += 1;
      body.push((text[n] ?? '').trim());
    }
    if (kind === 'object') {
      const existing = defs.objects.get(name);
      const object: PolicyObject = existing ?? {
        uid: stableUid(deviceUid, 'object', name),
        name,
        type: type as 'network' | 'service',
        body: [],
        configLine: n + 1 - body.length,
      };
      for (const b of body) {
        if (b.startsWith('nat ')) natLines.push({ object: name, line: b });
        else object.body.push(b);
      }
      defs.objects.set(name, object);
    } else {
      defs.groups.set(name, {
        uid: stableUid(deviceUid, 'object-group', name),
        name,
        type: type as 'network' | 'service',
        body,
        references: [],
        ...(protocol === undefined ? {} : { protocol }),
        configLine: n + 1 - body.length,
      });
    }
  }

  // Objects' content, then groups' (expansion needs every definition).
  for (const object of defs.objects.values()) {
    for (const b of object.body) {
      const t = b.split(/\s+/);
      if (t[0] === 'description') object.description = b.slice('description '.length);
      else if (object.type === 'network') {
        if (t[0] === 'host' || t[0] === 'subnet') {
          object.networks = [...(object.networks ?? []), ...addressTokens(t[0] === 'host' ? t : t.slice(1))];
        } else if (t[0] === 'range' && t[1] !== undefined && t[2] !== undefined) {
          object.networks = [...(object.networks ?? []), ...rangeCidrs(t[1], t[2])];
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

  const accessGroups: AccessGroupBinding[] = groupLines.flatMap(({ text: line, configLine }) => {
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

  const nats: StaticNat[] = natLines.flatMap(({ object, line }) => {
    const m = /^nat \(([^,]+),([^)]+)\) static (\S+)/.exec(line);
    if (m === null) return [];
    const real = defs.objects.get(object)?.networks ?? [];
    const target = m[3] ?? '';
    const mapped = defs.objects.has(target) ? networksOf(defs, target) : addressTokens(['host', target]);
    return [
      {
        objectName: object,
        realInterface: m[1] ?? '',
        mappedInterface: m[2] ?? '',
        real,
        mapped,
        text: line,
      },
    ];
  });

  const dynamicNats: DynamicNat[] = natLines.flatMap(({ object, line }) => {
    const m = /^nat \(([^,]+),([^)]+)\) dynamic (\S+)/.exec(line);
    if (m === null) return [];
    const target = m[3] ?? '';
    const mapped =
      target === 'interface'
        ? ('interface' as const)
        : defs.objects.has(target)
          ? networksOf(defs, target)
          : addressTokens(['host', target]);
    return [
      {
        objectName: object,
        realInterface: m[1] ?? '',
        mappedInterface: m[2] ?? '',
        real: defs.objects.get(object)?.networks ?? [],
        mapped,
        text: line,
      },
    ];
  });

  return {
    deviceUid,
    lines: [...lines],
    objects: [...defs.objects.values()],
    objectGroups: [...defs.groups.values()],
    accessLists,
    accessGroups,
    routes,
    nats,
    dynamicNats,
  };
}

/** The smallest set of networks covering an IPv4 range `a`–`b`. */
function rangeCidrs(a: string, b: string): Cidr[] {
  const x = ipValue(a);
  const y = ipValue(b);
  if (x?.family !== 4 || y?.family !== 4) return [];
  const out: Cidr[] = [];
  let low = x.value;
  while (low <= y.value && out.length < 64) {
    let size = 32;
    while (size > 0) {
      const block = 1n << BigInt(32 - size + 1);
      if (low % block !== 0n || low + block - 1n > y.value) break;
      size -= 1;
    }
    out.push({ address: formatV4(low), prefix: size, family: 4 });
    low += 1n << BigInt(32 - size);
  }
  return out;
}

// --- the policy of a device, cached --------------------------------------------------------------------

const cache = new WeakMap<SimState, Map<string, { config: string; policy: AsaPolicy }>>();

/**
 * The ASA's access policy, parsed from its running configuration (the same text getAsaConfiguration
 * answers as configOnDevice). Cached per world and device until that text changes.
 */
export function policyOf(state: SimState, deviceUid: string): AsaPolicy {
  const device = state.devices.get(deviceUid);
  if (device === undefined || device.kind !== 'ASA') {
    return {
      deviceUid,
      lines: [],
      objects: [],
      objectGroups: [],
      accessLists: new Map(),
      accessGroups: [],
      routes: [],
      nats: [],
      dynamicNats: [],
    };
  }
  return policyOfDevice(state, device);
}

function policyOfDevice(state: SimState, device: DeviceRecord): AsaPolicy {
  const uid = device.device.uid;
  let byDevice = cache.get(state);
  if (byDevice === undefined) {
    byDevice = new Map();
    cache.set(state, byDevice);
  }
  const config = configOnDevice(state, device);
  const hit = byDevice.get(uid);
  if (hit !== undefined && hit.config === config) return hit.policy;
  const policy = parsePolicy(uid, config, policyLinesOf(state, uid));
  byDevice.set(uid, { config, policy });
  return policy;
}

// --- shadowed and duplicate rules --------------------------------------------------------------------

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

// --- changing an access list (a change made in SCC's UI and deployed at once) -------------------------

export interface AccessListEdit {
  acl: string;
  /** ASA semantics: insert before the list's current line N (remarks count); absent: append. */
  line?: number | undefined;
  /** What follows `access-list NAME`: `extended permit …` or `remark …`. */
  rule: string;
}

/** Why a line cannot go into this policy (ASA-like refusals), or undefined when it can. */
export function accessListLineProblem(policy: AsaPolicy, rule: string): string | undefined {
  const t = rule.trim().split(/\s+/);
  if (t[0] === 'remark') return t.length > 1 ? undefined : 'a remark needs its text';
  if (t[0] !== 'extended') return 'the line must be `extended permit|deny …` or `remark …`';
  if (t[1] !== 'permit' && t[1] !== 'deny') return `"${t[1] ?? ''}" is not permit or deny`;
  const names = new Set([...policy.objects.map((o) => o.name), ...policy.objectGroups.map((g) => g.name)]);
  for (const [i, word] of t.entries()) {
    const previous = t[i - 1];
    if ((previous === 'object' || previous === 'object-group') && !names.has(word)) {
      return `specified object (${word}) does not exist`;
    }
  }
  const defs: Definitions = {
    objects: new Map(policy.objects.map((o) => [o.name, o])),
    groups: new Map(policy.objectGroups.map((g) => [g.name, g])),
  };
  const parsed = parseAce(defs, `access-list X ${rule}`);
  if (parsed.source === undefined || parsed.destination === undefined) {
    return 'the line needs a source and a destination (any, host A, A MASK, object X, object-group X)';
  }
  return undefined;
}

/** The policy lines with `edit` applied, and the ASA command that makes the change. */
export function insertAccessListLine(
  lines: readonly string[],
  edit: AccessListEdit,
): { lines: string[]; command: string; text: string } {
  const text = `access-list ${edit.acl} ${edit.rule.trim().split(/\s+/).join(' ')}`;
  const out = [...lines];
  const positions = out.flatMap((l, i) => (l.startsWith(`access-list ${edit.acl} `) ? [i] : []));
  const before = edit.line === undefined ? undefined : positions[edit.line - 1];
  if (before !== undefined) out.splice(before, 0, text);
  else {
    const last = positions.at(-1);
    if (last !== undefined) out.splice(last + 1, 0, text);
    else out.push(text);
  }
  const command =
    edit.line === undefined
      ? text
      : `access-list ${edit.acl} line ${edit.line} ${text.slice(`access-list ${edit.acl} `.length)}`;
  return { lines: out, command, text };
}

/** The policy lines without line `line` of `acl`, and the ASA command that removes it. */
export function removeAccessListLine(
  lines: readonly string[],
  acl: string,
  line: number,
): { lines: string[]; command: string; text: string } | undefined {
  const positions = lines.flatMap((l, i) => (l.startsWith(`access-list ${acl} `) ? [i] : []));
  const at = positions[line - 1];
  if (at === undefined) return undefined;
  const text = lines[at] ?? '';
  return { lines: lines.filter((_, i) => i !== at), command: `no ${text}`, text };
}
