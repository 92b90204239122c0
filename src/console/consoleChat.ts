// The console's chat (the Chat port of src/model/message.ts), in process: what the workers and the
// approvals post into the console's channel is kept here as they sent it, a View and all, and told to the
// console (inbox.ts), which shows the View with the text renderer. The workers and the approvals keep
// their own code, exactly-once marks and metadata included: only the chat is the console's. With real
// Slack beside the console (the demo with Slack tokens), `beside` sends what is about the console's
// channel here and everything else to Slack's chat.
import { EventEmitter } from 'node:events';
import type {
  Chat,
  ChatMessage,
  ChatOf,
  FileToPost,
  MessageMetadata,
  MessagesRead,
} from '../model/message.js';
import type { View } from '../model/view.js';
import { SlackRefused } from '../slackApi/errors.js';
import { outgoingText } from '../slackApi/outgoing.js';

/** A message as the console keeps it: its text (fwbot's mrkdwn), or its view. */
export interface ConsoleMessage {
  channel: string;
  ts: string;
  threadTs?: string | undefined;
  /** The message's text; beside a view, the view's summary. */
  text: string;
  view?: View | undefined;
  metadata?: MessageMetadata | undefined;
}

export interface ConsoleChatEvents {
  posted: [message: ConsoleMessage];
  updated: [message: ConsoleMessage];
}

export class ConsoleChat extends EventEmitter<ConsoleChatEvents> implements Chat {
  readonly #messages = new Map<string, ConsoleMessage>();
  /** Console channels: calls about these are answered here when beside real Slack. */
  readonly #channels = new Set<string>();
  /**
   * The last ts given, in microseconds. From the wall clock, so a restarted console never gives again a
   * ts an approval kept in Redis from an earlier run still points at (its card would be overwritten).
   */
  #lastTsUs = 0;
  readonly #wallMs: () => number;

  constructor(channels: readonly string[], wallMs: () => number = Date.now) {
    super();
    this.#wallMs = wallMs;
    for (const channel of channels) this.#channels.add(channel);
  }

  ownsChannel(channel: string | undefined): boolean {
    return channel !== undefined && this.#channels.has(channel);
  }

  /** Keeps a message the console printed itself (an announcement, whose ts starts a thread). */
  printed(channel: string, text: string, threadTs?: string): ConsoleMessage {
    const message: ConsoleMessage = { channel, ts: this.#nextTs(), text, threadTs };
    this.#messages.set(`${channel}/${message.ts}`, message);
    return message;
  }

  /**
   * A message of an earlier run shown again at its own ts (an approval card Redis kept across a restart),
   * so later updates to it reach it; announced like a new post.
   */
  restore(message: Omit<ConsoleMessage, 'threadTs'>): void {
    const kept: ConsoleMessage = { ...message };
    this.#messages.set(`${message.channel}/${message.ts}`, kept);
    this.emit('posted', kept);
  }

  message(channel: string, ts: string): ConsoleMessage | undefined {
    return this.#messages.get(`${channel}/${ts}`);
  }

  async post(
    channel: string,
    message: ChatMessage,
    threadTs?: string,
  ): Promise<{ ts: string; channel: string }> {
    const kept = this.printed(channel, shownText(message), threadTs);
    kept.view = message.view;
    kept.metadata = message.metadata;
    this.emit('posted', kept);
    return { ts: kept.ts, channel };
  }

  async edit(channel: string, ts: string, message: ChatMessage): Promise<void> {
    const existing = this.message(channel, ts);
    if (!existing) throw new SlackRefused('message_not_found', 'chat.update');
    existing.text = shownText(message);
    existing.view = message.view;
    if (message.metadata !== undefined) existing.metadata = message.metadata;
    this.emit('updated', existing);
  }

  async read(read: Parameters<Chat['read']>[0]): Promise<MessagesRead> {
    const root = read.threadTs;
    const messages = [...this.#messages.values()]
      .filter(
        (m) => m.channel === read.channel && (root === undefined || m.ts === root || m.threadTs === root),
      )
      .map((m) => ({ ts: m.ts, metadata: m.metadata }));
    return { messages };
  }

  /** The console's channel takes no files: whoever uploads says the output another way. */
  async upload(file: FileToPost): Promise<void> {
    throw new Error(`the console takes no files (${file.filename})`);
  }

  /** Each workspace's chat: this one for the console's channels, `slack`'s for every other. */
  beside(slack: ChatOf): ChatOf {
    return (workspace) => {
      const other = slack(workspace);
      const route = (channel: string): Chat => (this.ownsChannel(channel) ? this : other);
      return {
        post: (channel, message, threadTs) => route(channel).post(channel, message, threadTs),
        edit: (channel, ts, message) => route(channel).edit(channel, ts, message),
        read: (read) => route(read.channel).read(read),
        upload: (file) => route(file.channel).upload(file),
      };
    };
  }

  #nextTs(): string {
    // Slack's form: seconds, a dot, six digits; strictly increasing, however many in one microsecond.
    this.#lastTsUs = Math.max(this.#lastTsUs + 1, Math.floor(this.#wallMs() * 1_000));
    const seconds = Math.floor(this.#lastTsUs / 1_000_000);
    return `${seconds}.${String(this.#lastTsUs % 1_000_000).padStart(6, '0')}`;
  }
}

/**
 * A message's text as the console keeps it: a view's summary, or the text under the rule every message
 * leaving fwbot keeps (src/slackApi/outgoing.ts: nothing hidden, no token but fwbot's own).
 */
function shownText(message: ChatMessage): string {
  return message.view ? message.view.summary : outgoingText(message.text, message.legacyBlocks !== undefined);
}
