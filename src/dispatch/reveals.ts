// Reveal grants: the permission to run one secret-producing call (e.g. a tenant API token), held by the
// person who asked and used once. The Reveal button carries only a grant's id; what runs, with which
// arguments, on which profile, is what the grant says, never what a button value names. Grants live in
// Redis on the bot (any process may serve the click) and in memory in the console.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';

const RawValue = z.union([z.string(), z.array(z.string()), z.boolean()]);

/** Raw arguments as they are kept (in Redis, in a grant): an absent optional is simply left out. */
export const StoredRawArgs = z.record(z.string(), RawValue);

/** A call as it is kept to run later: which operation, with what, on which profile, for whom, where. */
export const StoredCall = z.object({
  operationId: z.string().min(1),
  /** The raw arguments exactly as they run (bound to the target's UUIDs where it has one). */
  raw: StoredRawArgs,
  profile: z.string().min(1),
  requesterId: z.string().min(1),
  channelId: z.string().min(1),
  teamId: z.string().optional(),
  /** The requester is an external person (Slack Connect): roles are checked again as theirs. */
  external: z.boolean().optional(),
  /** The requester's Enterprise Grid organization: with teamId, the workspace its answers go to. */
  enterpriseId: z.string().optional(),
});

export const RevealGrant = StoredCall.extend({
  /** The target as approved (or resolved), when the operation declares one: re-read before it runs. */
  facts: z.unknown().optional(),
  /** The approval that allowed it, if one did. */
  approvalId: z.string().optional(),
  /** Who approved it: they must still hold the approver role when the button is pressed. */
  approvedBy: z.string().optional(),
  /** The approver is an external person (Slack Connect): checked again as one. */
  approverExternal: z.boolean().optional(),
});
export type RevealGrant = z.infer<typeof RevealGrant>;

/** How long a Reveal button stays usable. */
export const REVEAL_TTL_SECONDS = 15 * 60;

export interface RevealGrants {
  create(grant: RevealGrant): Promise<string>;
  /** Checks without using it: a UserError when it is unknown, used, expired, or someone else's. */
  check(id: string, userId: string): Promise<void>;
  /** The grant, used up; a UserError when it is unknown, used, expired, or someone else's (left intact). */
  take(id: string, userId: string): Promise<RevealGrant>;
}

const GRANT_ID = /^rv-[0-9a-f]{20}$/;

function newGrantId(): string {
  return `rv-${randomBytes(10).toString('hex')}`;
}

const USED = 'This Reveal button was already used or has expired; run the command again for a new one.';
const NOT_YOURS = 'Only the person who asked can reveal it.';

function check(id: string): void {
  if (!GRANT_ID.test(id)) throw new UserError('This button is not one fwbot made; run the command again.');
}

export class RedisRevealGrants implements RevealGrants {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  #key(id: string): string {
    return new RedisKeys(this.prefix).reveal(id);
  }

  async create(grant: RevealGrant): Promise<string> {
    const id = newGrantId();
    await this.redis.set(this.#key(id), JSON.stringify(RevealGrant.parse(grant)), 'EX', REVEAL_TTL_SECONDS);
    return id;
  }

  async #read(id: string, userId: string): Promise<RevealGrant> {
    check(id);
    const text = await this.redis.get(this.#key(id));
    if (text === null) throw new UserError(USED);
    const grant = RevealGrant.parse(JSON.parse(text));
    if (grant.requesterId !== userId) throw new UserError(NOT_YOURS);
    return grant;
  }

  async check(id: string, userId: string): Promise<void> {
    await this.#read(id, userId);
  }

  async take(id: string, userId: string): Promise<RevealGrant> {
    const grant = await this.#read(id, userId);
    // GETDEL makes the use atomic: of two clicks (or two processes), one gets the grant.
    if ((await this.redis.getdel(this.#key(id))) === null) throw new UserError(USED);
    return grant;
  }
}

export class MemoryRevealGrants implements RevealGrants {
  readonly #grants = new Map<string, { grant: RevealGrant; until: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  async create(grant: RevealGrant): Promise<string> {
    const id = newGrantId();
    this.#grants.set(id, {
      grant: RevealGrant.parse(grant),
      until: this.clock() + REVEAL_TTL_SECONDS * 1000,
    });
    return id;
  }

  #read(id: string, userId: string): RevealGrant {
    check(id);
    const held = this.#grants.get(id);
    if (!held || held.until < this.clock()) {
      this.#grants.delete(id);
      throw new UserError(USED);
    }
    if (held.grant.requesterId !== userId) throw new UserError(NOT_YOURS);
    return held.grant;
  }

  async check(id: string, userId: string): Promise<void> {
    this.#read(id, userId);
  }

  async take(id: string, userId: string): Promise<RevealGrant> {
    const grant = this.#read(id, userId);
    this.#grants.delete(id);
    return grant;
  }
}
