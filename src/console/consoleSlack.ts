// The console's stand-in for Slack's Web API, in process: a `fetch` that answers the calls the tracking
// workers and the approvals make (post, update, ephemeral, read a thread back, open a modal) and tells
// the console about each message. The workers and the approvals keep their real Slack code, exactly-once
// marks and metadata included; only the transport ends here instead of at slack.com. With real Slack
// tokens (the demo), `routingFetch` sends calls about the console's channel here and the rest to Slack.
import { EventEmitter } from 'node:events';
import { type SlackWebClient, slackClient } from '../slackApi/clients.js';

export const CONSOLE_API_URL = 'https://console.fwbot.invalid/api/';
export const CONSOLE_TEAM = 'T0CONSOLE';
export const CONSOLE_BOT_USER = 'U0FWBOT';
export const CONSOLE_BOT_TOKEN = 'xoxb-console-not-a-secret';

/** A message as the console keeps it: what Slack would hold. */
export interface ConsoleMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks?: unknown[];
  metadata?: unknown;
}

export interface ConsoleModal {
  id: string;
  view: Record<string, unknown>;
}

export interface ConsoleSlackEvents {
  posted: [message: ConsoleMessage];
  updated: [message: ConsoleMessage];
  ephemeral: [message: { channel: string; user: string; text: string }];
  modal: [modal: ConsoleModal];
}

type Args = Record<string, unknown>;

/** Slack clients send form-encoded arguments (objects JSON-encoded inside them) or JSON. */
function parseArgs(body: unknown, contentType: string | undefined): Args {
  if (typeof body !== 'string' || body === '') return {};
  if (contentType?.includes('application/json')) return JSON.parse(body) as Args; // Slack's body is an object
  const args: Args = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (value.startsWith('[') || value.startsWith('{')) {
      try {
        args[key] = JSON.parse(value);
        continue;
      } catch {
        // Not JSON after all: keep the text.
      }
    }
    args[key] = value;
  }
  return args;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function headerOf(init: RequestInit | undefined, name: string): string | undefined {
  const headers = new Headers(init?.headers);
  return headers.get(name) ?? undefined;
}

export class ConsoleSlack extends EventEmitter<ConsoleSlackEvents> {
  readonly #messages = new Map<string, ConsoleMessage>();
  /** Console channels: calls about these are answered here when routing beside real Slack. */
  readonly #channels = new Set<string>();
  /**
   * The last ts given, in microseconds. From the wall clock, so a restarted console never gives again a
   * ts an approval kept in Redis from an earlier run still points at (its card would be overwritten).
   */
  #lastTsUs = 0;
  readonly #wallMs: () => number;
  #views = 0;

  constructor(channels: readonly string[], wallMs: () => number = Date.now) {
    super();
    this.#wallMs = wallMs;
    for (const channel of channels) this.#channels.add(channel);
  }

  ownsChannel(channel: string | undefined): boolean {
    return channel !== undefined && this.#channels.has(channel);
  }

  /** Posts a message as fwbot (the console's announcements, whose ts starts a thread). */
  post(channel: string, textValue: string, threadTs?: string): ConsoleMessage {
    const message: ConsoleMessage = { channel, ts: this.#nextTs(), text: textValue, threadTs };
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

  /** The Web API method call, answered as Slack would. */
  answer(method: string, args: Args): Record<string, unknown> {
    const channel = text(args.channel);
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          team_id: CONSOLE_TEAM,
          user_id: CONSOLE_BOT_USER,
          bot_id: 'B0FWBOT',
          user: 'fwbot',
        };
      case 'chat.postMessage': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        const message = this.post(channel, text(args.text) ?? '', text(args.thread_ts));
        if (Array.isArray(args.blocks)) message.blocks = args.blocks;
        if (args.metadata !== undefined) message.metadata = args.metadata;
        this.emit('posted', message);
        return { ok: true, channel, ts: message.ts, message: { ts: message.ts, text: message.text } };
      }
      case 'chat.update': {
        const ts = text(args.ts);
        const existing = channel && ts ? this.message(channel, ts) : undefined;
        if (!existing) return { ok: false, error: 'message_not_found' };
        existing.text = text(args.text) ?? existing.text;
        if (Array.isArray(args.blocks)) existing.blocks = args.blocks;
        if (args.metadata !== undefined) existing.metadata = args.metadata;
        this.emit('updated', existing);
        return { ok: true, channel, ts };
      }
      case 'chat.postEphemeral': {
        const user = text(args.user);
        if (!channel || !user) return { ok: false, error: 'invalid_arguments' };
        this.emit('ephemeral', { channel, user, text: text(args.text) ?? '' });
        return { ok: true, message_ts: this.#nextTs() };
      }
      case 'conversations.replies':
      case 'conversations.history':
        return { ok: true, messages: this.#read(channel, text(args.ts)), has_more: false };
      case 'views.open':
      case 'views.push': {
        this.#views += 1;
        const id = `V0CONSOLE${this.#views}`;
        const view = (args.view ?? {}) as Record<string, unknown>; // Slack's view object, passed on as is
        this.emit('modal', { id, view });
        return { ok: true, view: { id, hash: `h${this.#views}`, ...view } };
      }
      case 'views.update':
        return { ok: true, view: { id: text(args.view_id) ?? 'V0', hash: 'h' } };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  /** A fetch for @slack/web-api that answers everything here. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const method = new URL(url).pathname.split('/').pop() ?? '';
    const args = parseArgs(init?.body, headerOf(init, 'content-type'));
    return Response.json(this.answer(method, args));
  };

  /**
   * A fetch that answers calls about console channels here and passes every other call to `fallback`
   * (real Slack), so one worker or approvals client serves both in the demo.
   */
  routingFetch(fallback: typeof fetch): typeof fetch {
    return async (input, init) => {
      const args = parseArgs(init?.body, headerOf(init, 'content-type'));
      if (this.ownsChannel(text(args.channel))) return this.fetch(input, init);
      return fallback(input, init);
    };
  }

  /** A Web API client whose calls end here (or are routed beside real Slack when `real` is given). */
  client(options: { workers?: boolean; real?: { token: string; apiUrl: string } } = {}): SlackWebClient {
    const workerOptions = options.workers
      ? { rejectRateLimitedCalls: true, retryConfig: { retries: 0 } }
      : {};
    if (options.real) {
      return slackClient(options.real.token, {
        slackApiUrl: options.real.apiUrl,
        fetch: this.routingFetch(globalThis.fetch),
        ...workerOptions,
      });
    }
    return slackClient(CONSOLE_BOT_TOKEN, {
      slackApiUrl: CONSOLE_API_URL,
      fetch: this.fetch,
      ...workerOptions,
    });
  }

  #read(channel: string | undefined, root: string | undefined): Record<string, unknown>[] {
    return [...this.#messages.values()]
      .filter((m) => m.channel === channel && (root === undefined || m.ts === root || m.threadTs === root))
      .map((m) => ({ ts: m.ts, thread_ts: m.threadTs, text: m.text, metadata: m.metadata }));
  }

  #nextTs(): string {
    // Slack's form: seconds, a dot, six digits; strictly increasing, however many in one microsecond.
    this.#lastTsUs = Math.max(this.#lastTsUs + 1, Math.floor(this.#wallMs() * 1_000));
    const seconds = Math.floor(this.#lastTsUs / 1_000_000);
    return `${seconds}.${String(this.#lastTsUs % 1_000_000).padStart(6, '0')}`;
  }
}
