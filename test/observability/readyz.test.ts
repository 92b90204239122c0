// /readyz follows its dependencies: ready while Redis answers, not ready (503, naming Redis) once the
// Redis server goes away, and not ready while draining; /healthz stays up throughout.
import { once } from 'node:events';
import { Redis } from 'ioredis';
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
    side = createHttpSide({ port: 0, host: '127.0.0.1', readinessChecks: [redisCheck(redis)], metrics });
    const port = await side.listen();

    const before = await get(port, '/readyz');
    expect(before.status).toBe(200);
    expect(JSON.parse(before.body)).toMatchObject({ ready: true, checks: [{ name: 'redis', ok: true }] });

    const closed = once(redis, 'close');
    await server.stop();
    server = undefined;
    await closed;

    const after = await get(port, '/readyz');
    expect(after.status).toBe(503);
    const body = JSON.parse(after.body) as ReadyBody;
    expect(body.ready).toBe(false);
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
    side = createHttpSide({ port: 0, host: '127.0.0.1', readiness, metrics });
    const port = await side.listen();
    const answer = await get(port, '/readyz');
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
});
