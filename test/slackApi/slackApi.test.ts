// fwbot's one Slack Web API module (src/slackApi/): the calls it makes as the fake Slack records them,
// and what each kind of failure means, from errors a real @slack/web-api client throws against a local
// server (a refusal, a 429 with Retry-After, Slack's own "maybe applied" errors, a connection refused).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cannotPostThere, classifySlackError, slackErrorCode } from '../../src/slackApi/errors.js';
import { SlackApi } from '../../src/slackApi/slackApi.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';

/** A client as the workers configure theirs: a 429 is thrown at once, nothing is retried. */
function workerClient(apiUrl: string): webApi.WebClient {
  return new webApi.WebClient('xoxb-test', {
    slackApiUrl: apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    // The connection-refused case is expected here, not worth a warning on the test's output.
    logLevel: webApi.LogLevel.ERROR,
  });
}

describe('the Slack Web API module', () => {
  let slack: FakeSlack;
  let api: SlackApi;
  beforeAll(async () => {
    slack = await startFakeSlack({ teamId: 'T0HOME', botUserId: 'U0BOT', botId: 'B0BOT' });
    api = new SlackApi(workerClient(slack.apiUrl));
  });
  beforeEach(() => slack.reset());
  afterAll(async () => {
    await slack.stop();
  });

  it('says whose token it holds (auth.test)', async () => {
    await expect(api.authTest()).resolves.toEqual({ teamId: 'T0HOME', userId: 'U0BOT', botId: 'B0BOT' });
  });

  it('posts with metadata, without unfurling links, and in a thread when asked', async () => {
    const metadata = { event_type: 'fwbot_outcome', event_payload: { key: 'k1' } };
    const root = await api.postMessage('C0API', { text: 'root' });
    const reply = await api.postMessage('C0API', { text: 'reply', metadata }, root.ts);

    expect(root.channel).toBe('C0API');
    const [first, second] = slack.callsTo('chat.postMessage');
    expect(first?.args).toMatchObject({ channel: 'C0API', text: 'root' });
    expect(String(first?.args.unfurl_links)).toBe('false');
    expect(first?.args.thread_ts).toBeUndefined();
    expect(second?.args).toMatchObject({ thread_ts: root.ts, metadata });
    expect(reply.ts).not.toBe(root.ts);
  });

  it('reads a thread back with its messages’ metadata, page by page', async () => {
    const root = await api.postMessage('C0READ', { text: 'root' });
    for (const key of ['a', 'b', 'c'])
      await api.postMessage(
        'C0READ',
        { text: key, metadata: { event_type: 'fwbot_note', event_payload: { key } } },
        root.ts,
      );

    const first = await api.readMessages({ channel: 'C0READ', threadTs: root.ts, limit: 2 });
    const second = await api.readMessages({
      channel: 'C0READ',
      threadTs: root.ts,
      limit: 2,
      cursor: first.nextCursor,
    });

    const keys = [...first.messages, ...second.messages].map((m) => m.metadata?.event_payload?.key);
    expect(keys).toEqual([undefined, 'a', 'b', 'c']);
    expect(first.nextCursor).toBeDefined();
    expect(second.nextCursor).toBeUndefined();
    expect(slack.callsTo('conversations.replies')).toHaveLength(2);
  });

  it('reads a channel’s recent messages when no thread is named', async () => {
    await api.postMessage('C0HIST', { text: 'top' });
    const page = await api.readMessages({ channel: 'C0HIST', limit: 10 });
    expect(page.messages).toHaveLength(1);
    expect(slack.callsTo('conversations.history')).toHaveLength(1);
  });
});

describe('what a failed Slack call means', () => {
  let server: Server;
  let api: SlackApi;
  let unreachable: SlackApi;
  // The fake answers chat.postMessage with the error named by the channel, or a 429 for `C0LIMIT`.
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const channel = new URLSearchParams(body).get('channel') ?? '';
        if (channel === 'C0LIMIT') {
          res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: false, error: channel }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    api = new SlackApi(workerClient(`http://127.0.0.1:${port}/api/`));
    // A port nothing listens on: the call never reaches Slack, or its answer was lost.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    unreachable = new SlackApi(workerClient(`http://127.0.0.1:${closedPort}/api/`));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const failureOf = async (slack: SlackApi, channel: string) => {
    const error = await slack.postMessage(channel, { text: 'x' }).catch((e: unknown) => e);
    return { error, failure: classifySlackError(error) };
  };

  it('a 429: wait as long as Slack said; nothing was posted', async () => {
    const { failure } = await failureOf(api, 'C0LIMIT');
    expect(failure).toEqual({
      kind: 'rateLimited',
      reason: 'ratelimited',
      retryAfterMs: 7_000,
      mayHaveApplied: false,
    });
  });

  it('refusals are final, and say why', async () => {
    const refusals = {
      not_in_channel: 'conversation',
      channel_not_found: 'conversation',
      is_archived: 'conversation',
      message_not_found: 'message',
      msg_too_long: 'request',
      invalid_auth: 'credentials',
      missing_scope: 'credentials',
      plan_upgrade_required: 'workspace',
    };
    for (const [code, refusal] of Object.entries(refusals)) {
      const { error, failure } = await failureOf(api, code);
      expect(failure, code).toEqual({ kind: 'refused', reason: code, refusal, mayHaveApplied: false });
      expect(slackErrorCode(error)).toBe(code);
      expect(cannotPostThere(error), code).toBe(refusal === 'conversation');
    }
  });

  it('Slack’s own internal errors may have applied; unknown ones are retried', async () => {
    expect((await failureOf(api, 'internal_error')).failure).toEqual({
      kind: 'transient',
      reason: 'internal_error',
      mayHaveApplied: true,
    });
    expect((await failureOf(api, 'some_new_error')).failure).toMatchObject({
      kind: 'transient',
      mayHaveApplied: false,
    });
  });

  it('a connection failure is transient and may have applied', async () => {
    const { error, failure } = await failureOf(unreachable, 'C0ANY');
    expect(failure.kind).toBe('transient');
    expect(failure.mayHaveApplied).toBe(true);
    expect(slackErrorCode(error)).toBeUndefined();
  });
});
