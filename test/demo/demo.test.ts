// `npm run demo` as a person runs it, driven through its stdin and stdout: it starts its own
// redis-server under ./.fwbot (append-only), the simulator and the console; a read, a tenant creation
// followed to its end, an interface delete asked by alice and approved by bob; /healthz, /readyz and
// /metrics on PORT; SIGTERM stops it cleanly (exit 0) with every step of the drain in its log, and the
// Redis data left on disk.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, redisServerAvailable } from '../support/redisServer.js';

const root = new URL('../../', import.meta.url);
const tsx = fileURLToPath(new URL('node_modules/tsx/dist/loader.mjs', root));
const demo = fileURLToPath(new URL('src/demo/main.ts', root));

class Demo {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  readonly #waiters: (() => void)[] = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      for (const wake of this.#waiters.splice(0)) wake();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** Resolves once stdout (from `from` on) matches; fails with what was printed after `timeoutMs`. */
  async waitFor(pattern: RegExp, from = 0, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.stdout.slice(from);
      if (pattern.test(text)) return text;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`no ${pattern} on stdout; got:\n${text}\nstderr:\n${this.stderr}`);
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, deadline - Date.now()).unref();
      });
    }
  }

  type(line: string): number {
    const from = this.stdout.length;
    this.child.stdin.write(`${line}\n`);
    return from;
  }
}

describe.runIf(redisServerAvailable())('npm run demo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fwbot-demo-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the console end to end, serves health and metrics, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, PORT: String(port), FWBOT_DEMO_SPEED: '1000' };
    const child = spawn(process.execPath, ['--import', tsx, demo], { cwd: dir, env, stdio: 'pipe' });
    const run = new Demo(child);

    const banner = await run.waitFor(/alice> $/);
    expect(banner).toMatch(/SCC: +simulator at http:\/\/127\.0\.0\.1:\d+/);
    expect(banner).toMatch(/Redis: +redis:\/\/127\.0\.0\.1:\d+ \(data in .*\.fwbot\/redis, append-only\)/);
    expect(banner).toMatch(/Slack: +not connected/);

    let from = run.type('tenants list');
    expect(await run.waitFor(/alice> $/, from)).toMatch(/contoso-eu\s+Contoso Europe\s+EU\s+2/);

    from = run.type('tenants create acme-demo-test');
    const followed = await run.waitFor(/done\. SCC finished transaction/, from);
    expect(followed).toMatch(/↳ in the thread of “@alice asked to create tenant acme-demo-test/);

    from = run.type('interfaces delete asa-hq-01 Vlan20');
    expect(await run.waitFor(/Asked for approval/, from)).toMatch(/\[1\] Approve {2}\[2\] Reject/);
    from = run.type('/as bob');
    await run.waitFor(/bob> $/, from);
    from = run.type('1');
    await run.waitFor(/Approve this request\?.*\(y\/N\) $/, from);
    from = run.type('y');
    const approved = await run.waitFor(/@alice deleted VLAN interface iot \(Vlan20\) on asa-hq-01/, from);
    expect(approved).toMatch(/Approved by @bob/);

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: [
        { name: 'redis', ok: true },
        { name: 'scc:default', ok: true },
      ],
    });
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/fwbot_commands_total\{operation="tenants\.list",outcome="ok"\} 1/);
    expect(metrics).toMatch(/fwbot_scc_calls_total\{operation="createTenant",status="202"\} 1/);
    expect(metrics).toMatch(/fwbot_approvals_total\{outcome="executed"\} 1/);

    child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const log = readFileSync(join(dir, '.fwbot', 'fwbot.log'), 'utf8');
    for (const step of [
      'console',
      'readiness',
      'workers',
      'approvals',
      'redis',
      'redis-server',
      'simulator',
    ]) {
      expect(log).toContain(`"step":"${step}"`);
    }
    expect(log).toMatch(/"reason":"SIGTERM"/);
    expect(log).toMatch(/"code":0,"msg":"stopped"/);
    expect(log).not.toContain('sim-super-admin');
    expect(existsSync(join(dir, '.fwbot', 'redis', 'appendonlydir'))).toBe(true);
  }, 90_000);

  it('says exactly what to install when redis-server is missing and it cannot install it', async () => {
    // Only node on PATH: no redis-server, and no apt-get to install it with.
    const bin = join(dir, 'only-node');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const env: NodeJS.ProcessEnv = { PATH: bin, FWBOT_DEMO_SPEED: '1000', PORT: '1' };
    const child = spawn(process.execPath, ['--import', tsx, demo], { cwd: dir, env, stdio: 'pipe' });
    const run = new Demo(child);
    child.stdin.end();
    expect(await run.exited).toBe(3);
    expect(run.stderr).toMatch(/redis-server is not installed/);
    expect(run.stderr).toMatch(/sudo apt-get install -y redis-server/);
    expect(run.stderr).toMatch(/REDIS_URL=redis:\/\/127\.0\.0\.1:6379 npm run demo/);
  });
});
