// Each Slack interaction runs once. Slack retries a request it thinks was not acknowledged in time
// (`x-slack-retry-num` in HTTP mode, `retry_attempt` in Socket Mode), and with several bot processes the
// retry may reach another one; so the first sight of an interaction's trigger id is recorded in Redis
// (SET NX with a TTL) and later sights are acknowledged and dropped. A memory version serves a single
// process and tests.
import type { RedisClient } from './connection.js';
import { DEFAULT_PREFIX, RedisKeys } from './keys.js';

export interface Deduper {
  /** True the first time `key` is seen within `ttlSeconds`, false afterwards. */
  firstSight(key: string, ttlSeconds?: number): Promise<boolean>;
}

/** Slack stops retrying after a few minutes; a trigger id seen ten minutes ago will not come back. */
const DEFAULT_TTL_SECONDS = 600;

export class RedisDeduper implements Deduper {
  readonly #keys: RedisKeys;

  /** `prefix`: the deployment's key prefix. */
  constructor(
    private readonly redis: RedisClient,
    prefix = DEFAULT_PREFIX,
  ) {
    this.#keys = new RedisKeys(prefix);
  }

  async firstSight(key: string, ttlSeconds = DEFAULT_TTL_SECONDS): Promise<boolean> {
    const set = await this.redis.set(this.#keys.slackSeen(key), '1', 'EX', ttlSeconds, 'NX');
    return set === 'OK';
  }
}

export class MemoryDeduper implements Deduper {
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async firstSight(key: string, ttlSeconds = DEFAULT_TTL_SECONDS): Promise<boolean> {
    const at = this.now();
    for (const [seenKey, expires] of this.seen) if (expires <= at) this.seen.delete(seenKey);
    if (this.seen.has(key)) return false;
    this.seen.set(key, at + ttlSeconds * 1000);
    return true;
  }
}
