// The key prefix per deployment: unchanged for one server and Sentinel (an upgrade must find the queued
// jobs and approvals it left), in a hash tag on a cluster (one slot for every multi-key script and job).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { isCluster } from '../../src/redis/connection.js';
import { DEFAULT_PREFIX, RedisKeys, slotPrefix } from '../../src/redis/keys.js';

const prefixFor = (env: Record<string, string>) =>
  slotPrefix(DEFAULT_PREFIX, isCluster(loadConfig(env).redis));

describe('the key prefix of a deployment', () => {
  it('stays fwbot with REDIS_URL and with Sentinel, so an upgrade orphans nothing', () => {
    expect(prefixFor({})).toBe('fwbot');
    expect(prefixFor({ REDIS_SENTINELS: '127.0.0.1:26379' })).toBe('fwbot');
    expect(new RedisKeys(prefixFor({})).posted('n1')).toBe('fwbot:fw:posted:n1');
  });

  it('is the hash tag {fwbot} on a cluster, and a tagged prefix is kept as it is', () => {
    expect(prefixFor({ REDIS_CLUSTER_NODES: '127.0.0.1:7000' })).toBe('{fwbot}');
    expect(new RedisKeys('{fwbot}').posted('n1')).toBe('{fwbot}:fw:posted:n1');
    expect(slotPrefix('{fwbot}drill', true)).toBe('{fwbot}drill');
    expect(slotPrefix('test:jobs:1a2b', true)).toBe('{test:jobs:1a2b}');
  });
});
