// The retry and timeout policy as pure rules: which failure is retried, after how long, and how long each
// operation may take.
import { describe, expect, it } from 'vitest';
import { clientSpec } from '../../scripts/scc-reference.js';
import {
  backoffDelayMs,
  COMPUTING_POSTS,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUTS,
  decideRetry,
  parseRetryAfter,
  type RetryOptions,
  timeoutFor,
} from '../../src/scc/callPolicy.js';
import { contractSkipReason } from '../support/openapiContract.js';

const policy = (overrides: Partial<RetryOptions> = {}): RetryOptions => ({ ...DEFAULT_RETRY, ...overrides });

describe('backoff', () => {
  it('draws uniformly below base·2^(attempt-1) (full jitter)', () => {
    const top = policy({ random: () => 0.999_999 });
    const bottom = policy({ random: () => 0 });

    expect([1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, top))).toEqual([249, 499, 999, 1999]);
    expect(backoffDelayMs(3, bottom)).toBe(0);
  });

  it('never exceeds the cap, however many attempts failed', () => {
    const top = policy({ random: () => 0.999_999, maxDelayMs: 8_000 });

    expect(backoffDelayMs(30, top)).toBeLessThan(8_000);
    expect(backoffDelayMs(30, top)).toBeGreaterThan(7_990);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date as the time left until then, never negative', () => {
    expect(parseRetryAfter('Sat, 01 Mar 2025 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 11:59:00 GMT', now)).toBe(0);
  });

  it('ignores what is neither', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('which failures are retried', () => {
  const retry = policy({ random: () => 0.5 });

  it('retries a GET on 5xx, 429, timeouts and network errors, with backoff', () => {
    for (const outcome of [
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      { kind: 'status', status: 429 },
      { kind: 'timeout' },
      { kind: 'connection', sent: true },
    ] as const) {
      expect(decideRetry('GET', outcome, 2, retry)).toMatchObject({ retry: true, delayMs: 250 });
    }
  });

  it('does not retry a GET on other 4xx', () => {
    expect(decideRetry('GET', { kind: 'status', status: 404 }, 1, retry)).toEqual({
      retry: false,
      mayHaveBeenProcessed: false,
    });
  });

  it('stops after maxAttempts and says so', () => {
    expect(decideRetry('GET', { kind: 'status', status: 503 }, 4, retry)).toEqual({
      retry: false,
      mayHaveBeenProcessed: false,
      notRetriedBecause: 'gave up after 4 attempts',
    });
  });

  it('retries any method on 429 and 503 that carry Retry-After, waiting exactly that long', () => {
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      expect(
        decideRetry(method, { kind: 'status', status: 429, retryAfterMs: 3_000 }, 1, retry),
      ).toMatchObject({
        retry: true,
        delayMs: 3_000,
      });
      expect(decideRetry(method, { kind: 'status', status: 503, retryAfterMs: 0 }, 1, retry)).toMatchObject({
        retry: true,
        delayMs: 0,
      });
    }
  });

  it('does not wait for a Retry-After longer than allowed', () => {
    const decision = decideRetry('GET', { kind: 'status', status: 429, retryAfterMs: 120_000 }, 1, retry);

    expect(decision).toEqual({
      retry: false,
      mayHaveBeenProcessed: false,
      notRetriedBecause: 'SCC asked to wait 120 s, more than the 60 s allowed',
    });
  });

  it('does not retry a POST on 429 or 503 without Retry-After', () => {
    expect(decideRetry('POST', { kind: 'status', status: 429 }, 1, retry)).toMatchObject({ retry: false });
    expect(decideRetry('POST', { kind: 'status', status: 503 }, 1, retry)).toMatchObject({ retry: false });
  });

  it('does not retry a POST that got a 500 or timed out: it may have been applied', () => {
    const expected = {
      retry: false,
      mayHaveBeenProcessed: true,
      notRetriedBecause: 'not retried because it may have been applied',
    };

    expect(decideRetry('POST', { kind: 'status', status: 500 }, 1, retry)).toEqual(expected);
    expect(decideRetry('POST', { kind: 'timeout' }, 1, retry)).toEqual(expected);
    expect(decideRetry('PATCH', { kind: 'connection', sent: true }, 1, retry)).toEqual(expected);
  });

  it('knows a refused connection never reached SCC', () => {
    expect(decideRetry('POST', { kind: 'connection', sent: false }, 1, retry)).toEqual({
      retry: false,
      mayHaveBeenProcessed: false,
    });
  });

  it('never retries what the caller aborted', () => {
    expect(decideRetry('GET', { kind: 'aborted' }, 1, retry)).toEqual({
      retry: false,
      mayHaveBeenProcessed: false,
    });
  });
});

describe('timeouts', () => {
  it('gives a synchronous gateway command 75 s, because SCC waits up to 70 s for the device', () => {
    expect(DEFAULT_TIMEOUTS.gatewaySyncMs).toBe(75_000);
    expect(timeoutFor('executeDeviceCommand', {}, DEFAULT_TIMEOUTS)).toBe(75_000);
    expect(timeoutFor('executeDeviceCommand', { async: false }, DEFAULT_TIMEOUTS)).toBe(75_000);
  });

  it('gives an async gateway command and every other operation the default 30 s', () => {
    expect(DEFAULT_TIMEOUTS.defaultMs).toBe(30_000);
    expect(timeoutFor('executeDeviceCommand', { async: true }, DEFAULT_TIMEOUTS)).toBe(30_000);
    expect(timeoutFor('getDevices', undefined, DEFAULT_TIMEOUTS)).toBe(30_000);
  });

  it('lets an operation override and a single call override that', () => {
    const timeouts = { ...DEFAULT_TIMEOUTS, perOperation: { getSearchReports: 90_000 } };

    expect(timeoutFor('getSearchReports', {}, timeouts)).toBe(90_000);
    expect(timeoutFor('getSearchReports', {}, timeouts, 5_000)).toBe(5_000);
    expect(timeoutFor('executeDeviceCommand', {}, timeouts, 1_000)).toBe(1_000);
  });
});

describe('POSTs that only compute', () => {
  const retry = policy({ random: () => 0.5 });

  it('are retried like reads and never said to have maybe been applied', () => {
    const calculate = 'calculateAsaCommandsToApplyPendingChanges';
    expect(decideRetry('POST', { kind: 'status', status: 500 }, 1, retry, calculate)).toMatchObject({
      retry: true,
    });
    expect(decideRetry('POST', { kind: 'timeout' }, 4, retry, calculate)).toMatchObject({
      retry: false,
      mayHaveBeenProcessed: false,
    });
    // Any other POST changes something: not repeated, and it may have been applied.
    expect(decideRetry('POST', { kind: 'timeout' }, 1, retry, 'createTenant')).toMatchObject({
      retry: false,
      mayHaveBeenProcessed: true,
    });
  });

  const skip = contractSkipReason();
  it.skipIf(skip !== undefined)(
    `are POSTs of the reference that calculate ${skip ? `(${skip})` : ''}`,
    () => {
      const posts = new Map<string, string>();
      for (const operations of Object.values(clientSpec().paths))
        if (operations.post) posts.set(operations.post.operationId, operations.post.summary ?? '');
      // The ASA command line is the one exception: fwbot sends it only its read-only templates
      // (src/catalogue/asaCommands.ts, test/security/cliInjection.test.ts), so running one twice changes nothing.
      for (const id of COMPUTING_POSTS) {
        if (id === 'executeCliCommand') expect(posts.has(id), id).toBe(true);
        else expect(posts.get(id), id).toMatch(/^Calculate /);
      }
    },
  );
});
