// fwbot on a real Redis Cluster (three primaries, a replica each, on loopback): the approval state machine
// and the tracking flow run as on one server, because every key of a deployment sits in the hash slot of
// its prefix ({…}); without the hash tag the same Lua scripts are refused (CROSSSLOT). Writes fwbot acts
// on are acknowledged by the slot's replica (WAIT through the slot's primary).
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../../src/approvals/store.js';
import { loadConfig, type RedisConfig } from '../../src/config.js';
import { connectRedis } from '../../src/redis/connection.js';
import { slotPrefix } from '../../src/redis/keys.js';
import { TopologyWatch } from '../../src/redis/topology.js';
import { createHarness, driveUntil, finalReply, postsIn, text, thread } from '../jobs/support/harness.js';
import { type ClusterTopology, cli, startClusterTopology } from '../support/redisTopologies.js';
import { uniquePrefix } from '../support/testRedis.js';
import { deletionRequest, LEASE, T0 } from './deletion.js';

const outcome = {
  summary: 'Deleted.',
  view: { summary: 'Deleted.', blocks: [], visibility: 'in_channel' as const },
  track: [],
};

/** Every key on every primary of the cluster that starts with `start`. */
async function keysStartingWith(topology: ClusterTopology, start: string): Promise<string[]> {
  const keys: string[] = [];
  for (const node of topology.nodes) {
    if (!(await cli(node.port, 'ROLE')).startsWith('master')) continue;
    const found = await cli(node.port, '--scan', '--pattern', `${start.replace(/[{}[\]*?]/g, '\\$&')}*`);
    keys.push(...found.split('\n').filter((key) => key !== ''));
  }
  return keys;
}

describe('fwbot on a Redis Cluster', () => {
  let topology: ClusterTopology;
  let redisConfig: RedisConfig;
  let redis: Cluster;

  beforeAll(async () => {
    topology = await startClusterTopology();
    redisConfig = loadConfig({ REDIS_CLUSTER_NODES: topology.nodeList }).redis;
    const client = connectRedis(redisConfig);
    if (!(client instanceof Cluster)) throw new Error('a cluster client was expected');
    redis = client;
  }, 90_000);

  afterAll(async () => {
    await redis?.quit();
    await topology?.stop();
  });

  it('runs the approval state machine, one transition per click, each acknowledged by a replica', async () => {
    const prefix = `${slotPrefix(uniquePrefix('approvals').slice(0, -1), true)}:`;
    const store = new ApprovalStore({ redis, prefix, retentionMs: 60_000, claimGraceMs: LEASE });
    await store.create(deletionRequest('ap-cluster1'));
    const decisions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.decide('ap-cluster1', 'approved', T0, `U0APPR${i}`)),
    );
    expect(decisions.filter((d) => d.outcome === 'decided')).toHaveLength(1);
    const claims = await Promise.all(
      ['A', 'B', 'C'].map((who) => store.claim('ap-cluster1', who, T0, LEASE)),
    );
    const winner = ['A', 'B', 'C'][claims.findIndex((c) => c.claimed)] ?? '';
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    expect(await store.hold('ap-cluster1', winner, T0 + 1_000, LEASE, 'calling')).toBe(true);
    expect(await store.finish('ap-cluster1', winner, 'done', outcome, T0 + 2_000, LEASE)).toBe(true);
    expect(await store.claimNotice('ap-cluster1', T0 + 2_000, LEASE)).toBe(true);
    await store.noticed('ap-cluster1');
    expect((await store.get('ap-cluster1'))?.state).toBe('done');

    // The replica of the slot's primary holds the final state: it was acknowledged before the call returned.
    const primary = await topology.primaryFor(store.key('ap-cluster1'));
    const replica = await topology.replicaOf(primary);
    const onReplica = new Redis(replica, '127.0.0.1');
    try {
      await onReplica.readonly();
      expect(await onReplica.hget(store.key('ap-cluster1'), 'state')).toBe('done');
    } finally {
      onReplica.disconnect();
    }
    const keys = await keysStartingWith(topology, prefix);
    expect(keys.length).toBeGreaterThan(0);
    const slots = new Set(await Promise.all(keys.map((key) => cli(primary, 'CLUSTER', 'KEYSLOT', key))));
    expect(slots.size).toBe(1);
  });

  it('names the primary that holds the keys of a prefix, for readiness and metrics', async () => {
    const watch = new TopologyWatch(redis, redisConfig, '{fwbot}');
    expect(await watch.refresh()).toEqual({
      kind: 'cluster',
      node: `127.0.0.1:${await topology.primaryFor('{fwbot}')}`,
      role: 'primary',
      failovers: 0,
    });
  });

  it('would refuse the same scripts without the hash tag: the keys would be in different slots', async () => {
    const store = new ApprovalStore({
      redis,
      prefix: uniquePrefix('untagged'),
      retentionMs: 60_000,
      claimGraceMs: LEASE,
    });
    await expect(store.create(deletionRequest('ap-untagged'))).rejects.toThrow(
      /CROSSSLOT|same slot|All keys/i,
    );
  });

  it('follows a transaction to its one final reply, with every job and mark in the prefix slot', async () => {
    const h = await createHarness();
    try {
      const { workers, clients, prefix } = await h.start({ redisUrl: redisConfig });
      const tx = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj'));
      const where = thread();
      await workers.jobs.tracker.follow(
        { kind: 'transaction', transactionUid: String(tx.transactionUid), label: 'enable MCD on globex-apj' },
        where,
      );
      const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where, 20_000), 15_000);
      expect(text(reply)).toMatch(/\*enable MCD on globex-apj\*: done\./);
      expect(postsIn(h.slack, where)).toHaveLength(1);

      const tagged = slotPrefix(prefix.slice(0, -1), true);
      const keys = await keysStartingWith(topology, tagged);
      // BullMQ's queues and fwbot's own marks (posted, outcome, subscribers) alike.
      expect(keys.some((key) => key.includes(':fwbot-track:'))).toBe(true);
      expect(keys.some((key) => key.includes(':fw:posted:'))).toBe(true);
      const port = topology.nodes[0]?.port ?? 0;
      const slots = new Set(await Promise.all(keys.map((key) => cli(port, 'CLUSTER', 'KEYSLOT', key))));
      expect(slots.size).toBe(1);
    } finally {
      await h.close();
    }
  });
});
