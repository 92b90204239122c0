// What the rest of fwbot posts into the console's channel, shown as it arrives: approval cards (their
// buttons become the current choices), replies in the thread of an announcement, edits of progress
// messages and cards, notes only one person sees, and modals opened by a click (answered by the session).

import type { View } from '../model/view.js';
import { viewOfMessage } from './blockView.js';
import type { ConsoleMessage, ConsoleModal, ConsoleSlack } from './consoleSlack.js';
import type { Prompter } from './forms.js';
import { type ConsoleWriter, indent } from './output.js';

export interface InboxHandlers {
  /** A message with buttons arrived (or was edited): they become the current choices. */
  buttons(view: View, messageTs: string, edited: boolean): void;
}

export class ConsoleInbox {
  readonly #modals: ConsoleModal[] = [];
  readonly #unsubscribe: () => void;

  constructor(
    private readonly slack: ConsoleSlack,
    private readonly channelId: string,
    private readonly io: Prompter,
    private readonly write: ConsoleWriter,
    private readonly handlers: InboxHandlers,
  ) {
    const onPosted = (message: ConsoleMessage) => this.#posted(message);
    const onUpdated = (message: ConsoleMessage) => this.#updated(message);
    const onEphemeral = (note: { channel: string; user: string; text: string }) =>
      this.io.print(`(only @${this.write.name(note.user)} sees this) ${this.write.received(note.text)}`);
    const onModal = (modal: ConsoleModal) => this.#modals.push(modal);
    slack.on('posted', onPosted);
    slack.on('updated', onUpdated);
    slack.on('ephemeral', onEphemeral);
    slack.on('modal', onModal);
    this.#unsubscribe = () => {
      slack.off('posted', onPosted);
      slack.off('updated', onUpdated);
      slack.off('ephemeral', onEphemeral);
      slack.off('modal', onModal);
    };
  }

  /** The next modal a click opened, if any. */
  nextModal(): ConsoleModal | undefined {
    return this.#modals.shift();
  }

  close(): void {
    this.#unsubscribe();
  }

  #posted(message: ConsoleMessage): void {
    if (message.channel !== this.channelId) return;
    if (message.threadTs !== undefined) {
      const root = this.slack.message(message.channel, message.threadTs);
      const about = root ? this.write.plain(root.text).split('\n')[0]?.slice(0, 72) : message.threadTs;
      const body = message.blocks
        ? this.write.view(viewOfMessage(message.text, message.blocks))
        : this.write.received(message.text);
      this.io.print(`  ↳ in the thread of “${about}”:\n${indent(body, '    ')}`);
      // A reply with buttons (e.g. Reveal, after an approval) offers them like any message.
      if (message.blocks)
        this.handlers.buttons(viewOfMessage(message.text, message.blocks), message.ts, false);
      return;
    }
    const view = viewOfMessage(message.text, message.blocks);
    this.io.print(`fwbot in #console:\n${this.write.view(view)}`);
    this.handlers.buttons(view, message.ts, false);
  }

  #updated(message: ConsoleMessage): void {
    if (message.channel !== this.channelId) return;
    if (!message.blocks) {
      this.io.print(`  ↻ ${indent(this.write.received(message.text), '    ').trimStart()}`);
      return;
    }
    const view = viewOfMessage(message.text, message.blocks);
    this.io.print(`fwbot updated a message in #console:\n${this.write.view(view)}`);
    this.handlers.buttons(view, message.ts, true);
  }
}
