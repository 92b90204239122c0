// fwbot on Redis behind Sentinel (a primary, two replicas, three sentinels on loopback): the start-up
// check speaks one sentence when no sentinel answers; an approval acknowledged by a replica is still
// there after the primary is killed and a replica promoted; and a write no replica acknowledged is
// refused with a sentence instead of acted on.

import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../../src/approvals/store.js';
import { loadConfig } from '../../src/config.js';
import { checkRedis, RedisUnreachable } from '../../src/redis/check.js';
import { connectRedis, type RedisClient } from '../../src/redis/connection.js';
import { ReplicasMissing } from '../../src/redis/replication.js';
import { TopologyWatch } from '../../src/redis/topology.js';
import { freePort } from '../support/redisServer.js';
import { type SentinelTopology, startSentinelTopology } from '../support/redisTopologies.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { deletionRequest, LEASE, T0 } from './deletion.js';

describe('the start-up check with REDIS_SENTINELS', () => {
  it('ends with one sentence when no sentinel answers', async () => {
    const config = loadConfig({
      REDIS_SENTINELS: `127.0.0.1:${await freePort()},127.0.0.1:${await freePort()}`,
    });
    const failure = await checkRedis(config.redis, config.redis.display, 2_000).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RedisUnreachable);
    const message = String((failure as Error).message);
    expect(message).toBe(
      `No sentinel answers for ${config.redis.display}: are they running, on those ports? Check REDIS_SENTINELS.`,
    );
  });
});

describe('replica acknowledgement (REDIS_WAIT_REPLICAS)', () => {
  it('refuses to act on a transition no replica holds, saying why', async () => {
    const config = loadConfig({
      REDIS_URL: redisUrl(),
      REDIS_WAIT_REPLICAS: '1',
      REDIS_WAIT_TIMEOUT_MS: '50',
    });
    const redis = connectRedis(config.redis);
    const unguarded = connectRedis(redisUrl());
    try {
      const prefix = uniquePrefix('wait');
      const options = { prefix, retentionMs: 60_000, claimGraceMs: LEASE };
      const store = new ApprovalStore({ redis, ...options });
      // A request is not created (so no card is posted) until a replica holds it.
      const notCreated = await store.create(deletionRequest('ap-wait0')).catch((error: unknown) => error);
      expect(notCreated).toBeInstanceOf(ReplicasMissing);

      await new ApprovalStore({ redis: unguarded, ...options }).create(deletionRequest('ap-wait1'));
      const refused = await store
        .decide('ap-wait1', 'approved', T0, 'U0BOB')
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ReplicasMissing);
      expect(String((refused as Error).message)).toMatch(
        /confirmed this change on 0 of 1 replica within 50 ms, so fwbot did not act on it/,
      );
    } finally {
      await unguarded.quit();
      await redis.quit();
    }
  });
});

describe('fwbot on Redis behind Sentinel', () => {
  let topology: SentinelTopology;
  let redis: RedisClient;
  let watch: TopologyWatch;

  beforeAll(async () => {
    topology = await startSentinelTopology({ replicas: 2 });
    const config = loadConfig({
      REDIS_SENTINELS: topology.sentinelList,
      REDIS_SENTINEL_MASTER: topology.masterName,
    });
    redis = connectRedis(config.redis);
    // The killed primary's connection errors until the sentinels name another; the commands wait meanwhile.
    redis.on('error', () => undefined);
    watch = new TopologyWatch(redis, config.redis, 'fwbot');
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await topology?.stop();
  });

  it('keeps an acknowledged approval through a failover, and carries on with the promoted replica', async () => {
    const store = new ApprovalStore({
      redis,
      prefix: uniquePrefix('sentinel'),
      retentionMs: 60_000,
      claimGraceMs: LEASE,
    });
    await store.create(deletionRequest('ap-failover'));
    const decided = await store.decide('ap-failover', 'approved', T0, 'U0BOB');
    expect(decided.outcome).toBe('decided');

    const before = await topology.primaryPort();
    expect(await watch.refresh()).toEqual({
      kind: 'sentinel',
      node: `127.0.0.1:${before}`,
      role: 'primary',
      failovers: 0,
    });
    await topology.crash(before);
    const deadline = Date.now() + 30_000;
    while ((await topology.primaryPort()) === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await topology.primaryPort()).not.toBe(before);

    // The same client, following the sentinels to the new primary: the approval is there, decided once.
    expect((await store.get('ap-failover'))?.state).toBe('approved');
    const again = await store.decide('ap-failover', 'rejected', T0 + 1, 'U0CAROL');
    expect(again).toMatchObject({ outcome: 'refused', state: 'approved' });
    expect(await store.claim('ap-failover', 'A', T0 + 2, LEASE)).toMatchObject({ claimed: true });

    // Readiness and metrics see the new primary, and one failover.
    const after = await watch.refresh();
    expect(after).toEqual({
      kind: 'sentinel',
      node: `127.0.0.1:${await topology.primaryPort()}`,
      role: 'primary',
      failovers: 1,
    });
    expect(watch.describe()).toMatch(/^sentinel: primary 127\.0\.0\.1:\d+, 1 failover seen$/);
    const registry = new Registry();
    watch.register(registry);
    const metrics = await registry.metrics();
    expect(metrics).toContain('fwbot_redis_failovers_total 1');
    expect(metrics).toMatch(/fwbot_redis_role\{kind="sentinel",role="primary",node="127\.0\.0\.1:\d+"\} 1/);
  }, 60_000);
});

describe('the start-up check with REDIS_CLUSTER_NODES', () => {
  it('ends with one sentence when no node answers', async () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: `127.0.0.1:${await freePort()}` });
    const failure = await checkRedis(config.redis, config.redis.display, 2_000).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RedisUnreachable);
    expect(String((failure as Error).message)).toBe(
      `No node of the ${config.redis.display} answers as a cluster member: check REDIS_CLUSTER_NODES.`,
    );
  });
});

describe('a scheduled deploy behind Sentinel', () => {
  let topology: SentinelTopology;
  let redis: RedisClient;

  beforeAll(async () => {
    topology = await startSentinelTopology({ replicas: 2 });
    const config = loadConfig({
      REDIS_SENTINELS: topology.sentinelList,
      REDIS_SENTINEL_MASTER: topology.masterName,
    });
    redis = connectRedis(config.redis);
    redis.on('error', () => undefined);
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await topology?.stop();
  });

  it('keeps its hold through a failover at the scheduled minute, and is claimed by one process only', async () => {
    const store = new ApprovalStore({
      redis,
      prefix: uniquePrefix('sentinel-held'),
      retentionMs: 60_000,
      claimGraceMs: LEASE,
    });
    const runAt = T0 + 3_600_000;
    await store.create(deletionRequest('ap-held'));
    expect((await store.decide('ap-held', 'approved', T0, 'U0BOB')).outcome).toBe('decided');
    const held = { runAt, runReason: 'window' as const, runZone: 'UTC', runWindows: '' };
    expect(await store.holdRun('ap-held', held)).toBe(true);
    expect(await store.dueForRecovery(runAt - 1, 10)).not.toContain('ap-held');

    // The primary dies at the scheduled minute; a replica is promoted.
    const before = await topology.primaryPort();
    await topology.crash(before);
    const deadline = Date.now() + 30_000;
    while ((await topology.primaryPort()) === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await topology.primaryPort()).not.toBe(before);

    // The hold survived (it was replicated before it was confirmed), and it is due now, not before.
    expect(await store.heldRun('ap-held')).toEqual(held);
    expect(await store.dueForRecovery(runAt, 10)).toContain('ap-held');
    // Two processes' recovery passes at the same minute: one claim.
    const claims = await Promise.all([
      store.claim('ap-held', 'A', runAt, LEASE),
      store.claim('ap-held', 'B', runAt, LEASE),
    ]);
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
    expect(await store.holdRun('ap-held', { ...held, runAt: runAt + 1 })).toBe(false);
  }, 60_000);
});
