// A proxy in front of the simulator that lets a test freeze a bot process in the middle of one SCC call
// (a DELETE unless `holds` picks another, e.g. the deploy's POST): `hold` keeps the call from ever
// reaching SCC, `forward` lets SCC carry it out but never answers. Everything else passes through.
// `deleteHeld` resolves when the first such call is held.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HoldMode = 'hold' | 'forward';

export interface HoldingProxy {
  url: string;
  /** Resolves once the call has been held (after SCC answered it, in `forward` mode). */
  deleteHeld: Promise<void>;
  stop(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startHoldingProxy(
  target: string,
  mode: HoldMode,
  holds: (method: string, path: string) => boolean = (method) => method === 'DELETE',
): Promise<HoldingProxy> {
  let held: () => void = () => undefined;
  const deleteHeld = new Promise<void>((resolve) => {
    held = resolve;
  });
  const forward = async (req: IncomingMessage, body: Buffer) => {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    return fetch(`${target}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: body.length > 0 ? new Uint8Array(body) : undefined,
    });
  };
  const server: Server = createServer((req, res) => {
    (async () => {
      const body = await bodyOf(req);
      if (holds(req.method ?? 'GET', req.url ?? '/')) {
        if (mode === 'forward') await forward(req, body);
        held();
        return; // never answered: the caller hangs until it dies
      }
      const answer = await forward(req, body);
      const text = Buffer.from(await answer.arrayBuffer());
      const type = answer.headers.get('content-type');
      res.writeHead(answer.status, type ? { 'content-type': type } : {}).end(text);
    })().catch((error: unknown) => {
      res.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deleteHeld,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
