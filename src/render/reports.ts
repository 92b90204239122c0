// Event-search reports with their download buttons. The reference leaves a report's fields open (a page
// of objects), so a report is read loosely: its name, status and dates where present, and the presigned
// download link wherever it is (a field whose name says URL). Only a link isLinkableUrl accepts (https,
// or http to a loopback address: the simulator) becomes a button; any other is said in a sentence and
// not shown, so SCC data cannot send people to a plain-http or `javascript:` address.
import { z } from 'zod';
import type { RenderMeta } from '../model/types.js';
import type { Button, View, ViewBlock } from '../model/view.js';
import { humanEnum, isLinkableUrl, time, truncate } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';

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
  /** The download link, when SCC gave one that may be offered (see isLinkableUrl). */
  downloadUrl: string | undefined;
  /** SCC gave a download link that is not offered: not https. */
  refusedUrl: boolean;
}

/** Values of fields named like a URL that are written like one (a scheme, e.g. `https:`, `javascript:`). */
function downloadUrlsOf(item: Record<string, unknown>): string[] {
  return Object.entries(item).flatMap(([key, value]) =>
    /url/i.test(key) && typeof value === 'string' && /^\s*[a-z][a-z0-9+.-]*:/i.test(value) ? [value] : [],
  );
}

export function summariseReport(item: Record<string, unknown>): ReportSummary {
  const report = Report.safeParse(item);
  const known = report.success ? report.data : {};
  const urls = downloadUrlsOf(item);
  const downloadUrl = urls.find(isLinkableUrl);
  return {
    name: known.name ?? known.uid ?? 'report',
    status: known.status ?? undefined,
    created: known.createdDate ?? undefined,
    rows: known.rowCount ?? undefined,
    downloadUrl,
    refusedUrl: downloadUrl === undefined && urls.length > 0,
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
  const refused = reports.filter((r) => r.refusedUrl).map((r) => r.name);
  const after: ViewBlock[] = buttons.length > 0 ? [{ kind: 'actions', buttons }] : [];
  if (refused.length > 0) {
    const names = refused.map((name) => `“${truncate(name, 60)}”`).join(', ');
    const one = refused.length === 1;
    after.push({
      kind: 'context',
      text: one
        ? `SCC's download link for ${names} is not https, so fwbot does not offer it; download the report in SCC.`
        : `SCC's download links for ${names} are not https, so fwbot does not offer them; download the reports in SCC.`,
    });
  }
  return listView(
    {
      title: 'Event-search reports',
      page,
      query,
      columns: ['Name', 'Status', 'Created', 'Rows'],
      rows: reports.map((r) => [r.name, humanEnum(r.status), time(r.created), r.rows]),
      numeric: [3],
      after,
      hint: 'Download links are presigned and expire: run the command again for fresh ones.',
      empty: 'no reports.',
    },
    meta,
  );
}
