// Per-test Redis access: a client on the run's private redis-server and a key prefix unique to the caller.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';

export function redisUrl(): string {
  return inject('redisUrl');
}

/** A prefix no other test uses, so tests can share one server without seeing each other's keys. */
export function uniquePrefix(label: string): string {
  return `test:${label}:${randomUUID().slice(0, 8)}:`;
}

export function connectRedis(): Redis {
  return new Redis(redisUrl(), { maxRetriesPerRequest: null, lazyConnect: false });
}
