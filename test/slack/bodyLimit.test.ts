// What an unverified request may cost in HTTP mode (issue 12 item 9, issue 24 item 6), through Bolt's real
// HTTP port: no signature headers is refused before a byte is read; a body over the per-request limit is
// refused with 413 (a declared length before it is sent, a chunked body once it passes the limit); bodies
// being read at once share one budget, and a request that does not fit is refused at once with 503; the
// budget comes back when they close or finish; a body that does not arrive in time is cut off with 408.
// Nothing runs for any of them, and a genuine command still works.
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMetrics, type FwbotMetrics } from '../../src/observability/metrics.js';
import { DEFAULT_BODY_LIMITS } from '../../src/slack/bodyLimit.js';
import { slackSignature, slashCommandBody } from '../support/slackRequests.js';
import { type Harness, newTriggerId, SIGNING_SECRET, startHarness } from './support/harness.js';

const LIMIT = DEFAULT_BODY_LIMITS.requestBytes;
const KIB = 1024;

/** A signed /fw command whose text pads the body to exactly `bytes`. */
function signedCommandOf(
  bytes: number,
  responseUrl: string,
): { body: string; headers: Record<string, string> } {
  const bare = slashCommandBody({ text: '', responseUrl, triggerId: newTriggerId() });
  const body = bare.replace('text=', `text=devices${'x'.repeat(bytes - bare.length - 'devices'.length)}`);
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
    },
  };
}

/** Headers that look like Slack's but sign nothing (what someone without the secret can send). */
function forgedHeaders(): Record<string, string> {
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)),
    'x-slack-signature': `v0=${'0'.repeat(64)}`,
  };
}

/** Sends only the headers (a Content-Length, no body) and resolves with the answer's status. */
function declareOnly(url: string, headers: Record<string, string>, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(length) },
    });
    req.on('response', (response: IncomingMessage) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

/**
 * Streams the body chunked (no Content-Length): `limit` bytes in 64 KiB writes, then the rest, and
 * resolves with the answer's status. The last write is what passes the limit, so nothing is in flight
 * when the server stops reading.
 */
function streamChunked(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers });
    req.on('response', (response: IncomingMessage) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    const bytes = Buffer.from(body);
    for (let at = 0; at < LIMIT; at += 64 * 1024)
      req.write(bytes.subarray(at, Math.min(at + 64 * 1024, LIMIT)));
    req.write(bytes.subarray(LIMIT));
  });
}

interface HeldRequest {
  /** The status answered, or 'reset' if the connection was cut without one. */
  answer: Promise<number | 'reset'>;
  /** The same, once known. */
  readonly answered: number | 'reset' | undefined;
  /** Sends the rest of the body. */
  finish(): void;
  /** Drops the connection. */
  close(): void;
}

/** Declares `length` bytes, sends `sent` of them and holds the connection open. */
function holdBody(url: string, headers: Record<string, string>, length: number, sent: number): HeldRequest {
  const req = httpRequest(url, {
    method: 'POST',
    headers: { ...headers, 'content-length': String(length) },
    agent: false,
  });
  let answered: number | 'reset' | undefined;
  const answer = new Promise<number | 'reset'>((resolve) => {
    const settle = (outcome: number | 'reset') => {
      answered ??= outcome;
      resolve(answered);
    };
    req.on('response', (response: IncomingMessage) => {
      response.resume();
      settle(response.statusCode ?? 0);
    });
    req.on('error', () => settle('reset'));
    req.on('close', () => settle('reset'));
  });
  req.write(Buffer.alloc(sent, 'a'));
  return {
    answer,
    get answered() {
      return answered;
    },
    finish: () => req.end(Buffer.alloc(length - sent, 'a')),
    close: () => req.destroy(),
  };
}

async function gauge(metrics: FwbotMetrics): Promise<number> {
  return (await metrics.slackUnverifiedBodyBytes.get()).values[0]?.value ?? 0;
}

async function refusals(metrics: FwbotMetrics, reason: string): Promise<number> {
  const found = (await metrics.slackRequestsRefused.get()).values.find((v) => v.labels.reason === reason);
  return found?.value ?? 0;
}

/** Polls until `check` holds, for up to 10 s (no timing is asserted, only the state reached). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the request body limit (HTTP mode)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  /** Slack calls besides Bolt's own start-up check of the token. */
  const slackCalls = () => h.slack.calls.filter((call) => call.method !== 'auth.test');

  it('is far below 1 MiB, and above what a view at Slack’s 250 kB limit takes form-encoded', () => {
    // fwbot's own Home blocks, repeated up to Slack's view_too_large limit, as an interaction carries them.
    const home = JSON.parse(readFileSync(new URL('../golden/home.blocks.json', import.meta.url), 'utf8')) as {
      blocks: unknown[];
    };
    const blocks: unknown[] = [];
    while (JSON.stringify({ type: 'home', blocks: [...blocks, ...home.blocks] }).length <= 250_000)
      blocks.push(...home.blocks);
    const view = { type: 'home', blocks };
    const payload = new URLSearchParams({
      payload: JSON.stringify({ type: 'block_actions', view }),
    }).toString();

    expect(LIMIT).toBeLessThan(1024 * 1024);
    expect(JSON.stringify(view).length).toBeGreaterThan(240_000);
    expect(payload.length).toBeLessThan(LIMIT);
  });

  it('refuses a request without Slack’s signature headers before its body is sent, and runs nothing', async () => {
    const { headers } = signedCommandOf(10 * KIB, h.slack.responseUrl());
    delete headers['x-slack-signature'];
    delete headers['x-slack-request-timestamp'];

    expect(await declareOnly(h.eventsUrl, headers, 10 * KIB)).toBe(401);

    await h.waitForLog('without signature headers (not read)');
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls()).toEqual([]);
  });

  it('refuses a signed request that declares a body over the limit, before it is sent, and runs nothing', async () => {
    const { headers } = signedCommandOf(LIMIT + 1, h.slack.responseUrl());

    expect(await declareOnly(h.eventsUrl, headers, LIMIT + 1)).toBe(413);

    const refusal = await h.waitForLog('body is over the limit');
    expect(JSON.parse(refusal)).toMatchObject({ declaredBytes: LIMIT + 1, limitBytes: LIMIT });
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls()).toEqual([]);
  });

  it('stops reading a chunked body once it passes the limit, and runs nothing', async () => {
    const { body, headers } = signedCommandOf(LIMIT + 1, h.slack.responseUrl());

    expect(await streamChunked(h.eventsUrl, headers, body)).toBe(413);

    const refusal = await h.waitForLog('stopped reading it');
    expect(JSON.parse(refusal)).toMatchObject({ receivedBytes: LIMIT + 1, limitBytes: LIMIT });
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls()).toEqual([]);
  });

  it('answers a signed command of exactly the limit, and an ordinary one, as before', async () => {
    const responseUrl = h.slack.responseUrl();
    const { body, headers } = signedCommandOf(LIMIT, responseUrl);
    const atLimit = await fetch(h.eventsUrl, { method: 'POST', headers, body });
    expect(atLimit.status).toBe(200);
    // Read and answered privately (a word that long looks like a token to fwbot, and is refused so).
    await h.reply(responseUrl);

    const ordinary = await h.command('devices');
    expect(ordinary.http.status).toBe(200);
    await h.reply(ordinary.responseUrl);
    expect(h.sim.requestLog.list().map((entry) => entry.operationId)).toEqual(['getDevices']);
  });
});

describe('unverified bodies being read at once (HTTP mode)', () => {
  const BUDGET = 64 * KIB;
  const BODY = 32 * KIB;
  let h: Harness;
  let metrics: FwbotMetrics;
  beforeAll(async () => {
    metrics = createMetrics({ processMetrics: false });
    // A long read timeout: the held bodies must stay held until the test lets them go.
    h = await startHarness({ metrics, bodyLimits: { inFlightBytes: BUDGET, readTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('refuses at once with 503 what does not fit the budget, and takes requests again once it is back', async () => {
    // Ten forged bodies of 32 KiB arrive together and dribble: two fit in 64 KiB, eight do not.
    const held = Array.from({ length: 10 }, () => holdBody(h.eventsUrl, forgedHeaders(), BODY, KIB));
    const answered = () => held.filter((request) => request.answered !== undefined);
    await until(async () => answered().length === 8, 'eight answered');
    expect(answered().map((request) => request.answered)).toEqual(Array(8).fill(503));
    expect(await refusals(metrics, 'busy')).toBe(8);
    expect(await gauge(metrics)).toBe(2 * BODY);
    const busy = JSON.parse(await h.waitForLog('too many unverified bodies'));
    expect(busy).toMatchObject({ declaredBytes: BODY, inFlightBytes: 2 * BODY, inFlightLimitBytes: BUDGET });

    // While the two are held, a genuine command does not fit either.
    const crowdedOut = await h.command('devices');
    expect(crowdedOut.http.status).toBe(503);

    // One finishes (Bolt reads it and refuses the forged signature), one is dropped: all of it comes back.
    const reading = held.filter((request) => request.answered === undefined);
    expect(reading).toHaveLength(2);
    reading[0]?.finish();
    reading[1]?.close();
    expect(await reading[0]?.answer).toBe(401);
    await until(async () => (await gauge(metrics)) === 0, 'the budget released');

    const later = await h.command('devices');
    expect(later.http.status).toBe(200);
    await h.reply(later.responseUrl);
    expect(h.sim.requestLog.list().map((entry) => entry.operationId)).toEqual(['getDevices']);
  });
});

describe('a body that does not arrive in time (HTTP mode)', () => {
  let h: Harness;
  let metrics: FwbotMetrics;
  beforeAll(async () => {
    metrics = createMetrics({ processMetrics: false });
    // Short for the test; the default is 5 s (Slack gives up after 3).
    h = await startHarness({ metrics, bodyLimits: { readTimeoutMs: 300 } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('is cut off with 408 and gives its share back; nothing runs, and the next request is served', async () => {
    const { headers } = signedCommandOf(32 * KIB, h.slack.responseUrl());
    const slow = holdBody(h.eventsUrl, headers, 32 * KIB, KIB);

    expect(await slow.answer).toBe(408);
    const cut = JSON.parse(await h.waitForLog('did not arrive in time'));
    expect(cut).toMatchObject({ receivedBytes: KIB, readTimeoutMs: 300, reason: 'slow' });
    expect(await refusals(metrics, 'slow')).toBe(1);
    await until(async () => (await gauge(metrics)) === 0, 'the budget released');
    expect(h.sim.requestLog.list()).toEqual([]);

    const next = await h.command('devices');
    expect(next.http.status).toBe(200);
    await h.reply(next.responseUrl);
  });
});
