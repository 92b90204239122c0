// At start-up, a Redis that is not there, not Redis, or refuses the password ends the start with one
// sentence (the bot, the worker and the demo exit 3 with it), instead of ioredis retrying forever.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { checkRedis, describeRedisFailure, RedisUnreachable, redisVariables } from '../../src/redis/check.js';
import { freePort } from '../support/redisServer.js';
import { redisUrl } from '../support/testRedis.js';

describe('checking Redis at start-up', () => {
  let http: Server;
  let httpUrl: string;
  beforeAll(async () => {
    http = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    httpUrl = `redis://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => http.close(resolve));
  });

  it('passes when Redis answers', async () => {
    await expect(checkRedis(redisUrl(), 'the test Redis')).resolves.toBeUndefined();
  });

  it('says nothing answers on a closed port', async () => {
    const where = `redis://127.0.0.1:${await freePort()}`;
    const failed = checkRedis(where, where);
    await expect(failed).rejects.toBeInstanceOf(RedisUnreachable);
    await expect(failed).rejects.toThrow(`Nothing answers at ${where}: is Redis running there`);
  });

  it('says what answers is not Redis (an HTTP server)', async () => {
    await expect(checkRedis(httpUrl, httpUrl, 2_000)).rejects.toThrow(/is not Redis|did not answer in time/);
  });

  it('says the host is unknown', async () => {
    await expect(
      checkRedis('redis://no-such-host.invalid:6379', 'redis://no-such-host.invalid:6379'),
    ).rejects.toThrow(/not known|could not be used|did not answer/);
  });

  it('says the credentials were refused', async () => {
    const url = new URL(redisUrl());
    url.username = 'nobody';
    url.password = 'wrong';
    await expect(checkRedis(url.toString(), 'the test Redis')).rejects.toThrow(/refused the credentials/);
  });
});

describe('the sentences name the variables of the deployment', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.11:6379'), { code: 'ECONNREFUSED' });
  const wrongPassword = new Error('WRONGPASS invalid username-password pair');

  it('REDIS_URL for a single server', () => {
    const variables = redisVariables(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redis);
    expect(describeRedisFailure(refused, 'redis://127.0.0.1:6379', variables)).toMatch(
      /point REDIS_URL at yours\.$/,
    );
    expect(describeRedisFailure(wrongPassword, 'redis://127.0.0.1:6379', variables)).toMatch(
      /check the user and password in REDIS_URL\.$/,
    );
  });

  it('REDIS_SENTINELS and REDIS_PASSWORD behind Sentinel, REDIS_CLUSTER_NODES for a cluster', () => {
    const sentinel = redisVariables(loadConfig({ REDIS_SENTINELS: '10.0.0.11:26379,10.0.0.12:26379' }).redis);
    expect(describeRedisFailure(refused, 'sentinels', sentinel)).toMatch(/point REDIS_SENTINELS at yours\.$/);
    expect(describeRedisFailure(wrongPassword, 'sentinels', sentinel)).toMatch(/check the REDIS_PASSWORD\.$/);
    const cluster = redisVariables(
      loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.21:6379,10.0.0.22:6379' }).redis,
    );
    expect(describeRedisFailure(refused, 'cluster', cluster)).toMatch(
      /point REDIS_CLUSTER_NODES at yours\.$/,
    );
  });
});
