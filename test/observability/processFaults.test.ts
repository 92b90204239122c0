// Faults nothing in fwbot handled (issue 24): a promise rejection nobody awaits, an exception nobody
// catches. Each process's policy (src/observability/processFaults.ts) is checked on the real entry point
// in a child process. The bot meets the known case for real: Slack refuses the app token while
// @slack/socket-mode retries a reconnect, and the library's retry rejects with nobody awaiting it. The
// other faults are made from outside by a test-only module preloaded into the child
// (test/support/injectFault.ts), which production never loads.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { type FakeSocketMode, startFakeSocketMode } from '../support/fakeSocketMode.js';
import { freePort, type RedisServerHandle, startRedisServer } from '../support/redisServer.js';

const root = new URL('../../', import.meta.url);
const path = (relative: string) => fileURLToPath(new URL(relative, root));
const INJECT = path('test/support/injectFault.ts');
const REJECTED = 'a promise rejected with nothing to handle it';

interface Child {
  process: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the exit code once its output is read to the end. */
  exited: Promise<number | null>;
  /** Resolves once stdout or stderr contains `text`; rejects if the process exits first. */
  says(text: string, timeoutMs?: number): Promise<void>;
}

const children: ChildProcess[] = [];

function start(
  entry: string,
  args: string[],
  env: Record<string, string>,
  inject?: 'rejection' | 'exception',
) {
  const preload = inject ? ['--import', INJECT] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, path(entry), ...args], {
    cwd: fileURLToPath(root),
    env: { PATH: process.env.PATH ?? '', ...env, ...(inject ? { FWBOT_TEST_FAULT: inject } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const said: Child = {
    process: child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    async says(text, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(stdout + stderr).includes(text)) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(
            `exited (${child.exitCode ?? child.signalCode}) before saying "${text}":\n${stdout}${stderr}`,
          );
        if (Date.now() > deadline)
          throw new Error(`did not say "${text}" within ${timeoutMs} ms:\n${stdout}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return said;
}

/** The JSON log lines a process wrote on stdout whose message starts with `prefix`. */
function logLines(
  stdout: string,
  prefix: string,
): { level: number; msg: string; err?: { message?: string } }[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message?: string } })
    .filter((line) => line.msg.startsWith(prefix));
}

afterEach(() => {
  // A failed assertion must not leave a process behind.
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('long-running processes keep serving after a rejection nobody awaited', () => {
  let redis: RedisServerHandle;
  let sim: SimulatorHandle;
  let slack: FakeSlack;
  let socket: FakeSocketMode;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Its own Redis: the entry points use the production key prefix, which no other test may share.
    redis = await startRedisServer();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    slack = await startFakeSlack();
    socket = await startFakeSocketMode(slack);
    env = {
      REDIS_URL: redis.url,
      SCC_BASE_URL: sim.url,
      SCC_API_TOKEN: sim.tokens.superAdmin,
      SLACK_BOT_TOKEN: 'xoxb-faults-test',
      SLACK_APP_TOKEN: socket.appToken,
      SLACK_API_URL: slack.apiUrl,
      LOG_LEVEL: 'info',
    };
  });
  afterAll(async () => {
    await socket.stop();
    await slack.stop();
    await sim.stop();
    await redis.stop();
  });

  it('the bot, when Slack refuses the app token while Socket Mode retries a reconnect', async () => {
    const port = await freePort();
    const bot = start('src/entry/bot.ts', [], { ...env, PORT: String(port) });
    await bot.says('"msg":"fwbot is running"');
    await socket.connected(1);
    // Slack asks for a new connection; its first answer is a hiccup the library retries after 5 s, its
    // second refuses the token: the retry's promise rejects, and nothing in the library awaits it.
    let opened = 0;
    slack.serve('apps.connections.open', () =>
      ++opened === 1 ? { ok: false, error: 'internal_error' } : { ok: false, error: 'invalid_auth' },
    );
    socket.askToReconnect('refresh_requested');

    await bot.says(REJECTED);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

    expect(health.status).toBe(200);
    expect(bot.process.exitCode).toBeNull();
    const lines = logLines(bot.stdout, REJECTED);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]?.msg).toContain('invalid_auth');
    expect(lines[0]?.level).toBe(50);
    expect(metrics).toContain(`fwbot_unhandled_rejections_total ${lines.length}`);
    expect(bot.stderr).toBe('');
  }, 90_000);

  it('a worker, which logs it once, counts it, and stops gracefully afterwards', async () => {
    const port = await freePort();
    const worker = start(
      'src/entry/worker.ts',
      [],
      { ...env, PORT: String(port), FWBOT_TEST_FAULT_AFTER: `http://127.0.0.1:${port}/healthz` },
      'rejection',
    );
    await worker.says(REJECTED);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

    expect(health.status).toBe(200);
    const lines = logLines(worker.stdout, REJECTED);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toContain('injected: a background promise rejected');
    expect(lines[0]?.err?.message).toBe('injected: a background promise rejected');
    expect(metrics).toContain('fwbot_unhandled_rejections_total 1');

    worker.process.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 60_000);

  it('a worker stops after an exception nothing caught: logged, drained within its bound, exit 1', async () => {
    const port = await freePort();
    const worker = start(
      'src/entry/worker.ts',
      [],
      { ...env, PORT: String(port), FWBOT_TEST_FAULT_AFTER: `http://127.0.0.1:${port}/healthz` },
      'exception',
    );

    const code = await worker.exited;

    expect(code).toBe(1);
    const fatal = logLines(worker.stdout, 'an exception nothing caught');
    expect(fatal).toHaveLength(1);
    expect(fatal[0]?.level).toBe(60);
    expect(fatal[0]?.msg).toContain('injected: an exception nothing caught');
    expect(worker.stdout).toContain('"reason":"uncaught exception"');
    expect(worker.stdout).toContain('"code":1,"msg":"stopped"');
  }, 60_000);

  it('the simulator, which says it on stderr and answers as before', async () => {
    const port = await freePort();
    const simulator = start(
      'src/simulator/main.ts',
      ['--port', String(port)],
      { FWBOT_TEST_FAULT_AFTER: `http://127.0.0.1:${port}/_sim/state` },
      'rejection',
    );
    await simulator.says(REJECTED);
    const answer = await fetch(`http://127.0.0.1:${port}/_sim/state`);

    expect(answer.status).toBe(200);
    expect(simulator.stderr.trim().split('\n')).toEqual([
      `simulator: ${REJECTED} (a bug; fwbot keeps serving): injected: a background promise rejected`,
    ]);
  }, 60_000);
});

describe('the CLI', () => {
  it('ends at a rejection nobody awaited, with one sentence on stderr and the internal-failure code', async () => {
    const sim = await startSimulator({ port: 0, clock: 'manual' });
    try {
      const cli = start(
        'src/entry/cli.ts',
        ['help'],
        { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin },
        'rejection',
      );

      expect(await cli.exited).toBe(1);
      expect(cli.stderr).toBe(
        'fwbot failed: a promise rejected with nothing to handle it (a bug): injected: a background promise rejected\n',
      );
    } finally {
      await sim.stop();
    }
  }, 30_000);
});
