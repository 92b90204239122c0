// Block Kit (as src/render/blocks.ts writes it) back to the View model, so messages the console receives
// through its stand-in Slack — approval cards and their updates — are shown by the same text renderer
// as everything else (src/render/text.ts), buttons numbered, action ids and values kept for the click.
// Native tables (`data_table`, `table`) come back as the View's table, every row.
import { z } from 'zod';
import type { Button, Field, View, ViewBlock } from '../model/view.js';
import { channelMention, localDate, userMention } from '../render/mrkdwn.js';

const TextObject = z.object({ text: z.string() });
const ButtonElement = z.object({
  type: z.literal('button'),
  text: TextObject,
  action_id: z.string().optional(),
  value: z.string().optional(),
  url: z.string().optional(),
  style: z.enum(['primary', 'danger']).optional(),
  confirm: z
    .object({
      title: TextObject,
      text: TextObject,
      confirm: TextObject,
      deny: TextObject,
      style: z.string().optional(),
    })
    .optional(),
});
const Block = z.looseObject({
  type: z.string(),
  block_id: z.string().optional(),
  text: TextObject.optional(),
  fields: z.array(TextObject).optional(),
  elements: z.array(z.looseObject({ type: z.string(), text: z.unknown().optional() })).optional(),
});

/** A table cell as Slack takes it: raw text or a number (shown by its text), or rich text (its texts). */
const TableCell = z.union([
  z.object({ type: z.enum(['raw_text', 'raw_number']), text: z.string() }),
  z.looseObject({ type: z.literal('rich_text'), elements: z.array(z.unknown()) }),
]);
const TableBlock = z.looseObject({
  type: z.enum(['table', 'data_table']),
  rows: z.array(z.array(TableCell)).min(1),
  caption: z.string().optional(),
});

/** Every `text` inside a rich_text cell, in order. */
function richText(node: unknown): string {
  if (Array.isArray(node)) return node.map(richText).join('');
  if (node === null || typeof node !== 'object') return '';
  const object = node as Record<string, unknown>;
  return (typeof object.text === 'string' ? object.text : '') + richText(object.elements);
}

/** A native table (its first row the header) back to the View's table: every row kept. */
function tableOf(raw: unknown): ViewBlock[] {
  const parsed = TableBlock.safeParse(raw);
  if (!parsed.success) return [];
  const [header = [], ...rows] = parsed.data.rows.map((row) =>
    row.map((cell) => ('text' in cell && typeof cell.text === 'string' ? cell.text : richText(cell))),
  );
  const caption = parsed.data.caption;
  return [{ kind: 'table', columns: header, rows, ...(caption === undefined ? {} : { caption }) }];
}

/** Slack escapes &, < and > in mrkdwn; the View holds them as typed. */
function unescapeMrkdwn(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The live tokens escapeMrkdwn leaves in mrkdwn: a user, a channel, a date in the reader's zone (localDate). */
const LIVE_TOKEN =
  /<@([UW][A-Z0-9]{2,20})>|<#([CG][A-Z0-9]{2,20})>|<!date\^(\d{1,12})\^\{date_short_pretty\} \{time\}\|([^<>|\n]+)>/g;

/**
 * Mrkdwn as fwbot sent it back to the View text it came from (escapeMrkdwn undone): its live tokens made
 * by userMention / channelMention / localDate again, everything else as typed. The console renders View
 * text by escaping it again, so text from SCC that looks like markup (`&lt;@U1&gt;`) stays text.
 */
export function fromMrkdwn(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(LIVE_TOKEN)) {
    const [, user, channel, seconds, fallback] = match;
    out += unescapeMrkdwn(text.slice(last, match.index));
    if (user) out += userMention(user);
    else if (channel) out += channelMention(channel);
    else out += localDate(Number(seconds) * 1000, unescapeMrkdwn(fallback ?? ''));
    last = match.index + match[0].length;
  }
  return out + unescapeMrkdwn(text.slice(last));
}

/** `*Label*\nvalue` (how blocks.ts writes a field) → { label, value }. */
function fieldOf(text: string): Field {
  const match = /^\*([^*]*)\*\n([\s\S]*)$/.exec(text);
  if (!match) return { label: '', value: fromMrkdwn(text) };
  return { label: unescapeMrkdwn(match[1] ?? ''), value: fromMrkdwn(match[2] ?? '') };
}

function buttonsOf(elements: readonly unknown[]): Button[] {
  const buttons: Button[] = [];
  for (const element of elements) {
    const parsed = ButtonElement.safeParse(element);
    if (!parsed.success) continue;
    const { text, action_id, value, url, style, confirm } = parsed.data;
    const button: Button = { label: text.text };
    if (action_id !== undefined) button.action = { id: action_id, value: value ?? '' };
    if (url !== undefined) button.url = url;
    if (style !== undefined) button.style = style;
    if (confirm !== undefined) {
      button.confirm = {
        title: confirm.title.text,
        text: confirm.text.text,
        confirm: confirm.confirm.text,
        deny: confirm.deny.text,
        danger: confirm.style === 'danger',
      };
    }
    buttons.push(button);
  }
  return buttons;
}

function contextText(elements: readonly unknown[]): string {
  return elements
    .map((element) => TextObject.safeParse(element))
    .filter((parsed) => parsed.success)
    .map((parsed) => fromMrkdwn(parsed.data.text))
    .join(' ');
}

/** One Block Kit block → view blocks (unknown kinds are skipped: the message's text still shows). */
function viewBlocksOf(raw: unknown): ViewBlock[] {
  const parsed = Block.safeParse(raw);
  if (!parsed.success) return [];
  const block = parsed.data;
  switch (block.type) {
    case 'header':
      return block.text ? [{ kind: 'header', text: block.text.text }] : [];
    case 'section': {
      const out: ViewBlock[] = [];
      if (block.text) out.push({ kind: 'text', text: fromMrkdwn(block.text.text) });
      if (block.fields) out.push({ kind: 'fields', fields: block.fields.map((f) => fieldOf(f.text)) });
      return out;
    }
    case 'context':
      return [{ kind: 'context', text: contextText(block.elements ?? []) }];
    case 'actions':
      return [{ kind: 'actions', buttons: buttonsOf(block.elements ?? []) }];
    case 'divider':
      return [{ kind: 'divider' }];
    case 'table':
    case 'data_table':
      return tableOf(raw);
    default:
      return [];
  }
}

/** A posted message (text and optional blocks) as a View. */
export function viewOfMessage(text: string, blocks: readonly unknown[] | undefined): View {
  const viewBlocks = (blocks ?? []).flatMap(viewBlocksOf);
  const summary = fromMrkdwn(text);
  return {
    summary,
    blocks: viewBlocks.length > 0 ? viewBlocks : [{ kind: 'text', text: summary }],
    visibility: 'in_channel',
  };
}
