import { afterAll, describe, expect, it } from 'vitest';
import { startRedisServer } from './redisServer.js';
import { connectRedis, redisUrl, uniquePrefix } from './testRedis.js';

describe('test redis harness', () => {
  const client = connectRedis();
  afterAll(async () => {
    await client.quit();
  });

  it('hands every test the URL of a private loopback redis-server', async () => {
    expect(redisUrl()).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    const key = `${uniquePrefix('harness')}greeting`;
    await client.set(key, 'hello');
    expect(await client.get(key)).toBe('hello');
  });

  it('runs without persistence', async () => {
    const save = (await client.config('GET', 'save')) as string[];
    const aof = (await client.config('GET', 'appendonly')) as string[];
    expect(save[1]).toBe('');
    expect(aof[1]).toBe('no');
  });

  it('gives distinct prefixes to distinct callers', () => {
    expect(uniquePrefix('a')).not.toBe(uniquePrefix('a'));
  });

  it('starts and stops extra servers on free ports', async () => {
    const extra = await startRedisServer();
    expect(extra.url).not.toBe(redisUrl());
    await extra.stop();
  });
});
