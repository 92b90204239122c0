// Getting a view in front of people: privately to the requester through the interaction's response_url,
// or in the channel as an announcement (chat.postMessage, whose ts starts the thread the tracker reports
// in). Views are rendered here with blocks.ts; output too long for a message is uploaded as a file —
// into the requester's direct messages for private answers, so a private result never lands in a channel.

import { handOnLater, type LaterWork, leavesLater, type Tracker } from '../dispatch/ports.js';
import type { RequestContext } from '../dispatch/request.js';
import type { View } from '../model/view.js';
import { workspaceOf } from '../model/workspace.js';
import { type AttachedFile, type RenderedMessage, renderBlocks } from '../render/blocks.js';
import { cannotPostThere, slackErrorCode } from '../slackApi/errors.js';
import { outgoingMessage } from '../slackApi/outgoing.js';
import type { SlackApi } from '../slackApi/slackApi.js';

type ResponseType = 'ephemeral' | 'in_channel';

interface ResponseUrlBody {
  text: string;
  blocks: RenderedMessage['blocks'];
  response_type?: ResponseType;
  replace_original?: boolean;
}

export class Delivery {
  constructor(
    private readonly slack: SlackApi,
    private readonly request: RequestContext,
    /** The interaction's response_url (30 minutes, 5 uses); absent for some interactions. */
    private readonly responseUrl: string | undefined,
  ) {}

  /** A private answer to the requester; `replace` swaps the message the click came from (paging). */
  async privately(view: View, options: { replace?: boolean } = {}): Promise<void> {
    const rendered = renderBlocks(view, { fileNote: () => 'in your direct messages with fwbot' });
    await this.toResponseUrl(rendered, 'ephemeral', options.replace ?? false);
    await this.uploadPrivately(rendered.files);
  }

  /** Posts a view in the channel through response_url (needs no channel membership; gives no ts). */
  async inChannelViaResponseUrl(view: View): Promise<void> {
    const rendered = renderBlocks(view, { fileNote: () => 'in this channel' });
    await this.toResponseUrl(rendered, 'in_channel', false);
    for (const file of rendered.files) {
      await this.slack.uploadFile({ channel: this.request.actor.channelId, ...file });
    }
  }

  /**
   * Posts a view in the channel and returns its ts (the thread for what follows), or undefined when
   * the bot cannot post there (not a member, archived…); other failures are thrown.
   */
  async post(view: View): Promise<string | undefined> {
    const { channelId } = this.request.actor;
    const rendered = renderBlocks(view, { fileNote: () => 'in the thread' });
    let ts: string;
    try {
      ts = (await this.slack.postMessage(channelId, { text: rendered.text, blocks: rendered.blocks })).ts;
    } catch (error) {
      // "The bot cannot post here" (not a member, archived…) is an answer, not a failure.
      if (!cannotPostThere(error)) throw error;
      this.request.log.warn({ slackError: slackErrorCode(error) }, 'cannot post in the channel');
      return undefined;
    }
    for (const file of rendered.files)
      await this.slack.uploadFile({ channel: channelId, threadTs: ts, ...file });
    return ts;
  }

  /**
   * Announces a change in the channel and hands each thing to follow to the tracker, with the
   * announcement as the thread. When the bot cannot post there, the announcement goes through
   * response_url instead and the requester is told why no thread follows.
   */
  async announce(view: View, later: LaterWork, tracker: Tracker, profile: string): Promise<void> {
    const { channelId, userId } = this.request.actor;
    const ts = await this.post(view);
    if (ts === undefined) {
      await this.inChannelViaResponseUrl(view);
      const note = leavesLater(later)
        ? 'fwbot is not a member of this channel, so it cannot report the outcome in a thread here. ' +
          'Invite it (`/invite @fwbot`) to get the reports.'
        : 'fwbot is not a member of this channel; invite it (`/invite @fwbot`) so it can announce changes itself.';
      await this.privately({
        summary: note,
        blocks: [{ kind: 'context', text: note }],
        visibility: 'ephemeral',
      });
      return;
    }
    this.request.log.info(
      { ts, track: later.track.length, timed: later.timed?.length ?? 0 },
      'announced in the channel',
    );
    const thread = {
      channelId,
      threadTs: ts,
      requesterId: userId,
      profile,
      ...workspaceOf(this.request.actor),
    };
    await handOnLater(tracker, later, thread);
  }

  private async uploadPrivately(files: readonly AttachedFile[]): Promise<void> {
    if (files.length === 0) return;
    const dm = await this.slack.openDirectMessage(this.request.actor.userId);
    for (const file of files) await this.slack.uploadFile({ channel: dm, ...file });
  }

  private async toResponseUrl(
    rendered: RenderedMessage,
    type: ResponseType,
    replace: boolean,
  ): Promise<void> {
    // The door every message passes (src/slackApi/outgoing.ts), a response_url's included.
    const shown = outgoingMessage(rendered);
    const body: ResponseUrlBody = { text: shown.text, blocks: shown.blocks, response_type: type };
    if (replace) body.replace_original = true;
    if (!this.responseUrl) {
      // Interactions without a response_url (rare: e.g. a modal opened elsewhere): ephemeral via the API.
      await this.slack.postEphemeral(this.request.actor.channelId, this.request.actor.userId, rendered);
      return;
    }
    const answer = await fetch(this.responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!answer.ok) {
      // Expired (30 minutes) or used up (5 posts): fall back to an ephemeral message through the API.
      this.request.log.warn({ status: answer.status }, 'response_url refused; posting ephemerally instead');
      await this.slack.postEphemeral(this.request.actor.channelId, this.request.actor.userId, rendered);
    }
  }
}
