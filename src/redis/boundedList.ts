// A short JSON list in Redis, newest first: each push cuts it to its newest `max` entries and renews its
// expiry, so a quiet key disappears by itself. Reads skip entries that do not parse against the schema
// (written by another version of fwbot, or damaged), so one bad entry never fails a reader.
import type { z } from 'zod';
import type { RedisClient } from './connection.js';

export interface BoundedList {
  /** Entries kept; older ones are cut on every push. */
  max: number;
  /** The key expires this long after the last push. */
  ttlMs: number;
}

export async function pushBounded(
  redis: RedisClient,
  key: string,
  entry: unknown,
  { max, ttlMs }: BoundedList,
): Promise<void> {
  await redis
    .multi()
    .lpush(key, JSON.stringify(entry))
    .ltrim(key, 0, max - 1)
    .pexpire(key, ttlMs)
    .exec();
}

/** The entries that parse, newest first. */
export async function readBounded<T>(
  redis: RedisClient,
  key: string,
  schema: z.ZodType<T>,
  { max }: Pick<BoundedList, 'max'>,
): Promise<T[]> {
  const items = await redis.lrange(key, 0, max - 1);
  return items.flatMap((item) => {
    try {
      const parsed = schema.safeParse(JSON.parse(item));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
