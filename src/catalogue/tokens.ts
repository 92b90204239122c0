// Shell-like tokenising of command text: whitespace separates, quotes group, a backslash escapes.
// Phones turn quotes into typographic ones, so “…” and ‘…’ count as quotes too. Each token keeps its
// position, because rest-of-line arguments (a Lucene query, a JSON body) are taken from the source as typed.
import { UserError } from '../model/errors.js';

export interface Token {
  value: string;
  /** A quoted token is always an argument, never a command word, a keyword or a flag. */
  quoted: boolean;
  /** The token is one quoted string and nothing else (`"acme eu"`, not `{"a":1}`). */
  wholeQuoted: boolean;
  start: number;
  end: number;
}

const CLOSING: Record<string, string> = { '"': '"', "'": "'", '“': '”', '”': '”', '‘': '’', '’': '’' };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text.charAt(i))) i += 1;
    if (i >= text.length) break;
    const start = i;
    let value = '';
    let quoted = false;
    let segments = 0;
    while (i < text.length && !/\s/.test(text.charAt(i))) {
      segments += 1;
      const c = text.charAt(i);
      const closing = CLOSING[c];
      if (c === '\\' && i + 1 < text.length) {
        value += text.charAt(i + 1);
        i += 2;
      } else if (closing !== undefined) {
        quoted = true;
        const close = findClosing(text, i + 1, c, closing);
        if (close < 0) throw new UserError(`A quote opened at character ${i + 1} is never closed.`);
        value += unescapeQuoted(text.slice(i + 1, close), c);
        i = close + 1;
      } else {
        value += c;
        i += 1;
      }
    }
    const wholeQuoted = quoted && segments === 1;
    tokens.push({ value, quoted, wholeQuoted, start, end: i });
  }
  return tokens;
}

function findClosing(text: string, from: number, opening: string, closing: string): number {
  for (let j = from; j < text.length; j += 1) {
    const c = text.charAt(j);
    // Inside double quotes a backslash escapes the next character, as in a shell.
    if (c === '\\' && opening === '"') j += 1;
    else if (c === closing || (opening === '“' && c === '“')) return j;
  }
  return -1;
}

function unescapeQuoted(inner: string, opening: string): string {
  return opening === '"' ? inner.replace(/\\(.)/g, '$1') : inner;
}

/** The source text a run of tokens came from; one wholly quoted token gives its unquoted value. */
export function sourceOf(text: string, tokens: readonly Token[]): string {
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (first === undefined || last === undefined) return '';
  if (tokens.length === 1 && first.wholeQuoted) return first.value;
  return text.slice(first.start, last.end);
}
