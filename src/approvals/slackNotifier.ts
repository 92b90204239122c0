// The Slack side effects of approvals: post the card, update it, post in its thread, tell one person
// something privately. Views go through the shared renderer (src/render/blocks.ts), which keeps them
// within Slack's limits and escapes SCC data.
import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { renderBlocks } from '../render/blocks.js';
import type { View } from '../render/view.js';

export interface CardLocation {
  channel: string;
  ts: string;
}

export class SlackNotifier {
  readonly #slack: webApi.WebClient;
  readonly #log: Logger;

  constructor(slack: webApi.WebClient, log: Logger) {
    this.#slack = slack;
    this.#log = log;
  }

  async postCard(channel: string, card: View): Promise<CardLocation> {
    const { text, blocks } = renderBlocks(card);
    const posted = await this.#slack.chat.postMessage({ channel, text, blocks });
    if (!posted.ok || !posted.ts)
      throw new Error(`chat.postMessage answered without a ts (${posted.error ?? 'no error'})`);
    return { channel: posted.channel ?? channel, ts: posted.ts };
  }

  async updateCard(card: CardLocation, view: View): Promise<void> {
    const { text, blocks } = renderBlocks(view);
    await this.#slack.chat.update({ channel: card.channel, ts: card.ts, text, blocks });
  }

  async postInThread(card: CardLocation, view: View): Promise<void> {
    const { text, blocks, files } = renderBlocks(view);
    // Outcomes of deletes are short; a rendering that needed a file attachment is said, not lost silently.
    if (files.length > 0)
      this.#log.warn({ files: files.length }, 'approval outcome had attachments that were not uploaded');
    await this.#slack.chat.postMessage({ channel: card.channel, thread_ts: card.ts, text, blocks });
  }

  /** A private answer to a click; failing to deliver it must not undo the decision it reports. */
  async tell(channel: string, user: string, text: string): Promise<void> {
    try {
      await this.#slack.chat.postEphemeral({ channel, user, text });
    } catch (error) {
      this.#log.warn({ err: error, channel, user }, 'could not post an ephemeral answer');
    }
  }
}
