// The approvals' notifier on Slack (approvals/notifier.ts): post the card, update it, post in its thread;
// and for the card's listeners (actions/approvals.ts), tell one person something privately and open the
// reject-reason modal. Views go through the shared renderer
// (src/render/blocks.ts), which keeps them within Slack's limits and escapes SCC data; the calls go
// through fwbot's one Slack Web API module (src/slackApi/).
import type { webApi } from '@slack/bolt';
import type { View as ModalView } from '@slack/types';
import type { Logger } from 'pino';
import type { ApprovalNotifier, CardLocation } from '../approvals/notifier.js';
import type { View } from '../model/view.js';
import { renderBlocks } from '../render/blocks.js';
import { escapeMrkdwn } from '../render/mrkdwn.js';
import { SlackApi } from '../slackApi/slackApi.js';

export class SlackApprovalNotifier implements ApprovalNotifier {
  readonly #slack: SlackApi;
  readonly #log: Logger;

  constructor(slack: webApi.WebClient | SlackApi, log: Logger) {
    this.#slack = slack instanceof SlackApi ? slack : new SlackApi(slack);
    this.#log = log;
  }

  async postCard(channel: string, card: View): Promise<CardLocation> {
    // A card whose exact text (a long list of ASA commands) does not fit attaches it in its thread, so the
    // approver reads every line before deciding.
    const { text, blocks, files } = renderBlocks(card, { fileNote: () => 'in this card’s thread' });
    const posted = await this.#slack.postMessage(channel, { text, blocks });
    for (const file of files) {
      await this.#slack.uploadFile({ channel: posted.channel, threadTs: posted.ts, ...file });
    }
    return posted;
  }

  async updateCard(card: CardLocation, view: View): Promise<void> {
    const { text, blocks } = renderBlocks(view, { fileNote: () => 'in this card’s thread' });
    await this.#slack.update(card.channel, card.ts, { text, blocks });
  }

  async postInThread(card: CardLocation, view: View): Promise<void> {
    const { text, blocks, files } = renderBlocks(view);
    // Outcomes of deletes are short; a rendering that needed a file attachment is said, not lost silently.
    if (files.length > 0)
      this.#log.warn({ files: files.length }, 'approval outcome had attachments that were not uploaded');
    await this.#slack.postMessage(card.channel, { text, blocks }, card.ts);
  }

  /** Opens a modal for a click (the reject reason); the trigger id lives 3 seconds. */
  async openModal(triggerId: string, view: ModalView): Promise<void> {
    await this.#slack.openView(triggerId, view);
  }

  /** A private answer to a click; failing to deliver it must not undo the decision it reports. */
  async tell(channel: string, user: string, text: string): Promise<void> {
    try {
      await this.#slack.postEphemeral(channel, user, { text: escapeMrkdwn(text) });
    } catch (error) {
      this.#log.warn({ err: error, channel, user }, 'could not post an ephemeral answer');
    }
  }
}
