// View → Block Kit. The one place that knows Slack's size limits: every message or modal body it returns
// is within them (block count, section and field lengths, button and confirm limits, total size), and
// whatever had to be left out is said in the message ("37 more rows not shown"), never dropped silently.
// Preformatted output too long for a message comes back as a file for the caller to upload. The first
// table of a message becomes Slack's native `data_table` (nativeTable.ts); modals and a second table get
// monospace text. Pure: no I/O, no clock, no randomness.
import type {
  ActionsBlock,
  ConfirmationDialog,
  ContextBlock,
  HeaderBlock,
  KnownBlock,
  PlainTextElement,
  PlainTextOption,
  SectionBlock,
  Button as SlackButton,
} from '@slack/types';
import type { Button, CodePreview, Confirm, Field, View, ViewBlock } from '../model/view.js';
import { cellText, isLinkableUrl } from './format.js';
import { EMOJI_CODE, escapeAll, escapeMrkdwn, mapLiterals, mentionsAsText } from './mrkdwn.js';
import { type NativeTable, nativeTable, tableChars } from './nativeTable.js';
import { notificationText, revealInvisible } from './untrusted.js';

/** Slack's documented limits (docs.slack.dev, Block Kit reference), in characters unless said otherwise. */
export const SLACK_LIMITS = {
  messageBlocks: 50,
  modalBlocks: 100,
  /** Messages fail around 13k characters (`msg_blocks_too_long`) even when each block is within limits. */
  messageChars: 12_000,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextText: 3000,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  actionId: 255,
  blockId: 255,
  actionsElements: 25,
  options: 100,
  optionText: 75,
  optionValue: 75,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  modalTitle: 24,
  privateMetadata: 3000,
  /** Top-level `text` of a message: the notification fallback, kept short. */
  fallbackText: 300,
} as const;

/** Preformatted output that did not fit: the caller uploads it (files.getUploadURLExternal). */
export interface AttachedFile {
  filename: string;
  title: string;
  content: string;
}

export interface RenderedMessage {
  /** Notification and accessibility fallback. */
  text: string;
  blocks: KnownBlock[];
  files: AttachedFile[];
}

export interface RenderOptions {
  /** Messages hold 50 blocks, modals 100; modals cannot carry files, so long code is cut with a note. */
  surface?: 'message' | 'modal';
  /** How the note under a preview names where the full file went (e.g. "in your direct messages"). */
  fileNote?: (file: AttachedFile) => string;
}

const ELLIPSIS = '…';
const FENCE = '```';
/** Cells wider than this are cut with an ellipsis so a row stays readable on a phone. */
const MAX_CELL = 40;
/** Lines of a preview shown above an attached file. */
const PREVIEW_LINES = 12;
/** Lines a producer may pick for the preview instead (CodePreview), still well within a section. */
const PICKED_PREVIEW_LINES = 16;
/** Room kept for the "not shown" note at the end of a message. */
const NOTE_RESERVE = 400;

/** Cuts `text` to at most `max` characters, ending with an ellipsis when cut; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ELLIPSIS.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/**
 * Escapes for a code fence: nothing is live there (mentions read `@U…`), ``` cannot close it early, and
 * characters a reader cannot see (a right-to-left override in a device's output) show as escapes; line
 * breaks and tabs are the output's own layout and stay.
 */
function escapeCode(text: string): string {
  return escapeFence(revealInvisible(mentionsAsText(text), { keepLines: true }).text);
}

/** Escapes text already made visible (a monospace table's cells) for a code fence. */
function escapeFence(text: string): string {
  return escapeAll(text).replace(/```/g, '`\u200b``');
}

/** Whether a literal run (a value from outside) holds an emoji code, which plain_text would show as an emoji. */
function literalEmoji(raw: string): boolean {
  let found = false;
  mapLiterals(
    raw,
    (run) => {
      found ||= EMOJI_CODE.test(run);
      return '';
    },
    () => '',
  );
  return found;
}

/**
 * Plain text within `max` characters (mentions read `@U…`, characters a reader cannot see as escapes);
 * Slack refuses empty text objects, so empty becomes a dash. A value from outside that holds an emoji
 * code turns the text's emoji off, so the code shows as typed.
 */
export function plainText(raw: string, max: number): PlainTextElement {
  const { text } = revealInvisible(mentionsAsText(raw));
  return {
    type: 'plain_text',
    text: text.trim() === '' ? '—' : truncate(text, max),
    emoji: !literalEmoji(raw),
  };
}

/** A select option within Slack's limits; returns undefined when the value itself cannot fit. */
export function selectOption(label: string, value: string): PlainTextOption | undefined {
  if (value.length === 0 || value.length > SLACK_LIMITS.optionValue) return undefined;
  return { text: plainText(label, SLACK_LIMITS.optionText), value };
}

/** Escapes `raw` and cuts it (before escaping, so no entity is split) until it fits in `max` characters. */
function fitEscaped(raw: string, max: number, escapeText: (text: string) => string): string {
  let candidate = raw;
  let escaped = escapeText(candidate);
  while (escaped.length > max) {
    candidate = truncate(candidate, Math.max(1, candidate.length - (escaped.length - max)));
    escaped = escapeText(candidate);
  }
  return escaped;
}

/** Splits one escaped line into pieces of at most `max` characters without cutting an `&amp;` entity. */
function splitLongLine(line: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > max) {
    let cut = max;
    const amp = rest.lastIndexOf('&', cut);
    if (amp > cut - 5 && amp > 0 && rest.indexOf(';', amp) >= cut) cut = amp;
    // After escaping, a `<` opens only a live mention: keep it whole.
    const open = rest.lastIndexOf('<', cut - 1);
    if (open > 0 && open > rest.lastIndexOf('>', cut - 1)) cut = open;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  pieces.push(rest);
  return pieces;
}

/** Groups escaped lines into chunks of at most `max` characters (joined by newlines). */
function chunkLines(lines: readonly string[], max: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const whole of lines) {
    for (const line of splitLongLine(whole, max)) {
      const next = current === '' ? line : `${current}\n${line}`;
      if (next.length <= max) {
        current = next;
        continue;
      }
      if (current !== '') chunks.push(current);
      current = line;
    }
  }
  if (current !== '' || chunks.length === 0) chunks.push(current);
  return chunks;
}

/** One candidate block, with what it carries so a cut can say what is missing. */
interface Piece {
  block: KnownBlock;
  /** Table rows this piece carries (for "N more rows"). */
  rows: number;
  /** Buttons this piece carries. */
  buttons: number;
  /** Actions are placed first so paging and share buttons survive a cut. */
  essential: boolean;
  /** A native table: its rows can be cut to fit what room is left (the rest counted as missing). */
  table?: NativeTable;
}

function section(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

function textPieces(text: string): Piece[] {
  const lines = text.split('\n').map(escapeMrkdwn);
  return chunkLines(lines, SLACK_LIMITS.sectionText)
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => ({ block: section(chunk), rows: 0, buttons: 0, essential: false }));
}

function fieldText(field: Field): string {
  const label = `*${fitEscaped(field.label === '' ? '—' : field.label, 200, escapeMrkdwn)}*\n`;
  return (
    label +
    fitEscaped(field.value === '' ? '—' : field.value, SLACK_LIMITS.fieldText - label.length, escapeMrkdwn)
  );
}

function fieldPieces(fields: readonly Field[]): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i < fields.length; i += SLACK_LIMITS.sectionFields) {
    const group = fields.slice(i, i + SLACK_LIMITS.sectionFields);
    const block: SectionBlock = {
      type: 'section',
      fields: group.map((field) => ({ type: 'mrkdwn', text: fieldText(field) })),
    };
    pieces.push({ block, rows: 0, buttons: 0, essential: false });
  }
  return pieces;
}

function cell(value: string): string {
  return cellText(mentionsAsText(value), MAX_CELL);
}

/** A table as monospace sections; the header is repeated in each so every section reads on its own. */
function tablePieces(columns: readonly string[], rows: readonly (readonly string[])[]): Piece[] {
  const head = columns.map(cell);
  const body = rows.map((row) => columns.map((_, i) => cell(row[i] ?? '')));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  // Cells went through cell(): nothing in them is hidden or a mention any more.
  const top = `${fitEscaped(line(head), 1000, escapeFence)}\n${fitEscaped(rule, 1000, escapeFence)}`;
  const room = SLACK_LIMITS.sectionText - top.length - 2 * FENCE.length - 3;
  const pieces: Piece[] = [];
  let current: string[] = [];
  let length = 0;
  const flush = () => {
    const text = `${FENCE}\n${top}${current.length > 0 ? `\n${current.join('\n')}` : ''}\n${FENCE}`;
    pieces.push({ block: section(text), rows: current.length, buttons: 0, essential: false });
    current = [];
    length = 0;
  };
  for (const row of body) {
    // A row wider than a whole section is cut visibly rather than split across sections.
    const text = fitEscaped(line(row), Math.max(1, room), escapeFence);
    if (current.length > 0 && length + text.length + 1 > room) flush();
    current.push(text);
    length += text.length + 1;
  }
  if (current.length > 0 || pieces.length === 0) flush();
  return pieces;
}

function codePieces(
  text: string,
  filename: string | undefined,
  picked: CodePreview | undefined,
  files: AttachedFile[],
  options: Required<RenderOptions>,
): Piece[] {
  const fenced = `${FENCE}\n${escapeCode(text)}\n${FENCE}`;
  if (fenced.length <= SLACK_LIMITS.sectionText) {
    return [{ block: section(fenced), rows: 0, buttons: 0, essential: false }];
  }
  const lines = text.split('\n');
  const chosen = picked && picked.lines.length > 0 ? picked : undefined;
  const above = chosen ? `Above: ${escapeMrkdwn(chosen.what)}. ` : '';
  const previewLines = (chosen?.lines ?? lines.slice(0, PREVIEW_LINES))
    .slice(0, PICKED_PREVIEW_LINES)
    .map((l) => truncate(l, 160));
  const preview = fitEscaped(previewLines.join('\n'), SLACK_LIMITS.sectionText - 40, escapeCode);
  const pieces: Piece[] = [
    { block: section(`${FENCE}\n${preview}\n${FENCE}`), rows: 0, buttons: 0, essential: false },
  ];
  const size = `${lines.length} lines, ${Math.ceil(Buffer.byteLength(text, 'utf8') / 1024)} KB`;
  if (options.surface === 'modal') {
    const shown = chosen ? escapeMrkdwn(chosen.what) : 'the beginning';
    pieces.push(contextPiece(`Only ${shown} is shown (the whole output is ${size}).`));
    return pieces;
  }
  const file: AttachedFile = {
    filename: filename ?? 'output.txt',
    title: filename ?? 'Full output',
    content: mentionsAsText(text),
  };
  files.push(file);
  pieces.push(
    contextPiece(
      `${above}Full output (${size}) attached as \`${escapeMrkdwn(file.filename)}\` ${options.fileNote(file)}.`,
    ),
  );
  return pieces;
}

/** A context line; `text` is already escaped mrkdwn. */
function contextPiece(text: string): Piece {
  const block: ContextBlock = {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: text.trim() === '' ? ' ' : truncate(text, SLACK_LIMITS.contextText) }],
  };
  return { block, rows: 0, buttons: 0, essential: false };
}

function confirmDialog(confirm: Confirm): ConfirmationDialog {
  return {
    title: plainText(confirm.title, SLACK_LIMITS.confirmTitle),
    text: plainText(confirm.text, SLACK_LIMITS.confirmText),
    confirm: plainText(confirm.confirm, SLACK_LIMITS.confirmButton),
    deny: plainText(confirm.deny, SLACK_LIMITS.confirmButton),
    ...(confirm.danger ? { style: 'danger' as const } : {}),
  };
}

/** Action ids must be unique in a message: `fw.page:3`. Listeners match on the part before the colon. */
export function actionIdOf(id: string, index: number): string {
  return truncate(`${id}:${index}`, SLACK_LIMITS.actionId);
}

/** The action id a listener registers for, given the id a button was rendered with. */
export function actionBaseId(actionId: string): string {
  const colon = actionId.lastIndexOf(':');
  return colon === -1 ? actionId : actionId.slice(0, colon);
}

/** Turns buttons into Slack buttons; the ones that cannot be sent (state too long, link too long or not https) are counted. */
function slackButtons(buttons: readonly Button[], counter: { next: number; dropped: number }): SlackButton[] {
  const out: SlackButton[] = [];
  for (const button of buttons) {
    const unsendable =
      (button.action !== undefined && button.action.value.length > SLACK_LIMITS.buttonValue) ||
      (button.url !== undefined &&
        (button.url.length > SLACK_LIMITS.buttonUrl || !isLinkableUrl(button.url))) ||
      (button.action === undefined && button.url === undefined);
    if (unsendable) {
      counter.dropped += 1;
      continue;
    }
    const index = counter.next++;
    const slack: SlackButton = {
      type: 'button',
      text: plainText(button.label, SLACK_LIMITS.buttonText),
      action_id: actionIdOf(button.action?.id ?? 'fw.url', index),
    };
    if (button.action) slack.value = button.action.value;
    if (button.url) slack.url = button.url;
    if (button.style) slack.style = button.style;
    if (button.confirm) slack.confirm = confirmDialog(button.confirm);
    out.push(slack);
  }
  return out;
}

function actionPieces(buttons: readonly Button[], counter: { next: number; dropped: number }): Piece[] {
  const elements = slackButtons(buttons, counter);
  const pieces: Piece[] = [];
  for (let i = 0; i < elements.length; i += SLACK_LIMITS.actionsElements) {
    const group = elements.slice(i, i + SLACK_LIMITS.actionsElements);
    const block: ActionsBlock = { type: 'actions', elements: group };
    pieces.push({ block, rows: 0, buttons: group.length, essential: true });
  }
  return pieces;
}

/** What rendering one view keeps track of across its blocks. */
interface RenderState {
  files: AttachedFile[];
  counter: { next: number; dropped: number };
  options: Required<RenderOptions>;
  /** The view's summary: the caption of a table that names none. */
  summary: string;
  /** Slack allows one table block per message: set once the first is made. */
  nativeUsed: boolean;
}

function tableBlockPieces(block: Extract<ViewBlock, { kind: 'table' }>, state: RenderState): Piece[] {
  if (state.options.surface === 'message' && !state.nativeUsed) {
    const table = nativeTable(block, block.caption ?? state.summary);
    if (table) {
      state.nativeUsed = true;
      return [{ block: table.block, rows: table.shown, buttons: 0, essential: false, table }];
    }
  }
  return tablePieces(block.columns, block.rows);
}

function piecesOf(block: ViewBlock, state: RenderState): Piece[] {
  const { files, counter, options } = state;
  switch (block.kind) {
    case 'header': {
      if (block.text.trim() === '') return [];
      const header: HeaderBlock = { type: 'header', text: plainText(block.text, SLACK_LIMITS.headerText) };
      return [{ block: header, rows: 0, buttons: 0, essential: false }];
    }
    case 'text':
      return textPieces(block.text);
    case 'fields':
      return fieldPieces(block.fields);
    case 'table':
      return tableBlockPieces(block, state);
    case 'code':
      return codePieces(block.text, block.filename, block.preview, files, options);
    case 'context':
      return block.text.trim() === ''
        ? []
        : [contextPiece(fitEscaped(block.text, SLACK_LIMITS.contextText, escapeMrkdwn))];
    case 'actions':
      return actionPieces(block.buttons, counter);
    case 'divider':
      return [{ block: { type: 'divider' }, rows: 0, buttons: 0, essential: false }];
  }
}

/**
 * What a block costs of the message's ~12k budget. Slack counts text, with room for block structure
 * (SLACK.md); a native table counts its cells' characters, as Slack's 10,000-character table limit does,
 * every other block its whole JSON (an over-estimate that keeps the room for structure).
 */
function cost(block: KnownBlock): number {
  return block.type === 'data_table' ? tableChars(block) : JSON.stringify(block).length;
}

function plural(n: number, word: string): string {
  return `${n} more ${word}${n === 1 ? '' : 's'}`;
}

/** A native table cut to the rows that fit in `room` characters; none when not even one row fits. */
function fitTable(piece: Piece, room: number): Piece | undefined {
  const table = piece.table?.fit(room);
  return table ? { ...piece, block: table.block, rows: table.shown, table } : undefined;
}

/**
 * The message's `text`: what mobile notifications show (they read nothing else), and what a client that
 * cannot draw a block has. The view's summary, then the names of the table's rows (its first column, the
 * one the table marks as naming each row), as many as fit: "Tenants: 1–3 of 3 — acme, globex, initech".
 * Nothing in it is live but fwbot's own mentions in the summary: it follows notificationText's rule.
 */
function fallbackText(summary: string, table: NativeTable | undefined): string {
  const max = SLACK_LIMITS.fallbackText;
  const head = fitEscaped(summary.trim() === '' ? '—' : summary, max, notificationText);
  const names = (table?.names ?? []).map((name) => notificationText(mentionsAsText(name)));
  if (names.length === 0) return head;
  const total = names.length + (table?.omitted ?? 0);
  let text = `${head} — `;
  let listed = 0;
  for (const name of names) {
    const rest = total - listed - 1;
    const tail = rest > 0 ? `, … (${rest} more)` : '';
    const next = `${text}${listed > 0 ? ', ' : ''}${name}`;
    if (next.length + tail.length > max) break;
    text = next;
    listed += 1;
  }
  if (listed === 0) return head;
  const rest = total - listed;
  return rest > 0 ? `${text}, … (${rest} more)` : text;
}

/** Renders a view for a message (≤ 50 blocks) or a modal (≤ 100 blocks), within every limit. */
export function renderBlocks(view: View, options: RenderOptions = {}): RenderedMessage {
  const resolved: Required<RenderOptions> = {
    surface: options.surface ?? 'message',
    fileNote: options.fileNote ?? (() => 'to this conversation'),
  };
  const state: RenderState = {
    files: [],
    counter: { next: 0, dropped: 0 },
    options: resolved,
    summary: view.summary,
    nativeUsed: false,
  };
  const pieces = view.blocks.flatMap((block) => piecesOf(block, state));
  const { files, counter } = state;

  const maxBlocks =
    (resolved.surface === 'modal' ? SLACK_LIMITS.modalBlocks : SLACK_LIMITS.messageBlocks) - 1;
  // The fallback text is made last (it names the table's rows); its full allowance is kept for it.
  let chars = SLACK_LIMITS.messageChars - NOTE_RESERVE - SLACK_LIMITS.fallbackText;
  let blocks = 0;
  /** Each kept piece, as kept: a native table may be kept with fewer rows. */
  const kept = new Map<Piece, Piece>();
  // Buttons first (paging must survive a cut), then the content in order until the budget runs out.
  for (const pass of [true, false]) {
    for (const piece of pieces) {
      if (piece.essential !== pass || blocks + 1 > maxBlocks) continue;
      const fitted = cost(piece.block) <= chars ? piece : fitTable(piece, chars);
      if (!fitted) continue;
      kept.set(piece, fitted);
      blocks += 1;
      chars -= cost(fitted.block);
    }
  }

  const missing = { rows: 0, buttons: counter.dropped, blocks: 0 };
  for (const piece of pieces) {
    const shown = kept.get(piece);
    if (shown) {
      missing.rows += shown.table?.omitted ?? 0;
      continue;
    }
    if (piece.rows > 0 || piece.table) missing.rows += piece.rows + (piece.table?.omitted ?? 0);
    else if (piece.buttons > 0) missing.buttons += piece.buttons;
    else missing.blocks += 1;
  }
  const shownPieces = pieces.flatMap((piece) => kept.get(piece) ?? []);
  const out = shownPieces.map((piece) => piece.block);
  const text = fallbackText(view.summary, shownPieces.find((piece) => piece.table)?.table);
  const parts = [
    missing.rows > 0 ? plural(missing.rows, 'row') : undefined,
    missing.blocks > 0 ? plural(missing.blocks, 'part') : undefined,
    missing.buttons > 0 ? plural(missing.buttons, 'button') : undefined,
  ].filter((part): part is string => part !== undefined);
  if (parts.length > 0) {
    out.push(
      contextPiece(`:warning: Not shown: ${parts.join(', ')} (too long for one Slack message).`).block,
    );
  }
  return { text, blocks: out, files };
}
