import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTrackJob } from '../../src/follow/index.js';
import { normalisePrefix, QUEUE } from '../../src/redis/keys.js';
import { connectRedis } from '../support/testRedis.js';
import {
  driveUntil,
  finalReply,
  type Harness,
  postsIn,
  text,
  thread,
  useHarness,
} from './support/harness.js';

describe('tracking transactions', () => {
  let h: Harness;
  const redis = connectRedis();
  useHarness((created) => {
    h = created;
  });
  afterAll(async () => {
    await redis.quit();
  });

  const polls = (uid: string) => h.sim.requestLog.list({ path: `/v1/transactions/${uid}` }).length;

  it('reports a transaction that ends DONE in its thread, once, mentioning the requester', async () => {
    const { workers, clients } = await h.start();
    const tx = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj'));
    const uid = String(tx.transactionUid);
    const where = thread();

    await workers.jobs.tracker.follow(
      { kind: 'transaction', transactionUid: uid, label: 'enable MCD on globex-apj' },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 15_000);

    expect(text(reply)).toMatch(/^<@U0ALICE> \*enable MCD on globex-apj\*: done\./);
    expect(text(reply)).toContain(uid);
    expect(text(reply)).toContain('MSP_ENABLE_MULTICLOUD_DEFENSE');
    expect(postsIn(h.slack, where)).toHaveLength(1);
  });

  it("reports SCC's error message for a transaction that ends in ERROR", async () => {
    const { workers, clients } = await h.start();
    const tx = await clients
      .get('default')
      .tenants.enableMulticloudDefense(h.sim.tenantUid('failing-labs-in'));
    const where = thread();

    await workers.jobs.tracker.follow(
      {
        kind: 'transaction',
        transactionUid: String(tx.transactionUid),
        label: 'enable MCD on failing-labs-in',
      },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 15_000);

    expect(text(reply)).toContain('failed. SCC reports an error');
    expect(text(reply)).toContain('Multicloud Defense provisioning failed for failing-labs-in');
  });

  it('polls a transaction followed from two threads once, and tells both threads', async () => {
    const { workers, clients, prefix } = await h.start();
    const tx = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj'));
    const uid = String(tx.transactionUid);
    const first = thread('default', 'C0TRACK01', 'U0ALICE');
    const second = thread('default', 'C0TRACK02', 'U0BOB');

    await workers.jobs.tracker.follow(
      { kind: 'transaction', transactionUid: uid, label: 'MCD (Alice)' },
      first,
    );
    await workers.jobs.tracker.follow(
      { kind: 'transaction', transactionUid: uid, label: 'MCD (Bob)' },
      second,
    );
    const replies = await driveUntil(
      h.sim,
      clients,
      Promise.all([finalReply(h.slack, first), finalReply(h.slack, second)]),
      15_000,
    );

    expect(text(replies[0])).toMatch(/^<@U0ALICE> \*MCD \(Alice\)\*: done/);
    expect(text(replies[1])).toMatch(/^<@U0BOB> \*MCD \(Bob\)\*: done/);
    const queue = new Queue(QUEUE.track, { connection: redis, prefix: normalisePrefix(prefix) });
    const jobs = await queue.getJobs(['completed', 'active', 'delayed', 'waiting']);
    await queue.close();
    expect(jobs).toHaveLength(1);
    // One stream: every poll is one step of that single job (the last poll ended it).
    const parsed = parseTrackJob(jobs[0]?.data);
    if (!parsed.success) throw parsed.error;
    const data = parsed.data;
    const steps = data.state.step;
    expect(polls(uid)).toBe(steps + 1);
    expect(postsIn(h.slack, first)).toHaveLength(1);
    expect(postsIn(h.slack, second)).toHaveLength(1);
  });

  it('says the outcome is unknown, not failed, when SCC no longer keeps the transaction', async () => {
    const { workers, clients } = await h.start();
    const tx = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj'));
    const uid = String(tx.transactionUid);
    h.sim.clock.advance(5 * 60_000); // finished
    h.sim.clock.advance(2 * 3_600_000 + 60_000); // and forgotten two hours after its last update
    const where = thread();

    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, where);
    const reply = await finalReply(h.slack, where);

    expect(text(reply)).toContain('outcome unknown: SCC no longer keeps transaction');
    expect(text(reply)).toContain('two hours after their last update');
    expect(text(reply)).not.toContain('failed');
    expect(polls(uid)).toBe(1);
  });

  it('tells a thread that follows an already finished transaction at once, without polling again', async () => {
    const { workers, clients } = await h.start();
    const tx = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj'));
    const uid = String(tx.transactionUid);
    const early = thread();
    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, early);
    await driveUntil(h.sim, clients, finalReply(h.slack, early), 15_000);
    const before = polls(uid);

    const late = thread('default', 'C0TRACK03', 'U0CAROL');
    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD again' }, late);
    const reply = await finalReply(h.slack, late);

    expect(text(reply)).toMatch(/^<@U0CAROL> \*MCD again\*: done/);
    expect(polls(uid)).toBe(before);
  });
});
