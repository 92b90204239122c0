// The approvals' notifier on Slack (approvals/notifier.ts): post the card, update it, post in its thread;
// and for the card's listeners (actions/approvals.ts), tell one person something privately and open the
// reject-reason modal. Views go through the shared renderer
// (src/render/blocks.ts), which keeps them within Slack's limits and escapes SCC data; the calls go
// through fwbot's one Slack Web API module (src/slackApi/). Cards go out with the Slack client of the
// workspace their request came from (CardLocation's team; absent: the home workspace).
import type { webApi } from '@slack/bolt';
import type { View as ModalView } from '@slack/types';
import type { Logger } from 'pino';
import type { ApprovalNotifier, CardLocation } from '../approvals/notifier.js';
import type { View } from '../model/view.js';
import { type WorkspaceRef, workspaceOf } from '../model/workspace.js';
import { renderBlocks } from '../render/blocks.js';
import { escapeMrkdwn } from '../render/mrkdwn.js';
import { SlackApi } from '../slackApi/slackApi.js';

export class SlackApprovalNotifier implements ApprovalNotifier {
  readonly #slack: SlackApi;
  readonly #slackOf: (team: WorkspaceRef) => SlackApi;
  readonly #log: Logger;

  /**
   * `slack` answers clicks (tell, openModal: in Bolt, the request's own client); `slackOf` the client of a
   * card's workspace (default: `slack` for every workspace, as in single-workspace mode).
   */
  constructor(slack: webApi.WebClient | SlackApi, log: Logger, slackOf?: (team: WorkspaceRef) => SlackApi) {
    const own = slack instanceof SlackApi ? slack : new SlackApi(slack);
    this.#slack = own;
    this.#slackOf = slackOf ?? (() => own);
    this.#log = log;
  }

  async postCard(channel: string, card: View, team: WorkspaceRef = {}): Promise<CardLocation> {
    // A card whose exact text (a long list of ASA commands) does not fit attaches it in its thread, so the
    // approver reads every line before deciding.
    const { text, blocks, files } = renderBlocks(card, { fileNote: () => 'in this card’s thread' });
    const slack = this.#slackOf(team);
    const posted = await slack.postMessage(channel, { text, blocks });
    for (const file of files) {
      await slack.uploadFile({ channel: posted.channel, threadTs: posted.ts, ...file });
    }
    return { ...posted, ...workspaceOf(team) };
  }

  async updateCard(card: CardLocation, view: View): Promise<void> {
    const { text, blocks } = renderBlocks(view, { fileNote: () => 'in this card’s thread' });
    await this.#slackOf(workspaceOf(card)).update(card.channel, card.ts, { text, blocks });
  }

  async postInThread(card: CardLocation, view: View): Promise<void> {
    const { text, blocks, files } = renderBlocks(view);
    // Outcomes of deletes are short; a rendering that needed a file attachment is said, not lost silently.
    if (files.length > 0)
      this.#log.warn({ files: files.length }, 'approval outcome had attachments that were not uploaded');
    await this.#slackOf(workspaceOf(card)).postMessage(card.channel, { text, blocks }, card.ts);
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
