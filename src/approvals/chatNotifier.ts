// The approvals' notifier (./notifier.ts) over a chat (src/model/message.ts): the card is a View posted
// and edited as the request moves, its outcome a View in its thread. Whichever chat carries them renders
// them: Slack's side makes Block Kit (src/slack/chat.ts), the console shows text. A card whose exact text (a
// long list of ASA commands) does not fit attaches it in its thread, so the approver reads every line
// before deciding. Cards go out in the workspace of the request they show (absent: the home workspace).
import type { ChatOf } from '../model/message.js';
import type { View } from '../model/view.js';
import { type WorkspaceRef, workspaceOf } from '../model/workspace.js';
import type { ApprovalNotifier, CardLocation } from './notifier.js';

/** Where a card's long output goes: a file in its own thread, named there on every edit. */
const CARD_FILES = { note: 'in this card’s thread' };

export class ChatCardNotifier implements ApprovalNotifier {
  constructor(private readonly chatOf: ChatOf) {}

  async postCard(channel: string, card: View, team: WorkspaceRef = {}): Promise<CardLocation> {
    const posted = await this.chatOf(team).post(channel, {
      text: card.summary,
      view: card,
      filesInThread: CARD_FILES,
    });
    return { ...posted, ...workspaceOf(team) };
  }

  async updateCard(card: CardLocation, view: View): Promise<void> {
    await this.chatOf(workspaceOf(card)).edit(card.channel, card.ts, {
      text: view.summary,
      view,
      filesInThread: CARD_FILES,
    });
  }

  async postInThread(card: CardLocation, view: View): Promise<void> {
    await this.chatOf(workspaceOf(card)).post(card.channel, { text: view.summary, view }, card.ts);
  }
}
