// METRICS_PORT (issue 12, item 9): /metrics on a port of its own, so the port Slack reaches need not
// expose it; the detailed /readyz is served there too, PORT's says only which checks pass (issue 24, item 7). The bot as `npm start` assembles it (HTTP mode, Bolt serving /slack/events and the probes on
// PORT), a Socket-Mode-like HTTP side of its own, and the setting's checks.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/bot.js';
import { loadConfig } from '../../src/config.js';
import { createHttpSide } from '../../src/observability/httpSide.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { issueAbout, issuesOf } from '../config/support.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { freePort } from '../support/redisServer.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

async function statusOf(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

describe('METRICS_PORT in the bot (HTTP mode)', () => {
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let bot: RunningBot;
  let port: number;
  let metricsPort: number;

  beforeAll(async () => {
    slack = await startFakeSlack();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    port = await freePort();
    metricsPort = await freePort();
    const config = loadConfig(
      {
        SLACK_BOT_TOKEN: 'xoxb-metrics-port-test',
        SLACK_SIGNING_SECRET: 'metrics-port-test-signing-secret',
        SLACK_API_URL: slack.apiUrl,
        SCC_API_TOKEN: sim.tokens.superAdmin,
        SCC_BASE_URL: sim.url,
        REDIS_URL: redisUrl(),
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'silent',
      },
      { require: { slack: true, scc: true } },
    );
    bot = await startBot(config, pino({ level: 'silent' }), {
      redisPrefix: uniquePrefix('metricsport').slice(0, -1),
    });
  });
  afterAll(async () => {
    await bot.stop();
    await sim.stop();
    await slack.stop();
  });

  it('serves /metrics on METRICS_PORT only; PORT answers it 404', async () => {
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('fwbot_');
    expect(await statusOf(`http://127.0.0.1:${port}/metrics`)).toBe(404);
  });

  it('keeps /healthz and /readyz on PORT, and serves only /metrics and /readyz on METRICS_PORT', async () => {
    expect(await statusOf(`http://127.0.0.1:${port}/healthz`)).toBe(200);
    expect(await statusOf(`http://127.0.0.1:${port}/readyz`)).toBe(200);
    expect(await statusOf(`http://127.0.0.1:${metricsPort}/healthz`)).toBe(404);
    expect(await statusOf(`http://127.0.0.1:${metricsPort}/readyz`)).toBe(200);
    expect(await statusOf(`http://127.0.0.1:${metricsPort}/slack/events`)).toBe(404);
  });

  it('says on PORT only which checks pass; the Redis node and the reasons only on METRICS_PORT', async () => {
    const open = await (await fetch(`http://127.0.0.1:${port}/readyz`)).text();
    const detailed = (await (await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).json()) as {
      checks: { name: string; ok: boolean; detail?: string; ms: number }[];
    };

    expect(JSON.parse(open)).toEqual({
      ready: true,
      draining: false,
      checks: ['redis', 'redis-topology', 'scc:default', 'alerts', 'slack'].map((name) => ({
        name,
        ok: true,
      })),
    });
    expect(open).not.toContain('127.0.0.1');
    const topology = detailed.checks.find((check) => check.name === 'redis-topology');
    expect(topology?.detail).toMatch(/^single: primary 127\.0\.0\.1:\d+, 0 failovers seen$/);
  });
});

describe('the HTTP side with a metrics port (its own servers, as in Socket Mode)', () => {
  it('splits /metrics off to the metrics server, and closes both', async () => {
    const http = createHttpSide({ port: 0, metricsPort: 0, host: '127.0.0.1', metrics: createMetrics() });
    const port = await http.listen();
    const metricsPort = await http.listenMetrics();
    try {
      expect(http.routes.map((route) => route.path)).toEqual(['/healthz', '/readyz']);
      expect(await statusOf(`http://127.0.0.1:${port}/healthz`)).toBe(200);
      expect(await statusOf(`http://127.0.0.1:${port}/metrics`)).toBe(404);
      expect(await statusOf(`http://127.0.0.1:${metricsPort}/metrics`)).toBe(200);
      expect(await statusOf(`http://127.0.0.1:${metricsPort}/healthz`)).toBe(404);
      expect(await statusOf(`http://127.0.0.1:${metricsPort}/readyz`)).toBe(200);
    } finally {
      await http.close();
    }
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });

  it('serves /metrics with the other routes when no metrics port is given', () => {
    const http = createHttpSide({ port: 0, metrics: createMetrics() });
    expect(http.routes.map((route) => route.path)).toEqual(['/healthz', '/readyz', '/metrics']);
  });
});

describe('METRICS_PORT setting', () => {
  it('is unset by default, and read as a port', () => {
    expect(loadConfig({}).http.metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).http).toEqual({ port: 3000, metricsPort: 9464 });
  });

  it.each(['0', '65536', 'x'])('refuses %s', (given) => {
    expect(issueAbout(issuesOf({ METRICS_PORT: given }), 'METRICS_PORT').problem).toMatch(/1 to 65535/);
  });

  it('refuses the port PORT uses', () => {
    const issue = issueAbout(issuesOf({ PORT: '8080', METRICS_PORT: '8080' }), 'METRICS_PORT');
    expect(issue.problem).toMatch(/a port of its own/);
    expect(issue.example).toBe('METRICS_PORT=9464');
    // The default PORT counts too.
    expect(issuesOf({ METRICS_PORT: '3000' }).map((i) => i.source)).toEqual(['METRICS_PORT']);
  });
});
