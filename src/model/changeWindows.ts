// Change windows as time: when a weekly policy window or SCC's maintenance window (a cron start and a
// duration) is open, when it next opens, when several devices are open together, the `--at` time a person
// types, and how a moment is said to them ("Sat 22:00 Europe/Berlin, in 2 days"). Pure: every function takes
// the current time, and time zones are IANA names read through Intl (no zone data of our own).

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** How far ahead openings are looked for: a weekly window opens within a week; SCC's cron within a year. */
const WEEKLY_HORIZON_DAYS = 8;
const CRON_HORIZON_DAYS = 366;

/** A window of the policy: weekly openings in one time zone (`to` before `from` crosses midnight). */
export interface WeeklyWindow {
  timeZone: string;
  open: readonly { days: readonly string[]; from: string; to: string }[];
}

/** SCC's deviceMaintenanceWindow: a start as a cron expression (read in UTC) and how long it stays open. */
export interface CronWindow {
  startCron: string;
  durationMinutes: number;
}

export type ChangeWindow = ({ kind: 'policy' } & WeeklyWindow) | ({ kind: 'scc' } & CronWindow);

/** One device's change windows, each named for the card (`policy window 1`, `SCC maintenance window`). */
export interface DeviceWindows {
  device: string;
  windows: readonly ChangeWindow[];
}

/** One opening: [start, end) in epoch milliseconds. */
export interface Opening {
  start: number;
  end: number;
}

export type WindowState = { open: true; closesAt: number } | { open: false; opensAt: number | undefined };

/** True for a time zone Intl knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The wall-clock reading of a moment in a zone. */
export function zonedParts(at: number, zone: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(new Date(at))) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf((parts.weekday ?? '').toLowerCase().slice(0, 3) as Weekday),
  };
}

/** How far the zone's wall clock is ahead of UTC at a moment (minutes precision). */
function offsetAt(at: number, zone: string): number {
  const p = zonedParts(at, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(at / MINUTE) * MINUTE;
}

/**
 * The moment a wall-clock time names in a zone. A time that does not exist (skipped by a daylight-saving
 * change) lands after the gap; one that exists twice is its first occurrence.
 */
export function zonedTime(
  zone: string,
  date: { year: number; month: number; day: number },
  hour: number,
  minute: number,
): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  const first = wall - offsetAt(wall, zone);
  const second = wall - offsetAt(first, zone);
  if (second === first) return first;
  // Two candidates around a change: the earlier one that reads as the asked time, else the later.
  const earlier = Math.min(first, second);
  const reads = (at: number) => {
    const p = zonedParts(at, zone);
    return p.hour === hour && p.minute === minute;
  };
  if (reads(earlier)) return earlier;
  return Math.max(first, second);
}

function clock(text: string): { hour: number; minute: number } {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!match) throw new Error(`not a time of day: ${text}`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/** The calendar date `days` after the zone's date at a moment. */
function dateAfter(at: number, zone: string, days: number) {
  const p = zonedParts(at, zone);
  const d = new Date(Date.UTC(p.year, p.month - 1, p.day + days));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
  };
}

/** A weekly window's openings that end after `from`, up to a week and a day ahead, in order. */
export function weeklyOpenings(window: WeeklyWindow, from: number): Opening[] {
  const openings: Opening[] = [];
  for (let offset = -1; offset <= WEEKLY_HORIZON_DAYS; offset += 1) {
    const date = dateAfter(from, window.timeZone, offset);
    for (const slot of window.open) {
      if (!slot.days.map((d) => d.toLowerCase()).includes(WEEKDAYS[date.weekday] ?? '')) continue;
      const start = clock(slot.from);
      const end = clock(slot.to);
      const crosses = end.hour * 60 + end.minute <= start.hour * 60 + start.minute;
      const endDate = crosses ? dateAfter(zonedTime(window.timeZone, date, 12, 0), window.timeZone, 1) : date;
      const opening = {
        start: zonedTime(window.timeZone, date, start.hour, start.minute),
        end: zonedTime(window.timeZone, endDate, end.hour, end.minute),
      };
      if (opening.end > from) openings.push(opening);
    }
  }
  return merge(openings);
}

/** One field of a cron expression: the values it allows within [min, max]. */
function cronField(text: string, min: number, max: number): Set<number> {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!match) throw new Error(`not a cron field: ${text}`);
    const low = match[1] === '*' ? min : Number(match[2]);
    const high = match[1] === '*' ? max : match[3] !== undefined ? Number(match[3]) : match[4] ? max : low;
    const step = match[4] ? Number(match[4]) : 1;
    if (low < min || high > max || low > high || step < 1)
      throw new Error(`cron field out of range: ${text}`);
    for (let value = low; value <= high; value += step) values.add(value);
  }
  return values;
}

/** True for a cron expression fwbot can read (five fields: minute hour day-of-month month day-of-week). */
export function isCron(expression: string): boolean {
  try {
    cronStarts({ startCron: expression, durationMinutes: 1 }, 0, 1);
    return true;
  } catch {
    return false;
  }
}

/** Start times of an SCC cron window in [from, until), read in UTC (SCC's fields are UTC). */
function cronStarts(window: CronWindow, from: number, until: number): number[] {
  const fields = window.startCron.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`a cron expression has five fields: ${window.startCron}`);
  const [minuteF, hourF, domF, monthF, dowF] = fields as [string, string, string, string, string];
  const minutes = cronField(minuteF, 0, 59);
  const hours = cronField(hourF, 0, 23);
  const doms = cronField(domF, 1, 31);
  const months = cronField(monthF, 1, 12);
  const dows = cronField(dowF.replace(/\b7\b/g, '0'), 0, 6);
  // Cron's rule: when both day fields are restricted, either may match.
  const anyDay = domF === '*' || dowF === '*';
  const starts: number[] = [];
  for (let day = Math.floor(from / DAY) * DAY; day < until; day += DAY) {
    const d = new Date(day);
    if (!months.has(d.getUTCMonth() + 1)) continue;
    const domOk = doms.has(d.getUTCDate());
    const dowOk = dows.has(d.getUTCDay());
    if (anyDay ? !(domOk && dowOk) : !(domOk || dowOk)) continue;
    for (const hour of [...hours].sort((a, b) => a - b))
      for (const minute of [...minutes].sort((a, b) => a - b)) {
        const at = day + hour * HOUR + minute * MINUTE;
        if (at >= from && at < until) starts.push(at);
      }
  }
  return starts;
}

/** An SCC maintenance window's openings that end after `from`, up to a year ahead (the first few). */
export function cronOpenings(window: CronWindow, from: number, limit = 32): Opening[] {
  const length = window.durationMinutes * MINUTE;
  if (length <= 0) return [];
  const openings: Opening[] = [];
  // Sliding a day at a time keeps a minutely cron from listing a year of starts at once.
  for (let day = from - length; day < from + CRON_HORIZON_DAYS * DAY && openings.length < limit; day += DAY) {
    for (const start of cronStarts(window, day, day + DAY)) {
      if (start + length > from) openings.push({ start, end: start + length });
      if (openings.length >= limit) break;
    }
  }
  return merge(openings);
}

/** Openings sorted, overlapping or touching ones joined. */
function merge(openings: Opening[]): Opening[] {
  const sorted = [...openings].sort((a, b) => a.start - b.start);
  const merged: Opening[] = [];
  for (const opening of sorted) {
    const last = merged.at(-1);
    if (last && opening.start <= last.end) last.end = Math.max(last.end, opening.end);
    else merged.push({ ...opening });
  }
  return merged;
}

/** The openings of one window from a moment on. */
export function openingsOf(window: ChangeWindow, from: number): Opening[] {
  return window.kind === 'policy' ? weeklyOpenings(window, from) : cronOpenings(window, from);
}

/**
 * Whether a device's windows are open at `now`, and when they close or next open. The rule: a device with
 * windows is open when ANY of them is open (the policy's and SCC's add up, each one a time someone agreed
 * changes may happen); a device with none is always open.
 */
export function windowState(windows: readonly ChangeWindow[], now: number): WindowState {
  if (windows.length === 0) return { open: true, closesAt: Number.POSITIVE_INFINITY };
  const openings = merge(windows.flatMap((window) => openingsOf(window, now)));
  const current = openings.find((o) => o.start <= now && now < o.end);
  if (current) return { open: true, closesAt: current.end };
  return { open: false, opensAt: openings.find((o) => o.start > now)?.start };
}

/**
 * The first moment at or after `from` when every device's windows are open together (a deploy to several
 * ASAs runs on all of them at once), or undefined when no such moment comes within the horizon.
 */
export function nextCommonOpening(
  devices: readonly (readonly ChangeWindow[])[],
  from: number,
): number | undefined {
  const candidates = [
    from,
    ...devices.flatMap((windows) =>
      windows.flatMap((window) => openingsOf(window, from).map((o) => Math.max(o.start, from))),
    ),
  ].sort((a, b) => a - b);
  return candidates.find((at) => devices.every((windows) => windowState(windows, at).open));
}

/** A weekly slot said as people write it: `Sat, Sun 22:00–04:00 Europe/Berlin`. */
export function describeWindow(window: ChangeWindow): string {
  if (window.kind === 'scc')
    return `SCC maintenance window (${window.startCron} UTC, ${window.durationMinutes} min)`;
  const slots = window.open.map(
    (slot) =>
      `${slot.days.map((d) => d.charAt(0).toUpperCase() + d.slice(1).toLowerCase()).join(', ')} ${slot.from}–${slot.to}`,
  );
  return `${slots.join('; ')} ${window.timeZone}`;
}

/** The zone a device's windows are read in: the first policy window's, else UTC (SCC's cron is UTC). */
export function windowsZone(devices: readonly DeviceWindows[]): string {
  for (const device of devices)
    for (const window of device.windows) if (window.kind === 'policy') return window.timeZone;
  return 'UTC';
}

/** `asa-hq-01: Sat, Sun 22:00–04:00 Europe/Berlin or SCC maintenance window (…)`, one device a clause. */
export function windowsText(devices: readonly DeviceWindows[]): string {
  return devices
    .filter((device) => device.windows.length > 0)
    .map((device) => `${device.device}: ${device.windows.map(describeWindow).join(' or ')}`)
    .join('; ');
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** How far away a moment is, in the largest unit that reads well: `in 2 days`, `in 3 hours`, `now`. */
export function fromNow(at: number, now: number): string {
  const ahead = at - now;
  if (ahead < MINUTE) return ahead < -MINUTE ? 'overdue' : 'now';
  const plural = (count: number, unit: string) => `in ${count} ${unit}${count === 1 ? '' : 's'}`;
  if (ahead < HOUR) return plural(Math.round(ahead / MINUTE), 'minute');
  if (ahead < 36 * HOUR) return plural(Math.round(ahead / HOUR), 'hour');
  return plural(Math.round(ahead / DAY), 'day');
}

/** A moment in one zone: `Sat 22:00 Europe/Berlin` (the date too when a week or more away). */
export function describeMoment(at: number, now: number, zone: string): string {
  const p = zonedParts(at, zone);
  const day = WEEKDAYS[p.weekday] ?? '';
  const far = at - now >= 6 * DAY;
  const date = far ? ` ${p.year}-${pad(p.month)}-${pad(p.day)}` : '';
  return `${day.charAt(0).toUpperCase()}${day.slice(1)}${date} ${pad(p.hour)}:${pad(p.minute)} ${zone}`;
}

/** A moment as the viewer reads it: `Sat 22:00 Europe/Berlin, in 2 days` (the date too when a week or more away). */
export function describeWhen(at: number, now: number, zone: string): string {
  return `${describeMoment(at, now, zone)}, ${fromNow(at, now)}`;
}

export type AtParse = { ok: true; at: number } | { ok: false; error: string };

/** How far ahead `--at` may schedule: a request is approved in days, not months. */
export const AT_HORIZON_DAYS = 30;

/**
 * The time `--at` names: an ISO time (`2026-11-28T22:00Z`, `2026-11-28T22:00+01:00`, or without an offset:
 * read in `zone`), `22:00` (its next occurrence in `zone`), or `sat 22:00` (the next Saturday, or today when
 * later). It must be in the future and within AT_HORIZON_DAYS.
 */
export function parseAt(text: string, now: number, zone: string): AtParse {
  const input = text.trim();
  const refuse = (why: string): AtParse => ({ ok: false, error: `\`--at ${input}\` ${why}` });
  let at: number | undefined;
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(
      input,
    );
  const weekly = /^(?:([a-z]{3})[a-z]*\s+)?(\d{1,2}):(\d{2})$/i.exec(input);
  if (iso) {
    const [, y, mo, d, h, mi, s, offset] = iso;
    if (offset) {
      at = Date.parse(
        `${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset.toUpperCase()}`,
      );
    } else {
      const date = { year: Number(y), month: Number(mo), day: Number(d) };
      const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
      if (check.getUTCMonth() + 1 === date.month && Number(h) < 24 && Number(mi) < 60)
        at = zonedTime(zone, date, Number(h), Number(mi));
    }
    if (at === undefined || Number.isNaN(at)) return refuse('is not a date and time that exists.');
  } else if (weekly) {
    const [, dayWord, h, mi] = weekly;
    const hour = Number(h);
    const minute = Number(mi);
    if (hour > 23 || minute > 59) return refuse('is not a time of day (00:00 to 23:59).');
    const weekday = dayWord ? WEEKDAYS.indexOf(dayWord.toLowerCase() as Weekday) : -1;
    if (dayWord && weekday < 0) return refuse(`names no weekday (${WEEKDAYS.join(', ')}).`);
    for (let offset = 0; offset <= 7 && at === undefined; offset += 1) {
      const date = dateAfter(now, zone, offset);
      if (weekday >= 0 && date.weekday !== weekday) continue;
      const candidate = zonedTime(zone, date, hour, minute);
      if (candidate > now) at = candidate;
    }
    if (at === undefined) return refuse('names no time ahead.');
  } else {
    return refuse(
      `is not a time: use an ISO time (2026-11-28T22:00Z), \`22:00\` or \`sat 22:00\` (${zone}).`,
    );
  }
  if (at <= now) return refuse('is in the past.');
  if (at - now > AT_HORIZON_DAYS * DAY) return refuse(`is more than ${AT_HORIZON_DAYS} days ahead.`);
  return { ok: true, at };
}
