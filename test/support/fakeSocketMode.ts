// A fake Slack Socket Mode server beside the fake Web API (fakeSlack.ts): apps.connections.open, called
// with the app-level token, answers a one-time ws:// URL to a WebSocket server on a loopback port; each
// connection gets `hello`; envelopes (slash commands, interactive payloads) go to the newest connection
// Slack would use, and the app's acks are recorded with their payloads. An envelope can be delivered again
// with a higher `retry_attempt` and a `retry_reason` (as Slack does when it saw no ack), and a connection
// can be asked to go (`disconnect` with reason warning, refresh_requested or link_disabled).
//
// Like Slack, the fake does not close the TCP connection after a close handshake the app started; the app
// has to (set `closesTcpAfterClose` for a peer that does). A connection asked to go that is still open
// 10 s later is cut, as Slack cuts it.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { FakeSlack } from './fakeSlack.js';

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';
export type DisconnectReason = 'warning' | 'refresh_requested' | 'link_disabled';

/** What Slack sends for one event, as it arrives on the socket. */
export interface Envelope {
  envelope_id: string;
  type: EnvelopeType;
  payload: Record<string, unknown>;
  accepts_response_payload: boolean;
  retry_attempt: number;
  retry_reason: string;
}

export interface RecordedAck {
  envelopeId: string;
  /** The ack's payload (empty for a bare ack; `response_action` etc. for view submissions). */
  payload: Record<string, unknown>;
  /** Which connection carried it (SocketConnection.id). */
  connection: number;
  at: number;
}

export interface SocketConnection {
  id: number;
  openedAt: number;
  helloAt: number;
  /** When the fake sent `disconnect` on it (Slack routes nothing more there). */
  askedToGoAt?: number;
  reason?: DisconnectReason;
  /** When the TCP connection ended. */
  closedAt?: number;
}

export interface FakeSocketModeOptions {
  appToken?: string;
  /** End the TCP connection once a close handshake is done, as `ws` does (Slack does not). */
  closesTcpAfterClose?: boolean;
  /** How long a connection asked to go may stay before the fake cuts it (Slack: about 10 s). */
  graceMs?: number;
}

export interface FakeSocketMode {
  appToken: string;
  /** Every connection that said hello, oldest first. */
  connections: SocketConnection[];
  acks: RecordedAck[];
  /** Resolves once `count` connections in all have been opened (hello sent), with the last of them. */
  connected(count: number, timeoutMs?: number): Promise<SocketConnection>;
  /**
   * Delivers a slash command envelope (the fields Slack posts in HTTP mode, as an object); `retry` numbers
   * this first delivery as a redelivery.
   */
  slashCommand(fields: Record<string, string>, retry?: Retry): Envelope;
  /** Delivers an interactive envelope: block_actions, view_submission, block_suggestion… */
  interactive(payload: Record<string, unknown>, retry?: Retry): Envelope;
  /**
   * Delivers an Events API envelope: `payload` is the event callback as Slack posts it in HTTP mode
   * (`type: 'event_callback'`, `event`, `team_id`, `api_app_id`…). Slack wants only the ack, no payload.
   */
  event(payload: Record<string, unknown>, retry?: Retry): Envelope;
  /**
   * Sends an envelope on the connection Slack would use: the newest open one that was not asked to go.
   * Throws when there is none: Slack cannot deliver and the person sees the command fail.
   */
  deliver(envelope: Envelope): void;
  /** The same envelope again, numbered as Slack numbers a redelivery; delivered at once. */
  redeliver(envelope: Envelope, reason?: string): Envelope;
  /** Resolves with the first ack of that envelope (past or future). */
  ackOf(envelopeId: string, timeoutMs?: number): Promise<RecordedAck>;
  acksOf(envelopeId: string): RecordedAck[];
  /** Resolves once that connection's TCP connection has ended. */
  closed(connectionId: number, timeoutMs?: number): Promise<SocketConnection>;
  /** Sends `disconnect` on the connection in use; returns it. */
  askToReconnect(reason: DisconnectReason): SocketConnection;
  /** Cuts the connection in use without a word (a dead link); returns it. */
  cut(): SocketConnection;
  stop(): Promise<void>;
}

export interface Retry {
  attempt: number;
  reason: string;
}

interface Live {
  record: SocketConnection;
  socket: WebSocket;
  tcp: Socket;
  cut?: NodeJS.Timeout;
}

export async function startFakeSocketMode(
  slack: FakeSlack,
  options: FakeSocketModeOptions = {},
): Promise<FakeSocketMode> {
  const appToken = options.appToken ?? 'xapp-1-A0FWBOT-fake-app-token';
  const graceMs = options.graceMs ?? 10_000;
  const tickets = new Set<string>();
  const connections: SocketConnection[] = [];
  const live = new Map<number, Live>();
  const acks: RecordedAck[] = [];
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const tcpSockets = new Set<Socket>();

  const wss = new WebSocketServer({ noServer: true });
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  server.on('connection', (tcp: Socket) => {
    tcpSockets.add(tcp);
    tcp.on('close', () => tcpSockets.delete(tcp));
  });
  server.on('upgrade', (req: IncomingMessage, tcp: Socket, head: Buffer) => {
    const ticket = new URL(req.url ?? '/', 'http://fake').searchParams.get('ticket') ?? '';
    // A ticket from apps.connections.open opens one connection, once.
    if (!tickets.delete(ticket)) {
      tcp.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    if (!options.closesTcpAfterClose) {
      // Slack answers the app's close frame and keeps the TCP connection: ending it is the app's job.
      tcp.end = (() => tcp) as Socket['end'];
      tcp.once('end', () => tcp.destroy());
    }
    wss.handleUpgrade(req, tcp, head, (socket) => opened(socket, tcp));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  slack.serve('apps.connections.open', (_args, token) => {
    if (token !== appToken) return { ok: false, error: 'invalid_auth' };
    const ticket = randomUUID();
    tickets.add(ticket);
    return { ok: true, url: `ws://127.0.0.1:${port}/link/?ticket=${ticket}&app_id=A0FWBOT` };
  });

  function opened(socket: WebSocket, tcp: Socket): void {
    const record: SocketConnection = { id: connections.length + 1, openedAt: Date.now(), helloAt: 0 };
    connections.push(record);
    live.set(record.id, { record, socket, tcp });
    socket.on('message', (data: RawData) => acked(record.id, data));
    tcp.on('close', () => {
      record.closedAt = Date.now();
      clearTimeout(live.get(record.id)?.cut);
      live.delete(record.id);
      events.emit('change');
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: live.size,
        debug_info: { host: 'fake-socket-mode', approximate_connection_time: 18_060 },
        connection_info: { app_id: 'A0FWBOT' },
      }),
    );
    record.helloAt = Date.now();
    events.emit('change');
  }

  function acked(connection: number, data: RawData): void {
    const message = JSON.parse(data.toString()) as { envelope_id?: unknown; payload?: unknown };
    if (typeof message.envelope_id !== 'string') return;
    const payload =
      typeof message.payload === 'object' && message.payload !== null
        ? (message.payload as Record<string, unknown>)
        : {};
    acks.push({ envelopeId: message.envelope_id, payload, connection, at: Date.now() });
    events.emit('change');
  }

  function inUse(): Live | undefined {
    const open = [...live.values()].filter(
      ({ record, socket }) => record.askedToGoAt === undefined && socket.readyState === socket.OPEN,
    );
    return open.at(-1);
  }

  function until<T>(found: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> {
    const now = found();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value === undefined) return;
        clearTimeout(timer);
        events.off('change', check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        events.off('change', check);
        reject(new Error(`fake Socket Mode: ${what()} within ${timeoutMs} ms`));
      }, timeoutMs);
      events.on('change', check);
    });
  }

  const envelope = (type: EnvelopeType, payload: Record<string, unknown>, retry?: Retry): Envelope => ({
    envelope_id: randomUUID(),
    type,
    payload,
    accepts_response_payload: type !== 'events_api',
    retry_attempt: retry?.attempt ?? 0,
    retry_reason: retry?.reason ?? '',
  });

  const fake: FakeSocketMode = {
    appToken,
    connections,
    acks,
    connected(count, timeoutMs = 20_000) {
      return until(
        () => (connections.length >= count ? connections[count - 1] : undefined),
        timeoutMs,
        () => `only ${connections.length} of ${count} connections`,
      );
    },
    slashCommand(fields, retry) {
      const sent = envelope('slash_commands', fields, retry);
      fake.deliver(sent);
      return sent;
    },
    interactive(payload, retry) {
      const sent = envelope('interactive', payload, retry);
      fake.deliver(sent);
      return sent;
    },
    event(payload, retry) {
      const sent = envelope('events_api', payload, retry);
      fake.deliver(sent);
      return sent;
    },
    deliver(sent) {
      const connection = inUse();
      if (!connection) throw new Error('fake Socket Mode: no open connection to deliver to');
      connection.socket.send(JSON.stringify(sent));
    },
    redeliver(sent, reason = 'timeout') {
      const again = { ...sent, retry_attempt: sent.retry_attempt + 1, retry_reason: reason };
      fake.deliver(again);
      return again;
    },
    ackOf(envelopeId, timeoutMs = 10_000) {
      return until(
        () => acks.find((ack) => ack.envelopeId === envelopeId),
        timeoutMs,
        () => `no ack of envelope ${envelopeId}`,
      );
    },
    acksOf: (envelopeId) => acks.filter((ack) => ack.envelopeId === envelopeId),
    closed(connectionId, timeoutMs = 20_000) {
      return until(
        () => connections.find((c) => c.id === connectionId && c.closedAt !== undefined),
        timeoutMs,
        () => `connection ${connectionId} still open`,
      );
    },
    askToReconnect(reason) {
      const connection = inUse();
      if (!connection) throw new Error('fake Socket Mode: no open connection to ask');
      connection.socket.send(
        JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'fake-socket-mode' } }),
      );
      connection.record.askedToGoAt = Date.now();
      connection.record.reason = reason;
      connection.cut = setTimeout(() => connection.tcp.destroy(), graceMs);
      return connection.record;
    },
    cut() {
      const connection = inUse();
      if (!connection) throw new Error('fake Socket Mode: no open connection to cut');
      connection.tcp.destroy();
      return connection.record;
    },
    async stop() {
      for (const connection of live.values()) clearTimeout(connection.cut);
      for (const tcp of tcpSockets) tcp.destroy();
      wss.close();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
  return fake;
}
