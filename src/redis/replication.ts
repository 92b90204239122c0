// Writes that must survive a failover: an approval's transitions and the marks that make effects
// exactly-once. Redis replicates asynchronously, so a primary that dies right after a write may take it
// with it, and the promoted replica would let the effect happen again. WAIT closes that window: fwbot acts
// on such a write only once `count` replicas hold it. Sentinel promotes the replica with the most data, so
// a transition fwbot acted on is on the new primary. A connection gets its count from the configuration
// (REDIS_WAIT_REPLICAS) when it is made; connections without one (one server, tests) never wait.
import { Cluster, type Redis } from 'ioredis';

export interface ReplicaPolicy {
  readonly count: number;
  readonly timeoutMs: number;
}

/** Redis did not confirm in time that enough replicas hold a write: fwbot must not act on it. */
export class ReplicasMissing extends Error {
  override readonly name = 'ReplicasMissing';
  constructor(
    readonly acknowledged: number,
    readonly policy: ReplicaPolicy,
    readonly key: string,
  ) {
    super(
      `Redis confirmed this change on ${acknowledged} of ${policy.count === 1 ? '1 replica' : `${policy.count} replicas`} within ${policy.timeoutMs} ms, ` +
        'so fwbot did not act on it (a failover now could lose it); check that the replicas are up, or lower REDIS_WAIT_REPLICAS.',
    );
  }
}

const policies = new WeakMap<Redis | Cluster, ReplicaPolicy>();

export function requireReplicas(client: Redis | Cluster, policy: ReplicaPolicy): void {
  policies.set(client, Object.freeze({ ...policy }));
}

export function replicaPolicy(client: Redis | Cluster): ReplicaPolicy | undefined {
  return policies.get(client);
}

/**
 * Resolves once the writes this client sent before it (to the node that holds `key`) are on the replicas
 * its policy asks for; throws ReplicasMissing otherwise. A no-op for a client without a policy.
 */
export async function replicated(client: Redis | Cluster, key: string): Promise<void> {
  const policy = policies.get(client);
  if (policy === undefined) return;
  let count: unknown;
  if (client instanceof Cluster) {
    // WAIT names no key, so alone it would go to any node: in a pipeline beside a read of `key` it goes to
    // the primary of that key's slot, over the connection the writes took.
    const replies = await client.pipeline().exists(key).wait(policy.count, policy.timeoutMs).exec();
    const [error, value] = replies?.[1] ?? [new Error('no reply to WAIT'), undefined];
    if (error) throw error;
    count = value;
  } else {
    count = await client.wait(policy.count, policy.timeoutMs);
  }
  const acknowledged = Number(count);
  if (!(acknowledged >= policy.count)) throw new ReplicasMissing(acknowledged, policy, key);
}
