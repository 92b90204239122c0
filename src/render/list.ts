// The shape every list view shares: a line saying what is shown (which page of how many, for which
// query), the table, a hint for the next step, and the paging buttons.
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import { code, table } from './format.js';
import { type PageInfo, pageButtons, pageRange } from './paging.js';

export interface ListViewSpec {
  /** What is listed, e.g. `Tenants` or `Interfaces of asa-hq-01`. */
  title: string;
  page: PageInfo;
  /** The query as typed, repeated so the reader knows what the list is filtered by. */
  query?: string | undefined;
  columns: string[];
  rows: unknown[][];
  /** Per-column cell limits where the default is too short. */
  widths?: (number | undefined)[];
  /** Columns (0-based) of numbers, e.g. a device count: Slack's table sorts them as numbers. */
  numeric?: number[];
  /** The next step, e.g. "`/fw tenants show <tenant>` for details." */
  hint?: string;
  /** Said when there is nothing to show, e.g. "No tenants match." */
  empty: string;
  /** Blocks to show before the table (e.g. a note about the device). */
  before?: ViewBlock[];
  /** Blocks after the table, before the buttons (e.g. download buttons). */
  after?: ViewBlock[];
}

export function listView(spec: ListViewSpec, meta: RenderMeta): View {
  const filter = spec.query ? ` matching ${code(spec.query)}` : '';
  const range = pageRange(spec.page);
  const blocks: ViewBlock[] = [...(spec.before ?? [])];
  if (spec.page.shown === 0) {
    blocks.push({ kind: 'text', text: `*${spec.title}*${filter}: ${spec.empty}` });
  } else {
    blocks.push({ kind: 'text', text: `*${spec.title}*${filter}: ${range}` });
    blocks.push(table(spec.columns, spec.rows, spec.widths, spec.numeric));
  }
  blocks.push(...(spec.after ?? []));
  if (spec.hint && spec.page.shown > 0) blocks.push({ kind: 'context', text: spec.hint });
  const buttons = pageButtons(meta, spec.page);
  if (buttons.length > 0) blocks.push({ kind: 'actions', buttons });
  return { summary: `${spec.title}${filter}: ${range}`, blocks, visibility: 'ephemeral' };
}

/** A page as SCC answers it, with the fields that may be missing filled from what was asked. */
export function pageInfo(
  data: {
    count?: number | null;
    offset?: number | null;
    limit?: number | null;
    items?: readonly unknown[] | null;
  },
  asked: { offset: number; limit: number },
): PageInfo {
  const shown = data.items?.length ?? 0;
  const offset = data.offset ?? asked.offset;
  return { offset, limit: data.limit ?? asked.limit, count: data.count ?? offset + shown, shown };
}
