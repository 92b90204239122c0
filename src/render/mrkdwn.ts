// Slack's mrkdwn, and the only way fwbot makes a live mention. `userMention` and `channelMention` wrap the
// mention in two private-use characters; the Block Kit renderer keeps exactly those wrapped mentions live
// and escapes everything else, so text that comes from SCC or from people (`<@U…>`, `<#C…>`, `<!channel>`,
// `<!subteam^…>`, `<https://…|…>`) can neither ping anyone nor forge a link. Outside text cannot bring the
// wrapping characters in: `stripSentinels` removes them where it enters, and a wrapper around anything but
// a well-formed mention is dropped here.

const OPEN = '\uE000';
const CLOSE = '\uE001';
const SENTINELS = /[\uE000\uE001]/g;
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
const CHANNEL_ID = /^[CG][A-Z0-9]{2,20}$/;
/** A mention made by userMention / channelMention; group 1 is the markup, 2 a user id, 3 a channel id. */
const WRAPPED = /\uE000(<@([UW][A-Z0-9]{2,20})>|<#([CG][A-Z0-9]{2,20})>)\uE001/g;

/** A live `@user` mention; an id that is not a Slack user id (e.g. `fwbot`) stays plain text. */
export function userMention(userId: string): string {
  return USER_ID.test(userId) ? `${OPEN}<@${userId}>${CLOSE}` : stripSentinels(userId);
}

/** A live `#channel` link; an id that is not a Slack channel id stays plain text. */
export function channelMention(channelId: string): string {
  return CHANNEL_ID.test(channelId) ? `${OPEN}<#${channelId}>${CLOSE}` : stripSentinels(channelId);
}

/** Text from outside (SCC, Slack, the console, the command line) without the characters that make a mention. */
export function stripSentinels(text: string): string {
  return text.replace(SENTINELS, '');
}

/** Replaces each wrapped mention with `mention(…)` and each run between them with `plain(…)`. */
function mapMentions(
  text: string,
  mention: (markup: string, userId: string | undefined, channelId: string | undefined) => string,
  plain: (run: string) => string,
): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(WRAPPED)) {
    out += plain(text.slice(last, match.index)) + mention(match[1] ?? '', match[2], match[3]);
    last = match.index + match[0].length;
  }
  return out + plain(text.slice(last));
}

/** Escapes `&`, `<` and `>` so Slack shows them as typed; drops stray wrapping characters. */
export function escapeAll(text: string): string {
  return stripSentinels(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text as Slack mrkdwn: mentions made by userMention / channelMention live, everything else escaped. */
export function escapeMrkdwn(text: string): string {
  return mapMentions(text, (markup) => markup, escapeAll);
}

/** Wrapped mentions as readable text (`@U0123`, `#C0123`), for places that show no mention: plain_text, code, terminals. */
export function mentionsAsText(text: string): string {
  return mapMentions(
    text,
    (_markup, userId, channelId) => (userId ? `@${userId}` : `#${channelId ?? ''}`),
    stripSentinels,
  );
}
