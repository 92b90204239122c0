// HTTP mode refuses request bodies over 1 MiB with 413 before buffering and verifying them (issue 12,
// item 9): a declared length over the limit is refused before the body is sent, a chunked body is
// refused once it passes the limit, and nothing runs for either; a normal signed command still works.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../src/slack/bodyLimit.js';
import { slackSignature, slashCommandBody } from '../support/slackRequests.js';
import { type Harness, newTriggerId, SIGNING_SECRET, startHarness } from './support/harness.js';

const LIMIT = DEFAULT_BODY_LIMIT_BYTES;

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

  it('refuses a signed request that declares a body over 1 MiB, before it is sent, and runs nothing', async () => {
    const { headers } = signedCommandOf(LIMIT + 1, h.slack.responseUrl());

    expect(await declareOnly(h.eventsUrl, headers, LIMIT + 1)).toBe(413);

    const refusal = await h.waitForLog('body is over the limit');
    expect(JSON.parse(refusal)).toMatchObject({ declaredBytes: LIMIT + 1, limitBytes: LIMIT });
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls()).toEqual([]);
  });

  it('stops reading a chunked body once it passes 1 MiB, and runs nothing', async () => {
    const { body, headers } = signedCommandOf(LIMIT + 1, h.slack.responseUrl());

    expect(await streamChunked(h.eventsUrl, headers, body)).toBe(413);

    const refusal = await h.waitForLog('stopped reading it');
    expect(JSON.parse(refusal)).toMatchObject({ receivedBytes: LIMIT + 1, limitBytes: LIMIT });
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls()).toEqual([]);
  });

  it('answers a signed command of exactly 1 MiB, and an ordinary one, as before', async () => {
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
