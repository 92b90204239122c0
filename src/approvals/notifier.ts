// What the approvals need from the chat they live in: post a card, update it, post in its thread. The
// Slack implementation is src/slack/approvalNotifier.ts; the console has its own (src/console/). The
// approvals decide; whoever delivers the cards only shows them.
import type { View } from '../model/view.js';

export interface CardLocation {
  channel: string;
  ts: string;
}

export interface ApprovalNotifier {
  postCard(channel: string, card: View): Promise<CardLocation>;
  updateCard(card: CardLocation, view: View): Promise<void>;
  postInThread(card: CardLocation, view: View): Promise<void>;
}
