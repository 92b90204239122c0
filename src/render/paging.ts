// Paging and sharing buttons. A list view carries Previous/Next buttons whose value holds everything
// needed to fetch that page again (operation id, raw arguments, offset), so nothing is kept in memory
// and any bot process can answer the click. "Share in channel" carries the command text.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import type { RawArgs, RenderMeta } from '../model/types.js';
import type { Button } from '../model/view.js';

/**
 * Rows per page fetched from SCC: well inside Slack's limits (a page of the widest list fits one native
 * table, test/render/paging.test.ts), which shows them ten at a time; still readable on a phone.
 */
export const PAGE_SIZE = 25;
/** Slack refuses button values over 2000 characters. */
export const MAX_ACTION_VALUE = 2000;

export const PAGE_ACTION = 'fw.page';
export const SHARE_ACTION = 'fw.share';
/** A button that runs a command line as if typed (only operations that declare `offeredAsButton`). */
export const COMMAND_ACTION = 'fw.command';

export function commandButton(label: string, commandText: string, style?: 'primary' | 'danger') {
  if (commandText.length > MAX_ACTION_VALUE) return undefined;
  return { label, action: { id: COMMAND_ACTION, value: commandText }, ...(style ? { style } : {}) };
}

export interface PageState {
  operationId: string;
  /** The raw arguments of the list, `offset` included, ready for `Operation.execute`. */
  raw: RawArgs;
  offset: number;
}

const RawValue = z.union([z.string(), z.array(z.string()), z.boolean()]);
const Encoded = z.object({
  v: z.literal(1),
  o: z.string().min(1),
  a: z.record(z.string(), RawValue),
  n: z.number().int().min(0),
});

/** The button value for a page, or undefined when the arguments are too long to fit in one. */
export function encodePageState(operationId: string, raw: RawArgs, offset: number): string | undefined {
  const args: Record<string, string | string[] | boolean> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined && name !== 'offset') args[name] = value;
  }
  const value = JSON.stringify({ v: 1, o: operationId, a: args, n: offset });
  return value.length <= MAX_ACTION_VALUE ? value : undefined;
}

export function decodePageState(value: string): PageState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  const state = Encoded.safeParse(parsed);
  if (!state.success) throw new UserError('This page button is not one fwbot made; run the command again.');
  const { o, a, n } = state.data;
  return { operationId: o, raw: { ...a, offset: String(n) }, offset: n };
}

export interface PageInfo {
  offset: number;
  limit: number;
  /** Total matching items as SCC counts them. */
  count: number;
  /** Items on this page. */
  shown: number;
}

/** `26–50 of 132`, or `none` for an empty page. */
export function pageRange(page: PageInfo): string {
  if (page.shown === 0) return page.offset > 0 ? `none after ${page.offset}` : 'none';
  return `${page.offset + 1}–${page.offset + page.shown} of ${page.count}`;
}

export function pageButtons(meta: RenderMeta, page: PageInfo): Button[] {
  const buttons: Button[] = [];
  if (page.offset > 0) {
    const value = encodePageState(meta.operationId, meta.raw, Math.max(0, page.offset - page.limit));
    if (value) buttons.push({ label: 'Previous page', action: { id: PAGE_ACTION, value } });
  }
  if (page.offset + page.shown < page.count) {
    const value = encodePageState(meta.operationId, meta.raw, page.offset + page.shown);
    if (value) buttons.push({ label: 'Next page', action: { id: PAGE_ACTION, value } });
  }
  return buttons;
}

export function shareButton(commandText: string): Button | undefined {
  if (commandText.length > MAX_ACTION_VALUE) return undefined;
  return { label: 'Share in channel', action: { id: SHARE_ACTION, value: commandText } };
}
