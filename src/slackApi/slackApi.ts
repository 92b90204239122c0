// Every Slack Web API call fwbot makes goes through this module: the Slack surface's answers, modals and
// uploads, the approval cards, the workers' exactly-once thread replies and their read-back, the
// user-group lookups and the readiness check. What a failure means is decided in ./errors.ts, once. Every
// message and view passes ./outgoing.ts on its way out: the rule of fwbot's text holds at the door.
// Every method it may call is in `slackMethodsUsed` with the OAuth scopes it needs: manifest.yml's scopes
// are checked against this table (test/slack/manifest.test.ts), so the app asks for exactly what the code
// uses. Answers are parsed with zod at this boundary. `respond()`/response_url posts need no scope and
// are not Web API methods. A leaf: it knows nothing of Bolt listeners, queues or the catalogue, so the
// surface, the approvals and the workers share it.
import type { HomeView, KnownBlock, View as ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { FileToPost, MessageMetadata, MessagesRead } from '../model/message.js';
import { outgoingMessage, outgoingView } from './outgoing.js';

/** Web API method → bot scopes it needs (docs.slack.dev method reference). */
export const slackMethodsUsed = {
  'chat.postMessage': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.update': ['chat:write'],
  'views.open': [],
  'views.update': [],
  'usergroups.users.list': ['usergroups:read'],
  'auth.test': [],
  'conversations.open': ['im:write'],
  // History is read in whatever conversation fwbot answers in: public, private, direct and group DMs.
  'conversations.history': ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  'conversations.replies': ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  'files.getUploadURLExternal': ['files:write'],
  'files.completeUploadExternal': ['files:write'],
  // The App Home tab (src/home/): each person's own view, and which channels they are in (for the
  // upgrade watches of those channels).
  'views.publish': [],
  'users.conversations': ['channels:read', 'groups:read'],
  // Whether a channel is shared with another organization (Slack Connect), when a request does not say
  // (src/slack/workspaceBinding.ts).
  'conversations.info': ['channels:read', 'groups:read'],
} as const satisfies Record<string, readonly string[]>;

export type SlackMethod = keyof typeof slackMethodsUsed;

/** conversations.info's answer, as far as fwbot reads it. */
const ChannelInfo = z.object({
  ok: z.boolean().optional(),
  channel: z.object({ is_ext_shared: z.boolean().optional() }).optional(),
});

/** Scopes the app needs besides those of the Web API methods: `commands` for the /fw slash command. */
export const extraScopes = ['commands'] as const;

export function scopesUsed(): string[] {
  const scopes = new Set<string>(extraScopes);
  for (const needed of Object.values(slackMethodsUsed)) for (const scope of needed) scopes.add(scope);
  return [...scopes].sort();
}

const Posted = z.object({ ts: z.string(), channel: z.string().optional() });
const OpenedView = z.object({ view: z.object({ id: z.string(), hash: z.string().optional() }) });
const Conversations = z.object({
  channels: z.array(z.object({ id: z.string() })).default([]),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});
const Members = z.object({ users: z.array(z.string()).default([]) });
const OpenedConversation = z.object({ channel: z.object({ id: z.string() }) });
const UploadUrl = z.object({ upload_url: z.string().url(), file_id: z.string() });
const Identity = z.object({
  team_id: z.string(),
  user_id: z.string(),
  bot_id: z.string().optional(),
  enterprise_id: z.string().optional(),
  app_id: z.string().optional(),
});
const MessagesPage = z.object({
  messages: z
    .array(
      z.looseObject({
        ts: z.string().optional(),
        metadata: z.looseObject({ event_payload: z.record(z.string(), z.unknown()).optional() }).optional(),
      }),
    )
    .default([]),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});

export interface MessageContent {
  text: string;
  blocks?: KnownBlock[];
  metadata?: MessageMetadata;
}

/** Who the token is (auth.test): the workspace it was installed in, and the bot. */
export interface SlackIdentity {
  teamId: string;
  userId: string;
  botId?: string;
  enterpriseId?: string;
  appId?: string;
}

/** The part of a @slack/web-api WebClient this module uses: its one entry point. */
export type WebApiClient = Pick<WebClient, 'apiCall'>;

/**
 * The Slack calls fwbot makes, typed and parsed, around a bot-token WebClient. Failures are thrown as the
 * client throws them; classifySlackError (./errors.ts) says what they mean.
 */
export class SlackApi {
  constructor(private readonly client: WebApiClient) {}

  private async call(method: SlackMethod, args: Record<string, unknown>): Promise<unknown> {
    return this.client.apiCall(method, args);
  }

  /** Posts a message (in a thread when `threadTs` is given); links are not unfurled. */
  async postMessage(
    channel: string,
    message: MessageContent,
    threadTs?: string,
  ): Promise<{ ts: string; channel: string }> {
    const args = { channel, ...outgoingMessage(message), unfurl_links: false, unfurl_media: false };
    const posted = Posted.parse(
      await this.call('chat.postMessage', threadTs ? { ...args, thread_ts: threadTs } : args),
    );
    return { ts: posted.ts, channel: posted.channel ?? channel };
  }

  async postEphemeral(channel: string, user: string, message: MessageContent): Promise<void> {
    await this.call('chat.postEphemeral', { channel, user, ...outgoingMessage(message) });
  }

  async update(channel: string, ts: string, message: MessageContent): Promise<void> {
    await this.call('chat.update', { channel, ts, ...outgoingMessage(message) });
  }

  async openView(triggerId: string, view: ModalView): Promise<{ id: string; hash: string | undefined }> {
    const answer = OpenedView.parse(
      await this.call('views.open', { trigger_id: triggerId, view: outgoingView(view) }),
    );
    return { id: answer.view.id, hash: answer.view.hash };
  }

  /** Replaces a modal; with `hash`, Slack refuses if the view changed meanwhile (no lost updates). */
  async updateView(viewId: string, view: ModalView, hash?: string): Promise<void> {
    const shown = outgoingView(view);
    await this.call(
      'views.update',
      hash ? { view_id: viewId, view: shown, hash } : { view_id: viewId, view: shown },
    );
  }

  /** Publishes one person's App Home (replacing what it showed). */
  async publishHome(userId: string, view: HomeView): Promise<void> {
    await this.call('views.publish', { user_id: userId, view: outgoingView(view) });
  }

  /** The public and private channels a person is in (at most `pages` pages of 200). */
  async userChannels(userId: string, pages = 5): Promise<string[]> {
    const out: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < pages; page += 1) {
      const answer = Conversations.parse(
        await this.call('users.conversations', {
          user: userId,
          types: 'public_channel,private_channel',
          exclude_archived: true,
          limit: 200,
          ...(cursor ? { cursor } : {}),
        }),
      );
      out.push(...answer.channels.map((channel) => channel.id));
      cursor = answer.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return out;
  }

  async userGroupMembers(groupId: string): Promise<string[]> {
    return Members.parse(await this.call('usergroups.users.list', { usergroup: groupId })).users;
  }

  /**
   * Whether Slack says the channel is shared with another organization (Slack Connect). Throws when the
   * answer does not describe the channel, so a caller deciding who may come in refuses.
   */
  async channelIsExtShared(channelId: string): Promise<boolean> {
    const answer = ChannelInfo.parse(await this.call('conversations.info', { channel: channelId }));
    if (answer.ok === false || answer.channel === undefined)
      throw new Error('conversations.info did not describe the channel');
    return answer.channel.is_ext_shared === true;
  }

  /** Whether Slack accepts the token, and whose it is. */
  async authTest(): Promise<SlackIdentity> {
    const answer = Identity.parse(await this.call('auth.test', {}));
    return {
      teamId: answer.team_id,
      userId: answer.user_id,
      ...(answer.bot_id === undefined ? {} : { botId: answer.bot_id }),
      ...(answer.enterprise_id === undefined ? {} : { enterpriseId: answer.enterprise_id }),
      ...(answer.app_id === undefined ? {} : { appId: answer.app_id }),
    };
  }

  /**
   * One page of a thread (conversations.replies, with `threadTs`) or of a channel's recent messages
   * (conversations.history), with every message's metadata.
   */
  async readMessages(read: {
    channel: string;
    threadTs?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  }): Promise<MessagesRead> {
    const args = {
      channel: read.channel,
      include_all_metadata: true,
      limit: read.limit,
      ...(read.cursor ? { cursor: read.cursor } : {}),
    };
    const page = MessagesPage.parse(
      read.threadTs
        ? await this.call('conversations.replies', { ...args, ts: read.threadTs })
        : await this.call('conversations.history', args),
    );
    const nextCursor = page.response_metadata?.next_cursor;
    return { messages: page.messages, ...(nextCursor ? { nextCursor } : {}) };
  }

  /** The direct-message channel between the bot and a user. */
  async openDirectMessage(userId: string): Promise<string> {
    return OpenedConversation.parse(await this.call('conversations.open', { users: userId })).channel.id;
  }

  /** Uploads a file into a channel (or thread) with Slack's two-step external upload. */
  async uploadFile(file: FileToPost): Promise<void> {
    const bytes = Buffer.from(file.content, 'utf8');
    const target = UploadUrl.parse(
      await this.call('files.getUploadURLExternal', { filename: file.filename, length: bytes.length }),
    );
    const uploaded = await fetch(target.upload_url, { method: 'POST', body: bytes });
    if (!uploaded.ok) throw new Error(`Slack refused the file upload: HTTP ${uploaded.status}`);
    await this.call('files.completeUploadExternal', {
      files: [{ id: target.file_id, title: file.title }],
      channel_id: file.channel,
      ...(file.threadTs ? { thread_ts: file.threadTs } : {}),
      ...(file.comment ? { initial_comment: file.comment } : {}),
    });
  }
}
