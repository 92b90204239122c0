// Every Slack Web API call fwbot makes goes through this module, and every method it may call is in
// `slackMethodsUsed` with the OAuth scopes it needs: manifest.yml's scopes are checked against this table
// (test/slack/manifest.test.ts), so the app asks for exactly what the code uses. Answers are parsed with
// zod at this boundary. `respond()`/response_url posts need no scope and are not Web API methods.
import type { KnownBlock, View as ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';

/** Web API method → bot scopes it needs (docs.slack.dev method reference). */
export const slackMethodsUsed = {
  'chat.postMessage': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.update': ['chat:write'],
  'views.open': [],
  'views.update': [],
  'usergroups.users.list': ['usergroups:read'],
  'conversations.open': ['im:write'],
  'files.getUploadURLExternal': ['files:write'],
  'files.completeUploadExternal': ['files:write'],
} as const satisfies Record<string, readonly string[]>;

export type SlackMethod = keyof typeof slackMethodsUsed;

/** Scopes the app needs besides those of the Web API methods: `commands` for the /fw slash command. */
export const extraScopes = ['commands'] as const;

export function scopesUsed(): string[] {
  const scopes = new Set<string>(extraScopes);
  for (const needed of Object.values(slackMethodsUsed)) for (const scope of needed) scopes.add(scope);
  return [...scopes].sort();
}

const Posted = z.object({ ts: z.string(), channel: z.string() });
const OpenedView = z.object({ view: z.object({ id: z.string(), hash: z.string().optional() }) });
const Members = z.object({ users: z.array(z.string()).default([]) });
const OpenedConversation = z.object({ channel: z.object({ id: z.string() }) });
const UploadUrl = z.object({ upload_url: z.string().url(), file_id: z.string() });

export interface MessageContent {
  text: string;
  blocks: KnownBlock[];
}

/** The Slack calls fwbot makes, typed and parsed. One per app, around its bot-token WebClient. */
export class SlackApi {
  constructor(private readonly client: WebClient) {}

  private async call(method: SlackMethod, args: Record<string, unknown>): Promise<unknown> {
    return this.client.apiCall(method, args);
  }

  async postMessage(
    channel: string,
    message: MessageContent,
    threadTs?: string,
  ): Promise<{ ts: string; channel: string }> {
    const args = { channel, ...message, unfurl_links: false, unfurl_media: false };
    return Posted.parse(
      await this.call('chat.postMessage', threadTs ? { ...args, thread_ts: threadTs } : args),
    );
  }

  async postEphemeral(channel: string, user: string, message: MessageContent): Promise<void> {
    await this.call('chat.postEphemeral', { channel, user, ...message });
  }

  async update(channel: string, ts: string, message: MessageContent): Promise<void> {
    await this.call('chat.update', { channel, ts, ...message });
  }

  async openView(triggerId: string, view: ModalView): Promise<{ id: string; hash: string | undefined }> {
    const answer = OpenedView.parse(await this.call('views.open', { trigger_id: triggerId, view }));
    return { id: answer.view.id, hash: answer.view.hash };
  }

  /** Replaces a modal; with `hash`, Slack refuses if the view changed meanwhile (no lost updates). */
  async updateView(viewId: string, view: ModalView, hash?: string): Promise<void> {
    await this.call('views.update', hash ? { view_id: viewId, view, hash } : { view_id: viewId, view });
  }

  async userGroupMembers(groupId: string): Promise<string[]> {
    return Members.parse(await this.call('usergroups.users.list', { usergroup: groupId })).users;
  }

  /** The direct-message channel between the bot and a user. */
  async openDirectMessage(userId: string): Promise<string> {
    return OpenedConversation.parse(await this.call('conversations.open', { users: userId })).channel.id;
  }

  /** Uploads a file into a channel (or thread) with Slack's two-step external upload. */
  async uploadFile(file: {
    channel: string;
    threadTs?: string | undefined;
    filename: string;
    title: string;
    content: string;
    comment?: string;
  }): Promise<void> {
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
