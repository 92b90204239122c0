// SCC's change log and audit log as views. A change log is one per device (or manager, or service) and
// holds its events; the view lists the events of a page of change logs newest first, and puts every
// event's diff and commands into one preformatted block, which a surface uploads as a file when it is
// long. The audit log is one row per event.
import { maskConfigSecrets } from '../model/configSecrets.js';
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type { AuditLog, Changelog } from '../scc/generated/models.js';
import { counted, humanEnum, time } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';

/** Change logs per page: each holds several events, so fewer than a list's usual 25. */
export const CHANGELOG_PAGE_SIZE = 10;
export const AUDIT_LOG_PAGE_SIZE = 25;
/** Rows of events in one message's table; the file with the diffs holds every event of the page. */
export const MAX_EVENT_ROWS = 50;

/** What the change log was asked for, as the view's title and the file's name say it. */
export interface ChangelogScope {
  /** The device's name; undefined for the whole tenant. */
  device?: string | undefined;
  /** The window as the user typed it (`2d`, `2026-11-20`); undefined for no window. */
  since?: string | undefined;
}

/** One event with the change log it belongs to. */
export interface ChangelogRow {
  entityName: string;
  status: string | null | undefined;
  date: string | null | undefined;
  username: string | null | undefined;
  action: string | null | undefined;
  description: string | null | undefined;
  diff: string | null | undefined;
  commands: string | null | undefined;
  changeRequestName: string | null | undefined;
}

/** Every event of the change logs, newest first (SCC lists the logs newest first, not their events). */
export function changelogRows(logs: readonly Changelog[]): ChangelogRow[] {
  const rows = logs.flatMap((log) =>
    (log.events ?? []).map((event) => ({
      entityName: log.entityName ?? log.entityUid ?? log.uid,
      status: log.status,
      date: event.date,
      username: event.username,
      action: event.action,
      description: event.description,
      diff: event.diff,
      commands: event.commands,
      changeRequestName: event.changeRequestName,
    })),
  );
  return rows.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
}

function sinceWords(since: string | undefined): string {
  if (!since) return '';
  return /^\d+[a-z]+$/i.test(since) ? ` in the last ${since}` : ` since ${since}`;
}

/** The diffs and commands of the events that have any, each under a line saying which event it is. */
export function changelogDetails(rows: readonly ChangelogRow[]): string {
  return rows
    .filter((row) => row.diff || row.commands)
    .map((row) => {
      const head = `# ${time(row.date)} · ${row.username ?? 'unknown user'} · ${row.action ?? 'UNKNOWN'} · ${row.entityName}`;
      const parts = [head, `# ${row.description ?? ''}`.trimEnd()];
      // SCC's change log carries the configuration as it is: its secrets are masked here.
      if (row.diff) parts.push('## diff', maskConfigSecrets(row.diff.trimEnd()));
      if (row.commands) parts.push('## commands', maskConfigSecrets(row.commands.trimEnd()));
      return parts.join('\n');
    })
    .join('\n\n');
}

function fileName(scope: ChangelogScope): string {
  const what = (scope.device ?? 'tenant').replace(/[^\w.-]+/g, '_');
  return `changelog-${what}.txt`;
}

export function renderChangelogs(
  logs: readonly Changelog[],
  page: PageInfo,
  scope: ChangelogScope,
  query: string | undefined,
  meta: RenderMeta,
): View {
  const rows = changelogRows(logs);
  const shown = rows.slice(0, MAX_EVENT_ROWS);
  const details = changelogDetails(rows);
  const after: ViewBlock[] = [];
  if (rows.length > shown.length)
    after.push({
      kind: 'context',
      text: `The table shows the newest ${MAX_EVENT_ROWS} of these change logs’ ${rows.length} events; the file below holds the diffs of all of them.`,
    });
  if (details !== '') after.push({ kind: 'code', text: details, filename: fileName(scope) });
  const title = `Change log of ${scope.device ?? 'the tenant'}${sinceWords(scope.since)}`;
  const columns = scope.device
    ? ['When', 'Who', 'Action', 'Description', 'Status']
    : ['When', 'Who', 'Device', 'Action', 'Description', 'Status'];
  return listView(
    {
      title,
      page,
      query,
      columns,
      rows: shown.map((row) => [
        time(row.date),
        row.username,
        ...(scope.device ? [] : [row.entityName]),
        humanEnum(row.action),
        row.changeRequestName ? `${row.description ?? ''} (${row.changeRequestName})` : row.description,
        // ACTIVE: the change log still has changes that are not on the device.
        row.status === 'ACTIVE' ? 'not deployed' : humanEnum(row.status),
      ]),
      widths: scope.device ? [undefined, 40, undefined, 80] : [undefined, 40, undefined, undefined, 80],
      hint: `${counted(logs.length, 'change log')}, ${counted(rows.length, 'event')} on this page. A device has one change log while its changes are not deployed, then a new one.`,
      empty: 'no changes recorded.',
      after,
    },
    meta,
  );
}

export function renderAuditLogs(
  entries: readonly AuditLog[],
  page: PageInfo,
  since: string | undefined,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: `Audit log${sinceWords(since)}`,
      page,
      query,
      columns: ['When', 'Event', 'User', 'Roles', 'Description'],
      rows: entries.map((entry) => [
        time(entry.eventTime),
        humanEnum(entry.eventType),
        entry.username,
        (entry.roles ?? []).map(humanEnum).join(', '),
        entry.eventDescription,
      ]),
      widths: [undefined, undefined, 40, 40, 80],
      hint: 'Logins, users added to or removed from the tenant, and role changes, as SCC recorded them.',
      empty: 'no events recorded.',
    },
    meta,
  );
}
