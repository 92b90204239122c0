// What the simulated ASA's show commands share: numbers derived from the device and what is asked (never
// from a random source, so an answer repeats), and the ASA's way of writing its version and uptime.
import { createHash } from 'node:crypto';

/** A stable number in [0, range) for these parts (device UID, address…). */
export function stable(range: number, ...parts: string[]): number {
  const hash = createHash('sha256').update(parts.join('\u0000')).digest();
  return hash.readUInt32BE(0) % range;
}

/** `9.20.2` → `9.20(2)`, as the ASA prints its version. */
export function asaVersion(softwareVersion: string): string {
  const [major = '9', minor = '0', ...rest] = softwareVersion.split('.');
  return rest.length === 0 ? `${major}.${minor}` : `${major}.${minor}(${rest.join('.')})`;
}

/** `41 days 3 hours`, `2 hours 5 mins`, `5 mins 3 secs`: the ASA's uptime. */
export function asaUptime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor(s / 3600) % 24;
  const mins = Math.floor(s / 60) % 60;
  if (days > 0) return `${days} days ${hours} hours`;
  if (hours > 0) return `${hours} hours ${mins} mins`;
  return `${mins} mins ${s % 60} secs`;
}
