// `response:` of the FWBOT_PROFILES file: the incident responder's fast path. A shun (`/fw shun`) is
// governed, and this section declares how long an operator may block an address alone: up to
// `shun_alone_up_to`, the operator runs it without a second person (audited all the same); longer needs a
// second person's approval. Its schema, settings, default, row of the configuration reference, and the
// settings it yields. Durations are written as `/fw shun --for` takes them (parseDuration).
import { z } from 'zod';
import { closedObject, type ProfilesFileKey } from './schemaParts.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UNITS: Readonly<Record<string, number>> = Object.freeze({ m: MINUTE, h: HOUR, d: DAY });
/** The longest shun fwbot places at all: an ASA's shun has no expiry of its own, fwbot's is its end. */
export const MAX_SHUN_MS = 30 * DAY;

/** `90m`, `4h`, `2d` (one number and one unit) as milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,4})([mhd])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (UNITS[match[2] ?? ''] ?? 0);
}

/** A duration in the words people write it: 4h, 90m, 2d. */
export function durationText(ms: number): string {
  if (ms % DAY === 0) return `${ms / DAY}d`;
  if (ms % HOUR === 0) return `${ms / HOUR}h`;
  return `${Math.round(ms / MINUTE)}m`;
}

export interface ResponseSettings {
  /** An operator shuns alone for up to this long (ms); longer needs a second person. 0: never alone. */
  readonly shunAloneUpToMs: number;
}

export const defaultResponse: ResponseSettings = Object.freeze({ shunAloneUpToMs: 4 * HOUR });

const duration = z.union([z.string(), z.literal(0)]).transform((value, ctx) => {
  if (value === 0 || value === '0') return 0;
  const ms = parseDuration(value);
  if (ms === undefined || ms > MAX_SHUN_MS) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a duration such as 4h, 90m or 1d (at most 30d), or 0 for never alone',
    });
    return z.NEVER;
  }
  return ms;
});

export const ResponseSchema = closedObject({ shun_alone_up_to: duration.optional() });

export const responseKeys: readonly ProfilesFileKey[] = [
  {
    key: 'response.shun_alone_up_to',
    description:
      'how long an operator may shun an address alone (`/fw shun … --for`, `/fw unshun`): up to this, the shun runs at once, audited; longer needs a second person with the approver role. `0`: every shun needs a second person',
    default: durationText(defaultResponse.shunAloneUpToMs),
    example: 'shun_alone_up_to: 2h',
  },
];

export function responseFrom(data: z.output<typeof ResponseSchema> | undefined): ResponseSettings {
  return Object.freeze({ shunAloneUpToMs: data?.shun_alone_up_to ?? defaultResponse.shunAloneUpToMs });
}
