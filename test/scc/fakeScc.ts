// A real HTTP server on port 0 that records every request the SCC client sends and answers as each test
// says: a body and status, headers (Retry-After), a non-JSON body, a dropped connection, or no answer at all.
// The client under test talks to it through its real undici pool, so headers, encoding and timing are real.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createSccClient, type SccClient, type SccClientOptions } from '../../src/scc/client.js';

export interface RecordedRequest {
  method: string;
  /** Path as received, still percent-encoded, without the query. */
  path: string;
  /** The path below the client's base path (`/firewall`), as the reference writes it. */
  apiPath: string;
  /** The raw query string without `?`. */
  rawQuery: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON body, or undefined when empty. */
  body: unknown;
  /** The client's side of the connection: equal ports mean a reused (kept-alive) connection. */
  remotePort: number | undefined;
}

export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** A body sent as-is (e.g. a proxy's HTML page). */
  | { status: number; text: string; headers?: Record<string, string> }
  /** Never answers: the client's timeout has to end it. */
  | { hang: true }
  /** Closes the connection without an answer. */
  | { drop: true };

export type Responder = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export const BASE_PATH = '/firewall';

export interface FakeScc {
  /** What the client is given: http://127.0.0.1:<port>/firewall */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeScc(responder: Responder): Promise<FakeScc> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const target = req.url ?? '/';
      const queryAt = target.indexOf('?');
      const path = queryAt === -1 ? target : target.slice(0, queryAt);
      const rawQuery = queryAt === -1 ? '' : target.slice(queryAt + 1);
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path,
        apiPath: path.startsWith(BASE_PATH) ? path.slice(BASE_PATH.length) : path,
        rawQuery,
        query: new URLSearchParams(rawQuery),
        headers: req.headers,
        rawBody,
        body: rawBody === '' ? undefined : (JSON.parse(rawBody) as unknown),
        remotePort: req.socket.remotePort,
      };
      requests.push(recorded);
      Promise.resolve(responder(recorded, requests.length - 1)).then(
        (reply) => answer(res, reply),
        (error: unknown) => answer(res, { status: 599, text: String(error) }),
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, reply: Reply): void {
  if ('hang' in reply) return;
  if ('drop' in reply) {
    res.socket?.destroy();
    return;
  }
  const headers = { ...reply.headers };
  let payload = '';
  if ('text' in reply) payload = reply.text;
  else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json';
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** Answers with the given replies in order, then keeps repeating the last one. */
export function inOrder(...replies: Reply[]): Responder {
  return (_request, index) => {
    const reply = replies[Math.min(index, replies.length - 1)];
    if (!reply) throw new Error('inOrder needs at least one reply');
    return reply;
  };
}

/** A token shaped like SCC's (a JWT), so the redactor's pattern and its exact match are both exercised. */
export const TEST_TOKEN =
  'eyJhbGciOiJSUzI1NiJ9.eyJyb2xlcyI6WyJST0xFX1NVUEVSX0FETUlOIl0sInBhcmVudElkIjoidDEifQ.c2lnbmF0dXJlLXNlY3JldA';

export const DEVICE_UID = '6131daad-e813-4b8f-8f42-be1e241e8cdb';
export const TENANT_UID = '936fca6c-000b-4375-b903-46e6a95c7153';
export const INTERFACE_UID = '7131daad-e813-4b8f-8f42-be1e241e8cdb';

/**
 * A client of the fake server whose backoff waits are recorded instead of slept, with jitter fixed at the
 * middle of its range (random() = 0.5) unless a test says otherwise.
 */
export function clientOf(
  fake: FakeScc,
  options: Partial<SccClientOptions> = {},
): { client: SccClient; sleeps: number[] } {
  const sleeps: number[] = [];
  const client = createSccClient({
    baseUrl: fake.baseUrl,
    token: TEST_TOKEN,
    ...options,
    retry: {
      random: () => 0.5,
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
      ...options.retry,
    },
  });
  return { client, sleeps };
}

/** A device as SCC answers it (deviceType and name are the fields the reference requires). */
export const DEVICE = { uid: DEVICE_UID, name: 'fw-01', deviceType: 'ASA', connectivityState: 'ONLINE' };
