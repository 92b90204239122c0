// The Redis of a long-running process (the bot, a worker): the warning about clear text, the process's
// own connection, the watch of its topology (as metrics and a readiness check), and the one view of Redis
// every connection of the process reports to, so an outage is a line per change of state, not per retry.
import type { Logger } from 'pino';
import { type RedisConfig, redisPlaintextWarning } from '../config.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import { RedisHealth } from '../observability/redisHealth.js';
import { redisVariables } from '../redis/check.js';
import { connectRedis } from '../redis/connection.js';
import { TopologyWatch } from '../redis/topology.js';

export function openProcessRedis(
  config: RedisConfig,
  options: { name: string; prefix: string; metrics: FwbotMetrics; log: Logger },
) {
  const { name, prefix, metrics, log } = options;
  const plaintext = redisPlaintextWarning(config);
  if (plaintext) log.warn(plaintext);
  const redis = connectRedis(config);
  const topology = new TopologyWatch(redis, config, prefix);
  topology.register(metrics.registry);
  const redisHealth = new RedisHealth({ log, where: config.display, variables: redisVariables(config) });
  redisHealth.watch(name, redis);
  return { redis, topology, redisHealth };
}
