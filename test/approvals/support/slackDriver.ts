// Drives approvals the way Slack does: signed slash commands, button clicks and modal submissions posted
// to a bot's /slack/events, and reads back what the bot did through the fake Web API's records.
import { expect } from 'vitest';
import type { FakeSlack, RecordedCall } from '../../support/fakeSlack.js';
import { interactionBody, postSigned, slashCommandBody } from '../../support/slackRequests.js';
import { CHANNEL, SIGNING_SECRET, TEAM } from './world.js';

export type CardButton = 'approve' | 'reject' | 'cancel';

export interface Card {
  channel: string;
  ts: string;
  /** The approval request id, read from the buttons. */
  id: string;
  blocks: SlackBlock[];
}

interface SlackElement {
  type: string;
  text?: { text?: string };
  action_id?: string;
  value?: string;
  confirm?: { title?: { text?: string }; text?: { text?: string } };
}

export interface SlackBlock {
  type: string;
  text?: { text?: string };
  fields?: { text?: string }[];
  elements?: SlackElement[];
}

/** Every piece of text in a message's blocks, for assertions on what people read. */
export function textOf(blocks: readonly SlackBlock[]): string {
  return blocks
    .flatMap((block) => [
      block.text?.text ?? '',
      ...(block.fields ?? []).map((f) => f.text ?? ''),
      ...(block.elements ?? []).map((e) => ('text' in e && typeof e.text === 'string' ? e.text : '')),
    ])
    .join('\n');
}

export function buttonsOf(blocks: readonly SlackBlock[]): SlackElement[] {
  return blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
}

function blocksOf(args: Record<string, unknown>): SlackBlock[] {
  return Array.isArray(args.blocks) ? (args.blocks as SlackBlock[]) : [];
}

export class SlackDriver {
  readonly #seenCards = new Set<string>();

  constructor(readonly slack: FakeSlack) {}

  /** Sends `/fw <text>` as `user`; resolves with what the bot answered on the response URL. */
  async command(eventsUrl: string, text: string, user: string): Promise<string> {
    return (await this.commandReply(eventsUrl, text, user)).text;
  }

  /** Like command(), with the blocks of the answer as well. */
  async commandReply(
    eventsUrl: string,
    text: string,
    user: string,
    channel: string = CHANNEL,
  ): Promise<{ text: string; blocks: SlackBlock[] }> {
    const responseUrl = this.slack.responseUrl();
    const id = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
    const body = slashCommandBody({ text, userId: user, channelId: channel, teamId: TEAM, responseUrl });
    const res = await postSigned(eventsUrl, SIGNING_SECRET, body);
    expect(res.status).toBe(200);
    const reply = await this.slack.waitFor(
      (c) => c.method === 'response_url' && c.args.responseUrlId === id,
      10_000,
    );
    return { text: String(reply.args.text ?? ''), blocks: blocksOf(reply.args) };
  }

  /** Asks for a destructive operation and returns the approval card it posted. */
  async ask(eventsUrl: string, text: string, user: string, channel: string = CHANNEL): Promise<Card> {
    const answer = (await this.commandReply(eventsUrl, text, user, channel)).text;
    expect(answer).toBe('Asked for approval.');
    // The gate answers only after the card is posted, so the card is in the fake's messages by now.
    return this.newCard();
  }

  /** The approval card posted since the last one this driver saw. */
  newCard(): Card {
    const found = [...this.slack.messages().entries()].find(
      ([key, message]) =>
        String(message.text ?? '').startsWith('Approval needed') &&
        !this.#seenCards.has(key) &&
        !message.thread_ts,
    );
    if (!found) throw new Error('no new approval card was posted');
    const [key, message] = found;
    this.#seenCards.add(key);
    const blocks = blocksOf(message);
    const value =
      buttonsOf(blocks).find((b) => b.action_id?.startsWith('fw.approval.approve'))?.value ?? '{}';
    const { id } = JSON.parse(value) as { id: string };
    return { channel: String(message.channel), ts: key.slice(key.indexOf('/') + 1), id, blocks };
  }

  /**
   * Clicks a command button (`fw.command`: *Deploy…*, *Extend…*) by its label on a message the bot posted,
   * as `user`, exactly as Slack posts a block_actions payload; resolves with the HTTP status.
   */
  async clickCommand(
    eventsUrl: string,
    message: { channel: string; ts: string; blocks: readonly SlackBlock[] },
    label: string,
    user: string,
  ): Promise<number> {
    const element = buttonsOf(message.blocks).find(
      (b) => b.action_id?.startsWith('fw.command') && b.text?.text === label,
    );
    if (!element?.action_id || element.value === undefined) throw new Error(`no command button “${label}”`);
    const payload = {
      type: 'block_actions',
      user: { id: user, username: user.toLowerCase(), team_id: TEAM },
      api_app_id: 'A0FWBOT',
      team: { id: TEAM, domain: 'fake' },
      channel: { id: message.channel, name: 'ops' },
      container: {
        type: 'message',
        message_ts: message.ts,
        channel_id: message.channel,
        is_ephemeral: false,
      },
      message: { type: 'message', ts: message.ts, text: '', blocks: message.blocks },
      trigger_id: `trigger-${user}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
      response_url: this.slack.responseUrl(),
      actions: [
        {
          type: 'button',
          action_id: element.action_id,
          block_id: 'b',
          value: element.value,
          action_ts: String(Date.now() / 1000),
        },
      ],
    };
    return (await postSigned(eventsUrl, SIGNING_SECRET, interactionBody(payload))).status;
  }

  /** Clicks a button of the card as `user`, exactly as Slack posts a block_actions payload. */
  async click(
    eventsUrl: string,
    button: CardButton,
    user: string,
    card: Card,
    /** The same trigger id again is what Slack's retries and Socket Mode redeliveries send. */
    triggerId = `trigger-${user}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  ): Promise<number> {
    const element = buttonsOf(card.blocks).find((b) => b.action_id?.startsWith(`fw.approval.${button}`));
    if (!element?.action_id || element.value === undefined)
      throw new Error(`the card has no ${button} button`);
    const payload = {
      type: 'block_actions',
      user: { id: user, username: user.toLowerCase(), team_id: TEAM },
      api_app_id: 'A0FWBOT',
      team: { id: TEAM, domain: 'fake' },
      channel: { id: card.channel, name: 'ops' },
      container: { type: 'message', message_ts: card.ts, channel_id: card.channel, is_ephemeral: false },
      message: { type: 'message', ts: card.ts, text: 'Approval needed', blocks: card.blocks },
      trigger_id: triggerId,
      response_url: this.slack.responseUrl(),
      actions: [
        {
          type: 'button',
          action_id: element.action_id,
          block_id: 'b',
          value: element.value,
          action_ts: String(Date.now() / 1000),
        },
      ],
    };
    const res = await postSigned(eventsUrl, SIGNING_SECRET, interactionBody(payload));
    return res.status;
  }

  /** Submits the reject-reason modal the bot opened for `user`. */
  async submitReason(eventsUrl: string, user: string, reason: string): Promise<number> {
    const opened = await this.slack.waitFor(
      (c) => c.method === 'views.open' && String(c.args.trigger_id ?? '').startsWith(`trigger-${user}-`),
    );
    const view = opened.args.view as { callback_id: string; private_metadata: string };
    const payload = {
      type: 'view_submission',
      user: { id: user, team_id: TEAM },
      team: { id: TEAM, domain: 'fake' },
      api_app_id: 'A0FWBOT',
      trigger_id: `trigger-submit-${Date.now()}`,
      view: {
        id: 'V0REASON',
        type: 'modal',
        team_id: TEAM,
        callback_id: view.callback_id,
        private_metadata: view.private_metadata,
        hash: 'h1',
        state: { values: { reason: { reason_text: { type: 'plain_text_input', value: reason } } } },
      },
    };
    const res = await postSigned(eventsUrl, SIGNING_SECRET, interactionBody(payload));
    return res.status;
  }

  /** The card as it is now (after every chat.update). */
  current(card: Card): { text: string; blocks: SlackBlock[] } {
    const message = this.slack.messages().get(`${card.channel}/${card.ts}`);
    if (!message) throw new Error(`no message ${card.channel}/${card.ts}`);
    return { text: String(message.text ?? ''), blocks: blocksOf(message) };
  }

  /** Waits until the card has been updated so that `predicate` holds. */
  async cardUpdate(
    card: Card,
    predicate: (text: string) => boolean,
  ): Promise<{ text: string; blocks: SlackBlock[] }> {
    await this.slack.waitFor(
      (c) => c.method === 'chat.update' && c.args.ts === card.ts && predicate(textOf(blocksOf(c.args))),
      10_000,
    );
    return this.current(card);
  }

  threadReplies(card: Card): RecordedCall[] {
    return this.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts);
  }

  async threadReply(card: Card, predicate: (text: string) => boolean = () => true): Promise<string> {
    const reply = await this.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.thread_ts === card.ts &&
        predicate(textOf(blocksOf(c.args))),
      10_000,
    );
    return textOf(blocksOf(reply.args));
  }

  ephemeralsTo(user: string): string[] {
    return this.slack.calls
      .filter((c) => c.method === 'chat.postEphemeral' && c.args.user === user)
      .map((c) => String(c.args.text ?? ''));
  }

  async ephemeral(user: string, predicate: (text: string) => boolean = () => true): Promise<string> {
    const call = await this.slack.waitFor(
      (c) =>
        c.method === 'chat.postEphemeral' && c.args.user === user && predicate(String(c.args.text ?? '')),
      10_000,
    );
    return String(call.args.text ?? '');
  }
}
