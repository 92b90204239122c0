// A loopback proxy in front of the SCC simulator that says which device each request was about, so a
// benchmark can count the SCC calls of each access request while twenty devices' requests run at once.
// The simulator's request log keeps the path and query but no body, and many calls name no device at
// all (a transaction read, a command-line result, a deployment run by transaction): the proxy reads the
// bodies both ways and learns, from the answers, which transaction, command-line execution, result and
// rule belongs to which device. What still names no device (getObjects by content or name, tenant-wide
// reads) is recorded with its query, for the benchmark to attribute.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sccOperations } from '../../src/scc/generated/operations.js';
import { Router } from '../../src/simulator/http/router.js';

export interface ProxiedCall {
  at: number;
  method: string;
  path: string;
  query: string;
  status: number;
  /** The device (lower-case UID) the call was about, when the proxy could tell. */
  device: string | undefined;
  /** The simulator's operation id, from its answer's path (filled by the benchmark from the request log). */
  operation: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Called with each call and SCC's answer before the answer goes back to fwbot. */
export type BeforeAnswer = (call: ProxiedCall, answer: unknown) => Promise<void> | void;

export interface SccProxy {
  url: string;
  calls: ProxiedCall[];
  stop(): Promise<void>;
}

function readBody(stream: IncomingMessage | Response): Promise<Buffer> {
  if (stream instanceof Response) return stream.arrayBuffer().then((b) => Buffer.from(b));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function json(buffer: Buffer): unknown {
  if (buffer.length === 0) return undefined;
  try {
    return JSON.parse(buffer.toString('utf8'));
  } catch {
    return undefined;
  }
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * Starts the proxy. `devices` maps every device's UID (lower case) to its name, so a call naming a
 * device by name (getDevices by name) is known too; `operationOf` names the simulator operation of a
 * method and path (the simulator's router).
 */
export async function startSccProxy(
  target: string,
  devices: ReadonlyMap<string, string>,
  operationOf: (method: string, path: string) => string,
  options: {
    /**
     * Called with each call and SCC's answer before the answer goes back to fwbot: a drill kills a worker
     * there, after SCC acted and before the worker could know.
     */
    beforeAnswer?: BeforeAnswer;
  } = {},
): Promise<SccProxy> {
  const calls: ProxiedCall[] = [];
  /** transaction, execution, CLI result, deployment run, rule UIDs → device. */
  const owner = new Map<string, string>();
  const byName = new Map([...devices].map(([uid, name]) => [name.toLowerCase(), uid]));
  const known = (uid: string | undefined) => {
    if (!uid) return undefined;
    const lower = uid.toLowerCase();
    return devices.has(lower) ? lower : owner.get(lower);
  };
  const firstKnown = (text: string): string | undefined => {
    for (const match of text.match(UUID) ?? []) {
      const device = known(match);
      if (device) return device;
    }
    const decoded = decodeURIComponent(text.replace(/\+/g, ' ')).toLowerCase();
    for (const [name, uid] of byName)
      if (new RegExp(`(^|[^a-z0-9-])${name}($|[^a-z0-9-])`).test(decoded)) return uid;
    return undefined;
  };
  const learn = (device: string, answer: unknown) => {
    const remember = (uid: unknown) => {
      if (typeof uid === 'string' && uid.length > 0) owner.set(uid.toLowerCase(), device);
    };
    const top = record(answer);
    for (const key of ['transactionUid', 'entityUid', 'uid', 'cliExecutionUid']) remember(top[key]);
    for (const item of Array.isArray(top.items) ? top.items : []) {
      const it = record(item);
      // A list answer: only items that are about this device (a rule list, a CLI result list) are learned.
      const about = [it.entityUid, it.deviceUid].find((v) => typeof v === 'string');
      if (about === undefined || known(String(about)) === device) {
        remember(it.uid);
        remember(it.transactionUid);
      }
    }
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const body = await readBody(req);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k, v]) => typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection',
        ),
      ) as Record<string, string>;
      const answer = await fetch(`${target}${url.pathname}${url.search}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const answerBody = await readBody(answer);
      const requestJson = record(json(body));
      const bodyDevices = [
        ...(Array.isArray(requestJson.deviceUids) ? requestJson.deviceUids : []),
        ...(Array.isArray(requestJson.targetIds) ? requestJson.targetIds : []),
        requestJson.entityUid,
        requestJson.deviceUid,
      ].filter((v): v is string => typeof v === 'string');
      const device =
        bodyDevices.map(known).find((d) => d !== undefined) ??
        firstKnown(url.pathname) ??
        firstKnown(url.search);
      if (device) learn(device, json(answerBody));
      const call: ProxiedCall = {
        at: Date.now(),
        method: req.method ?? 'GET',
        path: url.pathname,
        query: decodeURIComponent(url.search),
        status: answer.status,
        device,
        operation: operationOf(req.method ?? 'GET', url.pathname),
      };
      calls.push(call);
      await options.beforeAnswer?.(call, json(answerBody));
      const out: Record<string, string> = {};
      answer.headers.forEach((value, key) => {
        if (key !== 'content-length' && key !== 'transfer-encoding' && key !== 'content-encoding')
          out[key] = value;
      });
      res.writeHead(answer.status, out);
      res.end(answerBody);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SCC operation of a method and path, as the simulator's router names it. */
export function sccOperationOf(): (method: string, path: string) => string {
  const router = new Router<string>();
  for (const [id, op] of Object.entries(sccOperations) as [string, { method: string; path: string }][])
    router.add(op.method, op.path, id);
  return (method, path) => {
    const match = router.match(method.toUpperCase(), path);
    return match.kind === 'found' ? match.value : `${method} ${path}`;
  };
}
