// The console's approval commands: `/approvals` lists the pending cards by number, `/approvals <n>` shows
// one again, and `/approve <n>`, `/reject <n> [reason]`, `/cancel <n>` press that card's own button —
// the same press as typing its number right after the card arrived: the confirmation, then the approvals'
// decisions, which check the acting user's roles again and write the audit trail.
import type { Button } from '../model/view.js';
import {
  type ApprovalCard,
  type ApprovalCards,
  type CardAction,
  cardButton,
  cardFacts,
} from './approvalCards.js';
import type { Prompter } from './forms.js';
import type { ConsoleWriter } from './output.js';

export const APPROVAL_COMMANDS = ['/approvals', '/approve', '/reject', '/cancel'] as const;

export const APPROVAL_HELP = [
  '  /approvals   the pending approvals, numbered; /approvals <n> shows that card again',
  '  /approve <n>, /reject <n> [reason], /cancel <n>   act on approval <n> (as its buttons do)',
].join('\n');

/** What the session does for these commands. */
export interface CardButtons {
  /** Presses a card's button as the acting user; a reject's reason given here is not asked again. */
  press(button: Button, messageTs: string, reason?: string): Promise<void>;
  /** A card shown again: its buttons become the numbered choices. */
  offer(card: ApprovalCard): void;
}

export class ApprovalCommands {
  constructor(
    private readonly cards: ApprovalCards,
    private readonly io: Prompter,
    private readonly write: ConsoleWriter,
    private readonly buttons: CardButtons,
  ) {}

  /** A line that starts with one of APPROVAL_COMMANDS. */
  async run(word: string, rest: string[]): Promise<void> {
    if (word === '/approvals') {
      if (rest.length === 0) this.#list();
      else this.#show(rest);
      return;
    }
    const action: CardAction = word === '/approve' ? 'approve' : word === '/reject' ? 'reject' : 'cancel';
    const [which = '', ...words] = rest;
    const card = this.#card(which, `${word} <n>${action === 'reject' ? ' [reason]' : ''}`);
    if (!card) return;
    if (words.length > 0 && action !== 'reject') {
      this.io.print(
        `${word} takes only the number: the card records who decided and when. Try ${word} ${card.number}.`,
      );
      return;
    }
    const button = cardButton(card, action);
    if (!button) {
      this.io.print(this.#notPending(card));
      return;
    }
    this.io.print(`Approval #${card.number}: ${this.write.text(cardFacts(card).action)}`);
    await this.buttons.press(button, card.messageTs, words.length > 0 ? words.join(' ') : undefined);
  }

  /** The card numbered `which`, or says why there is none. */
  #card(which: string, usage: string): ApprovalCard | undefined {
    const known = this.#numbers();
    const listed = known.length > 0 ? ` Pending: ${known.join(', ')} (see /approvals).` : ' None is pending.';
    if (!/^#?\d+$/.test(which)) {
      this.io.print(`Usage: ${usage}, with the number /approvals shows.${listed}`);
      return undefined;
    }
    const card = this.cards.get(Number(which.replace('#', '')));
    if (!card) this.io.print(`There is no approval #${which.replace('#', '')}.${listed}`);
    return card;
  }

  #numbers(): string[] {
    return this.cards.pending().map((card) => `#${card.number}`);
  }

  #notPending(card: ApprovalCard): string {
    const { status } = cardFacts(card);
    return `Approval #${card.number} is no longer pending${status ? `: ${this.write.text(status)}` : '.'}`;
  }

  #list(): void {
    const pending = this.cards.pending();
    if (pending.length === 0) {
      this.io.print('No approvals are pending in #console.');
      return;
    }
    const lines = [`Pending approvals, oldest first (${pending.length}):`];
    for (const card of pending) {
      const facts = cardFacts(card);
      const about = [
        `asked by ${facts.requester ? this.write.text(facts.requester) : 'someone'} ${this.cards.age(card)}`,
        facts.expires ? `expires ${facts.expires}` : undefined,
        facts.command,
      ].filter(Boolean);
      lines.push(`  #${card.number}  ${this.write.text(facts.action)}`);
      lines.push(`       ${about.join(' · ')}`);
    }
    lines.push(
      '/approve <n> · /reject <n> [reason] · /cancel <n> (the requester) · /approvals <n> shows the card',
    );
    this.io.print(lines.join('\n'));
  }

  #show(rest: string[]): void {
    const card = this.#card(rest[0] ?? '', '/approvals <n>');
    if (!card) return;
    this.io.print(`Approval #${card.number}:\n${this.write.view(card.view)}`);
    this.buttons.offer(card);
  }
}
