// What the rest of fwbot posts into the console's channel, shown as it arrives: approval cards (their
// buttons become the current choices), replies in the thread of an announcement, edits of progress
// messages and cards. A message that carries a View is shown by the text renderer, as the console shows
// its own answers; a text message as the mrkdwn it is.

import type { View } from '../model/view.js';
import type { ConsoleChat, ConsoleMessage } from './consoleChat.js';
import type { Prompter } from './forms.js';
import { type ConsoleWriter, indent } from './output.js';

export interface InboxHandlers {
  /** A message with buttons arrived (or was edited): they become the current choices. */
  buttons(view: View, messageTs: string, edited: boolean): void;
}

export class ConsoleInbox {
  readonly #unsubscribe: () => void;
  readonly #chat: ConsoleChat;

  constructor(
    chat: ConsoleChat,
    private readonly channelId: string,
    private readonly io: Prompter,
    private readonly write: ConsoleWriter,
    private readonly handlers: InboxHandlers,
  ) {
    this.#chat = chat;
    const onPosted = (message: ConsoleMessage) => this.#posted(message);
    const onUpdated = (message: ConsoleMessage) => this.#updated(message);
    chat.on('posted', onPosted);
    chat.on('updated', onUpdated);
    this.#unsubscribe = () => {
      chat.off('posted', onPosted);
      chat.off('updated', onUpdated);
    };
  }

  close(): void {
    this.#unsubscribe();
  }

  /** The message as the console prints it. */
  #body(message: ConsoleMessage): string {
    return message.view ? this.write.view(message.view) : this.write.received(message.text).trimEnd();
  }

  #posted(message: ConsoleMessage): void {
    if (message.channel !== this.channelId) return;
    if (message.threadTs !== undefined) {
      const root = this.#chat.message(message.channel, message.threadTs);
      const about = root ? this.write.plain(root.text).split('\n')[0]?.slice(0, 72) : message.threadTs;
      this.io.print(`  ↳ in the thread of “${about}”:\n${indent(this.#body(message), '    ')}`);
      // A reply with buttons (e.g. Reveal, after an approval) offers them like any message.
      if (message.view) this.handlers.buttons(message.view, message.ts, false);
      return;
    }
    this.io.print(`fwbot in #console:\n${this.#body(message)}`);
    if (message.view) this.handlers.buttons(message.view, message.ts, false);
  }

  #updated(message: ConsoleMessage): void {
    if (message.channel !== this.channelId) return;
    if (!message.view) {
      this.io.print(`  ↻ ${indent(this.write.received(message.text), '    ').trimStart()}`);
      return;
    }
    this.io.print(`fwbot updated a message in #console:\n${this.write.view(message.view)}`);
    this.handlers.buttons(message.view, message.ts, true);
  }
}
