// A whole fwbot process (the demo: bot surfaces, workers, queue observers, audit tail) loses its Redis
// and gets it back. Before RedisHealth, 20 s without Redis printed 2,214 lines of ioredis and BullMQ
// stack traces on stderr and 270 "worker error" lines in the log; now: nothing on stderr, a handful of
// lines in the log, /readyz 503 with the reason while it lasts (on METRICS_PORT; PORT's names no host) and
// 200 once Redis is back.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, redisServerAvailable, startRedisServer } from '../support/redisServer.js';

const root = new URL('../../', import.meta.url);
const tsx = fileURLToPath(new URL('node_modules/tsx/dist/loader.mjs', root));
const demo = fileURLToPath(new URL('src/entry/demo.ts', root));

interface Readiness {
  ready: boolean;
  checks: { name: string; ok: boolean; detail?: string }[];
}

async function readyz(port: number): Promise<{ status: number; body: Readiness } | undefined> {
  // Polled on METRICS_PORT, which answers the reasons (PORT's /readyz only names the checks).
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    return { status: response.status, body: (await response.json()) as Readiness };
  } catch {
    return undefined;
  }
}

/** Polls /readyz until `wanted` holds, for up to 60 s (a loaded CI machine starts the demo slowly). */
async function readyzUntil(
  port: number,
  wanted: (answer: { status: number; body: Readiness }) => boolean,
): Promise<{ status: number; body: Readiness }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await readyz(port);
    if (answer && wanted(answer)) return answer;
    if (Date.now() > deadline) throw new Error(`/readyz never matched; last: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.runIf(redisServerAvailable())('a running fwbot whose Redis goes away and comes back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fwbot-outage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says so in a few log lines and /readyz, prints nothing on stderr, and is ready again after', async () => {
    const redisPort = await freePort();
    let redis = await startRedisServer({ port: redisPort });
    const publicPort = await freePort();
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      PORT: String(publicPort),
      METRICS_PORT: String(port),
      REDIS_URL: redis.url,
      FWBOT_DEMO_SPEED: '1000',
    };
    const child = spawn(process.execPath, ['--import', tsx, demo], { cwd: dir, env, stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await readyzUntil(port, (a) => a.status === 200);
      await redis.stop();
      // For the first moments only the connection's state is known ("reconnecting"); the reason comes
      // with its first failed attempt.
      const down = await readyzUntil(
        port,
        (a) =>
          a.status === 503 && /^Redis lost/.test(a.body.checks.find((c) => c.name === 'redis')?.detail ?? ''),
      );
      const check = down.body.checks.find((c) => c.name === 'redis');
      expect(check?.ok).toBe(false);
      expect(check?.detail).toMatch(
        new RegExp(
          `^Redis lost \\d+ s ago, reconnecting \\(\\d+ attempts so far\\): Nothing answers at ${redis.url}`,
        ),
      );
      const open = await (await fetch(`http://127.0.0.1:${publicPort}/readyz`)).text();
      expect(open).not.toContain(redis.url.replace('redis://', ''));
      const openBody = JSON.parse(open) as Readiness;
      expect(openBody.ready).toBe(false);
      expect(openBody.checks.find((c) => c.name === 'redis')).toEqual({ name: 'redis', ok: false });
      // Long enough for dozens of reconnect attempts by each of the process's connections.
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      redis = await startRedisServer({ port: redisPort });
      await readyzUntil(port, (a) => a.status === 200);

      const log = readFileSync(join(dir, '.fwbot', 'fwbot.log'), 'utf8');
      const messages = log
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      // Readiness says once that a check fails and once that it passes again (redis, redis-topology).
      const readiness = messages.filter((m) => m.startsWith('readiness:'));
      expect(readiness.filter((m) => m.startsWith('readiness: redis fails: '))).toHaveLength(1);
      expect(readiness.filter((m) => m === 'readiness: redis passes again')).toHaveLength(1);
      expect(readiness.length).toBeLessThanOrEqual(4);
      const about = messages.filter(
        (m) => !m.startsWith('readiness:') && /Redis|worker error|queue/i.test(m),
      );
      expect(about.filter((m) => m.startsWith('Redis lost'))).toHaveLength(1);
      expect(about.filter((m) => m.startsWith('Redis is back'))).toHaveLength(1);
      expect(about.filter((m) => m.startsWith('Redis: reconnecting')).length).toBeLessThanOrEqual(3);
      expect(about.length).toBeLessThanOrEqual(5);
      expect(stderr).toBe('');
    } finally {
      child.kill('SIGTERM');
      await exited;
      await redis.stop();
    }
  }, 150_000);
});
