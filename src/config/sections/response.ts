// `response:` of the FWBOT_PROFILES file: the incident responder's fast path. A shun (`/fw shun`) is
// governed, and this section declares how long an operator may block an address alone: up to
// `shun_alone_up_to`, the operator runs it without a second person (audited all the same); longer needs a
// second person's approval. Ending a user's VPN sessions (`/fw vpn disconnect`) has no length to measure:
// `disconnect_alone` says yes or no, and when the file leaves it out it follows the shun's policy (alone,
// unless `shun_alone_up_to` is 0: a team that wants two people for every shun wants them here too). Its
// schema, settings, default, rows of the configuration reference, and the settings it yields. Durations
// are written as `/fw shun --for` takes them (parseDuration).
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
  /** An operator ends a user's VPN sessions alone; false: a second person approves each disconnect. */
  readonly disconnectAlone: boolean;
}

export const defaultResponse: ResponseSettings = Object.freeze({
  shunAloneUpToMs: 4 * HOUR,
  disconnectAlone: true,
});

const DURATION_PROBLEM = 'must be a duration such as 4h, 90m or 1d (at most 30d), or 0 for never alone';
// Any number or text reaches the check, so `4` (a number without its unit) is told what a duration is.
const duration = z.union([z.string(), z.number()], { message: DURATION_PROBLEM }).transform((value, ctx) => {
  if (value === 0 || value === '0') return 0;
  const ms = typeof value === 'string' ? parseDuration(value) : undefined;
  if (ms === undefined || ms > MAX_SHUN_MS) {
    ctx.addIssue({
      code: 'custom',
      message: DURATION_PROBLEM,
    });
    return z.NEVER;
  }
  return ms;
});

export const ResponseSchema = closedObject({
  shun_alone_up_to: duration.optional(),
  disconnect_alone: z.boolean({ message: 'must be true or false' }).optional(),
});

export const responseKeys: readonly ProfilesFileKey[] = [
  {
    key: 'response.shun_alone_up_to',
    description:
      'how long an operator may shun an address alone (`/fw shun … --for`, `/fw unshun`): up to this, the shun runs at once, audited; longer needs a second person with the approver role. `0`: every shun needs a second person',
    default: durationText(defaultResponse.shunAloneUpToMs),
    example: 'shun_alone_up_to: 2h',
  },
  {
    key: 'response.disconnect_alone',
    description:
      'whether an operator may end a user’s VPN sessions alone (`/fw vpn disconnect`), audited; `false`: each disconnect needs a second person with the approver role. Left out, it follows `shun_alone_up_to`: alone unless that is `0`',
    default: 'true (false if shun_alone_up_to is 0)',
    example: 'disconnect_alone: false',
  },
];

export function responseFrom(data: z.output<typeof ResponseSchema> | undefined): ResponseSettings {
  const shunAloneUpToMs = data?.shun_alone_up_to ?? defaultResponse.shunAloneUpToMs;
  return Object.freeze({
    shunAloneUpToMs,
    disconnectAlone: data?.disconnect_alone ?? shunAloneUpToMs > 0,
  });
}
