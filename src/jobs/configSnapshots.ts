// The running configurations fwbot keeps of each ASA (issue 28): one right before every deploy and one
// after it ends, so `/fw config history` and `/fw config diff` can say what a device ran before and after
// a change. Kept per profile and device for the policy's `changes.snapshots.retention_days`. Keys under the
// deployment's prefix (keys.ts):
//   config-snapshots:<profile>:<device>        sorted set: id → when it was kept (the history's index)
//   config-snapshot:<profile>:<device>:<id>    the snapshot as JSON, expiring when its retention ends
//   config-snapshot-seq:<profile>:<device>     the counter that numbers them, so ids are short to type
// Expiry does the forgetting (nothing to sweep); the index drops the ids whose time has passed whenever it
// is read or written, so a listing never names a snapshot that is gone.
import { z } from 'zod';
import type { ConfigSnapshot, ConfigSnapshotEntry, ConfigSnapshots } from '../catalogue/operation.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const Stored = z.object({
  id: z.string(),
  deviceUid: z.string(),
  device: z.string(),
  at: z.number(),
  phase: z.enum(['before-deploy', 'after-deploy', 'before-upgrade', 'after-upgrade']),
  requestId: z.string(),
  approvalId: z.string().optional(),
  transactionUid: z.string().optional(),
  actor: z.string(),
  text: z.string(),
});

export class RedisConfigSnapshots implements ConfigSnapshots {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    readonly retentionDays: number,
    /** The clock snapshots are dated and expired by (tests move it). */
    private readonly now: () => number = Date.now,
  ) {}

  get #retentionMs(): number {
    return this.retentionDays * DAY_MS;
  }

  async keep(profile: string, snapshot: Omit<ConfigSnapshot, 'id'>): Promise<string> {
    const { keys, redis } = this;
    const sequence = keys.configSnapshotSequence(profile, snapshot.deviceUid);
    const id = String(await redis.incr(sequence));
    // Its age is counted on fwbot's clock (which a test or the demo may set in another year); Redis counts a
    // key's life on its own, so the text is given what is left of it, never an absolute time.
    const leftMs = Math.max(1, snapshot.at + this.#retentionMs - this.now());
    const index = keys.configSnapshots(profile, snapshot.deviceUid);
    const stored = Stored.parse({ ...snapshot, id });
    await redis
      .multi()
      .set(keys.configSnapshot(profile, snapshot.deviceUid, id), JSON.stringify(stored), 'PX', leftMs)
      .zadd(index, snapshot.at, id)
      .zremrangebyscore(index, '-inf', `(${this.now() - this.#retentionMs}`)
      // The index and the counter live as long as the newest snapshot.
      .pexpire(index, this.#retentionMs)
      .pexpire(sequence, this.#retentionMs)
      .exec();
    return id;
  }

  async list(profile: string, deviceUid: string): Promise<ConfigSnapshotEntry[]> {
    const index = this.keys.configSnapshots(profile, deviceUid);
    await this.redis.zremrangebyscore(index, '-inf', `(${this.now() - this.#retentionMs}`);
    const ids = await this.redis.zrevrange(index, 0, -1);
    const entries: ConfigSnapshotEntry[] = [];
    for (const id of ids) {
      const snapshot = await this.get(profile, deviceUid, id);
      if (!snapshot) continue;
      const { text, ...entry } = snapshot;
      entries.push({ ...entry, bytes: Buffer.byteLength(text, 'utf8') });
    }
    return entries;
  }

  async get(profile: string, deviceUid: string, id: string): Promise<ConfigSnapshot | undefined> {
    const raw = await this.redis.get(this.keys.configSnapshot(profile, deviceUid, id));
    if (raw === null) return undefined;
    const parsed = Stored.safeParse(JSON.parse(raw));
    if (!parsed.success || parsed.data.at < this.now() - this.#retentionMs) return undefined;
    return parsed.data;
  }
}
