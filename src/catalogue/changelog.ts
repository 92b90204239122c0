// What SCC itself recorded: `/fw changelog <device | tenant> [query] [--since …]` (every change to a
// device, with its user, action, diff and commands, made through fwbot, SCC's UI or its API) and
// `/fw audit-log [query] [--since …]` (logins, users added to or removed from the tenant, role changes).
// Both read only, for viewers (who is one, per channel, is the policy's).
//
// A window (`--since`) is SCC's own `timeRange` when it is exactly one of its values (5m, 15m, 30m, 1h)
// and the query does not name the time field; otherwise a range on that field in `q`. Never both: SCC
// refuses a `timeRange` beside a query on the field it is mapped to.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import {
  AUDIT_LOG_PAGE_SIZE,
  CHANGELOG_PAGE_SIZE,
  renderAuditLogs,
  renderChangelogs,
} from '../render/events.js';
import { pageInfo } from '../render/list.js';
import { EVENT_TIME_RANGES, type EventLogQuery, type EventTimeRange } from '../scc/events.js';
import type { Changelog, ChangelogPage } from '../scc/generated/models.js';
import { allOf, fieldIs, typedLucene } from '../scc/lucene.js';
import { fieldsOf } from '../scc/luceneSyntax.js';
import { isUuid, offset, optionalText } from './args.js';
import { OFFSET } from './common.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { resolveDevice } from './resolve.js';
import { isNotFound } from './sccErrors.js';

/** The word that names the whole tenant where a device is expected. */
export const TENANT_WORD = 'tenant';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
/** The longest duration `--since` takes; older events are asked for with a date. */
const MAX_SINCE_MS = 366 * UNIT_MS.d;

/** A `--since` as typed: a duration back from the time of the call, or a moment. */
export type Since =
  | { kind: 'duration'; ms: number; typed: string }
  | { kind: 'moment'; at: string; typed: string };

/**
 * `15m`, `1h`, `2d`, `1w` (minutes, hours, days, weeks), or a date (`2026-11-20`, midnight UTC) or an
 * ISO time (`2026-11-20T08:00:00Z`); undefined when it is none of them.
 */
export function parseSince(text: string): Since | undefined {
  const typed = text.trim();
  const duration = /^(\d{1,6})\s*(m|h|d|w)$/i.exec(typed);
  if (duration) {
    const unit = (duration[2] ?? 'm').toLowerCase() as keyof typeof UNIT_MS;
    const ms = Number(duration[1]) * UNIT_MS[unit];
    return ms > 0 && ms <= MAX_SINCE_MS ? { kind: 'duration', ms, typed } : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i.test(typed))
    return undefined;
  // A date alone, or a time without a zone, is UTC: the times fwbot shows are UTC too.
  const withZone =
    /[T ]\d{2}:\d{2}/.test(typed) && !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(typed) ? `${typed}Z` : typed;
  const at = new Date(withZone.replace(' ', 'T'));
  return Number.isNaN(at.getTime()) ? undefined : { kind: 'moment', at: at.toISOString(), typed };
}

const SINCE_HELP =
  'must be a duration such as 15m, 1h, 2d or 1w (up to 366 days), or a date such as 2026-11-20.';

function sinceArg() {
  return optionalText().transform((value, check) => {
    if (value === undefined) return undefined;
    const since = parseSince(value);
    if (!since) check.addIssue({ code: 'custom', message: SINCE_HELP });
    return since;
  });
}

/** SCC's `timeRange` for exactly one of its windows. */
function exactTimeRange(since: Since): EventTimeRange | undefined {
  if (since.kind !== 'duration') return undefined;
  return EVENT_TIME_RANGES.find((range) => {
    const unit = range.slice(-1) as keyof typeof UNIT_MS;
    return Number(range.slice(0, -1)) * UNIT_MS[unit] === since.ms;
  });
}

/**
 * The `q`, `searchText` and `timeRange` of a log query: text with a colon is Lucene (ANDed with the
 * rest), other text is SCC's free-text search; the window as above.
 */
export function eventLogQuery(
  parts: {
    clauses: readonly string[];
    query: string | undefined;
    since: Since | undefined;
    timeField: string;
  },
  now: number,
): Pick<EventLogQuery, 'q' | 'searchText' | 'timeRange'> {
  const typed = parts.query?.trim() || undefined;
  const lucene = typed?.includes(':') ? typedLucene(typed) : undefined;
  const clauses = [...parts.clauses];
  if (lucene) clauses.push(lucene.q);
  let timeRange: EventTimeRange | undefined;
  if (parts.since) {
    // SCC refuses timeRange beside a query that names the field it is mapped to.
    const namesTime = lucene !== undefined && fieldsOf(lucene.query).includes(parts.timeField);
    timeRange = namesTime ? undefined : exactTimeRange(parts.since);
    if (!timeRange) {
      const from =
        parts.since.kind === 'duration' ? new Date(now - parts.since.ms).toISOString() : parts.since.at;
      clauses.push(`${parts.timeField}:[${from.replace(/\.\d{3}Z$/, 'Z')} TO *]`);
    }
  }
  return {
    ...(clauses.length > 0 ? { q: allOf(...clauses) } : {}),
    ...(typed && !lucene ? { searchText: typed } : {}),
    ...(timeRange ? { timeRange } : {}),
  };
}

const SINCE = {
  name: 'since',
  kind: 'word',
  flag: true,
  optional: true,
  description: 'only events since then: 15m, 1h, 2d, 1w, or a date such as 2026-11-20 (UTC)',
} as const;

interface ChangelogResult {
  /** The device's name, or undefined for the whole tenant. */
  device?: string | undefined;
  page: ChangelogPage;
  asked: { offset: number; limit: number };
}

/** One change log read by its UUID, as a page of one. */
function single(log: Changelog): ChangelogPage {
  return { count: 1, offset: 0, limit: 1, items: [log] };
}

/** A UUID that is not a device may be a change log's (alerts and SCC's UI link to one). */
async function changelogByUid(ctx: OperationContext, uid: string): Promise<ChangelogResult | undefined> {
  try {
    const log = await ctx.scc.events.changelog(uid);
    return { device: log.entityName ?? undefined, page: single(log), asked: { offset: 0, limit: 1 } };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export const changelog = defineOperation({
  id: 'changelog',
  words: ['changelog'],
  area: 'changes',
  failure: 'Could not read SCC’s change log',
  summary:
    'SCC’s change log of a device or the whole tenant: who changed what, when, with the diff and commands',
  params: [
    {
      name: 'device',
      kind: 'device',
      optional: true,
      description: `device name or UUID (or a change log’s UUID), or \`${TENANT_WORD}\` for every device (the default)`,
    },
    {
      name: 'query',
      kind: 'query',
      optional: true,
      description: 'text anywhere in the events, or a Lucene query with field:value',
    },
    SINCE,
    OFFSET,
  ],
  args: z.object({ device: optionalText(), query: optionalText(), since: sinceArg(), offset: offset() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getDevices', 'getDevice', 'getChangelogs', 'getChangelog'],
  examples: [
    'changelog asa-hq-01',
    'changelog tenant --since 2d',
    'changelog asa-hq-01 Vlan20 --since 2026-11-20',
  ],
  // The alerts' "Show the change log" button runs it for a device.
  offeredAsButton: true,
  run: async (ctx, args): Promise<ChangelogResult> => {
    const target = args.device?.trim();
    let device: { uid: string; name: string } | undefined;
    if (target && target.toLowerCase() !== TENANT_WORD) {
      if (isUuid(target) && !args.query && !args.since) {
        const found = await deviceOrChangelog(ctx, target);
        if ('page' in found) return found;
        device = found;
      } else {
        device = await namedDevice(ctx, target);
      }
    }
    const asked = { offset: args.offset, limit: CHANGELOG_PAGE_SIZE };
    const query = eventLogQuery(
      {
        clauses: device ? [fieldIs('entityUid', device.uid)] : [],
        query: args.query,
        since: args.since,
        timeField: 'lastEventDate',
      },
      ctx.now(),
    );
    const page = await ctx.scc.events.changelogs({ ...query, ...asked });
    return { device: device?.name, page, asked };
  },
  render: ({ device, page, asked }, args, meta) =>
    renderChangelogs(
      page.items ?? [],
      pageInfo(page, asked),
      { device, since: args.since?.typed },
      args.query,
      meta,
    ),
});

/** The device a name picks out; a word that names none may have been meant as a search of the tenant. */
async function namedDevice(ctx: OperationContext, typed: string): Promise<{ uid: string; name: string }> {
  try {
    const found = await resolveDevice(ctx.scc, typed);
    return { uid: found.uid, name: found.name };
  } catch (error) {
    if (error instanceof UserError && error.message.startsWith('No device named'))
      throw new UserError(
        `${error.message} To search the change log of every device for it: \`/fw changelog ${TENANT_WORD} ${typed}\`.`,
      );
    throw error;
  }
}

/** A UUID names a device, else a change log; neither is a UserError that says so. */
async function deviceOrChangelog(
  ctx: OperationContext,
  uid: string,
): Promise<{ uid: string; name: string } | ChangelogResult> {
  try {
    const found = await resolveDevice(ctx.scc, uid);
    return { uid: found.uid, name: found.name };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const log = await changelogByUid(ctx, uid);
    if (log) return log;
    throw new UserError(`No device and no change log has the UUID ${uid}.`);
  }
}

export const auditLog = defineOperation({
  id: 'audit-log',
  words: ['audit-log'],
  area: 'audit',
  failure: 'Could not read SCC’s audit log',
  summary: 'SCC’s audit log: logins, users added to or removed from the tenant, role changes',
  params: [
    {
      name: 'query',
      kind: 'query',
      optional: true,
      description: 'text in the user name, or a Lucene query with field:value',
    },
    SINCE,
    OFFSET,
  ],
  args: z.object({ query: optionalText(), since: sinceArg(), offset: offset() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getAuditLogs'],
  examples: [
    'audit-log',
    'audit-log alice --since 1h',
    'audit-log eventType:USER_ROLE_CHANGED --since 2026-11-01',
  ],
  run: async (ctx, args) => {
    const asked = { offset: args.offset, limit: AUDIT_LOG_PAGE_SIZE };
    const query = eventLogQuery(
      { clauses: [], query: args.query, since: args.since, timeField: 'eventTime' },
      ctx.now(),
    );
    const page = await ctx.scc.events.auditLogs({ ...query, ...asked, sort: ['eventTime:DESC'] });
    return { page, asked };
  },
  render: ({ page, asked }, args, meta) =>
    renderAuditLogs(page.items ?? [], pageInfo(page, asked), args.since?.typed, args.query, meta),
});

/** SCC's own records: this area's operations, in the order help and the command table list them (index.ts). */
export const EVENT_LOG_OPERATIONS: readonly Operation[] = [changelog, auditLog];
