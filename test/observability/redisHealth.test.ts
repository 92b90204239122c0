// A Redis lost while fwbot runs: one line when it goes (with the reason as a sentence), reconnecting lines
// spaced out, one line when it is back, a readiness reason in between, nothing printed by ioredis or
// BullMQ on their own, and the queues working again afterwards. First against a scripted connection and a
// clock the test holds (every transition, exactly), then against a real redis-server that is stopped and
// started again on the same port.
import { EventEmitter } from 'node:events';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isRedisConnectionError, RedisHealth } from '../../src/observability/redisHealth.js';
import { freePort, redisServerAvailable, startRedisServer } from '../support/redisServer.js';

interface Line {
  level: number;
  msg: string;
}

function capturingLog(): { log: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const log = pino(
    { level: 'debug' },
    {
      write(chunk: string) {
        const { level, msg } = JSON.parse(chunk) as Line;
        lines.push({ level, msg });
      },
    },
  );
  return { log, lines };
}

function refused(port = 6399): Error {
  return Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: 'ECONNREFUSED' });
}

/** Polls `condition` every 50 ms for up to `timeoutMs` (generous: CI machines are loaded). */
async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('RedisHealth (scripted connection, manual clock)', () => {
  it('logs the loss once, spaces the reconnecting lines out, and logs the return once', async () => {
    let now = 1_000_000;
    const { log, lines } = capturingLog();
    const health = new RedisHealth({ log, where: 'redis://127.0.0.1:6399', now: () => now });
    const connection = Object.assign(new EventEmitter(), { status: 'ready' });
    const worker = new EventEmitter();
    health.watch('jobs', connection);
    health.absorb('worker track', worker);
    const ping = { status: 'ready', ping: async () => 'PONG' };
    await expect(health.readinessCheck(ping).check(new AbortController().signal)).resolves.toBe(undefined);

    // ioredis: close, then an error and a reconnect every 2 s; BullMQ re-emits each error.
    connection.emit('close');
    expect(health.up).toBe(true); // a close alone is not an outage
    for (let attempt = 1; attempt <= 60; attempt += 1) {
      connection.emit('error', refused());
      worker.emit('error', refused());
      connection.emit('reconnecting', 2_000);
      now += 2_000;
    }
    expect(health.up).toBe(false);
    expect(health.outages).toBe(1);
    const lost = lines.filter((l) => l.msg.startsWith('Redis lost'));
    expect(lost).toHaveLength(1);
    expect(lost[0]?.msg).toMatch(/Nothing answers at redis:\/\/127\.0\.0\.1:6399/);
    expect(lost[0]?.msg).toMatch(/\/readyz answers 503/);
    // 120 s away, lines at 0, 5, 15, 35 and 75 s: the spacing doubles.
    const reconnecting = lines.filter((l) => l.msg.startsWith('Redis: reconnecting'));
    expect(reconnecting.map((l) => l.msg.match(/away (\d+) s/)?.[1])).toEqual(['0', '6', '16', '36', '76']);
    expect(reconnecting[0]?.msg).toMatch(/next attempt in 2000 ms/);
    await expect(health.readinessCheck(ping).check(new AbortController().signal)).rejects.toThrow(
      /^Redis lost 120 s ago, reconnecting \(60 attempts so far\): Nothing answers at/,
    );

    // The password was changed meanwhile: a new reason is a new line.
    connection.emit('error', new Error('WRONGPASS invalid username-password pair or user is disabled.'));
    expect(lines.filter((l) => l.msg.startsWith('Redis still unavailable'))).toHaveLength(1);
    expect(health.reason).toMatch(/refused the credentials/);

    connection.emit('ready');
    expect(health.up).toBe(true);
    const back = lines.filter((l) => l.msg.startsWith('Redis is back'));
    expect(back).toHaveLength(1);
    expect(back[0]?.msg).toBe('Redis is back after 120 s (60 reconnect attempts); work resumes.');
    expect(lines).toHaveLength(1 + 5 + 1 + 1);
  });

  it('waits for every watched connection before saying Redis is back', () => {
    const { log, lines } = capturingLog();
    const health = new RedisHealth({ log, where: 'Redis' });
    const a = Object.assign(new EventEmitter(), { status: 'ready' });
    const b = Object.assign(new EventEmitter(), { status: 'ready' });
    health.watch('a', a);
    health.watch('b', b);
    a.emit('error', refused());
    b.emit('error', refused());
    a.emit('ready');
    expect(health.up).toBe(false);
    b.emit('ready');
    expect(health.up).toBe(true);
    expect(lines.map((l) => l.msg.slice(0, 14))).toEqual(['Redis lost: No', 'Redis is back ']);
  });

  it('still logs errors that are not about the connection, each time', () => {
    const { log, lines } = capturingLog();
    const health = new RedisHealth({ log, where: 'Redis' });
    const worker = new EventEmitter();
    health.absorb('worker notify', worker);
    worker.emit('error', new Error('Missing lock for job 7. moveToFinished'));
    worker.emit('error', new Error('Missing lock for job 8. moveToFinished'));
    expect(health.up).toBe(true);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'Redis error'],
      [50, 'Redis error'],
    ]);
  });

  it('tells connection errors from others', () => {
    expect(isRedisConnectionError(refused())).toBe(true);
    expect(isRedisConnectionError(new Error('Connection is closed.'))).toBe(true);
    expect(isRedisConnectionError(Object.assign(new Error('read'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRedisConnectionError(new Error('Protocol error, got "H" as reply type byte'))).toBe(true);
    expect(isRedisConnectionError(new Error('ERR wrong number of arguments'))).toBe(false);
    expect(isRedisConnectionError(new Error('Missing lock for job 7'))).toBe(false);
  });
});

describe.runIf(redisServerAvailable())('RedisHealth (a real redis-server stopped and started)', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    vi.restoreAllMocks();
  });

  it('reports the outage in a few lines, answers readiness with the reason, and resumes the queues', async () => {
    const port = await freePort();
    let server = await startRedisServer({ port });
    closers.push(() => server.stop());
    const { log, lines } = capturingLog();
    const printed: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
    });
    const health = new RedisHealth({ log, where: server.url });
    const redis = new Redis(server.url, { maxRetriesPerRequest: null });
    health.watch('jobs', redis);
    const prefix = `health-${port}`;
    const queue = new Queue('outage', { connection: redis, prefix });
    health.absorb('queue outage', queue);
    const done: string[] = [];
    const worker = new Worker(
      'outage',
      async (job) => {
        done.push(String(job.data.n));
      },
      { connection: redis, prefix },
    );
    health.absorb('worker outage', worker);
    closers.push(
      () => redis.quit(),
      () => queue.close(),
      () => worker.close(),
    );
    await worker.waitUntilReady();
    await queue.add('one', { n: 1 });
    await until(() => done.includes('1'), 'the first job');

    await server.stop();
    await until(() => !health.up, 'the outage to be noticed');
    // Several reconnect attempts (ioredis backs off to 2 s), each with errors from every connection.
    await until(() => /\((\d+) attempts/.exec(health.reason ?? '')?.[1] !== '0', 'reconnect attempts');
    await until(() => Number(/\((\d+) attempts/.exec(health.reason ?? '')?.[1]) >= 4, '4 attempts');
    const probe = health.readinessCheck(redis);
    await expect(probe.check(new AbortController().signal)).rejects.toThrow(
      new RegExp(
        `^Redis lost \\d+ s ago, reconnecting \\(\\d+ attempts so far\\): Nothing answers at ${server.url}`,
      ),
    );
    const during = lines.length;
    expect(lines.filter((l) => l.msg.startsWith('Redis lost'))).toHaveLength(1);
    expect(during).toBeLessThanOrEqual(4); // lost + reconnecting lines at 0, 5 and 15 s at most
    expect(printed).toEqual([]);

    server = await startRedisServer({ port });
    await until(() => health.up, 'Redis to be back');
    expect(lines.filter((l) => l.msg.startsWith('Redis is back'))).toHaveLength(1);
    await expect(probe.check(new AbortController().signal)).resolves.toBe(undefined);
    await queue.add('two', { n: 2 });
    await until(() => done.includes('2'), 'a job queued after the return');
    expect(printed).toEqual([]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 90_000);
});
