// Slack user-group membership for role grants to groups (S…). `usergroups.users.list` is Tier 2
// (~20 calls a minute), so members are cached per group for a while, and concurrent lookups of the same
// group share one call. User groups exist only on paid plans: `plan_upgrade_required` (or any other
// failure) means "no members known", which fails closed — grants to user ids keep working.
import type { Logger } from 'pino';
import { classifySlackError } from '../slackApi/errors.js';

/** Fetches the member user ids of one user group (the Slack call lives in src/slackApi/). */
export type FetchGroupMembers = (groupId: string) => Promise<readonly string[]>;

export interface UserGroupDirectoryOptions {
  fetchMembers: FetchGroupMembers;
  log: Logger;
  /** How long a group's members are trusted; Slack's own caches are about this fresh. */
  ttlMs?: number;
  /** After a failure, how long to wait before asking Slack again (protects the Tier 2 budget). */
  failureTtlMs?: number;
  now?: () => number;
}

interface Entry {
  members: ReadonlySet<string>;
  expires: number;
}

export class UserGroupDirectory {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<ReadonlySet<string>>>();
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly now: () => number;
  private warnedNoPlan = false;

  constructor(private readonly options: UserGroupDirectoryOptions) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.failureTtlMs = options.failureTtlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The members of a group; an empty set when they cannot be known. */
  async members(groupId: string): Promise<ReadonlySet<string>> {
    const cached = this.cache.get(groupId);
    if (cached && cached.expires > this.now()) return cached.members;
    const pending = this.inFlight.get(groupId);
    if (pending) return pending;
    const lookup = this.fetch(groupId).finally(() => this.inFlight.delete(groupId));
    this.inFlight.set(groupId, lookup);
    return lookup;
  }

  /** The groups among `groupIds` that `userId` belongs to. */
  async groupsOf(userId: string, groupIds: Iterable<string>): Promise<string[]> {
    const ids = [...new Set(groupIds)];
    const memberships = await Promise.all(
      ids.map(async (id) => ((await this.members(id)).has(userId) ? id : null)),
    );
    return memberships.filter((id): id is string => id !== null);
  }

  private async fetch(groupId: string): Promise<ReadonlySet<string>> {
    try {
      const members = new Set(await this.options.fetchMembers(groupId));
      this.cache.set(groupId, { members, expires: this.now() + this.ttlMs });
      return members;
    } catch (error) {
      // A final refusal (a free plan, no such group, no usergroups:read) says the same every time.
      const failure = classifySlackError(error);
      if (failure.kind === 'refused') {
        if (!this.warnedNoPlan) {
          this.options.log.warn(
            { groupId, slackError: failure.reason },
            'user-group grants cannot be resolved; grants to user ids still apply',
          );
          this.warnedNoPlan = true;
        }
      } else {
        this.options.log.warn(
          { groupId, err: error },
          'user-group lookup failed; treating the group as empty',
        );
      }
      const members = new Set<string>();
      this.cache.set(groupId, { members, expires: this.now() + this.failureTtlMs });
      return members;
    }
  }
}
