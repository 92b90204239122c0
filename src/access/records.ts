// The access rules fwbot created (issue 36, item 7): one record per rule, kept so that `/fw access list`
// can say who asked for it and why, so that its expiry, reminders and recertification know whom to ask,
// and so that `/fw access revoke` finds it. SCC's rule records carry none of this. Keys under the
// deployment's prefix (src/redis/keys.ts):
//   access-records:<profile>      hash: record id → the record as JSON
//   access-record-seq:<profile>   the counter that numbers them, so ids are short to type
// A few hundred rules per profile at most, so a listing reads the hash whole and filters it.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import { runScript } from '../redis/scripts.js';

export const AccessRecordSchema = z.object({
  /** Short and per profile (`12`): what `/fw access revoke` takes besides the rule's uid. */
  id: z.string(),
  profile: z.string(),
  /** The managed tenant's uid, when the request was made on a customer's device (MSP). */
  tenantUid: z.string().optional(),
  deviceUid: z.string(),
  deviceName: z.string(),
  /** The access group (access list) the rule is in, by name as the device's `show access-list` names it. */
  accessGroup: z.string(),
  /** SCC's uid of the rule. */
  ruleUid: z.string(),
  protocol: z.enum(['tcp', 'udp', 'icmp', 'ip']),
  /** As the request named them: a host, a CIDR, `any` or an object's name. */
  source: z.string(),
  destination: z.string(),
  /** The tcp/udp port or the icmp type, as asked. */
  port: z.string().optional(),
  /** Who asked (a Slack user id). */
  requester: z.string(),
  ticket: z.string().optional(),
  reason: z.string(),
  /** When the rule was created and when it ends (ms since the epoch); no expiry: permanent. */
  createdAt: z.number(),
  expiresAt: z.number().optional(),
  /** The thread of the request, where its lifecycle is told. */
  thread: z.object({ channel: z.string(), ts: z.string(), teamId: z.string().optional() }).optional(),
  /** When the requester last said a permanent rule is still needed. */
  lastCertifiedAt: z.number().optional(),
  /** When the requester was last asked to recertify it (unanswered while later than lastCertifiedAt). */
  certificationAskedAt: z.number().optional(),
});
export type AccessRecord = z.infer<typeof AccessRecordSchema>;
export type NewAccessRecord = Omit<AccessRecord, 'id'>;

/** What a listing keeps; every given part must match. */
export interface AccessRecordFilter {
  deviceUid?: string | undefined;
  requester?: string | undefined;
  /** Only rules that expire before this time (ms); permanent ones never match. */
  expiringBefore?: number | undefined;
}

/** The parts of a record that change after it is made: its expiry (extended), its recertification. */
export type AccessRecordChange = Partial<
  Pick<AccessRecord, 'expiresAt' | 'lastCertifiedAt' | 'certificationAskedAt'>
>;

/** What operations see of the records (src/catalogue/services.ts): AccessRecords is the Redis one. */
export interface AccessRecordStore {
  add(record: NewAccessRecord): Promise<AccessRecord>;
  get(profile: string, id: string): Promise<AccessRecord | undefined>;
  find(profile: string, idOrRuleUid: string): Promise<AccessRecord | undefined>;
  remove(profile: string, id: string): Promise<boolean>;
  update(profile: string, id: string, change: AccessRecordChange): Promise<AccessRecord>;
  list(profile: string, filter?: AccessRecordFilter): Promise<AccessRecord[]>;
}

export class AccessRecords implements AccessRecordStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  /** Keeps the record of a rule just created and says its id. */
  async add(record: NewAccessRecord): Promise<AccessRecord> {
    const id = String(await this.redis.incr(this.keys.accessRecordSequence(record.profile)));
    const stored = AccessRecordSchema.parse({ ...record, id });
    await this.redis.hset(this.keys.accessRecords(record.profile), id, JSON.stringify(stored));
    return stored;
  }

  /** One record by its id; undefined when there is none (or what is kept there no longer reads). */
  async get(profile: string, id: string): Promise<AccessRecord | undefined> {
    return parsed(await this.redis.hget(this.keys.accessRecords(profile), id));
  }

  /** The record of a rule, by the record's id or the rule's uid. */
  async find(profile: string, idOrRuleUid: string): Promise<AccessRecord | undefined> {
    const byId = await this.get(profile, idOrRuleUid);
    if (byId) return byId;
    const all = await this.list(profile);
    return all.find((record) => record.ruleUid === idOrRuleUid);
  }

  /** Drops a record (its rule was removed); false when there was none. */
  async remove(profile: string, id: string): Promise<boolean> {
    return (await this.redis.hdel(this.keys.accessRecords(profile), id)) === 1;
  }

  /** Changes what may change of a record, atomically; a UserError when there is no such record. */
  async update(profile: string, id: string, change: AccessRecordChange): Promise<AccessRecord> {
    const text = await runScript(
      this.redis,
      'access-record-update',
      [this.keys.accessRecords(profile)],
      [id, JSON.stringify(change)],
    );
    const record = typeof text === 'string' ? parsed(text) : undefined;
    if (!record)
      throw new UserError(
        `fwbot keeps no access rule ${id} in profile ${profile}; /fw access list shows them.`,
      );
    return record;
  }

  /** The profile's records matching the filter, oldest first. */
  async list(profile: string, filter: AccessRecordFilter = {}): Promise<AccessRecord[]> {
    const all = await this.redis.hvals(this.keys.accessRecords(profile));
    return all
      .map(parsed)
      .filter((record): record is AccessRecord => record !== undefined)
      .filter(
        (record) =>
          (filter.deviceUid === undefined || record.deviceUid === filter.deviceUid) &&
          (filter.requester === undefined || record.requester === filter.requester) &&
          (filter.expiringBefore === undefined ||
            (record.expiresAt !== undefined && record.expiresAt < filter.expiringBefore)),
      )
      .sort((a, b) => a.createdAt - b.createdAt || Number(a.id) - Number(b.id));
  }
}

function parsed(raw: string | null): AccessRecord | undefined {
  if (raw === null) return undefined;
  try {
    const result = AccessRecordSchema.safeParse(JSON.parse(raw));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
