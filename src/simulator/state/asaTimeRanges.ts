// ASA time-ranges (`time-range NAME` with ` absolute [start HH:MM DD Month YYYY] [end HH:MM DD Month YYYY]`
// lines), as an access rule names them (`access-list … time-range NAME`): the rule matches only while its
// range is active on the device's clock (the simulator's, in UTC). Periodic lines are not modelled: the
// access rule API refuses them (api/accessRules.ts). Pure functions over policy lines.
import type { TimeRange } from './asaPolicyModel.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const MOMENT = /^(\d{2}):(\d{2}) (\d{1,2}) ([A-Za-z]+) (\d{4})$/;

/** `00:00 12 June 2031` as ms (UTC), or undefined when it is not a moment an ASA takes. */
function momentOf(text: string): number | undefined {
  const m = MOMENT.exec(text);
  if (m === null) return undefined;
  const [, hh = '', mm = '', day = '', monthName = '', year = ''] = m;
  const month = MONTHS.findIndex((name) => name.toLowerCase() === monthName.toLowerCase());
  if (month === -1 || Number(hh) > 23 || Number(mm) > 59) return undefined;
  const at = Date.UTC(Number(year), month, Number(day), Number(hh), Number(mm));
  return new Date(at).getUTCDate() === Number(day) ? at : undefined;
}

/** The moment as an ASA writes it: `00:00 12 June 2031`. */
export function asaMoment(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** An `absolute …` line read: its start and end (either may be absent), or undefined when it is not one. */
export function parseAbsolute(line: string): { start?: number; end?: number } | undefined {
  const m = /^absolute(?: start (.+?))?(?: end (.+))?$/.exec(line.trim());
  if (m === null || (m[1] === undefined && m[2] === undefined)) return undefined;
  const start = m[1] === undefined ? undefined : momentOf(m[1]);
  const end = m[2] === undefined ? undefined : momentOf(m[2]);
  if ((m[1] !== undefined && start === undefined) || (m[2] !== undefined && end === undefined))
    return undefined;
  if (start !== undefined && end !== undefined && end <= start) return undefined;
  return { ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }) };
}

export const TIME_RANGE_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

/** The time-ranges of a configuration's lines: each `time-range NAME` block and its body. */
export function timeRangesOf(lines: readonly string[]): TimeRange[] {
  const out: TimeRange[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const head = /^time-range (\S+)$/.exec(lines[i] ?? '');
    if (head === null) continue;
    const body: string[] = [];
    while ((lines[i + 1] ?? '').startsWith(' ')) {
      i += 1;
      body.push((lines[i] ?? '').trim());
    }
    const absolute = body.map(parseAbsolute).find((a) => a !== undefined);
    out.push({ name: head[1] ?? '', body, ...(absolute ?? {}) });
  }
  return out;
}

/** Whether a range lets its rules match at `at` (an ASA: from its start, until its end). */
export function timeRangeActive(range: TimeRange, at: number): boolean {
  return (range.start === undefined || at >= range.start) && (range.end === undefined || at < range.end);
}
