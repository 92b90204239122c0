import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { normalisePrefix, QUEUE, RedisKeys, subscriberKey } from '../../src/redis/keys.js';
import { connectRedis } from '../support/testRedis.js';
import {
  driveUntil,
  finalReply,
  type Harness,
  postsIn,
  TEST_SCHEDULE,
  text,
  thread,
  useHarness,
} from './support/harness.js';

describe('when following goes wrong', () => {
  let h: Harness;
  const redis = connectRedis();
  useHarness(
    (created) => {
      h = created;
    },
    {
      profiles: (sim) => ({ default: sim.tokens.superAdmin, revoked: 'not-a-valid-token' }),
    },
  );
  afterAll(async () => {
    await redis.quit();
  });

  const enableMcd = async (clients: typeof h.clients) =>
    String(
      (await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj')))
        .transactionUid,
    );

  it('stops at once on a 4xx from SCC and says what SCC said', async () => {
    const { workers, clients, prefix } = await h.start();
    const uid = await enableMcd(clients);
    const where = thread('revoked');

    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, where);
    const reply = await finalReply(h.slack, where);

    expect(text(reply)).toContain(`fwbot cannot follow transaction \`${uid}\`: SCC refused (401`);
    expect(h.sim.requestLog.list({ path: `/v1/transactions/${uid}` })).toHaveLength(1);
    const queue = new Queue(QUEUE.track, { connection: redis, prefix: normalisePrefix(prefix) });
    const [failed] = await queue.getJobs(['failed']);
    await queue.close();
    expect(failed?.failedReason).toContain('SCC refused');
  });

  it('retries transient failures with backoff and still reports the end', async () => {
    const { workers, clients } = await h.start();
    const uid = await enableMcd(clients);
    h.sim.faults.add({ path: `/v1/transactions/${uid}`, status: 503, times: 2 });
    const where = thread();

    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, where);
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 15_000);

    expect(text(reply)).toContain(': done.');
    const statuses = h.sim.requestLog.list({ path: `/v1/transactions/${uid}` }).map((entry) => entry.status);
    expect(statuses.slice(0, 2)).toEqual([503, 503]);
  });

  it("waits as long as SCC's Retry-After says before polling again", async () => {
    const { workers, clients } = await h.start();
    const uid = await enableMcd(clients);
    h.sim.faults.add({ path: `/v1/transactions/${uid}`, status: 429, retryAfterSeconds: 1, times: 1 });
    const where = thread();

    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, where);
    await driveUntil(h.sim, clients, finalReply(h.slack, where), 15_000);

    const [limited, next] = h.sim.requestLog.list({ path: `/v1/transactions/${uid}` });
    expect(limited?.status).toBe(429);
    expect(Date.parse(String(next?.realTime)) - Date.parse(String(limited?.realTime))).toBeGreaterThanOrEqual(
      990,
    );
  });

  it('tells the thread when it gives up after its attempts, and what to do next', async () => {
    const { workers, clients } = await h.start();
    const uid = await enableMcd(clients);
    h.sim.faults.add({ path: `/v1/transactions/${uid}`, status: 500 });
    const where = thread();

    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, where);
    const reply = await finalReply(h.slack, where);

    expect(text(reply)).toContain(
      `fwbot gave up following transaction \`${uid}\` after ${TEST_SCHEDULE.maxTransientFailures} failed attempts`,
    );
    expect(text(reply)).toContain('The operation itself may still finish: check it in SCC');
    expect(h.sim.requestLog.list({ path: `/v1/transactions/${uid}` })).toHaveLength(
      TEST_SCHEDULE.maxTransientFailures ?? 0,
    );
  });

  it('stops at the deadline of its kind and says how far it got', async () => {
    const { workers, clients } = await h.start({
      schedule: {
        ...TEST_SCHEDULE,
        poll: { transaction: { firstDelayMs: 20, factor: 1, capMs: 20, deadlineMs: 300 } },
      },
    });
    const uid = await enableMcd(clients);
    const where = thread();

    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, where);
    const reply = await finalReply(h.slack, where);

    expect(text(reply)).toMatch(
      /fwbot stopped following transaction `[^`]+` after \d+ ms; it was still PENDING\./,
    );
    expect(postsIn(h.slack, where)).toHaveLength(1);
  });

  it('refuses a malformed tracking job at once and tells the threads waiting for it', async () => {
    const { prefix } = await h.start();
    const keys = new RedisKeys(normalisePrefix(prefix));
    const where = thread();
    const trackId = 'transaction~default~broken';
    await redis.hset(
      keys.subscribers(trackId),
      subscriberKey(where),
      JSON.stringify({ thread: where, label: 'broken' }),
    );
    const queue = new Queue(QUEUE.track, { connection: redis, prefix: normalisePrefix(prefix) });

    await queue.add(
      'transaction',
      { profile: 'default', request: { kind: 'transaction' } },
      { jobId: trackId },
    );
    const reply = await finalReply(h.slack, where);
    const job = await queue.getJob(trackId);
    await queue.close();

    expect(text(reply)).toContain('fwbot cannot follow this: its tracking job is malformed');
    expect(await job?.getState()).toBe('failed');
    expect(job?.attemptsMade).toBe(1);
  });
});
