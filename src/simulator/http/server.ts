// The simulator's HTTP front: routes every SCC operation from the generated operation table, then in
// order: fault injection, due clock events, 404 / 405, bearer authentication (401), JSON body, handler,
// CommonApiError on failure, request log. Requests under /_sim/ go to the admin routes instead.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { sccOperations } from '../../scc/generated/operations.js';
import type { SccOperationId } from '../../scc/operationTypes.js';
import type { FaultDecision, FaultInjector } from '../admin/faults.js';
import type { RequestLog } from '../admin/requestLog.js';
import { authenticate } from '../auth.js';
import { invalidInput, SimError } from '../errors.js';
import type { SimRuntime } from '../runtime.js';
import type { OperationHandlers, SimResponse } from './context.js';
import { Router } from './router.js';

const MAX_BODY_BYTES = 1_048_576;

export interface FrontDeps {
  sim: SimRuntime;
  handlers: OperationHandlers;
  faults: FaultInjector;
  log: RequestLog;
  admin: (
    req: IncomingMessage,
    res: ServerResponse,
    url: RequestTarget,
    body: () => Promise<unknown>,
  ) => Promise<void>;
}

export function send(res: ServerResponse, response: SimResponse): void {
  if (res.writableEnded || res.destroyed) return;
  const headers: Record<string, string> = { ...(response.headers ?? {}) };
  if (response.status === 204 || response.body === undefined) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(response.body);
  headers['content-type'] = 'application/json';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(response.status, headers);
  res.end(text);
}

export function errorResponse(error: SimError): SimResponse {
  return { status: error.status, body: error.toBody(), headers: error.headers };
}

/** Reads a JSON body (undefined when there is none); 400 INVALID_INPUT when it is not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  // Most calls (every poll) carry no body: skip the stream machinery for them.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
    return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw invalidInput(`The request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidInput('The request body is not valid JSON', { body: { message: 'malformed JSON' } });
  }
}

export function createFront(deps: FrontDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const router = new Router<SccOperationId>();
  for (const [id, op] of Object.entries(sccOperations) as [
    SccOperationId,
    { method: string; path: string },
  ][]) {
    router.add(op.method, op.path, id);
  }

  return (req, res) => {
    handle(deps, router, req, res).catch((error: unknown) => {
      console.error('simulator: unhandled error', error);
      if (!res.headersSent)
        send(res, errorResponse(new SimError(500, 'SERVER_ERROR', 'Internal simulator error')));
      else res.destroy();
    });
  };
}

async function handle(
  deps: FrontDeps,
  router: Router<SccOperationId>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const { sim, log } = deps;
  const method = (req.method ?? 'GET').toUpperCase();
  const url = parseTarget(req.url ?? '/');
  const path = url.pathname;

  if (path === '/_sim' || path.startsWith('/_sim/')) {
    await deps.admin(req, res, url, () => readJson(req));
    return;
  }

  const arrivedAt = sim.clock.now();
  let operationId: SccOperationId | undefined;
  let faultIds: string[] = [];
  /** Set once the token is known: the tenant it acts on (the log says which token came, never the token). */
  const caller: { tenant?: string } = {};
  const record = (status: number) =>
    log.add({
      method,
      path,
      query: url.search,
      status,
      ...(operationId === undefined ? {} : { operationId }),
      ...(caller.tenant === undefined ? {} : { tenant: caller.tenant }),
      time: arrivedAt,
      realTime: Date.now(),
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      ...(faultIds.length > 0 ? { fault: faultIds.join(',') } : {}),
    });

  const match = router.match(method, path);
  if (match.kind === 'found') operationId = match.value;

  if (deps.faults.active) {
    const decision: FaultDecision = deps.faults.decide(method, path);
    faultIds = decision.ruleIds;
    if (decision.latencyMs > 0) await delay(decision.latencyMs);
    if (decision.action?.kind === 'reset') {
      record(0);
      req.socket.resetAndDestroy();
      return;
    }
    if (decision.action?.kind === 'status') {
      const response = faultResponse(decision.action.status, decision.action.retryAfterSeconds);
      send(res, response);
      record(response.status);
      return;
    }
  }

  let response: SimResponse;
  try {
    sim.clock.runDue();
    response = await dispatch(deps, match, method, req, url, caller);
  } catch (error) {
    if (!(error instanceof SimError)) throw error;
    response = errorResponse(error);
  }
  send(res, response);
  record(response.status);
}

async function dispatch(
  deps: FrontDeps,
  match: ReturnType<Router<SccOperationId>['match']>,
  method: string,
  req: IncomingMessage,
  url: RequestTarget,
  caller: { tenant?: string },
): Promise<SimResponse> {
  if (match.kind === 'bad-path') throw invalidInput('The request path is not valid URL encoding');
  if (match.kind === 'not-found')
    throw new SimError(404, 'NOT_FOUND', `No such endpoint: ${method} ${url.pathname}`);
  if (match.kind === 'method-not-allowed') {
    throw new SimError(
      405,
      'METHOD_NOT_ALLOWED',
      `${method} is not supported on ${url.pathname}`,
      {},
      { allow: match.allow.join(', ') },
    );
  }
  const { sim } = deps;
  const state = sim.state;
  const principal = authenticate(state, req.headers.authorization);
  caller.tenant = principal.tenant.name;
  const body = await readJson(req);
  return deps.handlers[match.value]({
    sim,
    state,
    operationId: match.value,
    principal,
    params: match.params,
    query: url.searchParams,
    body,
    now: sim.clock.now(),
  });
}

/** The parts of a request target the simulator reads. */
export interface RequestTarget {
  pathname: string;
  search: string;
  searchParams: URLSearchParams;
}

/** A plain split for ordinary targets: several times cheaper than WHATWG URL parsing on the hot path. */
function parseTarget(target: string): RequestTarget {
  const q = target.indexOf('?');
  const pathname = q === -1 ? target : target.slice(0, q);
  const search = q === -1 ? '' : target.slice(q);
  if (
    pathname.startsWith('/') &&
    !pathname.includes('//') &&
    !pathname.includes('\\') &&
    !pathname.includes('/.')
  ) {
    return { pathname, search, searchParams: new URLSearchParams(search) };
  }
  const url = new URL(target, 'http://simulator.invalid');
  return { pathname: url.pathname, search: url.search, searchParams: url.searchParams };
}

function faultResponse(status: 500 | 503 | 429, retryAfterSeconds: number | undefined): SimResponse {
  const retry = retryAfterSeconds ?? 1;
  if (status === 429) {
    return {
      status,
      body: { errorCode: 'TOO_MANY_REQUESTS', errorMsg: 'Rate limit exceeded (injected fault)', details: {} },
      headers: { 'retry-after': String(retry) },
    };
  }
  if (status === 503) {
    return {
      status,
      body: {
        errorCode: 'SERVER_ERROR',
        errorMsg: 'Service temporarily unavailable (injected fault)',
        details: {},
      },
      headers: { 'retry-after': String(retry) },
    };
  }
  return {
    status,
    body: { errorCode: 'SERVER_ERROR', errorMsg: 'Internal server error (injected fault)', details: {} },
  };
}
