import { describe, expect, it } from 'vitest';
import {
  type ChangeWindow,
  cronOpenings,
  describeWhen,
  isCron,
  isTimeZone,
  nextCommonOpening,
  parseAt,
  weeklyOpenings,
  windowState,
  zonedTime,
} from '../../src/model/changeWindows.js';

const at = (iso: string) => Date.parse(iso);
const BERLIN_WEEKEND: ChangeWindow = {
  kind: 'policy',
  timeZone: 'Europe/Berlin',
  open: [{ days: ['sat', 'sun'], from: '22:00', to: '04:00' }],
};
// SCC's seeded window on asa-hq-01: Saturdays 22:00 UTC for four hours.
const SCC_SATURDAY: ChangeWindow = { kind: 'scc', startCron: '0 22 * * 6', durationMinutes: 240 };

describe('policy windows', () => {
  it('is open inside a window that crosses midnight, closed outside, in the window’s zone', () => {
    // 2026-11-28 is a Saturday; Berlin is UTC+1 in November.
    expect(windowState([BERLIN_WEEKEND], at('2026-11-28T21:30:00Z'))).toEqual({
      open: true,
      closesAt: at('2026-11-29T03:00:00Z'),
    });
    expect(windowState([BERLIN_WEEKEND], at('2026-11-28T20:59:00Z'))).toEqual({
      open: false,
      opensAt: at('2026-11-28T21:00:00Z'),
    });
    // Monday 03:00 Berlin is still Sunday night's opening.
    expect(windowState([BERLIN_WEEKEND], at('2026-11-30T02:00:00Z')).open).toBe(true);
    expect(windowState([BERLIN_WEEKEND], at('2026-11-30T03:00:00Z'))).toEqual({
      open: false,
      opensAt: at('2026-12-05T21:00:00Z'),
    });
  });

  it('follows daylight saving: 22:00 Berlin is 20:00 UTC in summer', () => {
    expect(windowState([BERLIN_WEEKEND], at('2026-06-27T19:00:00Z'))).toEqual({
      open: false,
      opensAt: at('2026-06-27T20:00:00Z'),
    });
  });

  it('lands a time skipped by the spring change after the gap', () => {
    // 2026-03-29 02:30 does not exist in Berlin (02:00 → 03:00).
    expect(zonedTime('Europe/Berlin', { year: 2026, month: 3, day: 29 }, 2, 30)).toBe(
      at('2026-03-29T01:30:00Z'),
    );
    expect(zonedTime('Europe/Berlin', { year: 2026, month: 3, day: 29 }, 3, 0)).toBe(
      at('2026-03-29T01:00:00Z'),
    );
  });

  it('joins a Saturday and a Sunday slot that touch', () => {
    const all: ChangeWindow = {
      kind: 'policy',
      timeZone: 'UTC',
      open: [
        { days: ['sat'], from: '00:00', to: '00:00' },
        { days: ['sun'], from: '00:00', to: '06:00' },
      ],
    };
    expect(weeklyOpenings(all, at('2026-11-27T00:00:00Z'))[0]).toEqual({
      start: at('2026-11-28T00:00:00Z'),
      end: at('2026-11-29T06:00:00Z'),
    });
  });

  it('says a device without windows is always open', () => {
    expect(windowState([], 0).open).toBe(true);
  });
});

describe('SCC maintenance windows', () => {
  it('reads the cron start in UTC and stays open for its duration', () => {
    expect(windowState([SCC_SATURDAY], at('2026-11-28T23:00:00Z'))).toEqual({
      open: true,
      closesAt: at('2026-11-29T02:00:00Z'),
    });
    expect(windowState([SCC_SATURDAY], at('2026-11-26T23:00:00Z'))).toEqual({
      open: false,
      opensAt: at('2026-11-28T22:00:00Z'),
    });
  });

  it('reads lists, ranges and steps, and refuses what is not cron', () => {
    const first = cronOpenings(
      { startCron: '30 1-3/2 * * 1,3', durationMinutes: 10 },
      at('2026-11-26T00:00:00Z'),
    );
    expect(first.slice(0, 3).map((o) => new Date(o.start).toISOString())).toEqual([
      '2026-11-30T01:30:00.000Z',
      '2026-11-30T03:30:00.000Z',
      '2026-12-02T01:30:00.000Z',
    ]);
    expect(isCron('0 22 * * 6')).toBe(true);
    expect(isCron('0 25 * * 6')).toBe(false);
    expect(isCron('every saturday')).toBe(false);
  });

  it('is open when either the policy or SCC says open', () => {
    // Saturday 21:30 UTC: Berlin's window (21:00 UTC) is open, SCC's (22:00 UTC) not yet.
    expect(windowState([SCC_SATURDAY, BERLIN_WEEKEND], at('2026-11-28T21:30:00Z')).open).toBe(true);
    // Sunday 03:30 UTC: Berlin's closed at 03:00 UTC, SCC's at 02:00 UTC.
    expect(windowState([SCC_SATURDAY, BERLIN_WEEKEND], at('2026-11-29T03:30:00Z'))).toEqual({
      open: false,
      opensAt: at('2026-11-29T21:00:00Z'),
    });
  });
});

describe('several devices', () => {
  it('waits for the first moment all of them are open together', () => {
    const from = at('2026-11-26T23:00:00Z');
    // Berlin opens 21:00 UTC Saturday, SCC 22:00 UTC: together from 22:00 UTC.
    expect(nextCommonOpening([[BERLIN_WEEKEND], [SCC_SATURDAY], []], from)).toBe(at('2026-11-28T22:00:00Z'));
    expect(nextCommonOpening([[], []], from)).toBe(from);
  });

  it('finds none when the windows never meet', () => {
    const monday: ChangeWindow = {
      kind: 'policy',
      timeZone: 'UTC',
      open: [{ days: ['mon'], from: '01:00', to: '02:00' }],
    };
    expect(nextCommonOpening([[monday], [SCC_SATURDAY]], at('2026-11-26T23:00:00Z'))).toBeUndefined();
  });
});

describe('--at', () => {
  const now = at('2026-11-26T23:18:00Z'); // a Thursday

  it('reads a weekday and time in the zone given, the next one ahead', () => {
    expect(parseAt('sat 22:00', now, 'Europe/Berlin')).toEqual({ ok: true, at: at('2026-11-28T21:00:00Z') });
    expect(parseAt('Saturday 22:00', now, 'UTC')).toEqual({ ok: true, at: at('2026-11-28T22:00:00Z') });
    // Thursday 22:00 has passed: the next Thursday.
    expect(parseAt('thu 22:00', now, 'UTC')).toEqual({ ok: true, at: at('2026-12-03T22:00:00Z') });
  });

  it('reads a bare time as its next occurrence', () => {
    expect(parseAt('23:30', now, 'UTC')).toEqual({ ok: true, at: at('2026-11-26T23:30:00Z') });
    expect(parseAt('22:00', now, 'UTC')).toEqual({ ok: true, at: at('2026-11-27T22:00:00Z') });
  });

  it('reads ISO times with an offset as given and without one in the zone', () => {
    expect(parseAt('2026-11-28T22:00Z', now, 'Europe/Berlin')).toEqual({
      ok: true,
      at: at('2026-11-28T22:00:00Z'),
    });
    expect(parseAt('2026-11-28T22:00:00.000Z', now, 'UTC')).toEqual({
      ok: true,
      at: at('2026-11-28T22:00:00Z'),
    });
    expect(parseAt('2026-11-28T22:00+0100', now, 'UTC')).toEqual({
      ok: true,
      at: at('2026-11-28T21:00:00Z'),
    });
    expect(parseAt('2026-11-28T22:00', now, 'Europe/Berlin')).toEqual({
      ok: true,
      at: at('2026-11-28T21:00:00Z'),
    });
  });

  it('refuses the past, the far future, nonsense and impossible dates in a sentence', () => {
    expect(parseAt('2026-11-01T22:00Z', now, 'UTC')).toEqual({
      ok: false,
      error: '`--at 2026-11-01T22:00Z` is in the past.',
    });
    expect(parseAt('2027-06-01T22:00Z', now, 'UTC')).toEqual({
      ok: false,
      error: '`--at 2027-06-01T22:00Z` is more than 30 days ahead.',
    });
    expect(parseAt('soon', now, 'UTC')).toMatchObject({
      ok: false,
      error: expect.stringContaining('is not a time'),
    });
    expect(parseAt('2026-02-30T22:00', now, 'UTC')).toMatchObject({
      ok: false,
      error: expect.stringContaining('exists'),
    });
    expect(parseAt('25:00', now, 'UTC')).toMatchObject({ ok: false });
    expect(parseAt('fry 22:00', now, 'UTC')).toMatchObject({
      ok: false,
      error: expect.stringContaining('weekday'),
    });
  });
});

describe('saying when', () => {
  const now = at('2026-11-26T23:18:00Z');

  it('says the moment in the viewer’s zone and how far away it is', () => {
    expect(describeWhen(at('2026-11-28T21:00:00Z'), now, 'Europe/Berlin')).toBe(
      'Sat 22:00 Europe/Berlin, in 2 days',
    );
    expect(describeWhen(at('2026-11-27T02:00:00Z'), now, 'UTC')).toBe('Fri 02:00 UTC, in 3 hours');
    expect(describeWhen(at('2026-11-26T23:30:00Z'), now, 'UTC')).toBe('Thu 23:30 UTC, in 12 minutes');
    expect(describeWhen(at('2026-12-05T21:00:00Z'), now, 'UTC')).toBe('Sat 2026-12-05 21:00 UTC, in 9 days');
  });

  it('knows time zones through Intl', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
