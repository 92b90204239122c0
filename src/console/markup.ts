// Slack mrkdwn for a terminal: *bold*, _italic_, ~strike~, `code`, ```blocks```, <url|label> links,
// <@U…>/<#C…> mentions, &amp;/&lt;/&gt; and the emoji codes fwbot writes (:warning:). With ANSI styles
// on a TTY that allows colour (NO_COLOR unset, TERM not dumb), as plain text otherwise: the marks go
// either way. Code is taken verbatim: nothing inside backticks is read as markup, mention, link or emoji.
// The input is mrkdwn as Slack receives it (escaped, see src/render/mrkdwn.ts), so `&lt;@U1&gt;` is text,
// never a mention.
import { mentionsAsText } from '../render/mrkdwn.js';

export interface TerminalStyle {
  bold(text: string): string;
  italic(text: string): string;
  strike(text: string): string;
  code(text: string): string;
  link(text: string): string;
}

const same = (text: string) => text;
export const PLAIN: TerminalStyle = { bold: same, italic: same, strike: same, code: same, link: same };

const sgr = (on: number, off: number) => (text: string) => `\x1b[${on}m${text}\x1b[${off}m`;
export const ANSI: TerminalStyle = {
  bold: sgr(1, 22),
  italic: sgr(3, 23),
  strike: sgr(9, 29),
  code: sgr(36, 39),
  link: sgr(4, 24),
};

/** ANSI only on a terminal that wants colour: see https://no-color.org (set and not empty means none). */
export function terminalStyle(tty: boolean, env: NodeJS.ProcessEnv = process.env): TerminalStyle {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return tty && !noColor && env.TERM !== 'dumb' ? ANSI : PLAIN;
}

/** The emoji codes fwbot writes (test/console/markup.test.ts checks every one in src/ is here). */
export const EMOJI: Readonly<Record<string, string>> = {
  alarm_clock: '⏰',
  arrows_counterclockwise: '🔄',
  bell: '🔔',
  calendar: '📆',
  clipboard: '📋',
  double_vertical_bar: '⏸️',
  eyes: '👀',
  gear: '⚙️',
  grey_question: '❔',
  heavy_check_mark: '✔️',
  heavy_multiplication_x: '✖️',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  inbox_tray: '📥',
  information_source: 'ℹ️',
  key: '🔑',
  large_orange_circle: '🟠',
  lock: '🔒',
  memo: '📝',
  no_entry: '⛔',
  pencil2: '✏️',
  question: '❓',
  raised_hand: '✋',
  red_circle: '🔴',
  rocket: '🚀',
  rotating_light: '🚨',
  stop_sign: '🛑',
  unlock: '🔓',
  warning: '⚠️',
  white_check_mark: '✅',
  shield: '🛡',
  x: '❌',
};

// Rendered pieces stand in the text as \uE002<n>\uE003 while the rest is read, so that nothing they hold
// (code, a URL with underscores) is read again; input cannot bring these characters in.
const HOLE = /\uE002(\d+)\uE003/g;
const HOLE_CHARS = /[\uE002\uE003]/g;

function decode(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

class Pieces {
  readonly #pieces: string[] = [];

  hold(rendered: string): string {
    this.#pieces.push(rendered);
    return `\uE002${this.#pieces.length - 1}\uE003`;
  }

  fill(text: string): string {
    let out = text;
    while (HOLE.test(out)) out = out.replace(HOLE, (_m, i: string) => this.#pieces[Number(i)] ?? '');
    return out;
  }
}

/** `<…>`: a link, a mention or a special; anything else was never markup and stays as it reads. */
function angle(inner: string, style: TerminalStyle): string | undefined {
  const [target = '', label] = inner.split('|', 2) as [string, string | undefined];
  const user = /^@([UW][A-Z0-9]+)$/.exec(target);
  if (user) return label ? `@${decode(label)}` : `@${user[1]}`;
  const channel = /^#([CG][A-Z0-9]+)$/.exec(target);
  if (channel) return `#${label ? decode(label) : channel[1]}`;
  if (/^!(here|channel|everyone)$/.test(target)) return `@${target.slice(1)}`;
  if (target.startsWith('!subteam^')) return label ? decode(label) : '@group';
  if (target.startsWith('!date^')) return label ? decode(label) : '';
  if (/^(https?:\/\/|mailto:)/.test(target)) {
    const url = decode(target);
    const text = label ? decode(label) : undefined;
    if (!text || text === url) return style.link(url);
    return target.startsWith('mailto:') ? style.link(text) : `${style.link(text)} (${url})`;
  }
  return undefined;
}

// An emphasis mark opens after a start, a space or punctuation, and closes before an end, a space or
// punctuation, with no space just inside and no line break between (as Slack reads them). One pass, left
// to right; what a mark holds is read again for the others (*bold _and italic_*).
const EMPHASIS = /(^|[^\p{L}\p{N}*_~])([*_~])(?=\S)([^\n]*?\S)\2(?=$|[^\p{L}\p{N}*_~])/gu;
const EMPHASIS_STYLE: Record<string, keyof TerminalStyle> = { '*': 'bold', _: 'italic', '~': 'strike' };

function emphasize(text: string, style: TerminalStyle, pieces: Pieces): string {
  // replace() finds every match before it calls back, so the recursion may use the same expression.
  return text.replace(EMPHASIS, (_whole, before: string, mark: string, inner: string) => {
    const kind = EMPHASIS_STYLE[mark] ?? 'bold';
    return before + pieces.hold(style[kind](decode(emphasize(inner, style, pieces))));
  });
}

/** Text outside code blocks: inline code, then <…>, emoji, emphasis; entities last. */
function inline(text: string, style: TerminalStyle, pieces: Pieces): string {
  const held = text
    .replace(/`([^`\n]+)`/g, (_m, code: string) => pieces.hold(style.code(decode(code))))
    .replace(/<([^<>\n]+)>/g, (markup, inner: string) => {
      const rendered = angle(inner, style);
      return rendered === undefined ? markup : pieces.hold(rendered);
    })
    .replace(/:([a-z0-9_+-]+):/g, (code, name: string) => {
      const emoji = EMOJI[name];
      return emoji === undefined ? code : pieces.hold(emoji);
    });
  return decode(emphasize(held, style, pieces));
}

/** A ``` block on lines of its own, indented, its content verbatim. */
function codeBlock(content: string, style: TerminalStyle): string {
  // blocks.ts breaks a ``` inside code with a zero-width space so it cannot close the fence early.
  const body = decode(content.replace(/`\u200b``/g, '```'))
    .replace(/^\n/, '')
    .replace(/\n$/, '');
  return body
    .split('\n')
    .map((line) => `    ${style.code(line)}`)
    .join('\n');
}

/** Slack mrkdwn (as Slack receives it) as terminal text. */
export function renderMrkdwn(mrkdwn: string, style: TerminalStyle): string {
  const text = mentionsAsText(mrkdwn).replace(HOLE_CHARS, '');
  const pieces = new Pieces();
  let out = '';
  let last = 0;
  for (const match of text.matchAll(/```([\s\S]*?)```/g)) {
    const before = inline(text.slice(last, match.index), style, pieces);
    out += before === '' || before.endsWith('\n') ? before : `${before}\n`;
    out += codeBlock(match[1] ?? '', style);
    last = match.index + match[0].length;
    if (last < text.length && text[last] !== '\n') out += '\n';
  }
  out += inline(text.slice(last), style, pieces);
  return pieces.fill(out);
}
