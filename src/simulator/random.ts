// Deterministic randomness for the simulator: every seeded value and every identifier the simulator
// mints comes from a PRNG derived from the seed name, so a seed always produces the same world and the
// same sequence of requests produces the same answers; identifiers that must not move that sequence (the
// ASA policy's) are derived from their parts instead (stableUid). Math.random is never used.
import { createHash, createHmac } from 'node:crypto';

/** 32-bit FNV-1a: a stable hash of a string, used to derive PRNG seeds and per-entity variations. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A small, fast PRNG (mulberry32) with the helpers the seed and the runtime need. */
export class SeededRandom {
  private state: number;

  constructor(seed: string) {
    this.state = hashString(seed) || 0x9e3779b9;
  }

  /** Where the sequence is: a world saved and restored goes on from here (state/saved.ts). */
  get position(): number {
    return this.state;
  }

  set position(value: number) {
    this.state = value >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick() needs a non-empty list');
    return item;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }

  /** A version-4-shaped UUID, so it passes any `format: uuid` check. */
  uuid(): string {
    const raw = this.hex(32).split('');
    raw[12] = '4';
    raw[16] = ((Number.parseInt(raw[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
    const s = raw.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  macAddress(): string {
    const bytes = Array.from({ length: 6 }, (_, i) => (i === 0 ? '00' : this.hex(2)));
    return `${bytes[0]}${bytes[1]}.${bytes[2]}${bytes[3]}.${bytes[4]}${bytes[5]}`;
  }
}

/** HMAC-SHA256 hex of a message under a secret derived from the seed (tokens, presigned URLs). */
export function seededSignature(seed: string, message: string): string {
  return createHmac('sha256', `fwbot-scc-simulator:${seed}`).update(message).digest('hex');
}

/**
 * A UUID-shaped UID derived from its parts (name-based, like a v5 UUID), the same on every run and never
 * drawn from the world's PRNG: the ASA policy's objects, rules and groups are named by it, so adding one
 * leaves every other UID of the world (which goldens hold) where it was.
 */
export function stableUid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
