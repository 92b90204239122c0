// The last look at every payload fwbot sends Slack (messages posted, updated or answered on a response_url,
// modals, the Home tab): the one rule of fwbot's text holds whatever code built it. The renderer already
// keeps to it (render/untrusted.ts: a value from outside shown as typed, notificationText for the
// top-level `text`); this is where forgetting it cannot reach anyone. A message's top-level `text` (what a
// push notification and a screen reader show) is one line when blocks carry the message, holds no
// character a reader cannot see, and makes no mention, link or special token but fwbot's own mentions of a
// user or channel and its dates; every text object of the blocks holds no hidden character either. What
// breaks the rule is neutralised, not refused: the message still goes out, shown as typed.
import type { KnownBlock } from '@slack/types';

/** Line breaks, of every kind. */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;
/**
 * Characters a reader cannot see (controls, format characters: bidi overrides and isolates, zero-width
 * characters, the byte-order mark), line breaks and tabs aside. U+200B is the renderer's own: it keeps ```
 * in a code block from closing it (render/blocks.ts), so it is left where it breaks backticks.
 */
const HIDDEN = /(?![\n\t])[\p{Cc}\p{Cf}]/gu;
/** What fwbot itself makes live in text (render/mrkdwn.ts): a user, a channel, a date in the reader's zone. */
const OWN_TOKEN =
  /^<(?:@[UW][A-Z0-9]{2,20}|#[CG][A-Z0-9]{2,20}|!date\^\d{1,12}\^\{date_short_pretty\} \{time\}\|[^<>|&\n]+)>/;
const ENTITY = /^&(?:amp|lt|gt);/;

function shownEscape(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase();
  return hex.length > 4 ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/** Hidden characters shown as escapes (`\u202E`); in blocks, the renderer's U+200B after a backtick kept. */
function revealHidden(text: string, inBlocks: boolean): string {
  return text.replace(HIDDEN, (char, at: number) =>
    inBlocks && char === '\u200b' && text[at - 1] === '`' ? char : shownEscape(char),
  );
}

/** `<`, `>` and `&` escaped but in fwbot's own tokens and entities already escaped. */
function onlyOwnTokens(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    const rest = text.slice(at);
    const own = char === '<' ? OWN_TOKEN.exec(rest)?.[0] : char === '&' ? ENTITY.exec(rest)?.[0] : undefined;
    if (own !== undefined) {
      out += own;
      at += own.length;
      continue;
    }
    out += char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '&' ? '&amp;' : char;
    at += 1;
  }
  return out;
}

/**
 * A message's top-level `text` as it leaves: one line when `blocks` carry the message (it is then only what
 * a notification or a screen reader shows), hidden characters shown, no token but fwbot's own.
 */
export function outgoingText(text: string, withBlocks: boolean): string {
  const lines = withBlocks ? text.replace(LINE_BREAK, ' ') : text.replace(/\r\n?/g, '\n');
  return onlyOwnTokens(revealHidden(lines, false));
}

/** Every text object (`{type, text}`) and table cell of blocks or a view, hidden characters shown. */
function revealedDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => revealedDeep(item)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === 'text' && typeof inner === 'string' ? revealHidden(inner, true) : revealedDeep(inner);
  }
  return out as T;
}

/** A message (posted, updated, ephemeral, or on a response_url) as it leaves. */
export function outgoingMessage<M extends { text: string; blocks?: KnownBlock[] | undefined }>(
  message: M,
): M {
  const withBlocks = (message.blocks?.length ?? 0) > 0;
  return {
    ...message,
    text: outgoingText(message.text, withBlocks),
    ...(message.blocks === undefined ? {} : { blocks: revealedDeep(message.blocks) }),
  };
}

/** A modal or Home view as it leaves: every text in it with hidden characters shown. */
export function outgoingView<V>(view: V): V {
  return revealedDeep(view);
}
