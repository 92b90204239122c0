// The demo's Redis: REDIS_URL when given; otherwise a redis-server of its own with its data under
// ./.fwbot/ (append-only, so approvals and followed work survive a restart of the demo). When
// redis-server is missing, Debian's package is installed if this process can (root with apt-get);
// otherwise the error says exactly what to install.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { checkRedis } from '../redis/check.js';

export interface DemoRedis {
  url: string;
  /** True when the demo started this redis-server (and stops it on the way out). */
  owned: boolean;
  /** Where the data lives, when owned. */
  dataDir?: string;
  stop(): Promise<void>;
}

export class DemoSetupError extends Error {
  override readonly name = 'DemoSetupError';
}

export const REDIS_INSTALL_ADVICE = [
  'fwbot needs Redis, and redis-server is not installed. Either:',
  '  • install it:  sudo apt-get install -y redis-server   (Debian/Ubuntu)',
  '                 brew install redis                      (macOS)',
  '  • or point REDIS_URL at a Redis you have, e.g.',
  '                 docker run -d -p 6379:6379 redis:7 && REDIS_URL=redis://127.0.0.1:6379 npm run demo',
].join('\n');

function hasCommand(command: string, args: readonly string[] = ['--version']): boolean {
  const probe = spawnSync(command, args, { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/** Installs Debian's redis-server when running as root where apt-get exists; says why not otherwise. */
export function installRedisIfPossible(say: (line: string) => void): void {
  const root = process.getuid?.() === 0;
  if (!root || !hasCommand('apt-get', ['--version'])) throw new DemoSetupError(REDIS_INSTALL_ADVICE);
  say('redis-server is missing: installing Debian’s package (apt-get install redis-server)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'redis-server'],
  ]) {
    const run = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'pipe'], env, encoding: 'utf8' });
    if (run.status !== 0) {
      throw new DemoSetupError(`apt-get ${args.join(' ')} failed:\n${run.stderr}\n\n${REDIS_INSTALL_ADVICE}`);
    }
  }
  if (!hasCommand('redis-server')) throw new DemoSetupError(REDIS_INSTALL_ADVICE);
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Resolves when redis-server says it is ready; rejects when it exits or stays silent too long. */
function untilReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolveReady, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new DemoSetupError(`redis-server did not start within ${timeoutMs} ms:\n${output.trim()}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolveReady();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new DemoSetupError(`redis-server exited with code ${code}:\n${output.trim()}`));
    });
  });
}

export interface DemoRedisOptions {
  /** REDIS_URL, when the environment gives one. */
  url?: string | undefined;
  /** Default ./.fwbot/redis */
  dataDir?: string;
  say: (line: string) => void;
}

export async function ensureDemoRedis(options: DemoRedisOptions): Promise<DemoRedis> {
  if (options.url) {
    // A Redis of the user's: one sentence and exit 3 within seconds when it is not there (demo main).
    await checkRedis(options.url, redactedUrl(options.url));
    return { url: options.url, owned: false, stop: async () => {} };
  }
  if (!hasCommand('redis-server')) installRedisIfPossible(options.say);
  const dataDir = resolve(options.dataDir ?? '.fwbot/redis');
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dataDir];
  args.push('--appendonly', 'yes', '--save', '', '--daemonize', 'no', '--loglevel', 'notice');
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await untilReady(child, 10_000);
  // Redis keeps logging; nobody reads it past readiness, so let it drain.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    owned: true,
    dataDir,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      // SIGTERM: Redis flushes its append-only file and exits.
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The URL as it may be shown: no password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
