// `changes:` of the FWBOT_PROFILES file: whether changing operations take a change ticket (and what one
// looks like and links to), the policy's change windows besides SCC's own maintenance windows (device
// query, profile, time zone, weekly openings), and how long the running configurations kept before each
// deploy are retained. Its schema, settings, defaults, rows of the configuration reference, and the
// settings it yields.
import { z } from 'zod';
import { isTimeZone } from '../../model/changeWindows.js';
import { closedObject, isObject, type ProfilesFileKey, profileName } from './schemaParts.js';

/** The days a change window may name, in the order the week runs (ISO: Monday first). */
export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];

export const SNAPSHOT_RETENTION_MAX_DAYS = 3_650;

/** One opening of a change window: on each of `days`, from `from` to `to` in the window's zone. */
export interface OpenPeriod {
  readonly days: readonly Weekday[];
  /** `HH:MM` as written. */
  readonly from: string;
  readonly to: string;
  /** The same as minutes after midnight; `toMinute <= fromMinute` means the opening crosses midnight. */
  readonly fromMinute: number;
  readonly toMinute: number;
}

/** A change window from the policy (`changes.windows`), beside SCC's own deviceMaintenanceWindow. */
export interface PolicyWindow {
  /** The device query it covers; undefined: every device (of `profile`, when set). */
  readonly devices: string | undefined;
  /** The profile it covers; undefined: every profile. */
  readonly profile: string | undefined;
  /** An IANA zone the runtime knows (checked at start). */
  readonly timeZone: string;
  readonly open: readonly OpenPeriod[];
}

export type TicketRule = 'required' | 'optional' | 'off';

export interface ChangeSettings {
  /** Whether operations that change SCC or a device take a change ticket (`--ticket`). */
  readonly ticket: TicketRule;
  /** The source of the regular expression a ticket must match (checked to compile at start). */
  readonly ticketPattern: string | undefined;
  /** A link to the ticket, with `{ticket}` where the (URL-encoded) ticket goes. */
  readonly ticketUrl: string | undefined;
  readonly windows: readonly PolicyWindow[];
  /** Running-configuration snapshots older than this are deleted. */
  readonly snapshotRetentionDays: number;
}

export const defaultChanges: ChangeSettings = Object.freeze({
  ticket: 'off',
  ticketPattern: undefined,
  ticketUrl: undefined,
  windows: Object.freeze([]),
  snapshotRetentionDays: 30,
});

const TIME_OF_DAY = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** Minutes after midnight of an `HH:MM` the schema accepted. */
function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

export function openPeriod(days: readonly Weekday[], from: string, to: string): OpenPeriod {
  return Object.freeze({
    days: Object.freeze([...days]),
    from,
    to,
    fromMinute: minutesOf(from),
    toMinute: minutesOf(to),
  });
}

const timeOfDay = z
  .string()
  .regex(TIME_OF_DAY, 'must be a time of day as HH:MM on a 24-hour clock, e.g. 22:00');

const OpenPeriodSchema = closedObject({
  days: z
    .preprocess(
      (value) => (typeof value === 'string' ? [value] : value),
      z.array(z.enum(weekdays, { error: `must be a day: ${weekdays.join(', ')}` })).min(1, 'names no day'),
    )
    .transform((days) => [...new Set(days)]),
  from: timeOfDay,
  to: timeOfDay,
}).superRefine(
  (period, ctx) => {
    if (period.from === period.to)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'is the same time as from; a window that never closes is not a window (leave it out)',
      });
  },
  { when: (payload) => isObject(payload.value) },
);

const WindowSchema = closedObject({
  /** A device query (the Lucene syntax of /fw devices); absent: every device (of the profile, if given). */
  devices: z.string().trim().min(1, 'is empty; give a device query such as name:asa-*').optional(),
  profile: profileName.optional(),
  time_zone: z.string().refine(isTimeZone, {
    message: 'is not a time zone this system knows; use an IANA name such as Europe/Berlin or UTC',
  }),
  open: z.array(OpenPeriodSchema).min(1, 'lists no opening; give at least one { days, from, to }'),
});

/** Whether `source` compiles as a JavaScript regular expression. */
function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const TICKET_PLACEHOLDER = '{ticket}';

export const ChangesSchema = closedObject({
  ticket: z.enum(['required', 'optional', 'off'], { error: 'must be required, optional or off' }).optional(),
  ticket_pattern: z
    .string()
    .min(1, 'is empty; give a regular expression such as ^CHG[0-9]{7}$, or leave the key out')
    .refine(isRegExp, { message: 'is not a valid regular expression' })
    .optional(),
  ticket_url: z
    .string()
    .refine((url) => /^https?:\/\/[^\s]+$/.test(url), { message: 'must be an http(s) URL' })
    .refine((url) => url.includes(TICKET_PLACEHOLDER), {
      message: `has no ${TICKET_PLACEHOLDER}, where the ticket goes`,
    })
    .optional(),
  windows: z.array(WindowSchema).optional(),
  snapshots: closedObject({
    retention_days: z.number().int().min(1).max(SNAPSHOT_RETENTION_MAX_DAYS).optional(),
  }).optional(),
});

/** The rows of `changes` but its snapshots (the reference lists device_output between them). */
export const changesKeys: readonly ProfilesFileKey[] = [
  {
    key: 'changes.ticket',
    description:
      'whether operations that change SCC or a device take a change ticket (`--ticket`, a field in Slack forms): `required`, `optional` or `off`',
    default: defaultChanges.ticket,
    example: 'ticket: required',
  },
  {
    key: 'changes.ticket_pattern',
    description: 'a regular expression every ticket must match (checked when the bot starts)',
    default: 'any ticket',
    example: "ticket_pattern: '^CHG[0-9]{7}$'",
  },
  {
    key: 'changes.ticket_url',
    description:
      'a link to a ticket, `{ticket}` standing for it (URL-encoded); the approval card links the ticket with it',
    default: 'no link',
    example: "ticket_url: 'https://acme.service-now.com/change_request.do?number={ticket}'",
  },
  {
    key: 'changes.windows',
    description:
      'change windows of the policy, besides the maintenance window SCC keeps per device. Each has `devices` (a device query, as /fw devices takes), `profile`, both, or neither (every device); `time_zone` (an IANA zone); and `open`, a list of `{ days: [mon … sun], from: HH:MM, to: HH:MM }` (`to` before `from` crosses midnight into the next day)',
    default: 'none',
    example:
      "windows: [{ profile: acme, time_zone: Europe/Berlin, open: [{ days: [sat, sun], from: '22:00', to: '04:00' }] }]",
  },
];

export const snapshotKeys: readonly ProfilesFileKey[] = [
  {
    key: 'changes.snapshots.retention_days',
    description: `days the running configuration kept before each deploy is retained (1–${SNAPSHOT_RETENTION_MAX_DAYS})`,
    default: String(defaultChanges.snapshotRetentionDays),
    example: 'retention_days: 30',
  },
];

export function changesFrom(data: z.output<typeof ChangesSchema> | undefined): ChangeSettings {
  if (data === undefined) return defaultChanges;
  const windows = (data.windows ?? []).map((window) =>
    Object.freeze({
      devices: window.devices,
      profile: window.profile,
      timeZone: window.time_zone,
      open: Object.freeze(window.open.map((period) => openPeriod(period.days, period.from, period.to))),
    }),
  );
  return Object.freeze({
    ticket: data.ticket ?? defaultChanges.ticket,
    ticketPattern: data.ticket_pattern,
    ticketUrl: data.ticket_url,
    windows: Object.freeze(windows),
    snapshotRetentionDays: data.snapshots?.retention_days ?? defaultChanges.snapshotRetentionDays,
  });
}
