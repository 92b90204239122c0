// The private-use characters U+E000–U+E00F that fwbot keeps for its own marks inside the text of a view
// (live mentions, literal values: render/mrkdwn.ts and render/untrusted.ts say what each means). Text from
// outside may never bring one in, so every place where text enters (Slack payloads, the console and the
// CLI, SCC's answers) drops them with `stripSentinels`.
const SENTINELS = /[\uE000-\uE00F]/g;

/** Text from outside (SCC, Slack, the console, the command line) without the characters fwbot marks with. */
export function stripSentinels(text: string): string {
  return text.replace(SENTINELS, '');
}
