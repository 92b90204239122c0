// `--since` and the log queries it makes: SCC's own `timeRange` only for exactly one of its windows and
// never beside a query on the time field; a range in `q` otherwise; free text as `searchText`.
import { describe, expect, it } from 'vitest';
import { eventLogQuery, parseSince } from '../../src/catalogue/changelog.js';
import { catalogue } from './harness.js';

const NOW = Date.parse('2026-11-26T19:00:00Z');

function query(text: string | undefined, since: string | undefined, clauses: string[] = []) {
  const parsed = since === undefined ? undefined : parseSince(since);
  return eventLogQuery({ clauses, query: text, since: parsed, timeField: 'lastEventDate' }, NOW);
}

describe('--since', () => {
  it('reads durations in minutes, hours, days and weeks', () => {
    expect(parseSince('15m')).toEqual({ kind: 'duration', ms: 15 * 60_000, typed: '15m' });
    expect(parseSince('2D')).toEqual({ kind: 'duration', ms: 2 * 86_400_000, typed: '2D' });
    expect(parseSince('1w')).toMatchObject({ ms: 7 * 86_400_000 });
  });

  it('reads dates and times as UTC unless they say otherwise', () => {
    expect(parseSince('2026-11-20')).toMatchObject({ kind: 'moment', at: '2026-11-20T00:00:00.000Z' });
    expect(parseSince('2026-11-20T08:30')).toMatchObject({ at: '2026-11-20T08:30:00.000Z' });
    expect(parseSince('2026-11-20 08:30:00+01:00')).toMatchObject({ at: '2026-11-20T07:30:00.000Z' });
  });

  it('refuses what is neither, nothing and too much', () => {
    for (const text of ['yesterday', '0m', '2y', '400d', '2026-13-45', '15', '-1h', '2026-11-20T25:00'])
      expect(parseSince(text), text).toBeUndefined();
  });

  it('says what it takes when the command gives something else', () => {
    const op = catalogue.get('changelog');
    expect(op?.validate({ since: 'last week', offset: undefined })).toEqual([
      {
        arg: 'since',
        message:
          'must be a duration such as 15m, 1h, 2d or 1w (up to 366 days), or a date such as 2026-11-20.',
      },
    ]);
  });
});

describe('log queries', () => {
  it('sends SCC’s own window when the duration is exactly one of its values', () => {
    expect(query(undefined, '15m')).toEqual({ timeRange: '15m' });
    expect(query(undefined, '60m')).toEqual({ timeRange: '1h' });
  });

  it('sends a range on the time field for any other window', () => {
    expect(query(undefined, '2h')).toEqual({ q: 'lastEventDate:[2026-11-26T17:00:00Z TO *]' });
    expect(query(undefined, '2026-11-20')).toEqual({ q: 'lastEventDate:[2026-11-20T00:00:00Z TO *]' });
  });

  it('never sends timeRange beside a query on the time field', () => {
    expect(query('lastEventDate:[* TO 2026-11-26T00:00:00Z]', '1h')).toEqual({
      q: 'lastEventDate:[* TO "2026-11-26T00:00:00Z"] AND lastEventDate:[2026-11-26T18:00:00Z TO *]',
    });
  });

  it('narrows with free text as searchText and with Lucene as q, ANDed with the device', () => {
    expect(query('Vlan20', '1h', ['entityUid:abc'])).toEqual({
      q: 'entityUid:abc',
      searchText: 'Vlan20',
      timeRange: '1h',
    });
    expect(query('status:ACTIVE', undefined, ['entityUid:abc'])).toEqual({
      q: 'entityUid:abc AND status:ACTIVE',
    });
    expect(query('status:ACTIVE', undefined)).toEqual({ q: 'status:ACTIVE' });
    expect(query(undefined, undefined)).toEqual({});
  });
});
