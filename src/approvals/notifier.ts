// What the approvals need from the chat they live in: post a card, update it, post in its thread, each a
// View. One implementation serves every chat (chatNotifier.ts, over src/model/message.ts's port: Slack's,
// the console's); src/slack/approvalNotifier.ts adds what the card's Slack listeners need. The approvals
// decide; whoever delivers the cards only shows them. A card lives in the workspace of the request it shows
// (absent: the home workspace), and is posted and updated with that workspace's chat.
import type { View } from '../model/view.js';
import type { WorkspaceRef } from '../model/workspace.js';

export interface CardLocation extends WorkspaceRef {
  channel: string;
  ts: string;
}

export interface ApprovalNotifier {
  postCard(channel: string, card: View, team?: WorkspaceRef): Promise<CardLocation>;
  updateCard(card: CardLocation, view: View): Promise<void>;
  postInThread(card: CardLocation, view: View): Promise<void>;
}
