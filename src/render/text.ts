// View → plain text for the terminal console and the CLI: aligned tables, `Label: value` fields and
// numbered buttons ("[1] Next page") that the console maps back with `numberedButtons`. Mentions made by
// userMention / channelMention read `@U…` / `#C…` (a terminal pings nobody); values from outside
// (render/untrusted.ts) and code spans show as typed, never read as markup.

import type { Button, View, ViewBlock } from '../model/view.js';
import { cellText } from './format.js';
import { mapLiterals, mentionsAsText } from './mrkdwn.js';
import { revealInvisible } from './untrusted.js';

/** Stands for a held piece while the rest is read (fwbot's reserved characters; input cannot bring them). */
const HOLE = /\uE006(\d+)\uE007/g;

/** The buttons of a view in the order `renderText` numbers them (1-based in the text). */
export function numberedButtons(view: View): Button[] {
  return view.blocks.flatMap((block) => (block.kind === 'actions' ? block.buttons : []));
}

/**
 * Slack's markup, made plain: mentions and links become readable, bold and italics lose their marks.
 * Values from outside and code spans are held aside while the markup is read, so what they hold shows
 * as typed (a device named `*x*` keeps its stars).
 */
export function plainMarkup(text: string): string {
  const held: string[] = [];
  const hold = (piece: string) => `\uE006${held.push(piece) - 1}\uE007`;
  const marked = mapLiterals(text, hold, (rest) =>
    mentionsAsText(rest).replace(/`[^`\n]+`/g, (code) => hold(code)),
  );
  return readMarkup(marked).replace(HOLE, (_m, i: string) => held[Number(i)] ?? '');
}

function readMarkup(text: string): string {
  return text
    .replace(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g, '@$1')
    .replace(/<#([A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, name?: string) => `#${name ?? id}`)
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,:;!?])/g, '$1$2')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,:;!?])/g, '$1$2');
}

/**
 * A message as Slack received it (mrkdwn, escaped) made plain: its live mentions and links become
 * readable first, then `&lt;`, `&gt;` and `&amp;` show as typed, so escaped text from SCC or people
 * (`&lt;@U0123&gt;`) reads as the literal text it was, not as a mention.
 */
export function plainMrkdwn(text: string): string {
  return plainMarkup(text).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** A cell as the console aligns it: one line, nothing hidden (render/format's cellText), never cut. */
function tableCell(raw: string): string {
  return cellText(mentionsAsText(raw), Number.MAX_SAFE_INTEGER);
}

function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number): string {
  return text + ' '.repeat(Math.max(0, size - width(text)));
}

export function renderTable(columns: string[], rows: string[][]): string {
  const widths = columns.map((column, i) =>
    Math.max(width(column), ...rows.map((row) => width(row[i] ?? ''))),
  );
  const line = (cells: string[]) =>
    cells
      .map((cellText, i) => pad(cellText, widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/**
 * How text, context and field values (mrkdwn) are shown: plainMarkup, or the console's terminal markup; and
 * each line of preformatted output, once made visible (the console styles it as code).
 */
export interface TextOptions {
  markup?: (text: string) => string;
  code?: (line: string) => string;
}

function renderBlock(
  block: ViewBlock,
  counter: { next: number },
  { markup, code }: Required<TextOptions>,
): string {
  switch (block.kind) {
    case 'header': {
      const { text } = revealInvisible(mentionsAsText(block.text));
      return `${text}\n${'='.repeat(Math.min(width(text), 72))}`;
    }
    case 'text':
      return markup(block.text);
    case 'context':
      return markup(block.text);
    case 'fields': {
      const labels = block.fields.map((field) => mentionsAsText(field.label));
      const labelWidth = Math.max(0, ...labels.map(width));
      return block.fields
        .map((field, i) => `${pad(`${labels[i]}:`, labelWidth + 1)} ${markup(field.value)}`)
        .join('\n');
    }
    case 'table':
      return renderTable(
        block.columns.map(tableCell),
        block.rows.map((row) => row.map(tableCell)),
      );
    case 'code':
      return revealInvisible(mentionsAsText(block.text), { keepLines: true })
        .text.split('\n')
        .map((line) => `    ${code(line)}`)
        .join('\n');
    case 'actions':
      return block.buttons
        .map((button) => {
          const n = counter.next;
          counter.next += 1;
          const label = mentionsAsText(button.label);
          return button.url ? `[${n}] ${label} (${button.url})` : `[${n}] ${label}`;
        })
        .join('  ');
    case 'divider':
      return '-'.repeat(40);
  }
}

/** Consecutive field blocks (split only for Slack's ten-field limit) read as one list in text. */
function mergeFields(blocks: readonly ViewBlock[]): ViewBlock[] {
  const out: ViewBlock[] = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (block.kind === 'fields' && last?.kind === 'fields') {
      out[out.length - 1] = { kind: 'fields', fields: [...last.fields, ...block.fields] };
    } else {
      out.push(block);
    }
  }
  return out;
}

export function renderText(view: View, options: TextOptions = {}): string {
  const markup = options.markup ?? plainMarkup;
  const shown = { markup, code: options.code ?? ((line: string) => line) };
  const counter = { next: 1 };
  const parts = mergeFields(view.blocks)
    .map((block) => renderBlock(block, counter, shown))
    .filter((part) => part !== '');
  return parts.length ? `${parts.join('\n\n')}\n` : `${markup(view.summary)}\n`;
}
