// The only I/O of the SCC client: one keep-alive undici pool per base URL, bearer auth, JSON in and out,
// a timeout per attempt, and the retry policy of callPolicy.ts (with Retry-After). Non-2xx answers and
// network failures leave here as SccApiError / SccNetworkError, with the token redacted; an answer larger
// than maxResponseBytes is cut off by the pool (undici's maxResponseSize) as SccResponseTooLargeError.
//
// It knows nothing about operations beyond their id, method and already-encoded path and query; building
// requests and parsing bodies belong to request.ts and call.ts.
import { createRequire } from 'node:module';
import { type Dispatcher, Pool, request } from 'undici';
import { stripSentinels } from '../model/marks.js';
import {
  type AttemptOutcome,
  DEFAULT_RETRY,
  decideRetry,
  parseRetryAfter,
  type RetryDecision,
  type RetryOptions,
} from './callPolicy.js';
import { readErrorBody, SccApiError, SccNetworkError, SccResponseTooLargeError } from './errors.js';

/** pino-compatible: `logger.debug({ fields }, 'message')`. Never given the token, headers or bodies. */
export interface SccLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** One attempt of one call, for metrics. */
export interface SccCallEvent {
  profile: string | undefined;
  operationId: string;
  method: string;
  /** The HTTP status, or undefined when no answer came. */
  status: number | undefined;
  /** `tooLarge`: the answer passed maxResponseBytes and was not read to its end. */
  outcome: 'response' | 'timeout' | 'connection' | 'aborted' | 'tooLarge';
  durationMs: number;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface SccHttpOptions {
  /** e.g. https://api.us.security.cisco.com/firewall; its path is kept as a prefix of every operation path. */
  baseUrl: string;
  token: string;
  /** Names the client in logs and call events. */
  profile?: string | undefined;
  /** Defaults to a keep-alive Pool for the base URL's origin; tests inject their own. */
  dispatcher?: Dispatcher | undefined;
  /**
   * The largest answer read, in bytes (default 32 MiB, far above any page SCC sends): the pool stops
   * reading past it. An injected dispatcher brings its own limits instead.
   */
  maxResponseBytes?: number | undefined;
  retry?: Partial<RetryOptions> | undefined;
  onCall?: ((event: SccCallEvent) => void) | undefined;
  logger?: SccLogger | undefined;
}

export interface SccHttpRequest {
  operationId: string;
  method: string;
  /** Operation path with its parameters substituted and percent-encoded, e.g. /v1/inventory/devices/ab%2Fc */
  path: string;
  /** Encoded query without the leading `?`, or ''. */
  query: string;
  /** JSON-serialisable body, or undefined for none. */
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** More strings to keep out of errors, e.g. an API token sent in this request's body. */
  secrets?: readonly string[] | undefined;
}

export interface SccHttpResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
  /** False when the body was not empty and not JSON. */
  json: boolean;
}

export interface SccHttp {
  send(request: SccHttpRequest): Promise<SccHttpResponse>;
  /** Closes the pool the client created (an injected dispatcher is its owner's to close). */
  close(): Promise<void>;
}

export const USER_AGENT = `fwbot/${packageVersion()}`;

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** undici's error when an answer passes the pool's maxResponseSize. */
const TOO_LARGE_CODE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';

// Refused before anything was written: SCC cannot have seen the request.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

export function createSccHttp(options: SccHttpOptions): SccHttp {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const ownsDispatcher = options.dispatcher === undefined;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const dispatcher: Dispatcher =
    options.dispatcher ??
    new Pool(base.origin, { keepAliveTimeout: 10_000, maxResponseSize: maxResponseBytes });
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const { logger, onCall, profile } = options;

  const emit = (event: Omit<SccCallEvent, 'profile'>): void => {
    if (!onCall) return;
    try {
      onCall({ profile, ...event });
    } catch (error) {
      // Metrics must not break calls.
      logger?.warn({ operationId: event.operationId, error: String(error) }, 'scc onCall hook threw');
    }
  };

  async function attemptOnce(req: SccHttpRequest, attempt: number): Promise<AttemptResult> {
    const url = `${base.origin}${basePath}${req.path}${req.query ? `?${req.query}` : ''}`;
    const timer = new AbortController();
    // Our own controller, so a timeout (timer.signal aborted) is told apart from the caller's abort.
    const timeout = setTimeout(() => {
      const reason = new Error(`no answer within ${req.timeoutMs} ms`);
      reason.name = 'TimeoutError';
      timer.abort(reason);
    }, req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timer.signal]) : timer.signal;
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.token}`,
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    const fields = { operationId: req.operationId, method: req.method, attempt };
    let status: number | undefined;
    try {
      const response = await request(url, {
        dispatcher,
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body: payload,
        signal,
        // undici's own inactivity timers must not fire before ours (their default is 300 s).
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      status = response.statusCode;
      // SCC's text is shown to people: fwbot's mark characters (model/marks.ts) are dropped where it
      // enters, from the raw text here (error bodies, answers that are not JSON) and from every string
      // JSON escapes decode to in parseJson.
      const text = stripSentinels(await response.body.text());
      const durationMs = performance.now() - started;
      emit({ ...fields, status: response.statusCode, outcome: 'response', durationMs });
      logger?.debug(
        { ...fields, profile, path: req.path, status: response.statusCode, durationMs },
        'scc call',
      );
      return { kind: 'response', status: response.statusCode, headers: toHeaders(response.headers), text };
    } catch (error) {
      const durationMs = performance.now() - started;
      if (errorCode(error) === TOO_LARGE_CODE) {
        emit({ ...fields, status: undefined, outcome: 'tooLarge', durationMs });
        logger?.warn(
          { ...fields, profile, path: req.path, status, maxResponseBytes, durationMs },
          'scc answer larger than the limit; stopped reading it',
        );
        return { kind: 'tooLarge', status };
      }
      const kind = timer.signal.aborted
        ? 'timeout'
        : req.signal?.aborted
          ? 'aborted'
          : isUndiciTimeout(error)
            ? 'timeout'
            : 'connection';
      emit({ ...fields, status: undefined, outcome: kind, durationMs });
      logger?.debug({ ...fields, profile, path: req.path, outcome: kind, durationMs }, 'scc call failed');
      return { kind, error, sent: !NOT_SENT_CODES.has(errorCode(error) ?? '') };
    } finally {
      clearTimeout(timeout);
    }
  }

  async function send(req: SccHttpRequest): Promise<SccHttpResponse> {
    const secrets = [options.token, ...(req.secrets ?? [])];
    const info = {
      operationId: req.operationId,
      method: req.method,
      path: `${basePath}${req.path}`,
      secrets,
    };
    for (let attempt = 1; ; attempt++) {
      const result = await attemptOnce(req, attempt);
      if (result.kind === 'response' && result.status >= 200 && result.status < 300) {
        return { status: result.status, headers: result.headers, ...parseJson(result.text) };
      }
      if (result.kind === 'tooLarge') {
        throw new SccResponseTooLargeError({
          ...info,
          status: result.status,
          limitBytes: maxResponseBytes,
          attempts: attempt,
        });
      }
      const retryAfterMs =
        result.kind === 'response'
          ? parseRetryAfter(result.headers.get('retry-after'), retry.now())
          : undefined;
      const outcome: AttemptOutcome =
        result.kind === 'response'
          ? { kind: 'status', status: result.status, retryAfterMs }
          : result.kind === 'connection'
            ? { kind: 'connection', sent: result.sent }
            : { kind: result.kind };
      const decision: RetryDecision = decideRetry(req.method, outcome, attempt, retry, req.operationId);
      if (decision.retry) {
        logger?.warn(
          {
            operationId: req.operationId,
            method: req.method,
            path: req.path,
            attempt,
            delayMs: decision.delayMs,
            reason: decision.reason,
            profile,
          },
          'scc call retrying',
        );
        try {
          await retry.sleep(decision.delayMs, req.signal);
        } catch (cause) {
          throw new SccNetworkError({
            ...info,
            kind: 'aborted',
            cause,
            mayHaveBeenProcessed: false,
            attempts: attempt,
          });
        }
        continue;
      }
      if (result.kind === 'response') {
        const parsed = parseJson(result.text);
        const fromScc = parsed.json ? readErrorBody(parsed.body) : {};
        throw new SccApiError({
          ...info,
          status: result.status,
          ...fromScc,
          rawBody:
            fromScc.errorCode || fromScc.errorMsg || result.text === ''
              ? undefined
              : result.text.slice(0, 300),
          retryAfterMs,
          mayHaveBeenProcessed: decision.mayHaveBeenProcessed,
          notRetriedBecause: decision.notRetriedBecause,
          attempts: attempt,
        });
      }
      throw new SccNetworkError({
        ...info,
        kind: result.kind,
        cause: result.error,
        timeoutMs: result.kind === 'timeout' ? req.timeoutMs : undefined,
        mayHaveBeenProcessed: decision.mayHaveBeenProcessed,
        notRetriedBecause: decision.notRetriedBecause,
        attempts: attempt,
      });
    }
  }

  return {
    send,
    close: async () => {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}

type AttemptResult =
  | { kind: 'response'; status: number; headers: Headers; text: string }
  | { kind: 'tooLarge'; status: number | undefined }
  | { kind: 'timeout' | 'aborted' | 'connection'; error: unknown; sent: boolean };

function parseJson(text: string): { body: unknown; json: boolean } {
  if (text.trim() === '') return { body: undefined, json: true };
  try {
    // SCC's strings are shown in Slack: the characters fwbot marks its own mentions and literal values
    // with are dropped here, where they enter (a `\ue000` escape decodes to one), so no name or message
    // from SCC can make a live mention or pass for a value fwbot marked (render/mrkdwn.ts).
    return { body: JSON.parse(text, withoutSentinels) as unknown, json: true };
  } catch {
    return { body: text, json: false };
  }
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function isUndiciTimeout(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

function packageVersion(): string {
  try {
    // src/scc/http.ts and dist/scc/http.js are both two levels below package.json.
    const pkg: unknown = createRequire(import.meta.url)('../../package.json');
    const version = (pkg as { version?: unknown }).version;
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function withoutSentinels(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? stripSentinels(value) : value;
}
