// How the console writes: Slack's markup rendered for a terminal (markup.ts: styled on a TTY, plain on a
// pipe), views as text (src/render/text.ts) with that markup, user ids shown as the console's user names,
// and thread replies indented.

import type { View } from '../model/view.js';
import { escapeMrkdwn, mapLiterals, mentionsAsText } from '../render/mrkdwn.js';
import { renderText } from '../render/text.js';
import { EMOJI, PLAIN, renderMrkdwn, type TerminalStyle } from './markup.js';

export interface ConsoleUser {
  /** What `/as` takes: `alice`. */
  name: string;
  /** The Slack-style user id the policy grants roles to: `U0ALICE`. */
  id: string;
  /** What the demo policy lets this user do, for `/users`. */
  roles: string;
}

export class ConsoleWriter {
  readonly #names: Map<string, string>;
  readonly #style: TerminalStyle;

  constructor(users: readonly ConsoleUser[], style: TerminalStyle = PLAIN) {
    this.#names = new Map(users.map((user) => [user.id, user.name]));
    this.#style = style;
  }

  /** Text as Slack received it (escaped mrkdwn: notes, edits, messages posted through the Web API). */
  received(text: string): string {
    return this.#people(renderMrkdwn(text, this.#style));
  }

  /** Text fwbot wrote (mrkdwn as a View holds it: mentions made by userMention, the rest as typed). */
  text(text: string): string {
    return this.received(escapeMrkdwn(text));
  }

  /** Plain text (Slack's plain_text: confirmation dialogs): no markup, but names and emoji; values from outside as typed. */
  plain(text: string): string {
    const emoji = (rest: string) =>
      mentionsAsText(rest).replace(/:([a-z0-9_+-]+):/g, (code, name: string) => EMOJI[name] ?? code);
    return this.#people(mapLiterals(text, (run) => run, emoji));
  }

  /** A view as text with numbered buttons (src/render/text.ts), its mrkdwn rendered, people readable. */
  view(view: View): string {
    return this.#people(
      renderText(view, {
        markup: (text) => renderMrkdwn(escapeMrkdwn(text), this.#style),
        code: (line) => this.#style.code(line),
      }),
    ).trimEnd();
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
