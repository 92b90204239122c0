// Small formatting rules shared by the area renderers: how a missing value, a flag, a time or a long cell
// looks. Kept in one place so every view reads the same way. Values from SCC go through untrusted() here
// (render/untrusted.ts): field values, table cells and code spans made by these helpers are shown as typed.
import { isLoopbackHost } from '../config/endpoints.js';
import type { Field, ViewBlock } from '../model/view.js';
import { mentionsAsText } from './mrkdwn.js';
import { HIDDEN_MARK, HIDDEN_NOTE, revealInvisible, untrusted } from './untrusted.js';

/** Table cells longer than this are cut with an ellipsis; a UUID (36) still fits whole. */
export const MAX_CELL = 36;
/** Field values longer than this are cut (Slack allows 2000 per field; a screen shows far less). */
export const MAX_FIELD = 300;
export const NONE = '—';

/** Cuts `text` to at most `max` code points, the last one an ellipsis when cut; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  // No more UTF-16 units than `max` means no more code points either: nothing to cut (most cells).
  if (text.length <= max) return text;
  // Walks code points only as far as needed: cells and fields are cut often, and some are long.
  let points = 0;
  let cut = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (points === max - 1) cut = i;
    points += 1;
    if (points > max) return `${text.slice(0, cut)}…`;
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i += 1;
  }
  return text;
}

/** A value as text: missing → "—", booleans → yes/no, arrays joined. */
export function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return NONE;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length ? value.map(show).join(', ') : NONE;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function cell(value: unknown, max = MAX_CELL): string {
  return cellText(show(value), max);
}

/**
 * A table cell as shown: one line, characters a reader cannot see escaped (`\n`, `\u202E`) with a ⚠ after
 * the cell, other runs of whitespace as one space, within `max` characters (cut with an ellipsis, the ⚠
 * kept). The renderers apply it again to every cell, whoever made the table; it changes nothing the second time.
 */
export function cellText(raw: string, max: number): string {
  const { text, hidden } = revealInvisible(raw);
  const line = text.replace(/\s+/g, ' ').trim();
  if (!hidden) return truncate(line, max);
  return `${truncate(line, Math.max(1, max - HIDDEN_MARK.length - 1))} ${HIDDEN_MARK}`;
}

/**
 * A table block; `widths` overrides the cell limit per column (e.g. long file names), `numeric` names the
 * columns of numbers (Slack sorts them as numbers).
 */
export function table(
  columns: string[],
  rows: unknown[][],
  widths: (number | undefined)[] = [],
  numeric: number[] = [],
): ViewBlock {
  return {
    kind: 'table',
    columns,
    rows: rows.map((row) => row.map((value, i) => cell(value, widths[i] ?? MAX_CELL))),
    ...(numeric.length > 0 ? { numeric } : {}),
  };
}

/** Fields with a value; missing ones are left out so a detail view shows what is known. */
export function fields(entries: [label: string, value: unknown][]): ViewBlock {
  const kept: Field[] = entries
    .filter(([, value]) => show(value) !== NONE)
    .map(([label, value]) => ({ label, value: untrusted(truncate(show(value), MAX_FIELD)) }));
  return { kind: 'fields', fields: kept };
}

/** Slack shows fields two by two and at most ten per block: longer lists become several blocks. */
export function fieldBlocks(entries: [label: string, value: unknown][]): ViewBlock[] {
  const block = fields(entries);
  if (block.kind !== 'fields') return [block];
  const blocks: ViewBlock[] = [];
  for (let i = 0; i < block.fields.length; i += 10) {
    blocks.push({ kind: 'fields', fields: block.fields.slice(i, i + 10) });
  }
  return blocks;
}

/** ISO time as `2025-01-31 14:05 UTC`: unambiguous across the teams of an MSP. */
export function time(iso: string | null | undefined): string {
  if (!iso) return NONE;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `ROLE_READ_ONLY` → `read only`: SCC's enum names are for machines. */
export function humanEnum(value: string | null | undefined): string {
  if (!value) return NONE;
  return value
    .replace(/^ROLE_/, '')
    .replace(/_/g, ' ')
    .toLowerCase();
}

/** SCC's type of a device or an entity as people write it: `ASA`; the other types in words. */
export function typeLabel(type: string | null | undefined): string {
  return type === 'ASA' ? 'ASA' : humanEnum(type);
}

/** A count with its noun agreeing: `1 device`, `2 devices`, `3 pending commands` (never "device(s)"). */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Text as a code span, which Slack and the console show as typed (no markup, emoji or links inside).
 * Nothing in the text can end the span early: a backtick shows as `ˋ` (U+02CB), and a line break or
 * another invisible character as its escape, with HIDDEN_NOTE after the span.
 */
export function code(text: string): string {
  const { text: shown, hidden } = revealInvisible(mentionsAsText(text));
  const span = `\`${shown.replace(/`/g, 'ˋ')}\``;
  return hidden ? `${span} ${HIDDEN_NOTE}` : span;
}

/**
 * Whether a URL from SCC may become a link people click: https, or http to a loopback address (the
 * simulator of the demo and the tests; the same rule as SCC_BASE_URL). Anything else (plain http across
 * the network, `javascript:`, `slack://`…) is never offered as a link.
 */
export function isLinkableUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}
