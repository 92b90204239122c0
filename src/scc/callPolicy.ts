// When an SCC call gives up: per-operation timeouts, and which failures are retried, how often and after
// how long. Pure functions over plain options, so the policy is tested without a network and the HTTP layer
// only asks "retry? after how long?".
//
// The rule behind the retries: only repeat what cannot do harm twice. Reads (GET) are repeated on network
// errors, timeouts, 5xx and 429. Any other method is repeated only on 429/503 with Retry-After, where SCC
// said it did not process the request. A POST that timed out or got a 500 may have been applied, so it is
// not repeated, and its error says so.
import type { SccOperationId } from './operationTypes.js';

export interface TimeoutOptions {
  /** Every operation without a more specific value. */
  defaultMs: number;
  /** `executeDeviceCommand` without `async`: SCC itself waits up to 70 s for the device, plus a margin. */
  gatewaySyncMs: number;
  /** Overrides for single operations (after the two above). */
  perOperation: Partial<Record<SccOperationId, number>>;
}

export const DEFAULT_TIMEOUTS: TimeoutOptions = Object.freeze({
  defaultMs: 30_000,
  gatewaySyncMs: 75_000,
  perOperation: Object.freeze({}),
});

/** The timeout of one call: the call's own override, else the operation's, else the gateway's or default. */
export function timeoutFor(
  operationId: SccOperationId,
  query: Readonly<Record<string, unknown>> | undefined,
  timeouts: TimeoutOptions,
  callOverrideMs?: number,
): number {
  if (callOverrideMs !== undefined) return callOverrideMs;
  const configured = timeouts.perOperation[operationId];
  if (configured !== undefined) return configured;
  if (operationId === 'executeDeviceCommand' && !isAsyncGatewayCall(query)) return timeouts.gatewaySyncMs;
  return timeouts.defaultMs;
}

/** The gateway returns at once only when the `async` flag is present and not explicitly false. */
export function isAsyncGatewayCall(query: Readonly<Record<string, unknown>> | undefined): boolean {
  const flag = query?.async;
  return flag !== undefined && flag !== false && flag !== 'false';
}

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  /** Cap of the backoff before jitter. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails with SCC's error at once. */
  maxRetryAfterMs: number;
  /** [0, 1); injectable so tests see exact delays. */
  random: () => number;
  /** Waits between attempts; injectable so tests drive time instead of sleeping. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Wall clock in ms, to turn a Retry-After date into a delay. */
  now: () => number;
}

export const DEFAULT_RETRY: RetryOptions = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
  sleep: abortableSleep,
  now: Date.now,
});

/** Full jitter (AWS architecture blog): uniform in [0, min(cap, base·2^(attempt-1))). */
export function backoffDelayMs(failedAttempt: number, retry: RetryOptions): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (failedAttempt - 1));
  return Math.floor(retry.random() * ceiling);
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; undefined if unreadable. */
export function parseRetryAfter(value: string | undefined | null, nowMs: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined; // a bare "-5" or "1.5" is neither form
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** How one attempt ended, as far as the policy cares. */
export type AttemptOutcome =
  | { kind: 'status'; status: number; retryAfterMs?: number | undefined }
  | { kind: 'timeout' }
  /** `sent: false` when the connection was refused or the host unknown: SCC never saw the request. */
  | { kind: 'connection'; sent: boolean }
  | { kind: 'aborted' };

export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; mayHaveBeenProcessed: boolean; notRetriedBecause?: string };

const NOT_APPLIED_TWICE = 'not retried because it may have been applied';

/**
 * SCC operations sent as POST that only compute an answer and change nothing (the reference's
 * "Calculate …"): they are retried like reads, and a failure never says it "may have been applied".
 */
export const COMPUTING_POSTS: ReadonlySet<string> = new Set([
  'calculateAsaCommandsToApplyPendingChanges',
  'calculateMspCompatibleSecureClientVersions',
  'calculateMspFtdCompatibleUpgradeVersions',
  // fwbot sends the ASA command line only its own read-only templates (src/catalogue/asaCommands.ts).
  'executeCliCommand',
]);

export function decideRetry(
  method: string,
  outcome: AttemptOutcome,
  attempt: number,
  retry: RetryOptions,
  operationId?: string,
): RetryDecision {
  const read =
    method === 'GET' || method === 'HEAD' || (operationId !== undefined && COMPUTING_POSTS.has(operationId));
  const attemptsLeft = attempt < retry.maxAttempts;
  const exhausted = `gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}`;

  if (outcome.kind === 'aborted') return { retry: false, mayHaveBeenProcessed: !read };

  if (outcome.kind === 'status') {
    const { status, retryAfterMs } = outcome;
    const throttled = status === 429 || status === 503;
    if (throttled && retryAfterMs !== undefined) {
      // SCC said when to come back: it did not process this request, whatever the method.
      if (retryAfterMs > retry.maxRetryAfterMs) {
        return {
          retry: false,
          mayHaveBeenProcessed: false,
          notRetriedBecause: `SCC asked to wait ${Math.ceil(retryAfterMs / 1000)} s, more than the ${Math.ceil(retry.maxRetryAfterMs / 1000)} s allowed`,
        };
      }
      if (!attemptsLeft) return { retry: false, mayHaveBeenProcessed: false, notRetriedBecause: exhausted };
      return { retry: true, delayMs: retryAfterMs, reason: `${status} with Retry-After` };
    }
    if (read && (status >= 500 || status === 429)) {
      if (!attemptsLeft) return { retry: false, mayHaveBeenProcessed: false, notRetriedBecause: exhausted };
      return { retry: true, delayMs: backoffDelayMs(attempt, retry), reason: `status ${status}` };
    }
    if (!read && status >= 500) {
      return { retry: false, mayHaveBeenProcessed: true, notRetriedBecause: NOT_APPLIED_TWICE };
    }
    return { retry: false, mayHaveBeenProcessed: false };
  }

  if (read) {
    if (!attemptsLeft) return { retry: false, mayHaveBeenProcessed: false, notRetriedBecause: exhausted };
    return { retry: true, delayMs: backoffDelayMs(attempt, retry), reason: outcome.kind };
  }
  if (outcome.kind === 'connection' && !outcome.sent) {
    return { retry: false, mayHaveBeenProcessed: false };
  }
  return { retry: false, mayHaveBeenProcessed: true, notRetriedBecause: NOT_APPLIED_TWICE };
}

/** setTimeout as a promise that rejects with the signal's reason when the caller aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
