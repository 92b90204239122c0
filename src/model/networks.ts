// Networks as people write them in requests and in the profiles file: a host (`10.1.1.5`), a CIDR
// (`10.1.0.0/16`, `2001:db8::/32`) or `any`, read into numbers so that containment and overlap are
// arithmetic. IPv4 and IPv6; `any` is both families' whole space. Pure, imported by the configuration (the
// `access:` section checks its lists) and by the access risk check.
import { isIP } from 'node:net';

export interface Network {
  /** 4 or 6; `any` is a network of each. */
  family: 4 | 6;
  /** The first address, the host bits cleared. */
  base: bigint;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

function addressValue(text: string): { family: 4 | 6; value: bigint } | undefined {
  const family = isIP(text);
  if (family === 4)
    return { family, value: text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n) };
  if (family !== 6) return undefined;
  let body = text.toLowerCase();
  // An embedded IPv4 tail (::ffff:10.1.1.1) is two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (v4?.[1] !== undefined) {
    const n = addressValue(v4[1])?.value ?? 0n;
    body = `${body.slice(0, -v4[1].length)}${((n >> 16n) & 0xffffn).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = body.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return {
    family,
    value: [...left, ...fill, ...right].reduce((acc, h) => (acc << 16n) | BigInt(`0x${h}`), 0n),
  };
}

/**
 * The networks `text` stands for: one for a host or a CIDR, the two whole spaces for `any` (also `0.0.0.0/0`
 * and `::/0` are whole spaces); undefined when it is none of these. A CIDR with host bits set is read as
 * its network (`10.1.1.5/24` → 10.1.1.0/24), as the ASA reads it.
 */
export function parseNetwork(text: string): Network[] | undefined {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'any') return [ANY4, ANY6];
  const [address = '', length, extra] = trimmed.split('/');
  if (extra !== undefined) return undefined;
  const parsed = addressValue(address);
  if (!parsed) return undefined;
  const bits = BITS[parsed.family];
  if (length !== undefined && !/^\d{1,3}$/.test(length)) return undefined;
  const prefix = length === undefined ? bits : Number(length);
  if (prefix > bits) return undefined;
  return [{ family: parsed.family, base: parsed.value & mask(parsed.family, prefix), prefix }];
}

const ANY4: Network = Object.freeze({ family: 4, base: 0n, prefix: 0 });
const ANY6: Network = Object.freeze({ family: 6, base: 0n, prefix: 0 });

function mask(family: 4 | 6, prefix: number): bigint {
  const bits = BigInt(BITS[family]);
  const all = (1n << bits) - 1n;
  return prefix === 0 ? 0n : (all >> (bits - BigInt(prefix))) << (bits - BigInt(prefix));
}

/** Whether `inner` lies wholly inside `outer`. */
export function networkWithin(inner: Network, outer: Network): boolean {
  return (
    inner.family === outer.family &&
    inner.prefix >= outer.prefix &&
    (inner.base & mask(outer.family, outer.prefix)) === outer.base
  );
}

/** Whether the two share at least one address. */
export function networksOverlap(a: Network, b: Network): boolean {
  return a.family === b.family && (networkWithin(a, b) || networkWithin(b, a));
}

/** A network as a CIDR (`10.1.0.0/16`, `2001:db8::/32`); a whole space is `any4` / `any6` as the ASA writes it. */
export function networkText(network: Network): string {
  if (network.prefix === 0) return network.family === 4 ? 'any4' : 'any6';
  if (network.family === 4) {
    const octets = [24n, 16n, 8n, 0n].map((shift) => String((network.base >> shift) & 0xffn));
    return `${octets.join('.')}/${network.prefix}`;
  }
  const hextets = Array.from({ length: 8 }, (_, i) =>
    ((network.base >> BigInt(112 - i * 16)) & 0xffffn).toString(16),
  );
  return `${hextets.join(':').replace(/(^|:)0(:0)+(:|$)/, '::')}/${network.prefix}`;
}
