// Event-search reports with their download buttons. The reference leaves a report's fields open (a page
// of objects), so a report is read loosely: its name, status and dates where present, and the presigned
// download link wherever it is (a field whose name says URL and whose value is an https link).
import { z } from 'zod';
import type { RenderMeta } from '../catalogue/operation.js';
import { humanEnum, time, truncate } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import type { Button, View } from './view.js';

const Report = z.looseObject({
  uid: z.string().nullish(),
  name: z.string().nullish(),
  status: z.string().nullish(),
  createdDate: z.string().nullish(),
  completedDate: z.string().nullish(),
  rowCount: z.number().nullish(),
  createdBy: z.string().nullish(),
});

export interface ReportSummary {
  name: string;
  status: string | undefined;
  created: string | undefined;
  rows: number | undefined;
  downloadUrl: string | undefined;
}

function downloadUrlOf(item: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(item)) {
    if (/url/i.test(key) && typeof value === 'string' && /^https?:\/\//.test(value)) return value;
  }
  return undefined;
}

export function summariseReport(item: Record<string, unknown>): ReportSummary {
  const report = Report.safeParse(item);
  const known = report.success ? report.data : {};
  return {
    name: known.name ?? known.uid ?? 'report',
    status: known.status ?? undefined,
    created: known.createdDate ?? undefined,
    rows: known.rowCount ?? undefined,
    downloadUrl: downloadUrlOf(item),
  };
}

/** Reports per page: each may bring a download button, and a button row holds few on a phone. */
export const REPORTS_PAGE_SIZE = 10;

export function renderReports(
  items: readonly Record<string, unknown>[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  const reports = items.map(summariseReport);
  const buttons: Button[] = reports.flatMap((r) =>
    r.downloadUrl ? [{ label: truncate(`Download ${r.name}`, 75), url: r.downloadUrl }] : [],
  );
  return listView(
    {
      title: 'Event-search reports',
      page,
      query,
      columns: ['Name', 'Status', 'Created', 'Rows'],
      rows: reports.map((r) => [r.name, humanEnum(r.status), time(r.created), r.rows]),
      after: buttons.length > 0 ? [{ kind: 'actions', buttons }] : [],
      hint: 'Download links are presigned and expire: run the command again for fresh ones.',
      empty: 'no reports.',
    },
    meta,
  );
}
