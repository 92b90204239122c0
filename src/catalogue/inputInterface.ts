// Which interface a packet comes in on when a trace does not say (`--in`): the interface whose connected
// subnet (its IPv4 or IPv6 address and mask or prefix length, as SCC lists them) holds the source, the most
// specific when several do. Pure functions over SCC's interface records.
import type { AsaInterface } from '../scc/generated/models.js';
import { addressFamily, parseAddress, sendableInterfaceName } from './asaCommands.js';

/** An address as a number, with its width in bits (IPv4 32, IPv6 128). */
function addressBits(address: string): { value: bigint; width: number } | undefined {
  const parsed = parseAddress(address);
  if (!parsed.ok) return undefined;
  const canonical = parsed.value;
  if (addressFamily(canonical) === 4)
    return { value: canonical.split('.').reduce((n, octet) => (n << 8n) | BigInt(octet), 0n), width: 32 };
  const [head = '', tail = ''] = canonical.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) never reaches here: parseAddress writes it as hex groups.
  const left = groups(head);
  const right = groups(tail);
  const all = canonical.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return { value: all.reduce((n, group) => (n << 16n) | BigInt(`0x${group}`), 0n), width: 128 };
}

/** `255.255.255.0` or `24` (IPv6 prefixes are lengths) → a prefix length; undefined when unreadable. */
function prefixOf(netmask: string | null | undefined, width: number): number | undefined {
  if (!netmask) return undefined;
  if (/^\d{1,3}$/.test(netmask)) {
    const length = Number(netmask);
    return length <= width ? length : undefined;
  }
  const mask = addressBits(netmask);
  if (mask?.width !== 32) return undefined;
  const bits = mask.value.toString(2).padStart(32, '0');
  return /^1*0*$/.test(bits) ? (bits.indexOf('0') === -1 ? 32 : bits.indexOf('0')) : undefined;
}

/** The interface addresses (address and prefix) of one interface, IPv4 and IPv6. */
function connectedNetworks(iface: AsaInterface): { address: string; prefix: number }[] {
  const out: { address: string; prefix: number }[] = [];
  const v4 = iface.ipv4?.ipAddress;
  if (v4?.ipAddress) {
    const prefix = prefixOf(v4.netmask, 32);
    if (prefix !== undefined) out.push({ address: v4.ipAddress, prefix });
  }
  for (const v6 of iface.ipv6?.ipAddresses ?? []) {
    const prefix = prefixOf(v6.netmask, 128);
    if (v6.ipAddress && prefix !== undefined) out.push({ address: v6.ipAddress, prefix });
  }
  return out;
}

/**
 * The nameif whose connected subnet holds `source`, the most specific when several do (a /24 inside a
 * /16); undefined when none does, or when two equally specific ones do (the ASA would not have both).
 */
export function inferInputInterface(source: string, interfaces: readonly AsaInterface[]): string | undefined {
  const wanted = addressBits(source);
  if (!wanted) return undefined;
  let best: { name: string; prefix: number; tie: boolean } | undefined;
  for (const iface of interfaces) {
    const name = iface.name;
    if (!name || !sendableInterfaceName(name) || iface.enabled === false) continue;
    for (const network of connectedNetworks(iface)) {
      const bits = addressBits(network.address);
      if (!bits || bits.width !== wanted.width) continue;
      const shift = BigInt(bits.width - network.prefix);
      if (bits.value >> shift !== wanted.value >> shift) continue;
      if (!best || network.prefix > best.prefix) best = { name, prefix: network.prefix, tie: false };
      else if (network.prefix === best.prefix && name !== best.name) best.tie = true;
    }
  }
  return best && !best.tie ? best.name : undefined;
}
