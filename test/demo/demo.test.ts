// `npm run demo` as a person runs it, driven through its stdin and stdout: it starts its own
// redis-server under ./.fwbot (append-only), the simulator and the console; a read, a tenant creation
// followed to its end, an interface delete asked by alice and approved by bob; /healthz, /readyz and
// /metrics on PORT; SIGTERM stops it cleanly (exit 0) with every step of the drain in its log, and the
// Redis data left on disk.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator } from '../../src/simulator/index.js';
import { freePort, redisServerAvailable } from '../support/redisServer.js';

const root = new URL('../../', import.meta.url);
const tsx = fileURLToPath(new URL('node_modules/tsx/dist/loader.mjs', root));
const demo = fileURLToPath(new URL('src/entry/demo.ts', root));

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
    const approved = await run.waitFor(
      /@alice staged the deletion of VLAN interface iot \(Vlan20\) on asa-hq-01/,
      from,
    );
    expect(approved).toMatch(/Approved by @bob/);

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      // The same checks as the bot's and a worker's: the demo is assembled as they are (app/assemble.ts).
      checks: [
        { name: 'redis', ok: true },
        { name: 'redis-topology', ok: true },
        { name: 'scc:default', ok: true },
        { name: 'alerts', ok: true },
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

  it('keeps the simulator’s world across a restart: a tenant made and an interface deleted on approval', async () => {
    const home = mkdtempSync(join(dir, 'restart-'));
    const start = async () => {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        PORT: String(await freePort()),
        FWBOT_DEMO_SPEED: '1000',
      };
      const run = new Demo(
        spawn(process.execPath, ['--import', tsx, demo], { cwd: home, env, stdio: 'pipe' }),
      );
      return { run, banner: await run.waitFor(/alice> $/) };
    };
    const stop = async (run: Demo) => {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    };

    const first = await start();
    expect(first.banner).toMatch(
      /World: +new from the seed, kept in \.fwbot\/simulator-world\.v8 across restarts/,
    );
    let from = first.run.type('tenants create acme-kept');
    await first.run.waitFor(/done\. SCC finished transaction/, from);
    from = first.run.type('interfaces delete asa-hq-01 Vlan20');
    await first.run.waitFor(/Asked for approval/, from);
    from = first.run.type('/as bob');
    await first.run.waitFor(/bob> $/, from);
    from = first.run.type('1');
    await first.run.waitFor(/\(y\/N\) $/, from);
    from = first.run.type('y');
    await first.run.waitFor(/staged the deletion of VLAN interface iot \(Vlan20\)/, from);
    // Left pending across the restart: Redis keeps the request, the console shows its card again.
    from = first.run.type('/as alice');
    await first.run.waitFor(/alice> $/, from);
    from = first.run.type('interfaces delete asa-hq-01 Vlan10');
    await first.run.waitFor(/Asked for approval/, from);
    await stop(first.run);

    const second = await start();
    try {
      expect(second.banner).toMatch(
        /World: +restored from \.fwbot\/simulator-world\.v8, saved \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
      );
      from = second.run.type('tenants list');
      expect(await second.run.waitFor(/alice> $/, from)).toMatch(/acme-kept/);
      from = second.run.type('interfaces asa-hq-01');
      const interfaces = await second.run.waitFor(/alice> $/, from);
      expect(interfaces).toMatch(/Vlan10/);
      expect(interfaces).not.toMatch(/Vlan20/);

      expect(second.banner).toMatch(/1 approval is still pending from before the restart/);
      from = second.run.type('/approvals');
      expect(await second.run.waitFor(/alice> $/, from)).toMatch(
        /#1 .*delete the VLAN interface.*guest \(Vlan10\).*asa-hq-01/,
      );
      from = second.run.type('/as bob');
      await second.run.waitFor(/bob> $/, from);
      from = second.run.type('/approve 1');
      await second.run.waitFor(/\(y\/N\) $/, from);
      from = second.run.type('y');
      await second.run.waitFor(/staged the deletion of VLAN interface guest \(Vlan10\)/, from);
      // The earlier run's card is the one updated (its ts is not given again to a message of this run).
      await second.run.waitFor(/✅ Approved by @bob at .*staged the deletion of VLAN interface guest/, from);
      from = second.run.type('/approvals');
      await second.run.waitFor(/No approvals are pending in #console\./, from);
    } finally {
      await stop(second.run);
    }
  }, 120_000);

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

describe('npm run demo against a configured SCC', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fwbot-demo-scc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the demo to its end with `env` (stdin closed) and says how it ended. */
  async function refused(env: NodeJS.ProcessEnv): Promise<Demo> {
    const child = spawn(process.execPath, ['--import', tsx, demo], { cwd: dir, env, stdio: 'pipe' });
    const run = new Demo(child);
    child.stdin.end();
    expect(await run.exited).toBe(2);
    return run;
  }

  it('refuses to let everyone in on a real SCC (SCC_API_TOKEN) without a policy, before starting anything', async () => {
    const run = await refused({ PATH: process.env.PATH, SCC_API_TOKEN: 'eyJhbGciOi.test.token', PORT: '1' });
    expect(run.stderr.trim()).toBe(
      'The demo lets everyone in only on its built-in simulator, and SCC profile `default` is configured, so it ' +
        'needs a role policy: add a `policy` section to the profiles file named by FWBOT_PROFILES (see ' +
        'docs/operating/configuration.md), or unset SCC_API_TOKEN and FWBOT_PROFILES to use the simulator.',
    );
    expect(run.stdout).toBe('');
    expect(existsSync(join(dir, '.fwbot'))).toBe(false);
  });

  it('refuses the same with a profiles file that names SCC profiles but has no policy', async () => {
    const file = join(dir, 'no-policy.yaml');
    writeFileSync(
      file,
      'profiles:\n  acme:\n    region: eu\n    token_env: ACME_TOKEN\n  lab:\n    base_url: http://127.0.0.1:4010\n    token_env: LAB_TOKEN\n',
    );
    const run = await refused({
      PATH: process.env.PATH,
      FWBOT_PROFILES: file,
      ACME_TOKEN: 'acme-token',
      LAB_TOKEN: 'lab-token',
      PORT: '1',
    });
    expect(run.stderr).toMatch(/SCC profiles `acme`, `lab` are configured, so it needs a role policy/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.runIf(redisServerAvailable())(
    'runs with the profiles file’s policy, which grants nobody more than it says',
    async () => {
      const sim = await startSimulator({ port: 0, clock: 'real', speed: 1000 });
      try {
        const file = join(dir, 'with-policy.yaml');
        writeFileSync(
          file,
          `profiles:\n  default:\n    base_url: ${sim.url}\n    token_env: LAB_TOKEN\n` +
            'policy:\n  workspace:\n    viewer: [U0DEMOALICE]\n',
        );
        const port = await freePort();
        const env: NodeJS.ProcessEnv = {
          PATH: process.env.PATH,
          FWBOT_PROFILES: file,
          LAB_TOKEN: DEMO_TOKENS.superAdmin,
          PORT: String(port),
        };
        const child = spawn(process.execPath, ['--import', tsx, demo], { cwd: dir, env, stdio: 'pipe' });
        const run = new Demo(child);
        const banner = await run.waitFor(/alice> $/);
        expect(banner).toMatch(/SCC: +profiles default/);

        let from = run.type('tenants list');
        expect(await run.waitFor(/alice> $/, from)).toMatch(/contoso-eu/);
        from = run.type('tenants create acme-policy-test');
        expect(await run.waitFor(/alice> $/, from)).toMatch(/needs the \*?operator\*? role/);

        child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
        const calls = sim.requestLog.list().map((entry) => entry.operationId ?? entry.method);
        expect(calls).toContain('getMspManagedTenants');
        expect(calls).not.toContain('createTenant');
      } finally {
        await sim.stop();
      }
    },
    90_000,
  );
});
