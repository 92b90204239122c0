import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slashCommandBody } from '../support/slackRequests.js';
import {
  CHANNEL,
  type Harness,
  newTriggerId,
  SIGNING_SECRET,
  startHarness,
  textOf,
  USERS,
} from './support/harness.js';
import { postSignedWithHeaders } from './support/signedWithHeaders.js';

describe('Slack request security and acknowledgement', () => {
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

  it('refuses forged, unsigned and stale requests, and runs nothing for them', async () => {
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    const forged = await h.command('tenants list', { signed: { signature: 'v0=deadbeef' } });
    const unsigned = await h.command('tenants list', { signed: { signature: null } });
    const old = await h.command('tenants list', { signed: { timestamp: stale } });
    const wrongSecret = await h.command('tenants list', {
      signed: { signature: 'v0=0000000000000000000000000000000000000000000000000000000000000000' },
    });
    expect([forged, unsigned, old, wrongSecret].map((r) => r.http.status)).toEqual([401, 401, 401, 401]);
    // A signed request afterwards is answered, and it is the only thing that reached SCC or Slack.
    const ok = await h.command('devices');
    await h.reply(ok.responseUrl);
    expect(h.sim.requestLog.list().map((e) => e.operationId)).toEqual(['getDevices']);
    expect(h.slack.calls.filter((c) => c.method === 'response_url')).toHaveLength(1);
  });

  it('refuses a correctly signed request dated more than 5 minutes ahead, and runs nothing for it', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ahead = await h.command('tenants list', { signed: { timestamp: now + 600 } });
    expect(ahead.http.status).toBe(401);
    // Within the window, a clock a little ahead is still Slack's: it is answered.
    const skewed = await h.command('devices', { signed: { timestamp: now + 60 } });
    expect(skewed.http.status).toBe(200);
    await h.reply(skewed.responseUrl);
    expect(h.sim.requestLog.list().map((e) => e.operationId)).toEqual(['getDevices']);
    expect(h.slack.calls.filter((c) => c.method === 'response_url')).toHaveLength(1);
  });

  it('acknowledges before calling SCC: the HTTP answer returns while SCC is still slow', async () => {
    h.sim.faults.add({ path: '^/v1/msp/', latencyMs: 3000 });
    const started = Date.now();
    const { http, responseUrl } = await h.command('tenants list');
    const ackedAfter = Date.now() - started;
    expect(http.status).toBe(200);
    expect(ackedAfter).toBeLessThan(2000);
    expect(h.slack.callsTo('response_url')).toHaveLength(0);
    const reply = await h.reply(responseUrl);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(textOf(reply.args)).toContain('MSP portal tenants');
  });

  it('runs a slash command once when Slack retries it', async () => {
    const triggerId = newTriggerId();
    const responseUrl = h.slack.responseUrl();
    const body = slashCommandBody({
      text: 'devices',
      responseUrl,
      userId: USERS.viewer,
      channelId: CHANNEL,
      triggerId,
    });
    const first = await postSignedWithHeaders(h.eventsUrl, SIGNING_SECRET, body, {});
    const retry = await postSignedWithHeaders(h.eventsUrl, SIGNING_SECRET, body, {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect([first, retry]).toEqual([200, 200]);
    await h.waitForLog('seen before (Slack retry)');
    await h.reply(responseUrl);
    expect(h.sim.requestLog.list({ operationId: 'getDevices' })).toHaveLength(1);
    expect(h.slack.callsTo('response_url')).toHaveLength(1);
  });

  it('refuses a command that carries a token, without running or logging it', async () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJyb2xlcyI6WyJST0xFX1NVUEVSX0FETUlOIl19.c2lnbmF0dXJlLXBhcnQ';
    const { responseUrl } = await h.command(`tenants add ${token}`);
    const reply = await h.reply(responseUrl);
    expect(textOf(reply.args)).toContain('looks like it contains an API token');
    expect(textOf(reply.args)).toContain('`/fw tenants add` with no arguments');
    expect(h.sim.requestLog.list()).toHaveLength(0);
    expect(h.logs.join('\n')).not.toContain(token.slice(0, 30));
    expect(JSON.stringify(h.slack.calls)).not.toContain(token.slice(0, 30));
  });
});
