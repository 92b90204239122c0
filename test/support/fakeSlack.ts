// A fake Slack Web API server: real HTTP on a loopback port, records every call, answers like Slack does,
// and can be told to answer 429 with Retry-After (or to hold an answer back after acting on the call).
// Point Bolt / @slack/web-api at it with `clientOptions: { slackApiUrl: fake.apiUrl }`. It also serves
// `response_url` endpoints, and reads messages back (conversations.history / .replies, with metadata).
// Messages and views whose blocks Slack would refuse (tables: blockKitRules.ts) are refused as Slack does.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockKitProblems, refusalCode } from './blockKitRules.js';

export interface RecordedCall {
  /** Web API method (`chat.postMessage`) or `response_url` for posts to a response URL. */
  method: string;
  args: Record<string, unknown>;
  /** Bearer token the call carried, if any (tests check tokens never leak elsewhere). */
  token: string | undefined;
  /** HTTP status the fake answered with. */
  status: number;
  at: number;
}

interface RateLimitRule {
  remaining: number;
  retryAfterSeconds: number;
}

export interface FakeSlackOptions {
  /** The workspace the bot token belongs to, as auth.test says (default T0FAKE, as the tests' payloads). */
  teamId?: string;
  /** An Enterprise Grid organization for auth.test to report (none by default). */
  enterpriseId?: string;
  /**
   * An app id for auth.test to report. Slack's documented answer for a bot token has none, so by default
   * the fake has none either; the tests' payloads carry api_app_id A0FWBOT.
   */
  appId?: string;
  botUserId?: string;
  botId?: string;
  /** User-group id → member user ids, answered by usergroups.users.list. */
  userGroups?: Record<string, string[]>;
  /** Channels shared with another organization (Slack Connect): conversations.info says is_ext_shared. */
  sharedChannels?: string[];
}

/** A workspace's install as Slack completes it: what oauth.v2.access answers for its one-time code. */
export interface FakeInstall {
  /** The workspace (absent for an Enterprise Grid org-wide install). */
  teamId?: string;
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
  botToken: string;
  /** Who clicked Allow. */
  userId: string;
  botUserId?: string;
  /** What the exchange requires (default: any client). */
  clientId?: string;
  clientSecret?: string;
}

export interface FakeSlack {
  /** Base URL for @slack/web-api's `slackApiUrl` (ends with `/api/`). */
  apiUrl: string;
  url: string;
  calls: RecordedCall[];
  callsTo(method: string): RecordedCall[];
  /** The next `times` calls of `method` answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimit(method: string, times: number, retryAfterSeconds: number): void;
  /** The next `times` calls of `method` answer `{ ok: false, error }` (e.g. files.getUploadURLExternal, missing_scope). */
  refuse(method: string, error: string, times: number): void;
  /** A fresh response_url served by this fake (posts to it are recorded as method `response_url`). */
  responseUrl(): string;
  /** Resolves with the first recorded call (past or future) that matches, or rejects after `timeoutMs`. */
  waitFor(predicate: (call: RecordedCall) => boolean, timeoutMs?: number): Promise<RecordedCall>;
  /** Every message posted or updated, in order, keyed by channel and ts (the latest version wins). */
  messages(): Map<string, Record<string, unknown>>;
  /**
   * The next `times` calls of `method` are carried out (and recorded) but their HTTP answer is held back
   * until `releaseHeld()`: the window where Slack has accepted a call and the caller has not heard yet.
   */
  holdResponses(method: string, times: number): void;
  /** Answers every held call (a caller that has gone away simply misses it). Returns how many were held. */
  releaseHeld(): number;
  setUserGroups(groups: Record<string, string[]>): void;
  /** Marks channels shared with another organization: conversations.info answers `is_ext_shared: true`. */
  shareChannels(channelIds: string[]): void;
  /**
   * Slack's side of an install: returns the one-time code Slack would put in the redirect to
   * /slack/oauth_redirect; oauth.v2.access exchanges it (once) for the install's bot token, and from then on
   * auth.test with that token answers for its workspace.
   */
  grantInstall(install: FakeInstall): string;
  /**
   * Answers calls of a method the fake does not know itself with `answer(args, token)` (recorded like any
   * other call), e.g. apps.connections.open for the fake Socket Mode server (fakeSocketMode.ts).
   */
  serve(
    method: string,
    answer: (args: Record<string, unknown>, token: string | undefined) => Record<string, unknown>,
  ): void;
  reset(): void;
  stop(): Promise<void>;
}

/** What Slack would refuse in the blocks a call carries: a message's, or a modal's or Home tab's view. */
function blockProblems(method: string, args: Record<string, unknown>): string[] {
  if (method === 'chat.postMessage' || method === 'chat.update' || method === 'chat.postEphemeral')
    return blockKitProblems(args.blocks, 'message');
  if (method.startsWith('views.') && args.view !== null && typeof args.view === 'object') {
    const view = args.view as Record<string, unknown>;
    return blockKitProblems(view.blocks, view.type === 'home' ? 'home' : 'modal');
  }
  return [];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Slack clients send form-encoded args (objects JSON-encoded inside) or JSON; accept both. */
function parseArgs(contentType: string | undefined, raw: string): Record<string, unknown> {
  if (raw.length === 0) return {};
  if (contentType?.includes('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const looksJson = value.startsWith('[') || value.startsWith('{');
    if (looksJson) {
      try {
        args[key] = JSON.parse(value);
        continue;
      } catch {
        // not JSON after all: keep the text
      }
    }
    args[key] = value;
  }
  return args;
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const teamId = options.teamId ?? 'T0FAKE';
  const botUserId = options.botUserId ?? 'U0FWBOT';
  const botId = options.botId ?? 'B0FWBOT';
  let userGroups = { ...(options.userGroups ?? {}) };
  const shared = new Set(options.sharedChannels ?? []);
  const calls: RecordedCall[] = [];
  const rateLimits = new Map<string, RateLimitRule>();
  const holds = new Map<string, number>();
  const refusals = new Map<string, { error: string; remaining: number }>();
  const held: Array<() => void> = [];
  const messages = new Map<string, Record<string, unknown>>();
  const grants = new Map<string, FakeInstall>();
  /** Bot token → the workspace it belongs to (installs made through grantInstall). */
  const tokenTeams = new Map<string, FakeInstall>();
  const served = new Map<
    string,
    (args: Record<string, unknown>, token: string | undefined) => Record<string, unknown>
  >();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let tsCounter = 1_700_000_000;
  let viewCounter = 0;
  let baseUrl = '';

  const nextTs = () => {
    tsCounter += 1;
    return `${tsCounter}.000100`;
  };

  function answer(
    method: string,
    args: Record<string, unknown>,
    token: string | undefined,
  ): Record<string, unknown> {
    const channel = typeof args.channel === 'string' ? args.channel : undefined;
    const problems = blockProblems(method, args);
    if (problems.length > 0) return { ok: false, error: refusalCode(problems), errors: problems };
    const refusal = refusals.get(method);
    if (refusal && refusal.remaining > 0) {
      refusal.remaining -= 1;
      return { ok: false, error: refusal.error };
    }
    switch (method) {
      case 'auth.test': {
        const installed = token === undefined ? undefined : tokenTeams.get(token);
        if (installed)
          return {
            ok: true,
            url: 'https://fake.slack.com/',
            team: 'Installed',
            user: 'fwbot',
            ...(installed.teamId === undefined ? {} : { team_id: installed.teamId }),
            user_id: installed.botUserId ?? botUserId,
            bot_id: botId,
            ...(installed.enterpriseId === undefined ? {} : { enterprise_id: installed.enterpriseId }),
            ...(installed.isEnterpriseInstall ? { is_enterprise_install: true } : {}),
          };
        return {
          ok: true,
          url: 'https://fake.slack.com/',
          team: 'Fake',
          user: 'fwbot',
          team_id: teamId,
          user_id: botUserId,
          bot_id: botId,
          ...(options.enterpriseId === undefined ? {} : { enterprise_id: options.enterpriseId }),
          ...(options.appId === undefined ? {} : { app_id: options.appId }),
        };
      }
      case 'oauth.v2.access': {
        const code = typeof args.code === 'string' ? args.code : '';
        const install = grants.get(code);
        if (!install) return { ok: false, error: 'invalid_code' };
        grants.delete(code);
        if (install.clientId !== undefined && args.client_id !== install.clientId)
          return { ok: false, error: 'invalid_client_id' };
        if (install.clientSecret !== undefined && args.client_secret !== install.clientSecret)
          return { ok: false, error: 'bad_client_secret' };
        tokenTeams.set(install.botToken, install);
        return {
          ok: true,
          app_id: 'A0FWBOT',
          authed_user: { id: install.userId },
          scope: 'commands,chat:write',
          token_type: 'bot',
          access_token: install.botToken,
          bot_user_id: install.botUserId ?? botUserId,
          team: install.teamId === undefined ? null : { id: install.teamId, name: 'Installed' },
          enterprise: install.enterpriseId === undefined ? null : { id: install.enterpriseId, name: 'Org' },
          is_enterprise_install: install.isEnterpriseInstall === true,
        };
      }
      case 'chat.postMessage': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        const ts = nextTs();
        const message = { ...args, ts, user: botUserId };
        messages.set(`${channel}/${ts}`, message);
        return { ok: true, channel, ts, message };
      }
      case 'chat.update': {
        const ts = typeof args.ts === 'string' ? args.ts : undefined;
        if (!channel || !ts) return { ok: false, error: 'invalid_arguments' };
        const existing = messages.get(`${channel}/${ts}`);
        if (!existing) return { ok: false, error: 'message_not_found' };
        // Slack keeps a message's place in its thread, and its metadata unless new metadata is given.
        const kept = { thread_ts: existing.thread_ts, metadata: existing.metadata };
        messages.set(`${channel}/${ts}`, { ...kept, ...args, user: botUserId });
        return { ok: true, channel, ts, text: args.text };
      }
      case 'conversations.replies':
      case 'conversations.history': {
        if (!channel) return { ok: false, error: 'channel_not_found' };
        const root = typeof args.ts === 'string' ? args.ts : undefined;
        if (method === 'conversations.replies' && !root) return { ok: false, error: 'invalid_arguments' };
        const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
        const inChannel = [...messages.entries()]
          .filter(([key]) => key.startsWith(`${channel}/`))
          .map(([, message]) => message)
          .filter((message) =>
            root
              ? message.ts === root || message.thread_ts === root
              : message.thread_ts === undefined || message.thread_ts === message.ts,
          )
          .sort((a, b) => Number(a.ts) - Number(b.ts));
        // replies: oldest first, as Slack answers; history: newest first.
        const ordered = method === 'conversations.history' ? inChannel.reverse() : inChannel;
        const limit = Number(args.limit ?? 100) || 100;
        const start = Number(args.cursor ?? 0) || 0;
        const page = ordered.slice(start, start + limit).map((message) => {
          const { metadata, token: _token, channel: _channel, ...rest } = message;
          return withMetadata && metadata !== undefined ? { ...rest, metadata } : rest;
        });
        const more = start + limit < ordered.length;
        return {
          ok: true,
          messages: page,
          has_more: more,
          response_metadata: { next_cursor: more ? String(start + limit) : '' },
        };
      }
      case 'chat.postEphemeral':
        return channel ? { ok: true, message_ts: nextTs() } : { ok: false, error: 'channel_not_found' };
      case 'chat.delete':
        return { ok: true, channel, ts: args.ts };
      case 'conversations.open':
        return { ok: true, channel: { id: `D${String(args.users ?? 'X').replace(/[^A-Z0-9]/g, '')}` } };
      case 'views.open':
      case 'views.push':
      case 'views.update': {
        viewCounter += 1;
        const id =
          typeof args.view_id === 'string' ? args.view_id : `V${String(viewCounter).padStart(8, '0')}`;
        return { ok: true, view: { ...(args.view as Record<string, unknown>), id, hash: `h${viewCounter}` } };
      }
      case 'conversations.info':
        if (!channel) return { ok: false, error: 'channel_not_found' };
        return { ok: true, channel: { id: channel, is_ext_shared: shared.has(channel) } };
      case 'users.info':
        return { ok: true, user: { id: args.user, name: String(args.user).toLowerCase(), tz: 'UTC' } };
      case 'usergroups.users.list': {
        const group = String(args.usergroup ?? '');
        const users = userGroups[group];
        return users ? { ok: true, users } : { ok: false, error: 'no_such_subteam' };
      }
      case 'files.getUploadURLExternal': {
        const fileId = `F${randomUUID().slice(0, 8).toUpperCase()}`;
        return { ok: true, upload_url: `${baseUrl}/upload/${fileId}`, file_id: fileId };
      }
      case 'files.completeUploadExternal':
        return { ok: true, files: (args.files as unknown[] | undefined) ?? [] };
      default:
        return served.get(method)?.(args, token) ?? { ok: false, error: 'unknown_method' };
    }
  }

  function record(call: RecordedCall): void {
    calls.push(call);
    events.emit('call', call);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
    if (url.pathname.startsWith('/upload/')) {
      record({
        method: 'files.upload',
        // What the file holds, as Slack would store it (uploads are text here: diffs, command output).
        args: { fileId: url.pathname.slice(8), bytes: Buffer.byteLength(raw, 'utf8'), content: raw },
        token,
        status: 200,
        at: Date.now(),
      });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      return;
    }
    if (url.pathname.startsWith('/response/')) {
      const args = parseArgs(req.headers['content-type'], raw);
      const problems = blockKitProblems(args.blocks, 'message');
      const status = problems.length > 0 ? 400 : 200;
      record({
        method: 'response_url',
        args: { ...args, responseUrlId: url.pathname.slice(10) },
        token,
        status,
        at: Date.now(),
      });
      res
        .writeHead(status, { 'content-type': 'text/plain' })
        .end(status === 200 ? 'ok' : refusalCode(problems));
      return;
    }
    const match = /^\/api\/([\w.]+)$/.exec(url.pathname);
    if (!match?.[1]) {
      res.writeHead(404).end();
      return;
    }
    const method = match[1];
    const args = { ...Object.fromEntries(url.searchParams), ...parseArgs(req.headers['content-type'], raw) };
    const bodyToken = typeof args.token === 'string' ? args.token : undefined;
    const rule = rateLimits.get(method);
    if (rule && rule.remaining > 0) {
      rule.remaining -= 1;
      record({ method, args, token: token ?? bodyToken, status: 429, at: Date.now() });
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(rule.retryAfterSeconds) })
        .end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      return;
    }
    const body = answer(method, args, token ?? bodyToken);
    record({ method, args, token: token ?? bodyToken, status: 200, at: Date.now() });
    const send = () => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const holding = holds.get(method) ?? 0;
    if (holding > 0) {
      holds.set(method, holding - 1);
      held.push(send);
      return;
    }
    send();
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    apiUrl: `${baseUrl}/api/`,
    url: baseUrl,
    calls,
    callsTo: (method) => calls.filter((call) => call.method === method),
    rateLimit(method, times, retryAfterSeconds) {
      rateLimits.set(method, { remaining: times, retryAfterSeconds });
    },
    refuse(method, error, times) {
      refusals.set(method, { error, remaining: times });
    },
    responseUrl: () => `${baseUrl}/response/${randomUUID()}`,
    waitFor(predicate, timeoutMs = 5_000) {
      const seen = calls.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const onCall = (call: RecordedCall) => {
          if (!predicate(call)) return;
          clearTimeout(timer);
          events.off('call', onCall);
          resolve(call);
        };
        const timer = setTimeout(() => {
          events.off('call', onCall);
          reject(
            new Error(
              `fake Slack: no matching call within ${timeoutMs} ms (saw ${calls.map((c) => c.method).join(', ') || 'none'})`,
            ),
          );
        }, timeoutMs);
        events.on('call', onCall);
      });
    },
    messages: () => messages,
    holdResponses(method, times) {
      holds.set(method, times);
    },
    releaseHeld() {
      const waiting = held.splice(0);
      for (const send of waiting) send();
      return waiting.length;
    },
    grantInstall(install) {
      const code = `code-${randomUUID()}`;
      grants.set(code, install);
      return code;
    },
    shareChannels(channelIds) {
      for (const id of channelIds) shared.add(id);
    },
    setUserGroups(groups) {
      userGroups = { ...groups };
    },
    serve(method, answerCall) {
      served.set(method, answerCall);
    },
    reset() {
      calls.length = 0;
      rateLimits.clear();
      refusals.clear();
      holds.clear();
      held.length = 0;
      messages.clear();
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
