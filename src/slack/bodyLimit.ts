// What a request to /slack/events may cost before Bolt has verified that Slack sent it. Bolt reads the
// whole body before it checks the signature, so without bounds anyone who can reach the port can make
// the bot hold memory: 300 unsigned bodies just under the old 1 MiB limit took it from 165 to 329 MiB,
// and most of it stayed (bench/unverifiedFlood.ts). Here, in front of Bolt's verification:
//
// - a request without Slack's signature headers is refused (401, as Bolt would) before a byte is read;
// - one body may be at most `requestBytes` (413): a declared Content-Length over it is refused at once,
//   a streamed (chunked) body once it passes it;
// - all the bodies being read at once may hold at most `inFlightBytes` together: a request that does not
//   fit is refused at once (503, connection closed), never queued. A declared length is reserved whole
//   before reading; a chunked body reserves as it arrives. The reservation lasts until the answer is sent
//   (Bolt has then verified or refused the body);
// - a body has `readTimeoutMs` to arrive in full (408), so one that dribbles cannot keep its share;
// - a body of known length is read into one buffer of that length, not gathered and copied again.
//
// The body read here is handed to Bolt as `rawBody`, which its HTTP receiver takes instead of reading the
// request itself (HTTPModuleFunctions.bufferIncomingMessage). Like requestWindow.ts, this wraps the
// receiver's request listener. Anything but a POST to the events path passes untouched: Bolt reads no
// other body (health probes are GETs; other paths get its 404).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { FwbotMetrics } from '../observability/metrics.js';

export interface BodyLimits {
  /** The largest body one request may have, in bytes. */
  requestBytes: number;
  /** What all the bodies being read (not yet verified) may hold together, in bytes. */
  inFlightBytes: number;
  /** How long a body has to arrive in full once its headers have, in milliseconds. */
  readTimeoutMs: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  // The largest thing Slack sends is an interaction that carries a whole view (a click on the Home tab,
  // a modal's view_submission, app_home_opened). Slack refuses views over 250 kB (`view_too_large`,
  // docs.slack.dev: views.open, views.update, views.push, views.publish), and fwbot keeps its Home under
  // that (homeTab.ts). Interactions arrive form-encoded (`payload=<JSON>`), which makes Block Kit JSON
  // 1.6 to 1.8 times longer (measured on the golden Home and tables in test/golden/): 390 to 450 kB for a
  // view at Slack's limit (fwbot's own Home blocks: 386 kB), plus its state. Slash commands and events
  // are a few kilobytes.
  requestBytes: 512 * 1024,
  // Sixteen bodies at the limit at once, or some 1,600 ordinary ones: more than one workspace's people
  // click at one instant, and a bound on what a flood can make the process hold.
  inFlightBytes: 8 * 1024 * 1024,
  // Slack gives up on an answer after 3 seconds, so a body still arriving after 5 can never be answered.
  readTimeoutMs: 5_000,
};

/** Why a request was refused before Bolt read it (`fwbot_slack_requests_refused_total{reason}`). */
export type BodyRefusal = 'unsigned' | 'too_large' | 'busy' | 'slow' | 'unreadable';

const ANSWERS: Record<BodyRefusal, { status: number; headers?: Record<string, string> }> = {
  unsigned: { status: 401 },
  too_large: { status: 413 },
  busy: { status: 503, headers: { 'retry-after': '1' } },
  slow: { status: 408 },
  unreadable: { status: 400 },
};

const BUSY = 'refused a Slack request: too many unverified bodies are being read';

/** What Bolt's HTTP receiver looks for to skip reading the body again. */
type BufferedRequest = IncomingMessage & { rawBody?: Buffer };

export interface BodyGuardOptions {
  log: Logger;
  /** Only POSTs to this path are read here (default `/slack/events`). */
  path?: string;
  limits?: Partial<BodyLimits>;
  metrics?: FwbotMetrics | undefined;
}

/** The bytes reserved by the bodies being read, shared by every request of one listener. */
class InFlightBudget {
  #held = 0;
  constructor(
    readonly limit: number,
    private readonly onChange: (held: number) => void,
  ) {}

  get held(): number {
    return this.#held;
  }

  /** Reserves `bytes` if they fit beside what is held; false (nothing reserved) when they do not. */
  reserve(bytes: number): boolean {
    if (this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    this.onChange(this.#held);
    return true;
  }

  release(bytes: number): void {
    this.#held -= bytes;
    this.onChange(this.#held);
  }
}

function declaredLength(request: IncomingMessage): number | undefined {
  // Node's parser has refused a malformed Content-Length already; absent means a chunked body.
  const header = request.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

function isSigned(request: IncomingMessage): boolean {
  const { headers } = request;
  return (
    typeof headers['x-slack-signature'] === 'string' &&
    typeof headers['x-slack-request-timestamp'] === 'string'
  );
}

export function withinBodyLimits(listener: RequestListener, options: BodyGuardOptions): RequestListener {
  const limits: BodyLimits = {
    requestBytes: options.limits?.requestBytes ?? DEFAULT_BODY_LIMITS.requestBytes,
    inFlightBytes: options.limits?.inFlightBytes ?? DEFAULT_BODY_LIMITS.inFlightBytes,
    readTimeoutMs: options.limits?.readTimeoutMs ?? DEFAULT_BODY_LIMITS.readTimeoutMs,
  };
  const { log, metrics } = options;
  const path = options.path ?? '/slack/events';
  const budget = new InFlightBudget(limits.inFlightBytes, (held) =>
    metrics?.slackUnverifiedBodyBytes.set(held),
  );

  return (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST' || (request.url ?? '').split('?')[0] !== path) {
      listener(request, response);
      return;
    }
    let reserved = 0;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    // A known length is read into one buffer of that size; a chunked body is gathered, then joined once.
    let whole: Buffer | undefined;
    const chunks: Buffer[] = [];
    let received = 0;

    /** Gives the reservation back and stops the clock; idempotent. */
    function settle(): void {
      clearTimeout(timer);
      if (reserved > 0) budget.release(reserved);
      reserved = 0;
    }

    function stopReading(): void {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.pause();
      chunks.length = 0;
    }

    function refuse(reason: BodyRefusal, message: string, fields: Record<string, unknown>): void {
      done = true;
      stopReading();
      whole = undefined;
      settle();
      metrics?.slackRequestsRefused.inc({ reason });
      log.warn({ ...fields, reason }, message);
      if (response.headersSent) return;
      const answer = ANSWERS[reason];
      // The rest of the body is not read: Node closes the connection once the answer is out.
      response.writeHead(answer.status, { ...answer.headers, connection: 'close' });
      response.end();
    }

    function onData(chunk: Buffer): void {
      if (done) return;
      received += chunk.length;
      if (whole) {
        // Node's parser never delivers more than the declared length.
        chunk.copy(whole, received - chunk.length);
        return;
      }
      if (received > limits.requestBytes) {
        refuse('too_large', 'refused a Slack request whose body is over the limit (stopped reading it)', {
          receivedBytes: received,
          limitBytes: limits.requestBytes,
        });
        return;
      }
      if (!budget.reserve(chunk.length)) {
        refuse('busy', BUSY, {
          receivedBytes: received,
          inFlightBytes: budget.held,
          inFlightLimitBytes: budget.limit,
        });
        return;
      }
      reserved += chunk.length;
      chunks.push(chunk);
    }

    function onEnd(): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const body = whole ? whole.subarray(0, received) : Buffer.concat(chunks, received);
      stopReading();
      whole = undefined;
      (request as BufferedRequest).rawBody = body;
      listener(request, response);
    }

    function onError(error: Error): void {
      if (done) return;
      refuse('unreadable', 'could not read a Slack request body', { err: error });
    }

    // The answer sent (or the connection gone): Bolt has verified or refused the body by then.
    response.once('close', settle);
    if (!isSigned(request)) {
      refuse('unsigned', 'refused a Slack request without signature headers (not read)', {});
      return;
    }
    const declared = declaredLength(request);
    if (declared !== undefined && declared > limits.requestBytes) {
      refuse('too_large', 'refused a Slack request whose body is over the limit', {
        declaredBytes: declared,
        limitBytes: limits.requestBytes,
      });
      return;
    }
    if (declared !== undefined) {
      if (!budget.reserve(declared)) {
        refuse('busy', BUSY, {
          declaredBytes: declared,
          inFlightBytes: budget.held,
          inFlightLimitBytes: budget.limit,
        });
        return;
      }
      reserved = declared;
      whole = Buffer.allocUnsafe(declared);
    }
    timer = setTimeout(() => {
      refuse('slow', 'refused a Slack request whose body did not arrive in time', {
        receivedBytes: received,
        readTimeoutMs: limits.readTimeoutMs,
      });
    }, limits.readTimeoutMs);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  };
}
