// Values from outside — SCC's data (device, interface and tenant names, descriptions, messages) and what
// people type (user names, descriptions, a reject reason) — shown inside fwbot's own text. Such a value
// stays inside its own field: it cannot start a line, make markup, an emoji, a mention or a link, or turn
// the text around it right to left. `untrusted()` is the one way to put one in a View's text; renderers
// then show it as the characters it holds (Slack: a code span when Slack would read markup in it, see
// render/mrkdwn.ts; terminals: as it is). Characters a reader cannot see are shown as escapes (`\n`,
// `\u202E`) with HIDDEN_NOTE after the value, so an approver sees that something was hidden there.
// Ordinary names (`GigabitEthernet0/1`, `contoso-eu`, `outside_vlan`, `2001:db8::1/64`) come back unchanged.
import {
  escapeMrkdwn,
  hasLiteral,
  LITERAL_CLOSE,
  LITERAL_OPEN,
  mapBesideMentions,
  mapLiterals,
  SLACK_READS,
  stripSentinels,
} from './mrkdwn.js';

/** Said after a value that held characters a reader cannot see (shown escaped in it). */
export const HIDDEN_NOTE = '⚠ (contains hidden or control characters)';
/** The same sign where a sentence does not fit: after a table cell. */
export const HIDDEN_MARK = '⚠';

/**
 * Characters that change how the text around them reads without being seen: control characters (line
 * breaks and tabs too: a value stays on its line), line and paragraph separators, and format characters
 * (Unicode Cf: bidirectional overrides, embeddings and isolates U+202A–U+202E and U+2066–U+2069, the marks
 * U+200E, U+200F and U+061C, zero-width space and joiners U+200B–U+200D, word joiner U+2060, byte-order mark
 * U+FEFF, soft hyphen, tag characters).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
/** The same but line breaks and tabs. */
const INVISIBLE_BUT_LINES = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeInvisible(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase();
  return hex.length > 4 ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/**
 * The text with every invisible character shown as an escape (`\n`, `\t`, `\u202E`), and whether there
 * was any. `keepLines` keeps line breaks and tabs (preformatted output, where they are the layout; a
 * `\r\n` counts as a line break).
 */
export function revealInvisible(
  raw: string,
  options: { keepLines?: boolean } = {},
): { text: string; hidden: boolean } {
  const source = options.keepLines && raw.includes('\r') ? raw.replace(/\r\n/g, '\n') : raw;
  const pattern = options.keepLines ? INVISIBLE_BUT_LINES : INVISIBLE;
  // Most text has none: a test is cheaper than a replace with a callback.
  pattern.lastIndex = 0;
  if (!pattern.test(source)) return { text: source, hidden: false };
  pattern.lastIndex = 0;
  let hidden = false;
  const text = source.replace(pattern, (char) => {
    hidden = true;
    return escapeInvisible(char);
  });
  return { text, hidden };
}

/** Whether a terminal or Slack could read anything in the value as markup (or an entity to decode). */
function readAsMarkup(text: string): boolean {
  return /[&<>]/.test(text) || SLACK_READS.test(text);
}

/**
 * An untrusted value as it goes into a View's text: a field value, a warning, the action sentence of an
 * approval card, a rejection reason. Invisible characters are shown escaped and followed by HIDDEN_NOTE;
 * the value is marked as a literal run when anything in it could be read as markup, so every renderer
 * shows it as typed. A plain value comes back as it was, and so does anything untrusted() made: text
 * made of untrusted() parts (a list its caller joined) keeps its parts, each checked again with what
 * joins them, so a value stays on one line whatever it was made of.
 */
export function untrusted(value: string): string {
  if (!hasLiteral(value)) return shownValue(value);
  const parts = mapLiterals(value, shownValue, shownValue);
  return readsAcrossParts(parts) ? shownValue(value) : parts;
}

/**
 * Whether what Slack shows outside code spans reads as markup once the parts stand side by side: each part
 * was checked alone, but `@` and `here` from two parts (a stray mark in a value from outside between them)
 * make `@here`. Such a value is shown whole, as one literal run.
 */
function readsAcrossParts(text: string): boolean {
  let outside = '';
  mapLiterals(
    text,
    (run) => {
      if (!readAsMarkup(run)) outside += run;
      return '';
    },
    (rest) => {
      outside += rest;
      return '';
    },
  );
  return SLACK_READS.test(outside);
}

function shownValue(value: string): string {
  const { text, hidden } = revealInvisible(stripSentinels(value));
  const shown = readAsMarkup(text) ? `${LITERAL_OPEN}${text}${LITERAL_CLOSE}` : text;
  return hidden ? `${shown} ${HIDDEN_NOTE}` : shown;
}

/**
 * A sentence with its code spans read as values (a confirmation dialog, a notification, the CLI): the
 * backticks go, and what a span held goes through untrusted(), so it is still shown as typed.
 */
export function codeAsLiteral(text: string): string {
  return mapLiterals(
    text,
    (run) => `${LITERAL_OPEN}${run}${LITERAL_CLOSE}`,
    (rest) => rest.replace(/`([^`\n]*)`/g, (_span, inner: string) => untrusted(inner)),
  );
}

/** A code span fwbot wrote with code() (render/format.ts): its content is shown as typed already. */
const OWN_CODE_SPAN = /(`[^`\n]*`)/;

/**
 * fwbot's own words in a notification, which may carry a value from outside put in without untrusted(): on
 * one line, characters a reader cannot see as escapes, and each word Slack would read as markup (`*x*`,
 * an emoji code, a URL, `@here`, a backtick) made a literal run, so it shows as typed. fwbot's own code
 * spans stay as they are.
 */
function wordsAsTyped(run: string): string {
  let hidden = false;
  const shown = run
    .split(OWN_CODE_SPAN)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      const revealed = revealInvisible(part);
      hidden ||= revealed.hidden;
      return revealed.text
        .split(/(\s+)/)
        .map((word) => (SLACK_READS.test(word) ? `${LITERAL_OPEN}${word}${LITERAL_CLOSE}` : word))
        .join('');
    })
    .join('');
  return hidden ? `${shown} ${HIDDEN_NOTE}` : shown;
}

/**
 * A message's top-level `text` as Slack mrkdwn: what a push notification and a screen reader show, and
 * what a client that cannot draw the blocks shows instead. The one rule of every text fwbot posts holds
 * there too, whatever was put in the text: one line, nothing live but fwbot's own mentions, a value from
 * outside shown as typed (untrusted()), and fwbot's own words kept from making markup, lines or hidden
 * characters of whatever they carry (wordsAsTyped). So a device named `*x*`, `<!channel>` or with a
 * U+202E reads as those characters in a notification too.
 */
export function notificationText(text: string): string {
  return escapeMrkdwn(
    mapLiterals(
      text,
      (run) => `${LITERAL_OPEN}${run}${LITERAL_CLOSE}`,
      (rest) => mapBesideMentions(rest, wordsAsTyped),
    ),
  );
}
