// fwbot's messages on Slack (the Chat port of src/model/message.ts): a message that carries a View is made
// Block Kit here (src/render/blocks.ts, within Slack's limits) on its way to the Web API, so the workers,
// the approvals and their Redis records speak the View and only this edge knows Block Kit. Output too long
// for a message goes as a file into its thread when the message asks for it (an approval card's exact
// commands); otherwise the message says it was cut and the log says the file was not posted. Every call
// goes through SlackApi, whose door (src/slackApi/outgoing.ts) every payload passes.
import type { KnownBlock } from '@slack/types';
import type { Logger } from 'pino';
import type { Chat, ChatMessage, ChatOf, FileToPost, MessagesRead } from '../model/message.js';
import type { WorkspaceRef } from '../model/workspace.js';
import { type AttachedFile, renderBlocks } from '../render/blocks.js';
import { type MessageContent, SlackApi, type WebApiClient } from '../slackApi/slackApi.js';

/** The Web API message a chat message becomes, and the files its view left for its thread. */
function slackMessage(message: ChatMessage): { content: MessageContent; files: AttachedFile[] } {
  const metadata = message.metadata ? { metadata: message.metadata } : {};
  if (message.view) {
    const { filesInThread } = message;
    const rendered = renderBlocks(message.view, filesInThread ? { fileNote: () => filesInThread.note } : {});
    return { content: { text: rendered.text, blocks: rendered.blocks, ...metadata }, files: rendered.files };
  }
  if (message.legacyBlocks) {
    // Rendered by render/blocks.ts of the previous release, and kept in Redis as it made them.
    const blocks = message.legacyBlocks as unknown as KnownBlock[];
    return { content: { text: message.text, blocks, ...metadata }, files: [] };
  }
  return { content: { text: message.text, ...metadata }, files: [] };
}

export class SlackChat implements Chat {
  readonly #api: SlackApi;
  readonly #log: Logger;

  constructor(api: SlackApi | WebApiClient, log: Logger) {
    this.#api = api instanceof SlackApi ? api : new SlackApi(api);
    this.#log = log;
  }

  async post(
    channel: string,
    message: ChatMessage,
    threadTs?: string,
  ): Promise<{ ts: string; channel: string }> {
    const { content, files } = slackMessage(message);
    const posted = await this.#api.postMessage(channel, content, threadTs);
    if (files.length > 0 && message.filesInThread) {
      for (const file of files)
        await this.#api.uploadFile({ channel: posted.channel, threadTs: threadTs ?? posted.ts, ...file });
    } else this.#unposted(files);
    return posted;
  }

  async edit(channel: string, ts: string, message: ChatMessage): Promise<void> {
    // A message's files went with its post: an edit names them again, it does not post them twice.
    const { content, files } = slackMessage(message);
    if (!message.filesInThread) this.#unposted(files);
    await this.#api.update(channel, ts, content);
  }

  read(read: Parameters<Chat['read']>[0]): Promise<MessagesRead> {
    return this.#api.readMessages(read);
  }

  upload(file: FileToPost): Promise<void> {
    return this.#api.uploadFile(file);
  }

  /** Outcomes told in threads are short; one that needed a file is said, not lost silently. */
  #unposted(files: readonly AttachedFile[]): void {
    if (files.length > 0)
      this.#log.warn({ files: files.length }, 'a message had attachments that were not posted');
  }
}

/** Each workspace's chat on Slack, from its Web API client (one client for all, or one per workspace). */
export function slackChatOf(
  client: WebApiClient | SlackApi | ((workspace: WorkspaceRef) => WebApiClient | SlackApi),
  log: Logger,
): ChatOf {
  if (typeof client !== 'function') {
    const one = new SlackChat(client, log);
    return () => one;
  }
  return (workspace) => new SlackChat(client(workspace), log);
}
