import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackRequest } from '../../src/catalogue/operation.js';
import type { ThreadRef } from '../../src/dispatch/ports.js';
import { createJobs } from '../../src/jobs/workers.js';
import { normalisePrefix, QUEUE } from '../../src/redis/keys.js';
import { createSccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { startReadyChild } from '../support/childProcess.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../support/fakeSlack.js';
import { type RedisServerHandle, startRedisServer } from '../support/redisServer.js';
import { eventType, finalReply, quietLog, TEST_SCHEDULE, thread } from './support/harness.js';

const FIXTURE = fileURLToPath(new URL('../support/workerProcess.ts', import.meta.url));

describe('a worker process killed while jobs are in flight', () => {
  let redisServer: RedisServerHandle;
  let sim: SimulatorHandle;
  let slack: FakeSlack;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // A Redis of its own: the test drops every connection to it, which other test files must not feel.
    redisServer = await startRedisServer();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    slack = await startFakeSlack();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await slack.stop();
    await sim.stop();
    await redisServer.stop();
  });

  const prefix = 'crash-test';

  async function startWorker(): Promise<ChildProcess> {
    const child = await startReadyChild(FIXTURE, {
      REDIS_URL: redisServer.url,
      PREFIX: prefix,
      SIM_URL: sim.url,
      SIM_TOKEN: sim.tokens.superAdmin,
      SLACK_API_URL: slack.apiUrl,
      SCHEDULE: JSON.stringify(TEST_SCHEDULE),
    });
    children.push(child);
    return child;
  }

  async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }

  /** Resolves when no notification waits, is delayed or runs; re-checked after every finished job. */
  async function untilDrained(queue: Queue, events: QueueEvents): Promise<void> {
    for (;;) {
      const next = Promise.race([once(events, 'completed'), once(events, 'failed')]);
      const counts = await queue.getJobCounts('waiting', 'delayed', 'active');
      if (Object.values(counts).every((count) => count === 0)) return;
      await next;
    }
  }

  const accepted = (call: RecordedCall) => call.method === 'chat.postMessage' && call.status === 200;

  it('delivers every notification exactly once across SIGKILLs and a Redis reconnect', async () => {
    const jobs = createJobs({ redisUrl: redisServer.url, prefix, schedule: TEST_SCHEDULE, logger: quietLog });
    const scc = createSccClient({
      baseUrl: sim.url,
      token: sim.tokens.superAdmin,
      retry: { maxAttempts: 1 },
    });
    const follows: [TrackRequest, ThreadRef][] = [];
    const tenants = [
      'northwind-us',
      'contoso-eu',
      'globex-apj',
      'initech-aus',
      'failing-labs-in',
      'hooli-uae',
    ];
    for (const name of tenants) {
      const tx = await scc.tenants.enableMulticloudDefense(sim.tenantUid(name));
      follows.push([
        { kind: 'transaction', transactionUid: String(tx.transactionUid), label: `MCD ${name}` },
        thread(),
      ]);
    }
    // One transaction followed from a second thread too.
    const shared = follows[2]?.[0];
    if (shared) follows.push([shared, thread('default', 'C0TRACK09', 'U0BOB')]);
    const fmc = sim.deviceUid('cdfmc-acme');
    for (const link of [
      '/api/fmc_platform/v1/info/serverversion',
      '/api/fmc_platform/v1/info/serverversion?x=1',
    ]) {
      const sent = await scc.gateway.execute(fmc, [{ method: 'GET', link }], { async: true });
      follows.push([
        { kind: 'gateway', requestId: String(sent.requestId), deviceUid: fmc, label: 'version' },
        thread(),
      ]);
    }
    const upgrade = await scc.secureClient.triggerAsaUpgrade({
      deviceUids: [sim.deviceUid('asa-hq-01')],
      version: '5.1.8.105',
      name: 'through the crashes',
    });
    const upgradeThread = thread();
    follows.push([
      { kind: 'upgradeRun', transactionUid: String(upgrade.transactionUid), label: 'upgrade' },
      upgradeThread,
    ]);
    for (const [request, where] of follows) await jobs.tracker.follow(request, where);
    await jobs.close();

    // First worker: Slack accepts its first two posts but the answers never reach it (the crash window).
    slack.holdResponses('chat.postMessage', 2);
    sim.clock.advance(90_000); // some transactions end, the upgrade run is half way
    let worker = await startWorker();
    // Killed once Slack has taken its two held posts and the upgrade run's progress message: a run first
    // seen finished gets its final reply and no progress message, so without the wait the thread's one
    // status post would depend on how far this worker got.
    let seen = 0;
    let progressShown = false;
    await slack.waitFor((call) => {
      if (!accepted(call)) return false;
      seen += 1;
      if (call.args.thread_ts === upgradeThread.threadTs && eventType(call) === 'fwbot_status')
        progressShown = true;
      return seen >= 2 && progressShown;
    }, 20_000);
    await kill(worker, 'SIGKILL');
    slack.releaseHeld();

    // Every connection to Redis is cut: whoever comes next reconnects.
    const admin = new Redis(redisServer.url);
    await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
    await admin.quit();
    sim.clock.advance(10 * 60_000); // everything else ends

    // Second worker: killed the moment Slack accepts one of its posts.
    const secondStart = Date.now();
    worker = await startWorker();
    await slack.waitFor((call) => accepted(call) && call.at >= secondStart, 20_000);
    await kill(worker, 'SIGKILL');

    // Third worker finishes the work (a notification the killed workers held waits out their lock and
    // then finds its message in Slack), then stops gracefully.
    worker = await startWorker();
    await Promise.all(follows.map(([, where]) => finalReply(slack, where, 30_000)));
    const connection = new Redis(redisServer.url, { maxRetriesPerRequest: null });
    const notify = new Queue(QUEUE.notify, { connection, prefix: normalisePrefix(prefix) });
    const events = new QueueEvents(QUEUE.notify, {
      connection: { url: redisServer.url },
      prefix: normalisePrefix(prefix),
    });
    await events.waitUntilReady();
    await untilDrained(notify, events);
    await kill(worker, 'SIGTERM');

    for (const [, where] of follows) {
      const inThread = slack.calls.filter((call) => accepted(call) && call.args.thread_ts === where.threadTs);
      expect(
        inThread.filter((call) => eventType(call) === 'fwbot_outcome'),
        where.threadTs,
      ).toHaveLength(1);
    }
    const statusPosts = slack.calls.filter(
      (call) =>
        accepted(call) &&
        call.args.thread_ts === upgradeThread.threadTs &&
        eventType(call) === 'fwbot_status',
    );
    expect(statusPosts).toHaveLength(1);
    // Nothing failed, and nothing is left that could post later.
    const left = await notify.getJobCounts('waiting', 'delayed', 'active', 'failed');
    await events.close();
    await notify.close();
    await connection.quit();
    await scc.close();
    expect(left).toEqual({ waiting: 0, delayed: 0, active: 0, failed: 0 });
  }, 90_000);
});
