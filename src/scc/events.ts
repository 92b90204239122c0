// What happened in SCC, as SCC itself recorded it: the change log (every change to a device, manager or
// service, with the user, the action, a textual diff and the commands), the audit log (users logging in,
// added to or removed from a tenant, roles changed) and what the configured token is (its user, tenant and
// roles). Read by `/fw changelog`, `/fw audit-log`, the deploy card's attribution and the alerts scan.
import type { CallOptions, PageQuery, SccCaller, SortOrder } from './call.js';
import type * as Model from './generated/models.js';

/**
 * SCC's own short windows (`timeRange`). The vendor maps them to the log's time field (lastEventDate,
 * eventTime) and refuses them beside a query on that field: a longer or other window is a `q` range instead.
 */
export const EVENT_TIME_RANGES = ['5m', '15m', '30m', '1h'] as const;
export type EventTimeRange = (typeof EVENT_TIME_RANGES)[number];

export interface EventLogQuery extends PageQuery {
  /** Lucene over the log's fields, e.g. `entityUid:…`, `lastEventDate:[2026-11-01T00:00:00Z TO *]`. */
  q?: string;
  /** Free text: every field of a change log; the username fields of an audit log. */
  searchText?: string;
  /** Never together with a `q` on the time field (the vendor says so). */
  timeRange?: EventTimeRange;
}

export interface AuditLogQuery extends EventLogQuery {
  sort?: readonly SortOrder[];
}

export interface EventsArea {
  /** Change logs, the most recent first as SCC returns them. */
  changelogs(query?: EventLogQuery, options?: CallOptions): Promise<Model.ChangelogPage>;
  changelog(changelogUid: string, options?: CallOptions): Promise<Model.Changelog>;
  auditLogs(query?: AuditLogQuery, options?: CallOptions): Promise<Model.AuditLogPage>;
  /** The configured token: its user, tenant, roles and expiry. */
  token(options?: CallOptions): Promise<Model.CdoTokenInfo>;
}

export function createEventsArea({ call }: SccCaller): EventsArea {
  return {
    changelogs: async (query = {}, options = {}) => (await call('getChangelogs', { query, ...options })).data,
    changelog: async (changelogUid, options = {}) =>
      (await call('getChangelog', { path: { changelogUid }, ...options })).data,
    auditLogs: async (query = {}, options = {}) => (await call('getAuditLogs', { query, ...options })).data,
    token: async (options = {}) => (await call('getToken', options)).data,
  };
}
