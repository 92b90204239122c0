// The events cut (scc-openapi-events.yaml): SCC's change log (getChangelogs, getChangelog), the audit
// log (getAuditLogs) and what the calling token is (getToken). Lists page with `limit` / `offset`, filter
// with `q` and `searchText` (ANDed), and take a `timeRange` (5m, 15m, 30m, 1h) mapped to lastEventDate /
// eventTime, which cannot be combined with a `q` on that field. The audit log is for admins only (403).
// Answers are typed with simulator-local shapes of the reference's schemas, so the simulator does not
// depend on the generated models of this cut.
import { createHash } from 'node:crypto';
import { fieldsOf, parseLucene } from '../../scc/luceneSyntax.js';
import { forbidden, invalidInput, notFound } from '../errors.js';
import type { Handler, RequestContext } from '../http/context.js';
import { uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { iso } from '../runtime.js';
import type { AuditLogRecord, ChangelogRecord, UserRole } from '../state/model.js';

/** The reference's Changelog, Event, AuditLog and CdoTokenInfo, as the simulator answers them. */
export interface ChangelogEventDto {
  action: 'CREATE' | 'UPDATE' | 'DELETE' | 'ERROR' | 'UNKNOWN';
  username: string;
  date: string;
  description: string;
  diff?: string;
  commands?: string;
  changeRequestName?: string;
  changeRequestUid?: string;
}

export interface ChangelogDto {
  uid: string;
  entityUid: string;
  entityName: string;
  status: 'ACTIVE' | 'COMPLETED' | 'UNKNOWN';
  lastEventDate: string;
  events: ChangelogEventDto[];
}

export interface AuditLogDto {
  uid: string;
  eventType: AuditLogRecord['eventType'];
  username: string;
  roles: UserRole[];
  eventTime: string;
  eventDescription: string;
}

export interface CdoTokenInfoDto {
  uid: string;
  name: string;
  roles: UserRole[];
  tenantUid: string;
  tenantName: string;
  tenantPayType: string;
  enterpriseId?: string;
  expiresAt?: string;
}

/** `timeRange` values and how far back each reaches. */
const TIME_RANGES: Record<string, number> = {
  '5m': 5 * 60_000,
  '15m': 15 * 60_000,
  '30m': 30 * 60_000,
  '1h': 3_600_000,
};

/** Roles that may read the audit log. */
const AUDIT_READERS: ReadonlySet<UserRole> = new Set<UserRole>(['ROLE_SUPER_ADMIN', 'ROLE_ADMIN']);

export function changelogDto(log: ChangelogRecord): ChangelogDto {
  return {
    uid: log.uid,
    entityUid: log.entityUid,
    entityName: log.entityName,
    status: log.status,
    lastEventDate: iso(log.lastEventDate),
    events: log.events.map((e) => ({
      action: e.action,
      username: e.username,
      date: iso(e.date),
      description: e.description,
      ...(e.diff === undefined ? {} : { diff: e.diff }),
      ...(e.commands === undefined ? {} : { commands: e.commands }),
      ...(e.changeRequest === undefined
        ? {}
        : { changeRequestName: e.changeRequest.name, changeRequestUid: e.changeRequest.uid }),
    })),
  };
}

function auditDto(entry: AuditLogRecord): AuditLogDto {
  return {
    uid: entry.uid,
    eventType: entry.eventType,
    username: entry.username,
    roles: [...entry.roles],
    eventTime: iso(entry.eventTime),
    eventDescription: entry.eventDescription,
  };
}

const changelogFields: FieldTable<ChangelogRecord> = {
  uid: { kind: 'string', get: (l) => l.uid },
  entityUid: { kind: 'string', get: (l) => l.entityUid },
  entityName: { kind: 'string', get: (l) => l.entityName },
  status: { kind: 'string', get: (l) => l.status },
  lastEventDate: { kind: 'date', get: (l) => l.lastEventDate },
  'events.username': { kind: 'string', get: (l) => l.events.map((e) => e.username) },
  'events.action': { kind: 'string', get: (l) => l.events.map((e) => e.action) },
  'events.description': { kind: 'string', get: (l) => l.events.map((e) => e.description) },
  'events.date': { kind: 'date', get: (l) => l.events.map((e) => e.date) },
  'events.changeRequestName': {
    kind: 'string',
    get: (l) => l.events.flatMap((e) => (e.changeRequest === undefined ? [] : [e.changeRequest.name])),
  },
};

const auditFields: FieldTable<AuditLogRecord> = {
  uid: { kind: 'string', get: (a) => a.uid },
  eventType: { kind: 'string', get: (a) => a.eventType },
  username: { kind: 'string', get: (a) => a.username },
  roles: { kind: 'string', get: (a) => a.roles },
  eventTime: { kind: 'date', get: (a) => a.eventTime },
  eventDescription: { kind: 'string', get: (a) => a.eventDescription },
};

/**
 * The earliest time `timeRange` admits (undefined without one); 400 for a value outside the enum, or when
 * `q` also queries the field the range is mapped to.
 */
function timeRangeStart(ctx: RequestContext, field: string): number | undefined {
  const raw = ctx.query.get('timeRange');
  if (raw === null) return undefined;
  const span = TIME_RANGES[raw];
  if (span === undefined) {
    throw invalidInput(`timeRange must be one of ${Object.keys(TIME_RANGES).join(', ')}`, {
      timeRange: { message: 'must be one of 5m, 15m, 30m, 1h', value: raw },
    });
  }
  const q = ctx.query.get('q');
  if (q !== null && q.trim() !== '' && queriedFields(q).includes(field)) {
    throw invalidInput(`timeRange cannot be used with a query on ${field}`, {
      timeRange: { message: `cannot be used together with a q on ${field}`, value: raw },
    });
  }
  return ctx.now - span;
}

/** The fields a `q` names; a malformed `q` names none here and is refused by the list engine. */
function queriedFields(q: string): string[] {
  try {
    return fieldsOf(parseLucene(q));
  } catch {
    return [];
  }
}

/** `searchText`: a case-insensitive substring of any of `texts`. */
function matchesText(search: string | null, texts: readonly (string | undefined)[]): boolean {
  if (search === null || search.trim() === '') return true;
  const needle = search.trim().toLowerCase();
  return texts.some((t) => t?.toLowerCase().includes(needle) === true);
}

const tenantChangelogs = (ctx: RequestContext) =>
  [...ctx.state.changelogs.values()].filter((l) => l.tenantUid === ctx.principal.tenant.uid);

export const getChangelogs: Handler = (ctx) => {
  const since = timeRangeStart(ctx, 'lastEventDate');
  const search = ctx.query.get('searchText');
  const logs = tenantChangelogs(ctx)
    .filter((l) => since === undefined || l.lastEventDate >= since)
    .filter((l) =>
      matchesText(search, [
        l.uid,
        l.entityUid,
        l.entityName,
        l.status,
        ...l.events.flatMap((e) => [e.action, e.username, e.description, e.diff, e.commands]),
      ]),
    )
    .sort((a, b) => b.lastEventDate - a.lastEventDate);
  // The reference declares no `sort` here: newest first.
  const page = listPage(ctx.query, logs, { fields: changelogFields, search: true });
  return { status: 200, body: { ...page, items: page.items.map(changelogDto) } };
};

export const getChangelog: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'changelogUid');
  const log = ctx.state.changelogs.get(uid);
  if (log === undefined || log.tenantUid !== ctx.principal.tenant.uid) {
    throw notFound(`Change log ${uid} not found`, { changelogUid: { value: uid } });
  }
  return { status: 200, body: changelogDto(log) };
};

export const getAuditLogs: Handler = (ctx) => {
  if (!AUDIT_READERS.has(ctx.principal.role)) {
    throw forbidden(
      `User ${ctx.principal.username} has role ${ctx.principal.role}: reading the audit log needs ROLE_ADMIN or ROLE_SUPER_ADMIN`,
    );
  }
  const since = timeRangeStart(ctx, 'eventTime');
  const search = ctx.query.get('searchText');
  const entries = ctx.state.auditLogs
    .filter((a) => a.tenantUid === ctx.principal.tenant.uid)
    .filter((a) => since === undefined || a.eventTime >= since)
    .filter((a) => matchesText(search, [a.username]))
    .sort((a, b) => b.eventTime - a.eventTime);
  const page = listPage(ctx.query, entries, { fields: auditFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map(auditDto) } };
};

export const getToken: Handler = (ctx) => {
  const { token, tenant } = ctx.principal;
  const user =
    tenant.users.find((u) => u.uid === token.userUid) ??
    tenant.users.find((u) => u.username.toLowerCase() === token.username.toLowerCase());
  const body: CdoTokenInfoDto = {
    // A token without a user record of its tenant (minted) is an API-only user of its own.
    uid: user?.uid ?? token.userUid ?? tokenUserUid(token.token),
    name: token.username,
    roles: [ctx.principal.role],
    tenantUid: tenant.uid,
    tenantName: tenant.name,
    tenantPayType: tenant.tenantPayType,
    enterpriseId: tenant.sccOrganizationUid,
    ...(token.expiresAt === undefined ? {} : { expiresAt: iso(token.expiresAt) }),
  };
  return { status: 200, body };
};

/** A stable UUID-shaped id for a token that has no user record (derived from the token's text). */
function tokenUserUid(token: string): string {
  const h = createHash('sha256').update(token).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const eventHandlers = { getChangelogs, getChangelog, getAuditLogs, getToken };
