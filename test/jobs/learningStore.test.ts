import { afterAll, describe, expect, it } from 'vitest';
import { DurationHistory } from '../../src/jobs/learningStore.js';
import { DEFAULT_SCHEDULE } from '../../src/jobs/schedule.js';
import { normalisePrefix, RedisKeys } from '../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { driveUntil, finalReply, type Harness, thread, useHarness } from './support/harness.js';

const learn = DEFAULT_SCHEDULE.learning;
const poll = DEFAULT_SCHEDULE.poll.transaction;

describe('the learned durations in Redis', () => {
  const redis = connectRedis();
  afterAll(async () => {
    await redis.quit();
  });

  it('are shared by every worker, newest first, bounded, and kept per profile and type', async () => {
    const keys = new RedisKeys(normalisePrefix(uniquePrefix('learning')));
    const one = new DurationHistory(redis, keys, learn);
    const other = new DurationHistory(redis, keys, learn);
    for (let i = 1; i <= learn.keep + 10; i += 1) await one.record('default', 'MSP_CREATE_TENANT', i * 1_000);

    const seen = await other.durations('default', 'MSP_CREATE_TENANT');
    expect(seen).toHaveLength(learn.keep);
    expect(seen[0]).toBe((learn.keep + 10) * 1_000);
    expect(seen.at(-1)).toBe(11_000);
    expect(await other.plan('default', 'MSP_CREATE_TENANT', poll)).toBeDefined();
    // Another SCC, or a type never followed to the end: nothing learned, the schedule alone.
    expect(await other.durations('emea', 'MSP_CREATE_TENANT')).toEqual([]);
    expect(await other.plan('default', 'MSP_PROVISION_CDFMC', poll)).toBeUndefined();
    // Forgotten when no new duration comes for a while.
    const ttl = await redis.pttl(keys.durations('default', 'MSP_CREATE_TENANT'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(learn.forgetAfterMs);
  });

  it('are set aside while transactions of the type still running contradict them', async () => {
    const keys = new RedisKeys(normalisePrefix(uniquePrefix('learning')));
    let now = 1_000_000;
    const history = new DurationHistory(redis, keys, learn, () => now);
    const type = 'MSP_ENABLE_MULTICLOUD_DEFENSE';
    for (let i = 0; i < learn.keep; i += 1) await history.record('default', type, 55_000 + (i % 11) * 1_000);
    expect(await history.plan('default', type, poll)).toBeDefined();

    // Three followed transactions seen running at 90 s, past nearly everything learned (about a minute):
    // more than 5 % of the evidence says the type is slower now. The schedule alone, from the next refresh.
    for (const job of ['a', 'b', 'c']) await history.running('default', type, `tx~${job}`, 90_000);
    await history.running('default', type, 'tx~d', 20_000);
    expect(await history.plan('default', type, poll)).toBeDefined();
    now += learn.refreshMs;
    expect(await history.plan('default', type, poll)).toBeUndefined();
    // Another worker, reading the same Redis, sets it aside too.
    expect(
      await new DurationHistory(redis, keys, learn, () => now).plan('default', type, poll),
    ).toBeUndefined();

    // Two of them end: two in 42 is the learned 5 %, and the plan is back.
    await history.stopped('default', type, 'tx~a');
    await history.stopped('default', type, 'tx~b');
    now += learn.refreshMs;
    expect(await history.plan('default', type, poll)).toBeDefined();

    // A transaction no longer seen for 15 minutes is no longer followed (its job went without a word).
    for (const job of ['e', 'f']) await history.running('default', type, `tx~${job}`, 95_000);
    now += learn.refreshMs;
    expect(await history.plan('default', type, poll)).toBeUndefined();
    now += 15 * 60_000 + 1;
    expect(await history.plan('default', type, poll)).toBeDefined();
    expect(await redis.zcard(keys.running('default', type))).toBe(0);
  });

  it('learn nothing when learning is off', async () => {
    const keys = new RedisKeys(normalisePrefix(uniquePrefix('learning')));
    const off = new DurationHistory(redis, keys, { ...learn, enabled: false });
    await off.record('default', 'MSP_CREATE_TENANT', 30_000);
    expect(await redis.exists(keys.durations('default', 'MSP_CREATE_TENANT'))).toBe(0);
  });
});

describe('the tracking worker learning', () => {
  let h: Harness;
  const redis = connectRedis();
  useHarness((created) => {
    h = created;
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('records how long a transaction took by SCC’s own timestamps once it is DONE', async () => {
    const { workers, clients, prefix } = await h.start();
    const tx = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj'));
    const uid = String(tx.transactionUid);
    const where = thread();

    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, where);
    // While it runs, it is one of the type's transactions still running, with how long it has run.
    const keys = new RedisKeys(normalisePrefix(prefix));
    const running = keys.running('default', 'MSP_ENABLE_MULTICLOUD_DEFENSE');
    await driveUntil(
      h.sim,
      clients,
      eventually(async () => (await redis.zcard(running)) === 1),
      1_000,
    );
    const [member, score] = await redis.zrange(running, 0, -1, 'WITHSCORES');
    expect(member).toContain(uid);
    expect(Number(score)).toBeGreaterThanOrEqual(0);
    await driveUntil(h.sim, clients, finalReply(h.slack, where), 15_000);

    const record = h.sim.state.transactions.get(uid);
    const took = Number(record?.lastUpdatedTime) - Number(record?.submissionTime);
    expect(took).toBeGreaterThan(60_000);
    const key = keys.durations('default', 'MSP_ENABLE_MULTICLOUD_DEFENSE');
    expect(await redis.lrange(key, 0, -1)).toEqual([String(took)]);
    // Ended: no longer running.
    expect(await redis.zcard(running)).toBe(0);
    expect(await redis.zcard(keys.runningSeenAt('default', 'MSP_ENABLE_MULTICLOUD_DEFENSE'))).toBe(0);
  });
});

/** Resolves once `check` holds, asked every 20 ms for at most 10 s (a bound, not a timing). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met within 10 s');
}
