import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandIntake } from '../../src/jobs/commandQueue.js';
import { createJobs } from '../../src/jobs/workers.js';
import { createSccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { RedisInstallations } from '../../src/slack/installations.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { freePort, type RedisServerHandle, startRedisServer } from '../support/redisServer.js';
import { finalReply, quietLog, text, thread } from './support/harness.js';

const ENTRY = fileURLToPath(new URL('../../src/entry/worker.ts', import.meta.url));
const SLACK_BOT_TOKEN = 'xoxb-0000-test';
const SLACK_APP_TOKEN = 'xapp-0000-test';
/** Single-workspace mode, in Socket Mode: one bot token for everything. */
const ONE_WORKSPACE = { SLACK_BOT_TOKEN, SLACK_APP_TOKEN };

interface WorkerProcess {
  readonly child: ChildProcess;
  /** Everything it wrote so far: stdout (the JSON log) and stderr. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** Resolves once it logged `worker ready`; rejects if it exits first. */
  ready(): Promise<void>;
}

describe('npm run worker (src/entry/worker.ts)', () => {
  let redisServer: RedisServerHandle;
  let sim: SimulatorHandle;
  let slack: FakeSlack;
  const started: ChildProcess[] = [];

  /** The real entry, as `npm run worker` starts it, on this run's Redis, simulator and fake Slack. */
  function startWorker(
    port: number,
    more: Record<string, string> = {},
    slackEnv: Record<string, string> = ONE_WORKSPACE,
  ): WorkerProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
      env: {
        ...more,
        PATH: process.env.PATH,
        REDIS_URL: redisServer.url,
        SCC_BASE_URL: sim.url,
        SCC_API_TOKEN: sim.tokens.superAdmin,
        ...slackEnv,
        SLACK_API_URL: slack.apiUrl,
        PORT: String(port),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // 'close', not 'exit': the output is read to its end by then.
    const exited = once(child, 'close').then(([code]) => code as number | null);
    return {
      child,
      get stdout() {
        return stdout;
      },
      get stderr() {
        return stderr;
      },
      exited,
      ready: () =>
        new Promise<void>((resolve, reject) => {
          const seen = () => {
            if (stdout.includes('"msg":"worker ready"')) resolve();
          };
          child.stdout?.on('data', seen);
          seen();
          void exited.then((code) =>
            reject(new Error(`worker exited (${code}) before it was ready:\n${stdout}${stderr}`)),
          );
        }),
    };
  }

  beforeAll(async () => {
    // Its own Redis: the entry uses the production prefix, which no other test may share.
    redisServer = await startRedisServer();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    slack = await startFakeSlack();
  });
  afterAll(async () => {
    // A failed assertion must not leave a worker behind.
    for (const child of started) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await slack.stop();
    await sim.stop();
    await redisServer.stop();
  });

  it('reads the environment, reports in threads, and stops gracefully on SIGTERM', async () => {
    const worker = startWorker(await freePort());
    await worker.ready();

    const jobs = createJobs({ redisUrl: redisServer.url, logger: quietLog });
    const fmc = sim.deviceUid('cdfmc-acme');
    const scc = createSccClient({ baseUrl: sim.url, token: sim.tokens.superAdmin });
    const sent = await scc.gateway.execute(
      fmc,
      [{ method: 'GET', link: '/api/fmc_platform/v1/info/serverversion' }],
      {
        async: true,
      },
    );
    sim.clock.advance(10_000); // the device has answered
    const where = thread();
    await jobs.tracker.follow(
      { kind: 'gateway', requestId: String(sent.requestId), deviceUid: fmc, label: 'version' },
      where,
    );
    const reply = await finalReply(slack, where, 15_000);
    await jobs.close();
    await scc.close();

    worker.child.kill('SIGTERM');
    const code = await worker.exited;

    const output = worker.stdout;
    expect(text(reply)).toContain('*version*: the device answered');
    expect(code).toBe(0);
    // The bot's bounded shutdown: no new work, the jobs in hand finish, then the connections close.
    expect(output).toContain('"msg":"shutting down: no new work, finishing what is in hand"');
    expect(output).toMatch(/"step":"workers".*"msg":"shutdown step done"/);
    expect(output).toContain('"code":0,"msg":"stopped"');
    // Not ready before anything else stops; the probes' server closes last.
    const steps = [...output.matchAll(/"step":"([^"]+)"/g)].map((match) => match[1]);
    expect(steps[0]).toBe('readiness');
    expect(steps.at(-1)).toBe('http');
  }, 30_000);

  describe('on PORT, like the bot', () => {
    let port: number;
    let worker: WorkerProcess;
    beforeAll(async () => {
      port = await freePort();
      worker = startWorker(port);
      await worker.ready();
    });
    afterAll(async () => {
      worker.child.kill('SIGTERM');
      await worker.exited;
    });
    const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);

    it('serves /healthz, /readyz and /metrics, counting the commands it runs', async () => {
      const health = await get('/healthz');
      const ready = await get('/readyz');
      const report = (await ready.json()) as { ready: boolean; checks: { name: string }[] };

      const intake = createCommandIntake({ redisUrl: redisServer.url, prefix: 'fwbot', log: quietLog });
      await intake.ready();
      const responseUrl = slack.responseUrl();
      await intake.submit({
        call: { kind: 'invocation', operationId: 'devices', raw: {}, commandText: '/fw devices' },
        requester: { userId: 'U0VIEWER', channelId: 'C0WORKER1' },
        triggerId: `trigger-${randomUUID()}`,
        responseUrl,
        receivedAt: Date.now(),
      });
      const answered = responseUrl.split('/response/')[1];
      await slack.waitFor(
        (call) => call.method === 'response_url' && call.args.responseUrlId === answered,
        10_000,
      );
      await intake.close();
      const metrics = await (await get('/metrics')).text();

      expect(health.status).toBe(200);
      expect(ready.status).toBe(200);
      expect(report.ready).toBe(true);
      expect(report.checks.map((check) => check.name)).toEqual([
        'redis',
        'redis-topology',
        'scc:default',
        'alerts',
      ]);
      expect(metrics).toMatch(/fwbot_redis_role\{kind="single",role="primary",node="127\.0\.0\.1:\d+"\} 1/);
      expect(metrics).toContain('fwbot_redis_failovers_total 0');
      // Series the bot's /metrics has too (test/observability): with BOT_WORKERS=off they live here.
      expect(metrics).toMatch(/fwbot_commands_total\{operation="devices",outcome="ok"\} 1/);
      expect(metrics).toMatch(/fwbot_scc_calls_total\{operation="getDevices",status="200"\} \d+/);
      expect(metrics).toMatch(/fwbot_ready\{check="redis"\} 1/);
      expect(metrics).toMatch(/fwbot_process_cpu_seconds_total/);
    }, 20_000);

    it('a second worker on the same PORT exits 2, saying to give each process its own PORT', async () => {
      const second = startWorker(port);
      const code = await second.exited;

      expect(code).toBe(2);
      const lines = second.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`PORT ${port} is already in use`);
      expect(lines[0]).toContain('Give each process on one host its own PORT');
      for (const secret of [SLACK_BOT_TOKEN, SLACK_APP_TOKEN, sim.tokens.superAdmin]) {
        expect(second.stderr + second.stdout).not.toContain(secret);
      }
      // It stopped before taking any work.
      expect(second.stdout).not.toContain('"msg":"worker ready"');
      // The first one is untouched.
      expect((await get('/healthz')).status).toBe(200);
    }, 20_000);
  });

  it('with METRICS_PORT: PORT says only which checks pass; the reasons and /metrics are on METRICS_PORT', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const worker = startWorker(port, { METRICS_PORT: String(metricsPort) });
    await worker.ready();
    try {
      const open = await (await fetch(`http://127.0.0.1:${port}/readyz`)).text();
      const detailed = (await (await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).json()) as {
        checks: { name: string; detail?: string }[];
      };
      const openMetrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);

      expect(JSON.parse(open)).toEqual({
        ready: true,
        draining: false,
        checks: ['redis', 'redis-topology', 'scc:default', 'alerts'].map((name) => ({ name, ok: true })),
      });
      expect(open).not.toContain('127.0.0.1');
      expect(detailed.checks.find((c) => c.name === 'redis-topology')?.detail).toMatch(
        /^single: primary 127\.0\.0\.1:\d+/,
      );
      expect(detailed.checks.find((c) => c.name === 'alerts')?.detail).toBe(
        'no profile has alert subscriptions',
      );
      expect(openMetrics.status).toBe(404);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('fwbot_ready{check="redis"} 1');
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  }, 20_000);
  it("in OAuth mode: starts, and posts each followed outcome with its own workspace's token", async () => {
    const HOME = 'T0MSPHOME1';
    const CUSTOMER = 'T0CUSTOMR1';
    const HOME_TOKEN = 'xoxb-home-workspace-1b2c';
    const CUSTOMER_TOKEN = 'xoxb-customer-workspace-9d8e';
    const installKey = randomBytes(32);
    // Both workspaces installed fwbot (through the bot's /slack/install): their records, as the bot keeps them.
    const redis = new Redis(redisServer.url);
    const installations = new RedisInstallations({
      redis,
      prefix: 'fwbot',
      key: installKey,
      log: pino({ level: 'silent' }),
    });
    for (const [teamId, token] of [
      [HOME, HOME_TOKEN],
      [CUSTOMER, CUSTOMER_TOKEN],
    ] as const) {
      await installations.storeInstallation({
        team: { id: teamId, name: teamId },
        enterprise: undefined,
        user: { id: 'U0INSTALL01', token: undefined, scopes: undefined },
        bot: { token, scopes: ['commands', 'chat:write'], id: 'B0FWBOT', userId: 'U0FWBOT' },
        isEnterpriseInstall: false,
        authVersion: 'v2',
      });
    }
    const worker = startWorker(
      await freePort(),
      {},
      {
        SLACK_CLIENT_ID: '1111111111.2222222222',
        SLACK_CLIENT_SECRET: 'c0ffee0123456789c0ffee0123456789',
        SLACK_SIGNING_SECRET: 'worker-oauth-signing-secret',
        FWBOT_INSTALL_KEY: installKey.toString('base64'),
        SLACK_TEAM_ID: HOME,
      },
    );
    try {
      await worker.ready();
      const jobs = createJobs({ redisUrl: redisServer.url, logger: quietLog });
      const fmc = sim.deviceUid('cdfmc-acme');
      const scc = createSccClient({ baseUrl: sim.url, token: sim.tokens.superAdmin });
      const follow = async (where: ReturnType<typeof thread>) => {
        const sent = await scc.gateway.execute(
          fmc,
          [{ method: 'GET', link: '/api/fmc_platform/v1/info/serverversion' }],
          { async: true },
        );
        sim.clock.advance(10_000); // the device has answered
        await jobs.tracker.follow(
          { kind: 'gateway', requestId: String(sent.requestId), deviceUid: fmc, label: 'version' },
          where,
        );
        return finalReply(slack, where, 15_000);
      };
      // Followed from the customer's workspace, and from a thread made before workspaces were told apart.
      const customer = await follow({ ...thread('default', 'C0CUSTCH01'), teamId: CUSTOMER });
      const home = await follow(thread('default', 'C0MSPOPS01'));
      await jobs.close();
      await scc.close();

      expect(text(customer)).toContain('*version*: the device answered');
      expect(customer.token).toBe(CUSTOMER_TOKEN);
      expect(home.token).toBe(HOME_TOKEN);
      for (const secret of [HOME_TOKEN, CUSTOMER_TOKEN, installKey.toString('base64')]) {
        expect(worker.stdout + worker.stderr).not.toContain(secret);
      }
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
      await redis.quit();
    }
    expect(worker.stdout).toMatch(/"step":"installations".*"msg":"shutdown step done"/);
  }, 30_000);
});
