// The approvals on Slack: their cards go through the chat port (src/approvals/chatNotifier.ts) on Slack's
// chat (./chat.ts, which makes Block Kit of the card's View within Slack's limits and escapes SCC data),
// and for the card's listeners (actions/approvals.ts), one person is told something privately and the
// reject-reason modal is opened. The calls go through fwbot's one Slack Web API module (src/slackApi/).
// Cards go out with the Slack client of the workspace their request came from (CardLocation's team;
// absent: the home workspace).
import type { webApi } from '@slack/bolt';
import type { View as ModalView } from '@slack/types';
import type { Logger } from 'pino';
import { ChatCardNotifier } from '../approvals/chatNotifier.js';
import type { WorkspaceRef } from '../model/workspace.js';
import { escapeMrkdwn } from '../render/mrkdwn.js';
import { SlackApi } from '../slackApi/slackApi.js';
import { slackChatOf } from './chat.js';

export class SlackApprovalNotifier extends ChatCardNotifier {
  readonly #slack: SlackApi;
  readonly #log: Logger;

  /**
   * `slack` answers clicks (tell, openModal: in Bolt, the request's own client); `slackOf` the client of a
   * card's workspace (default: `slack` for every workspace, as in single-workspace mode).
   */
  constructor(slack: webApi.WebClient | SlackApi, log: Logger, slackOf?: (team: WorkspaceRef) => SlackApi) {
    const own = slack instanceof SlackApi ? slack : new SlackApi(slack);
    super(slackChatOf(slackOf ?? own, log));
    this.#slack = own;
    this.#log = log;
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
