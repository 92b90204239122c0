// docker-compose.yml's `sentinel` profile: a primary, a replica and three sentinels, and an fwbot whose
// environment the configuration reads as Redis behind Sentinel, under the name the sentinels monitor.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';

const Service = z.looseObject({
  profiles: z.array(z.string()).optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  depends_on: z.unknown().optional(),
});
const compose = z
  .object({ services: z.record(z.string(), Service) })
  .parse(parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8')));
const service = (name: string) => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no ${name} service`);
  return found;
};
const commandOf = (name: string) => [service(name).command ?? []].flat().join(' ');

describe("docker-compose.yml's sentinel profile", () => {
  const names = ['redis-primary', 'redis-replica', 'sentinel-1', 'sentinel-2', 'sentinel-3', 'fwbot-ha'];

  it('starts a primary, a replica of it and three sentinels, only when asked for', () => {
    for (const name of names) expect(service(name).profiles, name).toEqual(['sentinel']);
    expect(commandOf('redis-replica')).toMatch(/--replicaof redis-primary 6379/);
    for (const name of ['sentinel-1', 'sentinel-2', 'sentinel-3'])
      expect(commandOf(name)).toMatch(/sentinel monitor fwbot redis-primary 6379 2.*--sentinel/s);
  });

  it('gives fwbot an environment the configuration reads as those sentinels, without a REDIS_URL', () => {
    const env = service('fwbot-ha').environment ?? {};
    const config = loadConfig({ ...env, BOT_WORKERS: 'on' });
    expect(config.redis.deployment).toMatchObject({
      kind: 'sentinel',
      masterName: 'fwbot',
      sentinels: [
        { host: 'sentinel-1', port: 26379 },
        { host: 'sentinel-2', port: 26379 },
        { host: 'sentinel-3', port: 26379 },
      ],
    });
    expect(config.redis.waitReplicas).toBe(1);
    expect(JSON.stringify(service('fwbot-ha').depends_on)).toMatch(/sentinel-1.*sentinel-2.*sentinel-3/);
  });
});
