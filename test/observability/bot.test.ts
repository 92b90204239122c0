// The production bot's operations side, as `npm start` assembles it (src/app/bot.ts, HTTP mode against
// the simulator and the fake Slack): /readyz checks Redis, SCC and Slack on Bolt's own server, /metrics
// counts what the bot did, and the process drains on SIGTERM and exits 0.
import { spawn } from 'node:child_process';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/bot.js';
import { loadConfig } from '../../src/config.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { freePort } from '../support/redisServer.js';
import { postSigned, slashCommandBody } from '../support/slackRequests.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

const SIGNING_SECRET = 'ops-test-signing-secret';

describe('the bot’s HTTP side', () => {
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let env: Record<string, string>;
  let port: number;

  beforeAll(async () => {
    slack = await startFakeSlack();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    port = await freePort();
    env = {
      SLACK_BOT_TOKEN: 'xoxb-ops-test-token',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      SCC_API_TOKEN: sim.tokens.superAdmin,
      SCC_BASE_URL: sim.url,
      REDIS_URL: redisUrl(),
      PORT: String(port),
      LOG_LEVEL: 'info',
    };
  });
  afterAll(async () => {
    await sim.stop();
    await slack.stop();
  });

  describe('in process', () => {
    let bot: RunningBot;
    beforeAll(async () => {
      const config = loadConfig(env, { require: { slack: true, scc: true } });
      bot = await startBot(config, pino({ level: 'silent' }), {
        redisPrefix: uniquePrefix('ops').slice(0, -1),
      });
    });
    afterAll(async () => {
      await bot.stop();
    });

    it('reports ready with every dependency named, and counts commands and acks', async () => {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as { checks: { name: string; ok: boolean; detail?: string }[] };
      expect(body.checks.map((c) => [c.name, c.ok])).toEqual([
        ['redis', true],
        ['redis-topology', true],
        ['scc:default', true],
        ['alerts', true],
        ['slack', true],
      ]);
      // Without METRICS_PORT the reasons (the Redis node, errors) are served nowhere: metricsPort.test.ts.
      expect(body.checks.some((c) => 'detail' in c)).toBe(false);

      const responseUrl = slack.responseUrl();
      const request = slashCommandBody({ text: 'tenants list', responseUrl, userId: 'U0VIEWER01' });
      expect(
        (await postSigned(`http://127.0.0.1:${port}/slack/events`, SIGNING_SECRET, request)).status,
      ).toBe(200);
      await slack.waitFor((call) => call.method === 'response_url');
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(/fwbot_commands_total\{operation="tenants\.list",outcome="ok"\} 1/);
      expect(metrics).toMatch(/fwbot_ack_latency_seconds_count\{kind="command"\} 1/);
      expect(metrics).toMatch(/fwbot_scc_calls_total\{operation="getMspManagedTenants",status="200"\} 1/);
      expect(metrics).toMatch(/fwbot_queue_jobs\{queue="track",state="waiting"\} 0/);
    });
  });

  it('drains on SIGTERM and exits 0 (npm start)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/entry/bot.ts'], {
      env: { PATH: process.env.PATH ?? '', ...env, PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const started = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('fwbot is running')) resolve();
      });
    });
    // 'close', not 'exit': stdout is read to its end by then (the last lines are the ones checked).
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await started;
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const step of ['readiness', 'slack', 'approvals', 'workers', 'redis', 'scc']) {
      expect(stdout).toContain(`"step":"${step}"`);
    }
    expect(stdout).toMatch(/"code":0,"msg":"stopped"/);
  });
});
