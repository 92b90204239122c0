// Where one person's Home data comes from, read fresh each time it is built: pending approvals (and which
// of them this person may decide: the approvals' own role check, in the request's channel), the work they
// follow, the upgrade watches and the open incidents of their channels (the channels they are in, as
// Slack says), and their last commands. Incidents, watches and followed work are shown only for channels
// where the person holds a role: each channel has one scope (a customer channel: its tenant), so someone
// who holds roles only in a customer's channels sees that customer's and nobody else's. Roles are read in
// the policy of the workspace the person opened their Home in (another workspace's people hold roles only
// through its `workspaces.<team>.policy`), and their channels are asked of that workspace.

import type { Logger } from 'pino';
import type { OpenIncident } from '../alerts/model.js';
import type { Authorizer } from '../approvals/authorizer.js';
import type { ApprovalRecord } from '../approvals/record.js';
import type { WatchRegistry } from '../catalogue/operation.js';
import { jsonValue } from '../model/json.js';
import { type WorkspaceRef, workspaceOf } from '../model/workspace.js';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';
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
  /** The open incidents of these channels (IncidentDesk.openIncidents). */
  incidents: (channelIds: readonly string[]) => Promise<OpenIncident[]>;
  /** The channels a person is in (in that workspace); undefined when that cannot be read now. */
  channelsOf: (userId: string, workspace: WorkspaceRef) => Promise<readonly string[] | undefined>;
  recent: RecentCommands;
  clock: () => number;
  log: Logger;
}

export class HomeSources {
  constructor(private readonly deps: HomeSourcesDeps) {}

  /** One person's Home, as it is in `workspace` (absent: the home workspace). */
  async read(userId: string, workspace: WorkspaceRef = {}): Promise<HomeData> {
    const { deps } = this;
    const now = deps.clock();
    const holdsRole = this.#holdsRole(userId, workspace);
    const channels = this.#channels(userId, workspace, holdsRole);
    const [pending, noted, recent, watches, incidents] = await Promise.all([
      deps.pending(),
      deps.followed.of(userId),
      deps.recent.of(userId),
      this.#watches(channels),
      this.#incidents(channels),
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
    const followed = await deps.states.of(await filterAsync(noted, (work) => holdsRole(work.channelId)), now);
    return { userId, toDecide, myRequests, followed, watches, incidents, recent, now };
  }

  /** Whether the person holds a role (viewer or above) in a channel, asked once per channel per Home. */
  #holdsRole(userId: string, workspace: WorkspaceRef): (channelId: string) => Promise<boolean> {
    const asked = new Map<string, Promise<boolean>>();
    const team = workspaceOf(workspace);
    return (channelId) => {
      let held = asked.get(channelId);
      if (held === undefined) {
        held = this.deps
          .authorizer({ userId, role: 'viewer', channelId, ...team })
          .catch((error: unknown) => {
            // Not known now: shown as not held (the Home is read again on the next change).
            this.deps.log.warn({ err: error, channelId }, 'could not check a person’s role in a channel');
            return false;
          });
        asked.set(channelId, held);
      }
      return held;
    };
  }

  /**
   * The channels a person is in and holds a role in, read once per Home (lazily: only a section that needs
   * them asks).
   */
  #channels(
    userId: string,
    workspace: WorkspaceRef,
    holdsRole: (channelId: string) => Promise<boolean>,
  ): () => Promise<readonly string[] | undefined> {
    let read: Promise<readonly string[] | undefined> | undefined;
    return () => {
      read ??= this.deps
        .channelsOf(userId, workspace)
        .catch((error: unknown) => {
          this.deps.log.warn({ err: error }, 'could not read which channels a person is in');
          return undefined;
        })
        .then((channels) => (channels === undefined ? undefined : filterAsync(channels, holdsRole)));
      return read;
    };
  }

  async #incidents(channelsOf: () => Promise<readonly string[] | undefined>): Promise<HomeData['incidents']> {
    const channels = await channelsOf();
    if (!channels) return undefined;
    return channels.length === 0 ? [] : this.deps.incidents(channels);
  }

  async #watches(channelsOf: () => Promise<readonly string[] | undefined>): Promise<HomeData['watches']> {
    const all = await this.deps.watches.list();
    if (all.length === 0) return [];
    const channels = await channelsOf();
    if (!channels) return undefined;
    const mine = new Set(channels);
    return all
      .filter((watch) => mine.has(watch.channelId))
      .map(({ channelId, profile, createdBy }) => ({ channelId, profile, createdBy }));
  }
}

async function filterAsync<T>(items: readonly T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept = await Promise.all(items.map(keep));
  return items.filter((_, index) => kept[index]);
}

/**
 * A person's channels from Slack (asked of the workspace they opened their Home in), kept in Redis a few
 * minutes (users.conversations is Tier 3).
 */
export function cachedChannels(options: {
  redis: RedisClient;
  prefix: string;
  read: (userId: string, workspace: WorkspaceRef) => Promise<string[]>;
  ttlMs?: number;
}): (userId: string, workspace: WorkspaceRef) => Promise<readonly string[]> {
  const ttl = options.ttlMs ?? 5 * 60_000;
  const keys = new RedisKeys(options.prefix);
  return async (userId, workspace) => {
    const team = workspace.teamId ?? workspace.enterpriseId;
    const key = keys.homeChannels(userId, team);
    const cached = await options.redis.get(key);
    // Unreadable or not a list of ids: read it again from Slack.
    const parsed = cached === null ? undefined : jsonValue(cached);
    if (Array.isArray(parsed) && parsed.every((id) => typeof id === 'string')) return parsed;
    const channels = await options.read(userId, workspace);
    await options.redis.set(key, JSON.stringify(channels), 'PX', ttl);
    return channels;
  };
}
