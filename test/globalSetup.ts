// vitest global setup: one private redis-server for the whole run. Tests read its URL with
// inject('redisUrl') and isolate themselves with their own key prefix or queue name.
import type { TestProject } from 'vitest/node';
import { type RedisServerHandle, startRedisServer } from './support/redisServer.js';

let redis: RedisServerHandle | undefined;

export async function setup(project: TestProject): Promise<void> {
  redis = await startRedisServer();
  project.provide('redisUrl', redis.url);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
