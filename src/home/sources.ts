// Where one person's Home data comes from, read fresh each time it is built: pending approvals (and which
// of them this person may decide: the approvals' own role check, in the request's channel), the work they
// follow, the upgrade watches of their channels, and their last commands.

import type { Logger } from 'pino';
import type { Authorizer } from '../approvals/authorizer.js';
import type { ApprovalRecord } from '../approvals/record.js';
import type { WatchRegistry } from '../catalogue/operation.js';
import { jsonValue } from '../model/json.js';
import type { RedisClient } from '../redis/connection.js';
import type { FollowedIndex, FollowedStates } from './followed.js';
import type { HomeData } from './model.js';
import type { RecentCommands } from './recentCommands.js';

export interface HomeSourcesDeps {
  /** Pending approval requests, the soonest to expire first (Approvals.pending). */
  pending: () => Promise<ApprovalRecord[]>;
  authorizer: Authorizer;
  /** Whether a requester may approve their own request (APPROVALS_ALLOW_SELF). */
  allowSelfApproval: boolean;
  followed: FollowedIndex;
  states: FollowedStates;
  watches: WatchRegistry;
  /** The channels a person is in; undefined when that cannot be read now. */
  channelsOf: (userId: string) => Promise<readonly string[] | undefined>;
  recent: RecentCommands;
  clock: () => number;
  log: Logger;
}

export class HomeSources {
  constructor(private readonly deps: HomeSourcesDeps) {}

  async read(userId: string): Promise<HomeData> {
    const { deps } = this;
    const now = deps.clock();
    const [pending, noted, recent, watches] = await Promise.all([
      deps.pending(),
      deps.followed.of(userId),
      deps.recent.of(userId),
      this.#watches(userId),
    ]);
    const myRequests = pending.filter((record) => record.request.requesterId === userId);
    const toDecide: ApprovalRecord[] = [];
    for (const record of pending) {
      const { request } = record;
      if (request.requesterId === userId && !deps.allowSelfApproval) continue;
      const may = await deps.authorizer({
        userId,
        role: 'approver',
        channelId: request.channelId,
        ...(request.teamId ? { teamId: request.teamId } : {}),
      });
      if (may) toDecide.push(record);
    }
    const followed = await deps.states.of(noted, now);
    return { userId, toDecide, myRequests, followed, watches, recent, now };
  }

  async #watches(userId: string): Promise<HomeData['watches']> {
    const all = await this.deps.watches.list();
    if (all.length === 0) return [];
    let channels: readonly string[] | undefined;
    try {
      channels = await this.deps.channelsOf(userId);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not read which channels a person is in');
      channels = undefined;
    }
    if (!channels) return undefined;
    const mine = new Set(channels);
    return all
      .filter((watch) => mine.has(watch.channelId))
      .map(({ channelId, profile, createdBy }) => ({ channelId, profile, createdBy }));
  }
}

/** A person's channels from Slack, kept in Redis a few minutes (users.conversations is Tier 3). */
export function cachedChannels(options: {
  redis: RedisClient;
  prefix: string;
  read: (userId: string) => Promise<string[]>;
  ttlMs?: number;
}): (userId: string) => Promise<readonly string[]> {
  const ttl = options.ttlMs ?? 5 * 60_000;
  return async (userId) => {
    const key = `${options.prefix}:home:channels:${userId}`;
    const cached = await options.redis.get(key);
    // Unreadable or not a list of ids: read it again from Slack.
    const parsed = cached === null ? undefined : jsonValue(cached);
    if (Array.isArray(parsed) && parsed.every((id) => typeof id === 'string')) return parsed;
    const channels = await options.read(userId);
    await options.redis.set(key, JSON.stringify(channels), 'PX', ttl);
    return channels;
  };
}
