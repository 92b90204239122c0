// SCC's device maintenance windows: a five-field cron expression (minute hour day-of-month month
// day-of-week, read in UTC) saying when a window opens, and how many minutes it stays open. What a device
// answers (`deviceMaintenanceWindow`: isOpen, currentStart/End while open, nextStart/End) is computed from
// the simulated clock at each read, so advancing the clock opens and closes windows.
import type * as Model from '../../scc/generated/models.js';

const iso = (t: number): string => new Date(t).toISOString();

export interface MaintenanceWindowRecord {
  startCron: string;
  durationMinutes: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far ahead a next opening is looked for: a window that opens less often than this is "never". */
const HORIZON_DAYS = 400;

interface CronFields {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Cron's rule: when both day fields are restricted, a day matching either one matches. */
  dayOr: boolean;
}

const FIELD_RANGES = [
  ['minute', 0, 59],
  ['hour', 0, 23],
  ['day of month', 1, 31],
  ['month', 1, 12],
  ['day of week', 0, 7],
] as const;

function parseField(text: string, name: string, min: number, max: number): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (match === null) throw new Error(`the ${name} field "${text}" is not a cron field`);
    const from = match[1] === '*' ? min : Number(match[2]);
    const to =
      match[1] === '*'
        ? max
        : match[3] === undefined
          ? match[4] === undefined
            ? from
            : max
          : Number(match[3]);
    const step = match[4] === undefined ? 1 : Number(match[4]);
    if (from < min || to > max || from > to || step < 1)
      throw new Error(`the ${name} field "${text}" is outside ${min}-${max}`);
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

/** Parses a five-field cron expression; throws an Error saying which field is wrong. */
export function parseCron(expression: string): CronFields {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`"${expression}" has ${parts.length} fields, not 5`);
  const [minutes, hours, days, months, weekdays] = FIELD_RANGES.map(([name, min, max], i) =>
    parseField(parts[i] ?? '', name, min, max),
  ) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (weekdays.has(7)) weekdays.add(0); // 7 is Sunday too
  return { minutes, hours, days, months, weekdays, dayOr: parts[2] !== '*' && parts[4] !== '*' };
}

function dayMatches(cron: CronFields, day: Date): boolean {
  if (!cron.months.has(day.getUTCMonth() + 1)) return false;
  const dom = cron.days.has(day.getUTCDate());
  const dow = cron.weekdays.has(day.getUTCDay());
  return cron.dayOr ? dom || dow : dom && dow;
}

/** The first opening at or after `from` (to the minute), within the horizon. */
export function nextOpening(cron: CronFields, from: number): number | undefined {
  const first = Math.ceil(from / MINUTE) * MINUTE;
  const hours = [...cron.hours].sort((a, b) => a - b);
  const minutes = [...cron.minutes].sort((a, b) => a - b);
  for (let d = Math.floor(first / DAY) * DAY; d < first + HORIZON_DAYS * DAY; d += DAY) {
    if (!dayMatches(cron, new Date(d))) continue;
    for (const h of hours)
      for (const m of minutes) {
        const at = d + h * 3_600_000 + m * MINUTE;
        if (at >= first) return at;
      }
  }
  return undefined;
}

/** The window as SCC answers it at `now`. */
export function maintenanceWindowDto(
  window: MaintenanceWindowRecord,
  now: number,
): Model.DeviceMaintenanceWindow {
  const cron = parseCron(window.startCron);
  const length = window.durationMinutes * MINUTE;
  // The latest opening that could still be open is one at most `length` ago.
  const candidate = nextOpening(cron, now - length + 1);
  const open = candidate !== undefined && candidate <= now;
  const next = nextOpening(cron, now + 1);
  return {
    startCron: window.startCron,
    durationMinutes: window.durationMinutes,
    isOpen: open,
    ...(open ? { currentStart: iso(candidate), currentEnd: iso(candidate + length) } : {}),
    ...(next === undefined ? {} : { nextStart: iso(next), nextEnd: iso(next + length) }),
  };
}
