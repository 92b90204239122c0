// Starts a throw-away redis-server for the test run: free loopback port, temporary directory,
// no persistence. Used by vitest's global setup and by any script that needs a private Redis.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_INSTALL_HINT =
  'redis-server is not on PATH. Install it with: apt-get update && apt-get install -y redis-server';

export interface RedisServerHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export function redisServerAvailable(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a probe server'));
        return;
      }
      const { port } = address;
      server.close(() => resolve(port));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

/** The pid of the redis-server answering on `port`, from INFO; undefined when none answers in time. */
async function answeringPid(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let seen = '';
    const done = (pid: number | undefined) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(1_000, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.connect(port, '127.0.0.1', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /process_id:(\d+)\r\n/.exec(seen);
      if (match) done(Number(match[1]));
      else if (seen.startsWith('-')) done(undefined);
    });
  });
}

export interface StartRedisOptions {
  /** Keep data in this directory with append-only persistence instead of a throw-away one. */
  dataDir?: string;
  appendOnly?: boolean;
  port?: number;
}

/** Another process took the free port between the probe and redis-server's bind. */
class PortTaken extends Error {}

/**
 * Starts a redis-server and makes sure the one answering is it: on a shared machine another process can
 * take a probed free port before redis-server binds it, and a run would then talk to someone else's
 * Redis (and hang when that one stops). A taken port is retried on a fresh one, unless it was given.
 */
export async function startRedisServer(options: StartRedisOptions = {}): Promise<RedisServerHandle> {
  if (!redisServerAvailable()) throw new Error(REDIS_INSTALL_HINT);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(options, options.port ?? (await freePort()));
    } catch (error) {
      if (!(error instanceof PortTaken) || options.port !== undefined || attempt >= 5) throw error;
    }
  }
}

async function startOnce(options: StartRedisOptions, port: number): Promise<RedisServerHandle> {
  const ownDir = options.dataDir === undefined;
  const dir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'fwbot-redis-')));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.appendOnly ? 'yes' : 'no',
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
  ];
  const child: ChildProcess = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null) {
      throw new Error(`redis-server exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer on port ${port} within 10 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const pid = await answeringPid(port);
  if (pid !== child.pid) {
    child.kill('SIGKILL');
    if (ownDir) await rm(dir, { recursive: true, force: true });
    throw new PortTaken(
      `port ${port} is answered by another redis-server (pid ${pid ?? 'unknown'}), not the one started (pid ${child.pid})`,
    );
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (ownDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
