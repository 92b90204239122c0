// What Redis looks like from a process, for /readyz and /metrics: the deployment (one server, Sentinel,
// Cluster), the node fwbot's writes go to and its role, and how many failovers this process has seen (the
// node holding its keys changed). Read on demand (each readiness probe) and whenever a connection becomes
// ready again, so a failover is seen within one probe interval.
import { Cluster, type Redis } from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';
import { deploymentOf, type RedisClient, type RedisTarget } from './connection.js';
import { RedisKeys } from './keys.js';

export interface RedisTopology {
  readonly kind: 'single' | 'sentinel' | 'cluster';
  /** host:port of the node fwbot's writes go to ('' before the first look). */
  readonly node: string;
  readonly role: 'primary' | 'replica' | 'unknown';
  /** Times the node holding fwbot's keys changed since this process started. */
  readonly failovers: number;
}

async function look(
  client: RedisClient,
  slotKey: string,
): Promise<{ node: string; role: RedisTopology['role'] }> {
  if (client instanceof Cluster) {
    const slot = Number(await client.cluster('KEYSLOT', slotKey));
    // ioredis keeps the slot table: the first node of a slot is its primary.
    return { node: client.slots[slot]?.[0] ?? '', role: 'primary' };
  }
  return lookAtServer(client);
}

async function lookAtServer(client: Redis): Promise<{ node: string; role: RedisTopology['role'] }> {
  const reply = (await client.role()) as unknown[];
  const role = reply[0] === 'master' ? 'primary' : reply[0] === 'slave' ? 'replica' : 'unknown';
  const stream = client.stream as { remoteAddress?: string; remotePort?: number } | undefined;
  return { node: stream?.remoteAddress ? `${stream.remoteAddress}:${stream.remotePort}` : '', role };
}

export class TopologyWatch {
  readonly #client: RedisClient;
  readonly #kind: RedisTopology['kind'];
  readonly #slotKey: string;
  #node = '';
  #role: RedisTopology['role'] = 'unknown';
  #failovers = 0;

  /** `prefix`: the deployment's key prefix; its slot says which cluster primary holds fwbot's keys. */
  constructor(client: RedisClient, target: RedisTarget, prefix: string) {
    this.#client = client;
    const kind = deploymentOf(target).kind;
    this.#kind = kind === 'url' ? 'single' : kind;
    this.#slotKey = new RedisKeys(prefix).topology();
    client.on('ready', () => {
      this.refresh().catch(() => undefined);
    });
  }

  /** Looks again; a different node than last time is a failover. */
  async refresh(): Promise<RedisTopology> {
    const { node, role } = await look(this.#client, this.#slotKey);
    if (node !== '' && this.#node !== '' && node !== this.#node && role === 'primary') this.#failovers += 1;
    if (node !== '') this.#node = node;
    this.#role = role;
    return this.current();
  }

  current(): RedisTopology {
    return { kind: this.#kind, node: this.#node, role: this.#role, failovers: this.#failovers };
  }

  /** One line for /readyz: `sentinel: primary 10.0.0.12:6379, 1 failover seen`. */
  describe(): string {
    const { kind, node, role, failovers } = this.current();
    return `${kind}: ${role} ${node || '(not looked at yet)'}, ${failovers} failover${failovers === 1 ? '' : 's'} seen`;
  }

  /**
   * /readyz's `redis-topology` check: the line above while fwbot writes to a primary; not ready when the
   * node in use has become a replica (its writes would be refused until the client follows the failover).
   */
  readinessCheck(): { name: string; check(): Promise<string> } {
    return {
      name: 'redis-topology',
      check: async () => {
        // While the connection is down the Redis check says why; a ROLE now would only wait for it.
        if (this.#client.status !== 'ready') return this.describe();
        const { role, node } = await this.refresh();
        if (role === 'replica')
          throw new Error(
            `the Redis node in use (${node}) is now a replica; fwbot is waiting to follow the failover`,
          );
        return this.describe();
      },
    };
  }

  /** fwbot_redis_role{kind,role,node} (1 for the node in use) and fwbot_redis_failovers_total. */
  register(registry: Registry): void {
    const watch = this;
    new Gauge({
      name: 'fwbot_redis_role',
      help: 'The Redis node fwbot writes to, by deployment kind and role (1 for the node in use).',
      labelNames: ['kind', 'role', 'node'],
      registers: [registry],
      collect() {
        const { kind, role, node } = watch.current();
        this.reset();
        this.set({ kind, role, node }, 1);
      },
    });
    const failovers = new Counter({
      name: 'fwbot_redis_failovers_total',
      help: 'Failovers this process has seen: the Redis node holding its keys changed.',
      registers: [registry],
      collect() {
        failovers.reset();
        failovers.inc(watch.current().failovers);
      },
    });
  }
}
