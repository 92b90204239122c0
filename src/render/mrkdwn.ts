// Slack's mrkdwn, and the only way fwbot makes a live mention or marks a value as literal. fwbot keeps the
// private-use characters U+E000–U+E00F for its own marks inside View text:
// - `userMention` and `channelMention` wrap a mention in U+E000 … U+E001, and `localDate` a date Slack shows
//   in each reader's own time zone; the Block Kit renderer keeps exactly those wrapped tokens live and
//   escapes everything else, so text that comes from SCC or from people (`<@U…>`, `<#C…>`, `<!channel>`,
//   `<!subteam^…>`, `<!date^…>`, `<https://…|…>`) can neither ping anyone nor forge a link. A wrapper around
//   anything but a well-formed token is dropped here.
// - `untrusted()` (render/untrusted.ts) wraps a value from outside in U+E004 … U+E005: a literal run, which
//   every renderer shows as the characters it holds, never as markup (render/untrusted.ts says how).
// Outside text cannot bring any of these characters in: `stripSentinels` removes the whole range where text
// enters (Slack payloads, the console and CLI, SCC's answers).
import { stripSentinels } from '../model/marks.js';

const OPEN = '\uE000';
const CLOSE = '\uE001';
/** Opens and closes a literal run (render/untrusted.ts). */
export const LITERAL_OPEN = '\uE004';
export const LITERAL_CLOSE = '\uE005';
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
const CHANNEL_ID = /^[CG][A-Z0-9]{2,20}$/;
/**
 * A token made by userMention / channelMention / localDate; group 1 is the markup, 2 a user id, 3 a
 * channel id, 4 a date's fallback.
 */
const WRAPPED =
  /\uE000(<@([UW][A-Z0-9]{2,20})>|<#([CG][A-Z0-9]{2,20})>|<!date\^\d{1,12}\^\{date_short_pretty\} \{time\}\|([^<>|&\n\uE000-\uE00F]+)>)\uE001/g;
/**
 * A literal run; one whose end was cut off (a value truncated to fit) runs to the end of the text, so a
 * cut never lets the rest of a value be read as markup.
 */
const LITERAL = /\uE004([^\uE004\uE005]*)(?:\uE005|$)/g;

/** A live `@user` mention; an id that is not a Slack user id (e.g. `fwbot`) stays plain text. */
export function userMention(userId: string): string {
  return USER_ID.test(userId) ? `${OPEN}<@${userId}>${CLOSE}` : stripSentinels(userId);
}

/** A live `#channel` link; an id that is not a Slack channel id stays plain text. */
export function channelMention(channelId: string): string {
  return CHANNEL_ID.test(channelId) ? `${OPEN}<#${channelId}>${CLOSE}` : stripSentinels(channelId);
}

/**
 * A moment as Slack shows it to each reader, in their own time zone and clock format (`<!date^…>`:
 * Slack's date formatting, which needs no scope and no knowledge of the reader's zone): `Tomorrow 4:00 PM`.
 * `fallback` is what is shown where that cannot be: an old client, the console, the CLI, plain text. It is
 * written by fwbot (never from outside); a `|`, `<`, `>`, `&` or line break in it would end the token, so
 * those are dropped.
 */
export function localDate(at: number, fallback: string): string {
  const safe =
    stripSentinels(fallback)
      .replace(/[<>|&\r\n]/g, '')
      .trim() || new Date(at).toISOString();
  return `${OPEN}<!date^${Math.floor(at / 1000)}^{date_short_pretty} {time}|${safe}>${CLOSE}`;
}

export { stripSentinels };

/** Whether the text holds a literal run (made by `untrusted()`). */
export function hasLiteral(text: string): boolean {
  return text.includes(LITERAL_OPEN);
}

/** Replaces each literal run with `literal(…)` (its content, without the marks) and the text between with `rest(…)`. */
export function mapLiterals(
  text: string,
  literal: (run: string) => string,
  rest: (text: string) => string,
): string {
  if (!text.includes(LITERAL_OPEN)) return rest(text);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(LITERAL)) {
    out += rest(text.slice(last, match.index)) + literal(stripSentinels(match[1] ?? ''));
    last = match.index + match[0].length;
  }
  return out + rest(text.slice(last));
}

/** Replaces each wrapped token with `mention(…)` and each run between them with `plain(…)`. */
function mapMentions(
  text: string,
  mention: (
    markup: string,
    userId: string | undefined,
    channelId: string | undefined,
    dateFallback: string | undefined,
  ) => string,
  plain: (run: string) => string,
): string {
  if (!text.includes(OPEN)) return plain(text);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(WRAPPED)) {
    out += plain(text.slice(last, match.index)) + mention(match[1] ?? '', match[2], match[3], match[4]);
    last = match.index + match[0].length;
  }
  return out + plain(text.slice(last));
}

/**
 * Passes every run of the text between fwbot's own wrapped tokens (mentions, dates) through `run`, keeping
 * the tokens as they are: how a text whose every other part counts as from outside is made.
 */
export function mapBesideMentions(text: string, run: (text: string) => string): string {
  return mapMentions(text, (markup) => `${OPEN}${markup}${CLOSE}`, run);
}

/** Escapes `&`, `<` and `>` so Slack shows them as typed; drops stray marks. */
export function escapeAll(text: string): string {
  return stripSentinels(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A literal run as mrkdwn that Slack shows character for character. Slack has no escape for its markup
 * (`*bold*`, `_italic_`, `~strike~`, emoji codes, a `>` quote, `@here`, links it finds by itself), but it reads
 * none of it inside a code span: a value that holds any is shown as one, its backticks as `ˋ` (U+02CB) so
 * the span cannot be closed from inside. Anything else only needs `&`, `<` and `>` escaped, and looks as
 * it did before.
 */
function literalMrkdwn(run: string): string {
  // untrusted() made the run one line already; a line break here still must not start a quote or a line.
  const line = run.replace(/[\r\n\u2028\u2029]/g, ' ');
  if (!SLACK_READS.test(line)) return escapeAll(line);
  return `\`${escapeAll(line.replace(/`/g, 'ˋ'))}\``;
}

/** An emoji code whose name is not only hex digits: IPv6 and MAC addresses (`2001:db8::1`) are not codes. */
const EMOJI_CODE_SOURCE = String.raw`:(?=[\p{L}\p{N}_+'-]*[g-z_+'\-\P{ASCII}])[\p{L}\p{N}_+'-]+:`;
/** An emoji code Slack would show as an emoji (in mrkdwn, and in plain_text with `emoji: true`). */
export const EMOJI_CODE = new RegExp(EMOJI_CODE_SOURCE, 'iu');

/**
 * What Slack would read as markup in a value (render/untrusted.ts marks a value that holds any): a
 * backtick; `*`, `_` or `~` that is not between two letters or digits (Slack formats them only at word
 * edges, so `outside_vlan` is safe); an emoji code; `@here`, `@channel` and `@everyone`; a `>` that could
 * open a quote; and a URL, which Slack would make a link.
 */
export const SLACK_READS = new RegExp(
  [
    '`',
    String.raw`(?:^|[^\p{L}\p{N}])[*_~]`,
    String.raw`[*_~](?:$|[^\p{L}\p{N}])`,
    EMOJI_CODE_SOURCE,
    String.raw`@(?:here|channel|everyone)\b`,
    String.raw`^\s*>`,
    String.raw`[a-z][a-z0-9+.-]*:\/\/`,
    String.raw`\bwww\.`,
  ].join('|'),
  'iu',
);

/** Text as Slack mrkdwn: mentions made by userMention / channelMention live, literal runs shown as they are, everything else escaped. */
export function escapeMrkdwn(text: string): string {
  return mapLiterals(text, literalMrkdwn, (rest) => mapMentions(rest, (markup) => markup, escapeAll));
}

/**
 * Wrapped tokens as readable text (`@U0123`, `#C0123`, a date's fallback) and literal runs as their
 * content, for places that show no markup: plain_text, code, terminals.
 */
export function mentionsAsText(text: string): string {
  return mapMentions(
    text,
    (_markup, userId, channelId, dateFallback) =>
      userId ? `@${userId}` : channelId ? `#${channelId}` : (dateFallback ?? ''),
    stripSentinels,
  );
}
