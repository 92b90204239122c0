// The demo with Slack credentials: the same runtime serves /fw through the real Slack surface (here in
// HTTP mode, signed requests, against the fake Slack Web API), the health routes share Bolt's server,
// acks are timed, and the workers' thread replies for Slack channels go to Slack while the console's
// stay in the console.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/app/logger.js';
import { Secret } from '../../src/config/secret.js';
import { type DemoSlack, startDemoSlack } from '../../src/demo/slack.js';
import type { ReadinessCheck } from '../../src/observability/health.js';
import { createHttpSide } from '../../src/observability/httpSide.js';
import { type ConsoleRig, startConsoleRig } from '../console/support.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { freePort } from '../support/redisServer.js';
import { postSigned, slashCommandBody } from '../support/slackRequests.js';

const SIGNING_SECRET = 'demo-signing-secret-for-tests';
const BOT_TOKEN = 'xoxb-demo-test-bot-token';

/** Every log line, to search for secrets afterwards. */
class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('demo with Slack credentials', () => {
  const capture = new Capture();
  const log = createLogger('trace', capture);
  let fake: FakeSlack;
  let rig: ConsoleRig;
  let slack: DemoSlack;
  let port: number;
  const readinessChecks: ReadinessCheck[] = [];

  beforeAll(async () => {
    fake = await startFakeSlack();
    rig = await startConsoleRig({ log, realSlack: { token: BOT_TOKEN, apiUrl: fake.apiUrl } });
    port = await freePort();
    const http = createHttpSide({ port, readinessChecks, metrics: rig.metrics });
    slack = await startDemoSlack({
      slack: {
        mode: 'http',
        botToken: new Secret(BOT_TOKEN),
        signingSecret: new Secret(SIGNING_SECRET),
        apiUrl: fake.apiUrl,
      },
      runtime: rig.runtime,
      metrics: rig.metrics,
      log,
      http,
      port,
      readinessChecks,
    });
  });
  afterAll(async () => {
    await slack?.stop();
    await rig?.close();
    await fake?.stop();
  });

  const command = (text: string) =>
    postSigned(
      `http://127.0.0.1:${port}/slack/events`,
      SIGNING_SECRET,
      slashCommandBody({ text, responseUrl: fake.responseUrl() }),
    );

  it('answers /fw through Bolt with the same catalogue, and times the ack', async () => {
    expect((await command('tenants list')).status).toBe(200);
    const answer = await fake.waitFor((call) => call.method === 'response_url');
    expect(JSON.stringify(answer.args)).toContain('contoso-eu');
    expect(await rig.metrics.text()).toMatch(/fwbot_ack_latency_seconds_count\{kind="command"\} 1/);
  });

  it('serves the health routes on Bolt’s own server, Slack among the readiness checks', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toMatchObject({ checks: [{ name: 'slack', ok: true }] });
  });

  it('sends the queue’s thread replies for a Slack channel to Slack, not to the console', async () => {
    const before = rig.terminal.output.length;
    expect((await command('tenants create acme-slack')).status).toBe(200);
    const reply = await fake.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        typeof call.args.thread_ts === 'string' &&
        /asked to create tenant acme-slack/.test(String(call.args.text)),
    );
    expect(reply.token).toBe(BOT_TOKEN);
    expect(rig.terminal.since(before)).not.toContain('acme-slack');
  });

  it('logs none of the Slack credentials, even at trace level', () => {
    expect(capture.text.length).toBeGreaterThan(0);
    expect(capture.text).not.toContain(BOT_TOKEN);
    expect(capture.text).not.toContain(SIGNING_SECRET);
  });
});
