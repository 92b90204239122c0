// The fake Socket Mode server holds to what the tests rely on: it opens connections only for the app-level
// token and only once per URL, says hello, delivers nowhere when no connection is open, and records acks.
import { SocketModeReceiver } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type FakeSlack, startFakeSlack } from './fakeSlack.js';
import { type FakeSocketMode, startFakeSocketMode } from './fakeSocketMode.js';

describe('fake Socket Mode server', () => {
  let slack: FakeSlack;
  let socket: FakeSocketMode;

  beforeAll(async () => {
    slack = await startFakeSlack();
    // A peer that ends TCP after the close handshake, so that the client's disconnect() returns at once.
    socket = await startFakeSocketMode(slack, { closesTcpAfterClose: true });
  });

  afterAll(async () => {
    await socket.stop();
    await slack.stop();
  });

  const open = (token: string) =>
    fetch(`${slack.apiUrl}apps.connections.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    }).then((res) => res.json() as Promise<{ ok: boolean; url?: string; error?: string }>);

  it('hands out a ws:// URL to the app-level token only, and records the call', async () => {
    expect(await open('xoxb-a-bot-token')).toEqual({ ok: false, error: 'invalid_auth' });
    const opened = await open(socket.appToken);

    expect(opened.ok).toBe(true);
    expect(opened.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/);
    expect(slack.callsTo('apps.connections.open').map((call) => call.token)).toEqual([
      'xoxb-a-bot-token',
      socket.appToken,
    ]);
  });

  it('refuses to deliver while no connection is open, as Slack cannot', () => {
    expect(() => socket.slashCommand({ command: '/fw', text: 'help' })).toThrow('no open connection');
  });

  it('opens one connection per URL, and says hello on it', async () => {
    const { url } = await open(socket.appToken);
    if (!url) throw new Error('no URL');
    const first = new WebSocket(url);
    const hello = await new Promise<string>((resolve) =>
      first.once('message', (data) => resolve(String(data))),
    );
    const second = new WebSocket(url);
    const refused = await new Promise<number>((resolve) =>
      second.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    second.on('error', () => {});
    first.close();

    expect(JSON.parse(hello)).toMatchObject({ type: 'hello', connection_info: { app_id: 'A0FWBOT' } });
    expect(refused).toBe(401);
  });

  it('delivers envelopes to a Socket Mode client and records its acks, with their payloads', async () => {
    const { client } = new SocketModeReceiver({
      appToken: socket.appToken,
      installerOptions: { clientOptions: { slackApiUrl: slack.apiUrl } },
    });
    const received: { type: string; retry: number | undefined }[] = [];
    client.on('slack_event', async ({ ack, type, retry_num }) => {
      received.push({ type, retry: retry_num });
      await ack({ seen: type });
    });
    await client.start();
    try {
      const hello = await socket.connected(2);
      const envelope = socket.interactive({ type: 'block_actions' });
      const again = socket.redeliver(envelope, 'timeout');

      await socket.ackOf(envelope.envelope_id);
      expect(hello.helloAt).toBeGreaterThanOrEqual(hello.openedAt);
      expect(again).toMatchObject({
        envelope_id: envelope.envelope_id,
        retry_attempt: 1,
        retry_reason: 'timeout',
      });
      await expect.poll(() => socket.acksOf(envelope.envelope_id).length).toBe(2);
      expect(socket.acksOf(envelope.envelope_id).map((ack) => ack.payload)).toEqual([
        { seen: 'interactive' },
        { seen: 'interactive' },
      ]);
      expect(received).toEqual([
        { type: 'interactive', retry: 0 },
        { type: 'interactive', retry: 1 },
      ]);
    } finally {
      await client.disconnect();
    }
  });
});
