// Socket Mode connections Slack asks to refresh: the app from createFwbotApp, on Bolt's real Socket Mode
// receiver, against the fake Socket Mode server. The pong timeout is set to 60 s here, so the library's own
// reconnect (which waits that long) could not open the new connection within the tests' 20 s bound: only
// the fast path of socketModeRefresh.ts can. The gap from `disconnect` to the new connection's `hello` is
// printed for the README, never asserted.
import { SocketModeReceiver } from '@slack/bolt';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconnectAtOnceOnRefresh, refreshUnsupported } from '../../../src/slack/socketModeRefresh.js';
import type { FakeSocketMode } from '../../support/fakeSocketMode.js';
import { slashCommandBody } from '../../support/slackRequests.js';
import { blocksText, CHANNEL, type Harness, newTriggerId, startHarness, USERS } from '../support/harness.js';

const FAST_LINE = 'Slack asked for a new connection; opening it now';

/** Sends `/fw <text>` over the socket; resolves with the envelope and its response_url. */
function command(h: Harness, socket: FakeSocketMode, text: string, retryAttempt = 0) {
  const responseUrl = h.slack.responseUrl();
  const fields = Object.fromEntries(
    new URLSearchParams(
      slashCommandBody({
        text,
        responseUrl,
        userId: USERS.viewer,
        channelId: CHANNEL,
        triggerId: newTriggerId(),
      }),
    ),
  );
  const retry = retryAttempt > 0 ? { attempt: retryAttempt, reason: 'timeout' } : undefined;
  const envelope = socket.slashCommand(fields, retry);
  return { envelope, responseUrl };
}

describe('Socket Mode: the library keeps the shape the fast reconnect relies on', () => {
  it('has delayReconnectAttempt(next) and reads its messages through ws_message events', () => {
    const receiver = new SocketModeReceiver({ appToken: 'xapp-1-shape-check' });
    expect(refreshUnsupported(receiver.client)).toBeUndefined();
  });

  it('says so, and leaves the client as the library made it, when the shape has changed', () => {
    const { client } = new SocketModeReceiver({ appToken: 'xapp-1-shape-check' });
    Object.defineProperty(client, 'delayReconnectAttempt', { value: undefined });
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });

    expect(reconnectAtOnceOnRefresh(client, log)).toBe(false);
    expect(lines.join('')).toContain('@slack/socket-mode has no delayReconnectAttempt any more');
    expect(client.listeners('ws_message')).toHaveLength(1);
  });
});

describe('Socket Mode: Slack asks for a new connection', () => {
  let h: Harness;
  let socket: FakeSocketMode;

  beforeAll(async () => {
    h = await startHarness({ socketMode: { pongTimeoutMs: 60_000 } });
    if (!h.socket) throw new Error('the harness started no fake Socket Mode server');
    socket = h.socket;
    await socket.connected(1);
  });

  afterAll(async () => {
    await h.stop();
  });

  it('opens its connection with the app-level token, and only there', async () => {
    const opens = h.slack.callsTo('apps.connections.open');
    expect(opens.length).toBeGreaterThanOrEqual(1);
    expect(opens.every((call) => call.token === socket.appToken)).toBe(true);
    expect(h.slack.calls.filter((call) => call.token === socket.appToken).map((c) => c.method)).toEqual(
      opens.map(() => 'apps.connections.open'),
    );
  });

  it('answers a command over the socket, and does not call a first delivery a retry', async () => {
    const { envelope, responseUrl } = command(h, socket, 'tenants list');

    expect((await socket.ackOf(envelope.envelope_id)).payload).toEqual({});
    expect(blocksText((await h.reply(responseUrl)).args)).toContain('globex-apj');
    expect(h.logs.some((line) => line.includes('first delivery arrived as a retry'))).toBe(false);
  });

  it('says so when the first delivery it sees is numbered as a retry', async () => {
    const { responseUrl } = command(h, socket, 'tenants list', 1);

    await h.reply(responseUrl);
    expect(await h.waitForLog('first delivery arrived as a retry')).toContain('"retryNum":1');
  });

  for (const reason of ['warning', 'refresh_requested'] as const) {
    it(`reconnects at once after "${reason}" and answers a command sent right after`, async () => {
      const count = socket.connections.length;

      const asked = socket.askToReconnect(reason);
      const fresh = await socket.connected(count + 1);
      const gap = fresh.helloAt - (asked.askedToGoAt ?? 0);
      console.info(`socket mode: new connection ${gap} ms after disconnect (${reason})`);
      const { envelope, responseUrl } = command(h, socket, 'tenants list');

      expect((await socket.ackOf(envelope.envelope_id)).connection).toBe(fresh.id);
      expect(blocksText((await h.reply(responseUrl)).args)).toContain('globex-apj');
      expect(await h.waitForLog(`"reason":"${reason}"`)).toContain(FAST_LINE);
      // The fake keeps TCP open after the close handshake, as Slack does: the bot ends it itself.
      expect((await socket.closed(asked.id, 5_000)).closedAt).toBeDefined();
    });
  }
});

describe('Socket Mode: a connection lost without a word', () => {
  let h: Harness;
  let socket: FakeSocketMode;

  beforeAll(async () => {
    // A short pong timeout, so the library's own backoff (this long × failures) is short enough to wait for.
    h = await startHarness({ socketMode: { pongTimeoutMs: 1_000 } });
    if (!h.socket) throw new Error('the harness started no fake Socket Mode server');
    socket = h.socket;
    await socket.connected(1);
  });

  afterAll(async () => {
    await h.stop();
  });

  it('reconnects through the library’s backoff, not the fast path', async () => {
    socket.cut();
    const fresh = await socket.connected(2);
    const { envelope, responseUrl } = command(h, socket, 'tenants list');

    expect((await socket.ackOf(envelope.envelope_id)).connection).toBe(fresh.id);
    await h.reply(responseUrl);
    expect(h.logs.some((line) => line.includes(FAST_LINE))).toBe(false);
  });

  it('does not take "link_disabled" for a refresh', async () => {
    socket.askToReconnect('link_disabled');
    const fresh = await socket.connected(3);

    expect(fresh.id).toBe(3);
    expect(h.logs.some((line) => line.includes(FAST_LINE))).toBe(false);
  });
});
