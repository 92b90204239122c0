// Who staged what on each ASA through fwbot. SCC does not record who staged a change, and a deploy pushes
// everything staged on the device, whoever staged it; a deploy's approver should see whose changes go.
// Every interface change declares what it staged (OperationSpec.stages), and the change is remembered
// here whichever surface or process ran it. Keys under the prefix:
//   staged:<profile>:<deviceUid>   list of JSON records, newest first, at most 100, kept 30 days
//                                  after the last change of the device: the changes, and a mark for each
//                                  deploy fwbot sent (by its request id, which the deploy's run carries)
// A record says nothing about whether the change is still pending: the deploy card keeps those after the
// last of fwbot's deploys that SCC says succeeded on the device, whose interface its pending commands still
// name (catalogue/stagedDevices.ts).
import { z } from 'zod';
import type { DeployMark, StagedRecord, StagingLedger } from '../catalogue/operation.js';
import { pushBounded, readBounded } from '../redis/boundedList.js';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';

const KEPT = { max: 100, ttlMs: 30 * 24 * 60 * 60 * 1000 };

const Mark = z.object({ deploy: z.literal(true), at: z.number(), requestId: z.string() });

const Change = z.object({
  deviceUid: z.string(),
  interfaceName: z.string(),
  nameifs: z.array(z.string()).optional(),
  what: z.string(),
  at: z.number(),
  actor: z.string(),
  approvedBy: z.string().optional(),
});

const Stored = z.union([Mark, Change]);

export class RedisStagingLedger implements StagingLedger {
  constructor(
    private readonly redis: RedisClient,
    /** The deployment's key prefix, e.g. `fwbot`. */
    private readonly prefix: string,
  ) {}

  #key(profile: string, deviceUid: string): string {
    return new RedisKeys(this.prefix).staged(profile, deviceUid);
  }

  async record(profile: string, change: StagedRecord): Promise<void> {
    await this.#push(profile, change.deviceUid, Change.parse(change));
  }

  async deploying(profile: string, deviceUid: string, mark: DeployMark): Promise<void> {
    await this.#push(profile, deviceUid, Mark.parse({ deploy: true, ...mark }));
  }

  async #push(profile: string, deviceUid: string, entry: z.infer<typeof Stored>): Promise<void> {
    await pushBounded(this.redis, this.#key(profile, deviceUid), entry, KEPT);
  }

  async list(profile: string, deviceUid: string): Promise<z.infer<typeof Stored>[]> {
    // A record that does not parse (written by another version) is left out, not a failure of the card.
    return readBounded(this.redis, this.#key(profile, deviceUid), Stored, KEPT);
  }

  async forget(profile: string, deviceUid: string): Promise<void> {
    await this.redis.del(this.#key(profile, deviceUid));
  }
}
