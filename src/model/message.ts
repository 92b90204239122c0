// A message fwbot says in a conversation, before any chat's format, and the port every chat implements to
// carry it: Slack at the edge (src/slack/chat.ts makes Block Kit of a View there, and nowhere else), the
// console in its terminal (src/console/consoleChat.ts shows the View as text). The workers' exactly-once
// notifications (src/jobs/slackNotifier.ts) and the approvals' cards (src/approvals/chatNotifier.ts) speak
// it. Messages are in threads (`ts`, `threadTs`) and carry metadata read back with them: that is how a
// worker finds out, after a crash, whether a post it may have made is there.
import type { View } from './view.js';
import type { WorkspaceRef } from './workspace.js';

/** An event type and a small payload, kept with the message and read back with it. */
export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, string | number | boolean>;
}

export interface ChatMessage {
  /**
   * fwbot's mrkdwn as Slack reads it (escaped; fwbot's own mentions live). Beside a view it is only the
   * view's summary: the chat makes the message's notification text from the view itself.
   */
  text: string;
  /** The message: the chat shows the view (Slack: Block Kit within Slack's limits; the console: text). */
  view?: View | undefined;
  /**
   * Output too long for the message goes as a file into the message's own thread, posted with it, and the
   * message says where it is (`note`: "in this card’s thread"). Without it, such output is cut with a note.
   */
  filesInThread?: { note: string } | undefined;
  /**
   * Block Kit an older fwbot rendered and kept in Redis (src/jobs/legacyBlocks.ts), posted as it was with
   * `text` as its notification text: read for one release, then gone.
   */
  legacyBlocks?: readonly Record<string, unknown>[] | undefined;
  metadata?: MessageMetadata | undefined;
}

/** One page of a conversation or a thread, read back with the messages' metadata. */
export interface MessagesRead {
  messages: { ts?: string | undefined; metadata?: { event_payload?: Record<string, unknown> } | undefined }[];
  /** Where the next page starts; absent on the last page. */
  nextCursor?: string;
}

export interface FileToPost {
  channel: string;
  threadTs?: string | undefined;
  filename: string;
  title: string;
  content: string;
  comment?: string;
}

/**
 * A chat as fwbot's messages see it. Failures are thrown with Slack's error names (src/slackApi/errors.ts
 * is the one list of what they mean), whichever chat it is. (Its methods are not SlackApi's on purpose: a
 * SlackApi, which takes Block Kit, can never pass for a chat, which takes Views.)
 */
export interface Chat {
  /** Posts a message (in a thread when `threadTs` is given). */
  post(channel: string, message: ChatMessage, threadTs?: string): Promise<{ ts: string; channel: string }>;
  /** Replaces what a posted message shows. */
  edit(channel: string, ts: string, message: ChatMessage): Promise<void>;
  /** One page of a thread (with `threadTs`) or of a channel's recent messages, with their metadata. */
  read(read: {
    channel: string;
    threadTs?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  }): Promise<MessagesRead>;
  upload(file: FileToPost): Promise<void>;
}

/** The chat of each workspace (single-workspace mode: the same one for all). */
export type ChatOf = (workspace: WorkspaceRef) => Chat;
