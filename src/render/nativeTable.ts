// A View table as Slack's native `data_table` block, within the block's own limits; blocks.ts decides
// where one may go (messages, once) and how much room it gets. Pure.
//
// What Slack documents, and what this module relies on (docs.slack.dev, read 2026-11-25):
// - Block Kit blocks reference (/reference/block-kit/blocks): `table` and `data_table` may be used in
//   messages and Home tabs, not in modals (modals keep the monospace table, blocks.ts).
// - Data table block (/reference/block-kit/blocks/data-table-block; generally available since the
//   2026-05-20 changelog "New Block Kit data table block"): paging, sorting and filtering in the client;
//   the first row is the header and may not hold rich_text; 2 to 101 rows (the header and 1 to 100 rows),
//   1 to 20 columns, every row the same number of cells; "the character count across all cells cannot
//   exceed 10,000 characters"; raw_text / raw_number cells need a text of at least 1 character; a column
//   of raw_number cells only sorts as numbers; `page_size` 1 to 100 (default 5); `caption` is required
//   (the table's HTML caption) and `row_header_column_index` (default 0) is the column screen readers
//   announce as naming each row.
// - Table block (/reference/block-kit/blocks/table-block): at most 100 rows of 20 cells, 10,000 characters
//   across the cells of one table and across all table cells of one message; "large tables should be
//   broken up into separate messages".
// - One table per message: Slack refuses a second with `invalid_attachments` / `only_one_table_allowed`,
//   and data_table counts as a table (slackapi's slack-skills-plugin guidance; the reference pages do not
//   say it). So a view's second table stays monospace text (blocks.ts).
// - raw_text is literal: Slack shows `<@U…>`, `<https://…|…>` and bare URLs in it as typed (measured in a
//   workspace, CopilotKit/CopilotKit#6481; the reference says only that raw_text "supports more basic
//   characters"). That is one measurement of an undocumented behaviour, so cells do not rely on it: the
//   angle brackets of anything Slack could read as a mention, a special or a link (`<@…>`, `<#…>`, `<!…>`,
//   `<scheme:…>`) show as ‹ and › (escaping them as entities would show `&lt;` if raw_text is as literal as
//   measured). Mentions fwbot made read `@U…`; characters a reader cannot see are escaped (format's cellText).
// - Notifications (changelog 2026-07-13, "Desktop notifications now pull text from blocks first"): mobile
//   notifications use only the message's `text`, so that text names the table's rows (blocks.ts).
// data_table rather than table: it pages within the message (a 25-row page of SCC reads ten at a time),
// sorts and filters, and carries the caption and row header that screen readers use; table adds only
// column alignment, which a client-sorted table does not need.
import type { DataTableBlock, RawNumberElement, RawTextElement } from '@slack/types';
import type { ViewBlock } from '../model/view.js';
import { cellText as shownCell } from './format.js';
import { mentionsAsText } from './mrkdwn.js';

export const TABLE_LIMITS = {
  /** Rows under the header. */
  rows: 100,
  columns: 20,
  /** All cells of the table (and of the message: one table per message), the header and caption included. */
  cellChars: 10_000,
  /** Rows the client shows at a time: a list page of 25 reads in three steps on a phone. */
  pageSize: 10,
  /** A cell longer than this is cut; Slack sets no limit of its own, this keeps one cell from using the table's. */
  cell: 300,
  caption: 300,
} as const;

const NUMBER = /^-?\d+(?:\.\d+)?$/;

type Cell = RawTextElement | RawNumberElement;

/** A native table and what it left out; `fit` makes a smaller one for the room left in a message. */
export interface NativeTable {
  block: DataTableBlock;
  /** Rows shown. */
  shown: number;
  /** Rows of the view's table left out (Slack's row or character limits, or the room in the message). */
  omitted: number;
  /** The first cell of each row shown: what names the row (and the message's fallback text lists). */
  names: string[];
  /** The same table with as many rows as fit in `chars` characters; undefined when not one row does. */
  fit(chars: number): NativeTable | undefined;
}

/** `<@U…>`, `<#C…>`, `<!channel>`, `<https://…|…>`: what Slack could read as a token, whatever the cell type. */
const SLACK_TOKEN = /<([@#!]|[a-z][a-z0-9+.-]*:)([^<>]*)>/gi;
/** What opens one, closed or not. */
const TOKEN_OPEN = /<(?=[@#!]|[a-z][a-z0-9+.-]*:)/gi;

/** Slack's tokens broken: `‹@U0123›`; a `<` that would open one shows as `‹` even unclosed. */
function breakTokens(text: string): string {
  let out = text;
  // Breaking an inner token can leave an outer one whole (`<!channel <@U1> >`): again until none is left.
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(SLACK_TOKEN, '‹$1$2›');
  }
  return out.replace(TOKEN_OPEN, '‹');
}

/**
 * A cell's text as Slack shows it: one line, mentions as `@U…`, Slack's tokens broken, never empty.
 * `<` and `>` elsewhere (`a < b`) are kept.
 */
function cellText(raw: string, max: number): string {
  const text = breakTokens(shownCell(mentionsAsText(raw), max));
  return text === '' ? '—' : text;
}

function cell(raw: string, numeric: boolean): Cell {
  const text = cellText(raw, TABLE_LIMITS.cell);
  if (numeric && NUMBER.test(text)) return { type: 'raw_number', value: Number(text), text };
  return { type: 'raw_text', text };
}

function rowChars(row: readonly Cell[]): number {
  return row.reduce((sum, c) => sum + c.text.length, 0);
}

/** The characters Slack counts in a data_table: its cells' texts and its caption. */
export function tableChars(block: DataTableBlock): number {
  return block.caption.length + block.rows.reduce((sum, row) => sum + rowChars(row as Cell[]), 0);
}

/**
 * The view table as a data_table, or undefined when it cannot be one (no rows, or more than 20 columns:
 * the caller shows those as monospace text, which has room for any number of columns).
 */
export function nativeTable(
  table: Extract<ViewBlock, { kind: 'table' }>,
  caption: string,
): NativeTable | undefined {
  const width = table.columns.length;
  if (width === 0 || width > TABLE_LIMITS.columns || table.rows.length === 0) return undefined;
  const numeric = new Set(table.numeric ?? []);
  const header: Cell[] = table.columns.map((column) => ({
    type: 'raw_text',
    text: cellText(column, TABLE_LIMITS.cell),
  }));
  const body: Cell[][] = table.rows.map((row) =>
    table.columns.map((_, i) => cell(row[i] ?? '', numeric.has(i))),
  );
  const captionText = cellText(caption, TABLE_LIMITS.caption);
  const fixed = captionText.length + rowChars(header);

  const build = (room: number): NativeTable | undefined => {
    const rows: Cell[][] = [];
    let chars = fixed;
    for (const row of body) {
      const size = rowChars(row);
      if (rows.length >= TABLE_LIMITS.rows || chars + size > room) break;
      rows.push(row);
      chars += size;
    }
    if (rows.length === 0) return undefined;
    const block: DataTableBlock = {
      type: 'data_table',
      caption: captionText,
      rows: [header, ...rows],
      page_size: TABLE_LIMITS.pageSize,
      row_header_column_index: 0,
    };
    return {
      block,
      shown: rows.length,
      omitted: body.length - rows.length,
      names: rows.map((row) => row[0]?.text ?? ''),
      fit: (chars: number) => build(Math.min(room, chars)),
    };
  };
  return build(TABLE_LIMITS.cellChars);
}
