import { afterAll, describe, expect, it } from 'vitest';
import { JobKeys, normalisePrefix } from '../../src/jobs/keys.js';
import { DurationHistory } from '../../src/jobs/learningStore.js';
import { DEFAULT_SCHEDULE } from '../../src/jobs/schedule.js';
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
    const keys = new JobKeys(normalisePrefix(uniquePrefix('learning')));
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

  it('learn nothing when learning is off', async () => {
    const keys = new JobKeys(normalisePrefix(uniquePrefix('learning')));
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
    await driveUntil(h.sim, clients, finalReply(h.slack, where), 15_000);

    const record = h.sim.state.transactions.get(uid);
    const took = Number(record?.lastUpdatedTime) - Number(record?.submissionTime);
    expect(took).toBeGreaterThan(60_000);
    const key = new JobKeys(normalisePrefix(prefix)).durations('default', 'MSP_ENABLE_MULTICLOUD_DEFENSE');
    expect(await redis.lrange(key, 0, -1)).toEqual([String(took)]);
  });
});
