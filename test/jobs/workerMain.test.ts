import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobs } from '../../src/jobs/workers.js';
import { createSccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { type RedisServerHandle, startRedisServer } from '../support/redisServer.js';
import { finalReply, quietLog, text, thread } from './support/harness.js';

const ENTRY = fileURLToPath(new URL('../../src/jobs/main.ts', import.meta.url));

describe('npm run worker (src/jobs/main.ts)', () => {
  let redisServer: RedisServerHandle;
  let sim: SimulatorHandle;
  let slack: FakeSlack;

  beforeAll(async () => {
    // Its own Redis: the entry uses the production prefix, which no other test may share.
    redisServer = await startRedisServer();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    slack = await startFakeSlack();
  });
  afterAll(async () => {
    await slack.stop();
    await sim.stop();
    await redisServer.stop();
  });

  it('reads the environment, reports in threads, and stops gracefully on SIGTERM', async () => {
    const worker = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
      env: {
        PATH: process.env.PATH,
        REDIS_URL: redisServer.url,
        SCC_BASE_URL: sim.url,
        SCC_API_TOKEN: sim.tokens.superAdmin,
        SLACK_BOT_TOKEN: 'xoxb-0000-test',
        SLACK_APP_TOKEN: 'xapp-0000-test',
        SLACK_API_URL: slack.apiUrl,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      worker.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"msg":"worker ready"')) resolve();
      });
      worker.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      worker.once('exit', (code) =>
        reject(new Error(`worker exited (${code}) before it was ready:\n${output}`)),
      );
    });
    await ready;

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

    const exited = once(worker, 'exit');
    worker.kill('SIGTERM');
    const [code] = await exited;

    expect(text(reply)).toContain('*version*: the device answered');
    expect(code).toBe(0);
    // The bot's bounded shutdown: no new work, the jobs in hand finish, then the connections close.
    expect(output).toContain('"msg":"shutting down: no new work, finishing what is in hand"');
    expect(output).toMatch(/"step":"workers".*"msg":"shutdown step done"/);
    expect(output).toContain('"code":0,"msg":"stopped"');
  }, 30_000);
});
