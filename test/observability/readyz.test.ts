// /readyz follows its dependencies: ready while Redis answers, not ready (503, naming Redis) once the
// Redis server goes away, and not ready while draining; /healthz stays up throughout. PORT's /readyz says
// only which checks pass (issue 24, item 7): the reasons, which name hosts, ports and errors, are served on
// the metrics port, and logged when a check starts failing and when it passes again.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createReadiness, redisCheck } from '../../src/observability/health.js';
import { createHttpSide, type HttpSide } from '../../src/observability/httpSide.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { type RedisServerHandle, startRedisServer } from '../support/redisServer.js';

interface ReadyBody {
  ready: boolean;
  draining: boolean;
  checks: { name: string; ok: boolean; detail?: string }[];
}

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const answer = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: answer.status, body: await answer.text() };
}

describe('/readyz', () => {
  let server: RedisServerHandle | undefined;
  let redis: Redis | undefined;
  let side: HttpSide | undefined;

  afterEach(async () => {
    await side?.close();
    redis?.disconnect();
    await server?.stop();
  });

  it('answers 200 while Redis answers and 503 naming Redis once the server is gone', async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    await once(redis, 'ready');
    const metrics = createMetrics({ processMetrics: false });
    side = createHttpSide({
      port: 0,
      metricsPort: 0,
      host: '127.0.0.1',
      readinessChecks: [redisCheck(redis)],
      metrics,
    });
    const port = await side.listen();
    const metricsPort = await side.listenMetrics();

    const before = await get(port, '/readyz');
    expect(before.status).toBe(200);
    expect(JSON.parse(before.body)).toMatchObject({ ready: true, checks: [{ name: 'redis', ok: true }] });

    const closed = once(redis, 'close');
    await server.stop();
    server = undefined;
    await closed;

    const after = await get(port, '/readyz');
    expect(after.status).toBe(503);
    expect(JSON.parse(after.body)).toEqual({
      ready: false,
      draining: false,
      checks: [{ name: 'redis', ok: false }],
    });
    const detailed = await get(metricsPort, '/readyz');
    expect(detailed.status).toBe(503);
    const body = JSON.parse(detailed.body) as ReadyBody;
    expect(body.checks[0]).toMatchObject({ name: 'redis', ok: false });
    expect(body.checks[0]?.detail).toMatch(/Redis connection is (connecting|reconnecting|close|end)/);
    expect(await metrics.text()).toMatch(/fwbot_ready\{check="redis"\} 0/);

    const health = await get(port, '/healthz');
    expect(health.status).toBe(200);
  });

  it('reports not ready while draining, though every check passes', async () => {
    const metrics = createMetrics({ processMetrics: false });
    side = createHttpSide({
      port: 0,
      host: '127.0.0.1',
      readinessChecks: [{ name: 'always', check: async () => {} }],
      metrics,
    });
    const port = await side.listen();
    expect((await get(port, '/readyz')).status).toBe(200);
    side.drain();
    const drained = await get(port, '/readyz');
    expect(drained.status).toBe(503);
    expect(JSON.parse(drained.body)).toMatchObject({ ready: false, draining: true });
  });

  it('answers 503 in time when a check hangs', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const hung = { name: 'scc:default', check: () => new Promise<void>(() => {}) };
    const readiness = createReadiness([hung], { timeoutMs: 100, metrics });
    side = createHttpSide({ port: 0, metricsPort: 0, host: '127.0.0.1', readiness, metrics });
    await side.listen();
    const answer = await get(await side.listenMetrics(), '/readyz');
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({
      checks: [{ name: 'scc:default', ok: false, detail: 'no answer within 100 ms' }],
    });
  });

  it('refuses other methods and unknown paths', async () => {
    side = createHttpSide({ port: 0, host: '127.0.0.1', metrics: createMetrics({ processMetrics: false }) });
    const port = await side.listen();
    expect((await fetch(`http://127.0.0.1:${port}/healthz`, { method: 'POST' })).status).toBe(405);
    expect((await get(port, '/nope')).status).toBe(404);
  });

  describe('what each port says', () => {
    /** A check that fails the way a lost dependency does: with a host, a port and an error code. */
    const leaky = () => {
      let up = false;
      return {
        check: {
          name: 'redis',
          async check() {
            if (!up) throw new Error('connect ECONNREFUSED 10.1.2.3:6379 (redis://cache.internal:6379)');
          },
        },
        recover: () => {
          up = true;
        },
      };
    };

    it('PORT answers names and ok only; METRICS_PORT answers the reasons', async () => {
      const { check } = leaky();
      const metrics = createMetrics({ processMetrics: false });
      side = createHttpSide({
        port: 0,
        metricsPort: 0,
        host: '127.0.0.1',
        readinessChecks: [check],
        metrics,
      });
      const port = await side.listen();
      const metricsPort = await side.listenMetrics();

      const open = await get(port, '/readyz');
      const detailed = await get(metricsPort, '/readyz');

      expect(open.status).toBe(503);
      expect(JSON.parse(open.body)).toEqual({
        ready: false,
        draining: false,
        checks: [{ name: 'redis', ok: false }],
      });
      for (const secret of ['10.1.2.3', '6379', 'ECONNREFUSED', 'cache.internal'])
        expect(open.body).not.toContain(secret);
      expect(detailed.status).toBe(503);
      expect(JSON.parse(detailed.body)).toMatchObject({
        checks: [{ name: 'redis', ok: false, detail: expect.stringContaining('ECONNREFUSED 10.1.2.3:6379') }],
      });
    });

    it('without a metrics port, serves the reasons nowhere and logs each change once, with the reason', async () => {
      const { check, recover } = leaky();
      const lines: { level: number; msg: string }[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      side = createHttpSide({
        port: 0,
        host: '127.0.0.1',
        readinessChecks: [check],
        metrics: createMetrics({ processMetrics: false }),
        log,
      });
      const port = await side.listen();

      const first = await get(port, '/readyz');
      const second = await get(port, '/readyz');
      recover();
      const third = await get(port, '/readyz');

      expect([first.status, second.status, third.status]).toEqual([503, 503, 200]);
      expect(first.body).not.toContain('10.1.2.3');
      const said = lines.filter((line) => line.msg.startsWith('readiness:')).map((line) => line.msg);
      expect(said).toEqual([
        'readiness: redis fails: connect ECONNREFUSED 10.1.2.3:6379 (redis://cache.internal:6379)',
        'readiness: redis passes again',
      ]);
    });
  });
});
