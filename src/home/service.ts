// The App Home, assembled: the per-person records it reads (last commands, followed work), the sources,
// the publisher, and the hooks through which the rest of fwbot says "something changed": the dispatcher's
// command history, the tracker (a follow), the watch registry (a watch or unwatch), and the audit trail
// (every approval transition writes a record). Approvals and watches concern many people, so they refresh
// every opened Home (coalesced like the rest); the others only their person's. A Home is the person's in
// the workspace they opened it in: published with that workspace's tab, roles read in its policy.
import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { Authorizer } from '../approvals/authorizer.js';
import type { ApprovalRecord } from '../approvals/record.js';
import type { WatchRegistry } from '../catalogue/operation.js';
import type { AuditEntry, Tracker } from '../dispatch/ports.js';
import { readOpenIncidents } from '../jobs/alerts/deskService.js';
import type { View } from '../model/view.js';
import type { WorkspaceRef } from '../model/workspace.js';
import type { RedisClient } from '../redis/connection.js';
import { QUEUE, RedisKeys } from '../redis/keys.js';
import type { HomeTiming } from './changes.js';
import { FollowedIndex, FollowedStates, homeAwareTracker } from './followed.js';
import { HomePublisher, type HomeTab } from './publisher.js';
import { RecentCommands } from './recentCommands.js';
import { debugAbsorber, type ErrorAbsorber } from './signals.js';
import { cachedChannels, HomeSources } from './sources.js';
import { homeView } from './view.js';

export interface HomeOptions {
  redis: RedisClient;
  /** The deployment's key prefix, as the queues use it (e.g. `fwbot`, `{fwbot}` on a cluster). */
  prefix: string;
  /** Slack's App Home tab; throws on 429 (createWorkerSlackClient): the publisher's pace decides when to try again. */
  tab: HomeTab;
  /** Each workspace's tab (OAuth mode); default: `tab` for every workspace. */
  tabFor?: (workspace: WorkspaceRef) => HomeTab;
  /** Pending approvals; read late, so the approvals may be created after the Home. */
  pending: () => Promise<ApprovalRecord[]>;
  authorizer: Authorizer;
  allowSelfApproval: boolean;
  watches: WatchRegistry;
  /** Cleans texts before they are kept (the audit trail's redaction). */
  clean?: (text: string) => string;
  /** The channels a person is in; default: Slack's users.conversations (in their workspace), cached a few minutes. */
  channelsOf?: (userId: string, workspace: WorkspaceRef) => Promise<readonly string[] | undefined>;
  log: Logger;
  clock?: () => number;
  timing?: Partial<HomeTiming>;
  spacingMs?: number;
  /** Where its queues' connection errors go (the process's RedisHealth.absorb); else the debug log. */
  absorb?: ErrorAbsorber;
}

export interface Home {
  readonly publisher: HomePublisher;
  readonly recent: RecentCommands;
  readonly followed: FollowedIndex;
  /** The tracker that also notes each follow for the requester's Home. */
  tracker(inner: Tracker): Tracker;
  /** The watch registry that refreshes the opened Homes when a watch starts or ends. */
  watches(inner: WatchRegistry): WatchRegistry;
  /** Every approval transition is audited: each refreshes the opened Homes. */
  onAudit(entry: AuditEntry): void;
  /** A person's Home as a View, read now (the console's /home). */
  view(userId: string): Promise<View>;
  /** The person opened their Home tab in `workspace` (absent: the home workspace). */
  opened(userId: string, workspace?: WorkspaceRef): Promise<unknown>;
  start(): void;
  close(): Promise<void>;
}

export function createHome(options: HomeOptions): Home {
  const { redis, prefix, log } = options;
  const clock = options.clock ?? Date.now;
  const keys = new RedisKeys(prefix);
  const trackQueue = new Queue(QUEUE.track, { connection: redis, prefix });
  const absorb = options.absorb ?? debugAbsorber(log);
  absorb(`queue ${QUEUE.track} (home)`, trackQueue);
  let publisher: HomePublisher | undefined;
  const changed = (users: readonly string[] | 'everyone') => {
    void publisher?.changed(users);
  };
  const recent = new RecentCommands({
    redis,
    prefix,
    clock,
    ...(options.clean ? { clean: options.clean } : {}),
    changed: (userId) => changed([userId]),
  });
  const followed = new FollowedIndex(redis, prefix, clock);
  const tabOf = (workspace: WorkspaceRef) => options.tabFor?.(workspace) ?? options.tab;
  const channelsOf =
    options.channelsOf ??
    cachedChannels({ redis, prefix, read: (userId, workspace) => tabOf(workspace).userChannels(userId) });
  const sources = new HomeSources({
    pending: options.pending,
    authorizer: options.authorizer,
    allowSelfApproval: options.allowSelfApproval,
    followed,
    states: new FollowedStates(redis, keys, trackQueue),
    watches: options.watches,
    incidents: (channelIds) => readOpenIncidents(redis, keys, channelIds),
    channelsOf,
    recent,
    clock,
    log,
  });
  publisher = new HomePublisher({
    redis,
    prefix,
    keys,
    tab: options.tab,
    tabFor: tabOf,
    sources,
    log: log.child({ component: 'home' }),
    clock,
    ...(options.timing ? { timing: options.timing } : {}),
    ...(options.spacingMs !== undefined ? { spacingMs: options.spacingMs } : {}),
    absorb,
  });
  const own = publisher;
  return {
    publisher: own,
    recent,
    followed,
    tracker: (inner) => homeAwareTracker(inner, followed, (userId) => changed([userId])),
    watches: (inner) => ({
      async watch(watch) {
        const result = await inner.watch(watch);
        changed('everyone');
        return result;
      },
      async unwatch(channelId, profile) {
        const result = await inner.unwatch(channelId, profile);
        changed('everyone');
        return result;
      },
      list: (profile) => inner.list(profile),
    }),
    onAudit: () => changed('everyone'),
    view: async (userId) => homeView(await sources.read(userId)),
    opened: (userId, workspace) => own.opened(userId, workspace),
    start: () => own.start(),
    async close() {
      await own.close();
      await trackQueue.close();
    },
  };
}
