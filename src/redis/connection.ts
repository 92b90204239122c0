// Every ioredis connection fwbot opens is made here, from one description of the deployment: a URL (one
// server), the sentinels of a primary, or the nodes of a cluster. Each connection also carries how many
// replicas must acknowledge the writes fwbot acts on (src/redis/replication.ts).
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { RedisDeployment } from '../config/redisDeployment.js';
import type { RedisConfig } from '../config.js';
import { requireReplicas } from './replication.js';

/**
 * A redis:// URL (tests, drills, the demo: one server, no replica acknowledgement) or the configuration's
 * Redis (the deployment, and the replicas that must acknowledge transitions).
 */
export type RedisTarget = string | RedisConfig;

/** What a connection is: one server's (or Sentinel's current primary's), or a cluster's. */
export type RedisClient = Redis | Cluster;

/** The deployment a target names: a bare URL is one server. */
export function deploymentOf(target: RedisTarget): RedisDeployment | { kind: 'url'; url: string } {
  return typeof target === 'string' ? { kind: 'url', url: target } : target.deployment;
}

/** True when keys must share a hash tag for multi-key commands and Lua scripts to work. */
export function isCluster(target: RedisTarget): boolean {
  return deploymentOf(target).kind === 'cluster';
}

/** How the target is shown in logs and sentences: never with a password. */
export function targetDisplay(target: RedisTarget): string {
  if (typeof target !== 'string') return target.display;
  const url = new URL(target);
  if (url.password !== '') url.password = '***';
  return url.href;
}

function connectOne(target: RedisTarget, options: RedisOptions): RedisClient {
  const deployment = deploymentOf(target);
  switch (deployment.kind) {
    case 'url':
      return new Redis(deployment.url, options);
    case 'single':
      return new Redis(deployment.url.reveal(), options);
    case 'sentinel':
      return new Redis({
        ...options,
        sentinels: deployment.sentinels.map((node) => ({ host: node.host, port: node.port })),
        name: deployment.masterName,
        password: deployment.password?.reveal(),
        sentinelPassword: deployment.sentinelPassword?.reveal(),
        ...(deployment.tls ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
      });
    case 'cluster': {
      const nodeOptions: RedisOptions = {
        ...options,
        password: deployment.password?.reveal(),
        ...(deployment.tls ? { tls: {} } : {}),
      };
      const clusterOptions: ClusterOptions = {
        redisOptions: nodeOptions,
        // Commands wait through a failover (the slot's new primary is learnt from the cluster) rather than fail.
        maxRedirections: 64,
        retryDelayOnFailover: 200,
        retryDelayOnClusterDown: 300,
        enableOfflineQueue: options.enableOfflineQueue ?? true,
        enableReadyCheck: options.enableReadyCheck ?? true,
        lazyConnect: options.lazyConnect ?? false,
        clusterRetryStrategy:
          options.retryStrategy === undefined ? undefined : (times) => options.retryStrategy?.(times),
      };
      return new Cluster(
        deployment.nodes.map((node) => ({ host: node.host, port: node.port })),
        clusterOptions,
      );
    }
  }
}

/**
 * A connection to the deployment; by default one BullMQ can share (`maxRetriesPerRequest: null`). `options`
 * apply to every node. The configuration's replica count goes with it (src/redis/replication.ts).
 */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): RedisClient {
  const client = connectOne(target, { maxRetriesPerRequest: null, ...options });
  if (typeof target !== 'string' && target.waitReplicas > 0)
    requireReplicas(client, { count: target.waitReplicas, timeoutMs: target.waitTimeoutMs });
  return client;
}
