// Address arithmetic for the simulated ASA: IPv4/IPv6 text to numbers and back, CIDR containment, dotted
// masks, networks as the configuration writes them (a host, `A M`, `A/len`, a range) and as SCC lists them,
// and the networks an ASA's interfaces are connected to. Pure functions, shared by the policy's parse
// (asaObjects.ts, asaAccessLists.ts), its analysis (asaRuleIssues.ts), the packet tracer
// (asaPacketTracer.ts) and the show commands (asaShow.ts).
import { isIP } from 'node:net';
import type { Cidr } from './asaPolicyModel.js';
import type { InterfaceRecord } from './model.js';

export interface Ip {
  family: 4 | 6;
  value: bigint;
}

const BITS = { 4: 32, 6: 128 } as const;

/** The address `text` (IPv4 dotted or any IPv6 form node:net accepts), or undefined. */
export function parseIp(text: string): Ip | undefined {
  const family = isIP(text);
  if (family === 4) {
    return {
      family: 4,
      value: text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n),
    };
  }
  if (family !== 6) return undefined;
  let body = text.toLowerCase();
  // An embedded IPv4 tail (::ffff:10.1.1.1) becomes two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (v4?.[1] !== undefined) {
    const n = parseIp(v4[1])?.value ?? 0n;
    body = `${body.slice(0, -v4[1].length)}${((n >> 16n) & 0xffffn).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = body.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  const hextets = [...left, ...fill, ...right];
  return { family: 6, value: hextets.reduce((acc, h) => (acc << 16n) | BigInt(`0x${h}`), 0n) };
}

/** Canonical text: dotted IPv4, compressed lower-case IPv6 (RFC 5952). */
export function formatIp(ip: Ip): string {
  if (ip.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((ip.value >> shift) & 0xffn)).join('.');
  }
  const hextets = Array.from({ length: 8 }, (_, i) => Number((ip.value >> BigInt(112 - i * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (hextets[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && hextets[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const text = hextets.map((h) => h.toString(16));
  if (bestStart < 0) return text.join(':');
  return `${text.slice(0, bestStart).join(':')}::${text.slice(bestStart + bestLength).join(':')}`;
}

const maskOf = (family: 4 | 6, prefix: number): bigint => {
  const bits = BigInt(BITS[family]);
  return ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(prefix))) - 1n);
};

/** Whether `cidr` holds `ip` (never across families). */
export function cidrContains(cidr: Cidr, ip: Ip): boolean {
  if (cidr.family !== ip.family) return false;
  const network = parseIp(cidr.address);
  if (network === undefined) return false;
  const mask = maskOf(cidr.family, cidr.prefix);
  return (network.value & mask) === (ip.value & mask);
}

/** The prefix length of a dotted IPv4 mask (`255.255.255.0` → 24), undefined when not contiguous. */
export function maskToPrefix(mask: string): number | undefined {
  const ip = parseIp(mask);
  if (ip?.family !== 4) return undefined;
  const prefix = ip.value.toString(2).replace(/0+$/, '').length;
  return ip.value === maskOf(4, prefix) ? prefix : undefined;
}

/** The dotted IPv4 mask of a prefix length (24 → `255.255.255.0`). */
export const prefixToMask = (prefix: number): string => formatIp({ family: 4, value: maskOf(4, prefix) });

/** The network holding `ip` at `prefix`. */
export function networkOf(ip: Ip, prefix: number): Cidr {
  return {
    address: formatIp({ family: ip.family, value: ip.value & maskOf(ip.family, prefix) }),
    prefix,
    family: ip.family,
  };
}

/**
 * The address at the same offset in `to` as `ip` has in `from`: how a static NAT maps a host of a real
 * network to the mapped one and back (host to host is offset 0).
 */
export function translate(ip: Ip, from: Cidr, to: Cidr): Ip | undefined {
  const fromNet = parseIp(from.address);
  const toNet = parseIp(to.address);
  if (fromNet === undefined || toNet === undefined || toNet.family !== ip.family) return undefined;
  const offset = ip.value - (fromNet.value & maskOf(from.family, from.prefix));
  return { family: ip.family, value: (toNet.value & maskOf(to.family, to.prefix)) + offset };
}

/** Every address of a family: what `any4` and `any6` write (`any` is both). */
export const ANY_NETWORKS: readonly [Cidr, Cidr] = [
  { address: '0.0.0.0', prefix: 0, family: 4 },
  { address: '::', prefix: 0, family: 6 },
];

/**
 * `address/prefix` as the configuration writes a network: IPv4 with its host bits cleared, IPv6 as written
 * (lower case), so a rule's elements repeat the configuration's own text.
 */
export function cidrOf(address: string, prefix: number): Cidr | undefined {
  const ip = parseIp(address);
  if (ip === undefined) return undefined;
  if (ip.family === 4)
    return { address: formatIp({ family: 4, value: ip.value & maskOf(4, prefix) }), prefix, family: 4 };
  return { address: address.toLowerCase(), prefix, family: 6 };
}

/** A network as SCC lists it in a rule's or an object's elements: a host alone, `any4`/`any6`, else CIDR. */
export const cidrText = (c: Cidr): string =>
  (c.family === 4 && c.prefix === 32) || (c.family === 6 && c.prefix === 128)
    ? c.address
    : c.prefix === 0
      ? c.family === 4
        ? 'any4'
        : 'any6'
      : `${c.address}/${c.prefix}`;

/** Whether network `outer` holds all of network `inner`. */
export function cidrCovers(outer: Cidr, inner: Cidr): boolean {
  if (outer.family !== inner.family || outer.prefix > inner.prefix) return false;
  const a = parseIp(outer.address);
  const b = parseIp(inner.address);
  if (a === undefined || b === undefined) return false;
  const mask = maskOf(outer.family, outer.prefix);
  return (a.value & mask) === (b.value & mask);
}

/** The networks an address operand writes: `host A`, `A M` (dotted mask), `A/len`; none when unreadable. */
export function writtenNetworks(t: readonly string[]): Cidr[] {
  if (t[0] === 'host' && t[1] !== undefined) {
    const ip = parseIp(t[1]);
    const c = ip === undefined ? undefined : cidrOf(t[1], BITS[ip.family]);
    return c === undefined ? [] : [c];
  }
  if (t[0]?.includes('/')) {
    const [a = '', p = ''] = t[0].split('/');
    const c = cidrOf(a, Number(p));
    return c === undefined ? [] : [c];
  }
  if (t[0] !== undefined && t[1] !== undefined) {
    const prefix = maskToPrefix(t[1]);
    const c = prefix === undefined ? undefined : cidrOf(t[0], prefix);
    return c === undefined ? [] : [c];
  }
  return [];
}

/** The smallest set of networks covering an IPv4 range `a`–`b` (an object's `range A B`). */
export function rangeNetworks(a: string, b: string): Cidr[] {
  const x = parseIp(a);
  const y = parseIp(b);
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
    out.push({ address: formatIp({ family: 4, value: low }), prefix: size, family: 4 });
    low += 1n << BigInt(32 - size);
  }
  return out;
}

/** A network an interface is directly connected to (its address and mask). */
export interface ConnectedNetwork {
  nameif: string;
  hardwareName: string;
  address: Ip;
  network: Cidr;
}

/** Connected networks of the named interfaces: IPv4 address + mask, and each IPv6 address + prefix. */
export function connectedNetworks(interfaces: readonly InterfaceRecord[]): ConnectedNetwork[] {
  const out: ConnectedNetwork[] = [];
  for (const record of interfaces) {
    const nameif = typeof record.name === 'string' ? record.name : '';
    if (nameif === '') continue;
    const v4 = record.ipv4?.ipAddress;
    const address4 = parseIp(v4?.ipAddress ?? '');
    const prefix4 = maskToPrefix(v4?.netmask ?? '');
    if (address4?.family === 4 && prefix4 !== undefined) {
      out.push({
        nameif,
        hardwareName: record.hardwareName,
        address: address4,
        network: networkOf(address4, prefix4),
      });
    }
    for (const v6 of record.ipv6?.ipAddresses ?? []) {
      const address6 = parseIp(v6.ipAddress ?? '');
      const prefix6 = Number((v6.netmask ?? '64').replace(/^\//, ''));
      if (address6?.family === 6 && Number.isInteger(prefix6) && prefix6 >= 0 && prefix6 <= 128) {
        out.push({
          nameif,
          hardwareName: record.hardwareName,
          address: address6,
          network: networkOf(address6, prefix6),
        });
      }
    }
  }
  return out;
}
