// A proxy in front of the fake Slack Web API that answers chat.postMessage into given channels with
// `not_in_channel`, as Slack does when the bot is not a member; everything else passes through.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function channelOf(contentType: string | undefined, raw: string): string | undefined {
  if (contentType?.includes('application/json')) return (JSON.parse(raw) as { channel?: string }).channel;
  return new URLSearchParams(raw).get('channel') ?? undefined;
}

export async function startMembershipProxy(
  target: string,
  notMemberOf: readonly string[],
): Promise<{ apiUrl: string; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    body(req)
      .then(async (raw) => {
        const url = req.url ?? '/';
        const refused =
          url.endsWith('/chat.postMessage') &&
          notMemberOf.includes(channelOf(req.headers['content-type'], raw.toString('utf8')) ?? '');
        if (refused) {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"ok":false,"error":"not_in_channel"}');
          return;
        }
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'authorization']) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const forwarded = await fetch(new URL(url, target), {
          method: req.method ?? 'POST',
          headers,
          body: raw,
        });
        const answer = Buffer.from(await forwarded.arrayBuffer());
        const forwardedHeaders: Record<string, string> = {};
        forwarded.headers.forEach((value, name) => {
          if (name === 'content-type' || name === 'retry-after') forwardedHeaders[name] = value;
        });
        res.writeHead(forwarded.status, forwardedHeaders).end(answer);
      })
      .catch((error: unknown) => res.writeHead(502).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
