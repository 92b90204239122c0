// How the console writes: Slack's markup made plain (text.ts does most of it), user ids shown as the
// console's user names, the few emoji codes fwbot uses shown as emoji, and thread replies indented.
import { plainMrkdwn, renderText } from '../render/text.js';
import type { View } from '../render/view.js';

export interface ConsoleUser {
  /** What `/as` takes: `alice`. */
  name: string;
  /** The Slack-style user id the policy grants roles to: `U0ALICE`. */
  id: string;
  /** What the demo policy lets this user do, for `/users`. */
  roles: string;
}

const EMOJI: Record<string, string> = {
  ':no_entry:': '⛔',
  ':white_check_mark:': '✅',
  ':heavy_check_mark:': '✔',
  ':x:': '❌',
  ':warning:': '⚠️',
  ':hourglass:': '⌛',
  ':hourglass_flowing_sand:': '⏳',
  ':question:': '❓',
  ':lock:': '🔒',
  ':arrows_counterclockwise:': '🔄',
  ':eyes:': '👀',
  ':stop_sign:': '🛑',
};

export class ConsoleWriter {
  readonly #names: Map<string, string>;

  constructor(users: readonly ConsoleUser[]) {
    this.#names = new Map(users.map((user) => [user.id, user.name]));
  }

  /** Slack text (mrkdwn as Slack receives it: mentions, escapes, emoji codes) as terminal text. */
  text(text: string): string {
    return this.#people(plainMrkdwn(text)).replace(/:[a-z0-9_+-]+:/g, (code) => EMOJI[code] ?? code);
  }

  /** A view as text with numbered buttons (src/render/text.ts), people and emoji made readable. */
  view(view: View): string {
    return this.#people(renderText(view))
      .replace(/:[a-z0-9_+-]+:/g, (code) => EMOJI[code] ?? code)
      .trimEnd();
  }

  name(userId: string): string {
    return this.#names.get(userId) ?? userId;
  }

  #people(text: string): string {
    return text.replace(/@([UW][A-Z0-9]+)/g, (mention, id: string) => {
      const name = this.#names.get(id);
      return name === undefined ? mention : `@${name}`;
    });
  }
}

/** Indents every line (thread replies under their announcement). */
export function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `${prefix}${line}`))
    .join('\n');
}
