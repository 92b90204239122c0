// Event-search reports: `/fw reports [query]`, each finished report with its download link.
import { z } from 'zod';
import { pageInfo } from '../render/list.js';
import { REPORTS_PAGE_SIZE, renderReports } from '../render/reports.js';
import { listArgs, OFFSET, pageQuery, queryParam } from './common.js';
import { defineOperation, type Operation } from './operation.js';

export const reportsList = defineOperation({
  id: 'reports',
  words: ['reports'],
  area: 'reports',
  failure: 'Could not list the reports',
  summary: 'List event-search reports, with download links for finished ones',
  params: [queryParam('report'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  approval: 'never',
  scc: ['getSearchReports'],
  examples: ['reports', 'reports blocked', 'reports status:COMPLETED'],
  run: async (ctx, args) =>
    (await ctx.scc.call('getSearchReports', { query: pageQuery(args, 'name', REPORTS_PAGE_SIZE) })).data,
  render: (data, args, meta) =>
    renderReports(
      data.items ?? [],
      pageInfo(data, pageQuery(args, 'name', REPORTS_PAGE_SIZE)),
      args.query,
      meta,
    ),
});

/** Event-search reports: this area's operations, in the order help and the command table list them (index.ts). */
export const REPORT_OPERATIONS: readonly Operation[] = [reportsList];
