// The approval cards the console has seen in its channel, numbered in the order they arrived (#1, #2 …)
// so that any of them can be acted on by number (/approve 2), not only the last message's buttons. A
// card's number never changes; its view follows the card's edits, so a decided or expired card, which
// loses its buttons, is no longer pending. Acting is pressing the card's own button (see session.ts).
import { APPROVE_ACTION, CANCEL_ACTION, REJECT_ACTION, renderCard } from '../approvals/card.js';
import type { ApprovalRecord } from '../approvals/record.js';
import type { Button, View } from '../model/view.js';
import type { ConsoleChat } from './consoleChat.js';

export type CardAction = 'approve' | 'reject' | 'cancel';

const ACTION_IDS: Record<CardAction, string> = {
  approve: APPROVE_ACTION,
  reject: REJECT_ACTION,
  cancel: CANCEL_ACTION,
};

export interface ApprovalCard {
  number: number;
  /** The card's message (its buttons are pressed with it). */
  messageTs: string;
  /** The card as it reads now: the View the approvals posted or last edited it to. */
  view: View;
  /** When the console received it (console clock). */
  arrivedAt: number;
}

/** What a card says, read from the card itself (src/approvals/card.ts writes it). */
export interface CardFacts {
  /** "delete the VLAN interface iot (Vlan20) on asa-hq-01" (mrkdwn). */
  action: string;
  /** The requester's mention, as the card writes it. */
  requester?: string;
  /** "15:32 UTC" */
  expires?: string;
  command?: string;
  /** The card's last line once decided ("Approved by … at …"). */
  status?: string;
}

/** A user mention as the card's View holds it (userMention: wrapped, see src/render/mrkdwn.ts). */
const MENTION = '\uE000?<@[A-Z0-9]+>\uE001?';
/** The card's first sentence: `<requester> asks to *<what will happen>*.` */
const ASKS = new RegExp(`^(${MENTION}) asks to \\*([\\s\\S]+)\\*\\.$`);
const REQUESTED_BY = new RegExp(`^requested by (${MENTION})`);

function buttons(view: View): Button[] {
  return view.blocks.flatMap((block) => (block.kind === 'actions' ? block.buttons : []));
}

function isCardButton(button: Button): boolean {
  return Object.values(ACTION_IDS).includes(button.action?.id ?? '');
}

/** The card's button for an action, while the card is pending. */
export function cardButton(card: ApprovalCard, action: CardAction): Button | undefined {
  return buttons(card.view).find((b) => b.action?.id === ACTION_IDS[action]);
}

export function isPending(card: ApprovalCard): boolean {
  return cardButton(card, 'approve') !== undefined;
}

export function cardFacts(card: ApprovalCard): CardFacts {
  const texts = card.view.blocks.flatMap((block) => (block.kind === 'text' ? [block.text] : []));
  const asks = texts.map((text) => ASKS.exec(text)).find(Boolean);
  const context = card.view.blocks.find((block) => block.kind === 'context')?.text ?? '';
  const part = (pattern: RegExp) =>
    context
      .split(' · ')
      .map((piece) => pattern.exec(piece)?.[1])
      .find((found) => found !== undefined);
  const facts: CardFacts = { action: asks?.[2] ?? card.view.summary };
  const requester = asks?.[1] ?? part(REQUESTED_BY);
  if (requester) facts.requester = requester;
  const expires = part(/^expires (.+)$/);
  if (expires) facts.expires = expires;
  const command = part(/^Command: `(.+)`$/);
  if (command) facts.command = command;
  if (!isPending(card)) {
    const last = texts.at(-1);
    if (last) facts.status = last;
  }
  return facts;
}

export class ApprovalCards {
  readonly #cards: ApprovalCard[] = [];
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A message arrived or was edited: a new approval card gets the next number, a known one its new view. */
  seen(view: View, messageTs: string): ApprovalCard | undefined {
    const known = this.#cards.find((card) => card.messageTs === messageTs);
    if (known) {
      known.view = view;
      return undefined;
    }
    if (!buttons(view).some(isCardButton)) return undefined;
    const card = { number: this.#cards.length + 1, messageTs, view, arrivedAt: this.#now() };
    this.#cards.push(card);
    return card;
  }

  get(number: number): ApprovalCard | undefined {
    return this.#cards[number - 1];
  }

  /** Pending cards, oldest first. */
  pending(): ApprovalCard[] {
    return this.#cards.filter(isPending);
  }

  /** "just now", "4 min ago", "2 h 5 min ago" */
  age(card: ApprovalCard): string {
    const minutes = Math.floor((this.#now() - card.arrivedAt) / 60_000);
    if (minutes < 1) return 'just now';
    if (minutes < 60) return `${minutes} min ago`;
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
  }
}

/**
 * After a restart: the cards of requests Redis kept pending, posted in `channel` by an earlier run, are
 * shown again in their own messages (so the approvals service's updates still reach them) and numbered
 * like new ones. Returns how many.
 */
export async function restorePendingCards(
  chat: ConsoleChat,
  approvals: { pending(): Promise<ApprovalRecord[]> },
  channel: string,
  now: number,
): Promise<number> {
  let restored = 0;
  for (const record of await approvals.pending()) {
    if (record.cardChannel !== channel || !record.cardTs || chat.message(channel, record.cardTs)) continue;
    const card = renderCard(record, now);
    chat.restore({ channel, ts: record.cardTs, text: card.summary, view: card });
    restored += 1;
  }
  return restored;
}
