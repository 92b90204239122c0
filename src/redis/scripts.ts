// The one home of Lua in Redis: a script is its source and digest (scriptOf), run by digest and loaded on
// first use (runScript). Every script is a transition fwbot acts on, so its result is returned only once the
// replicas the connection asks for hold it (replication.ts). Times come from the caller's clock, so tests
// drive expiry and leases. The scripts themselves live beside the state they change (the approvals', the
// timed work's, the device holds'), each module naming its keys and arguments above its source.
import { createHash } from 'node:crypto';
import type { RedisClient } from './connection.js';
import { replicated } from './replication.js';

export interface LuaScript {
  source: string;
  sha: string;
}

export function scriptOf(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/**
 * Runs a script by its digest, loading it on first use (after a Redis restart too), and waits for the
 * replicas the connection asks for (src/redis/replication.ts). Its keys must share one hash slot on a
 * cluster (src/jobs/keys.ts slotPrefix).
 */
export async function runScript(
  redis: RedisClient,
  lua: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  const result = await evaluate(redis, lua, keys, args);
  const first = keys[0];
  if (first !== undefined) await replicated(redis, first);
  return result;
}

async function evaluate(
  redis: RedisClient,
  lua: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(lua.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return redis.eval(lua.source, keys.length, ...keys, ...args);
  }
}
