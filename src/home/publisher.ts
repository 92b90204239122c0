// Publishing App Homes: at once when a person opens theirs, and after changes through the coalescing marks
// of changes.ts. Each scheduled publish is a delayed BullMQ job (queue `fwbot-home`, id per person and due
// time), so a mark made by a worker process or a process that then dies is still published by any bot
// process. Slack's pace is shared through Redis (src/jobs/slackPace.ts): views.publish is Tier 4 (about
// 100 a minute), so publishes are spaced workspace-wide, and a 429's Retry-After holds every process off;
// a publish that has to wait is marked due again, never dropped. Each Home is published in the workspace
// the person opened it in (OAuth mode: with that workspace's token, paced per workspace). The Home is a
// View here; Slack's App Home tab (src/slack/homeTab.ts) makes Block Kit of it.
import { Worker } from 'bullmq';
import type { Logger } from 'pino';
import { SlackPace } from '../jobs/slackPace.js';
import type { View } from '../model/view.js';
import type { WorkspaceRef } from '../model/workspace.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import { classifySlackError } from '../slackApi/errors.js';
import type { DuePublish, HomeChanges, HomeTiming } from './changes.js';
import { debugAbsorber, type ErrorAbsorber, HOME_QUEUE, HomeSignals } from './signals.js';
import type { HomeSources } from './sources.js';
import { homeView } from './view.js';

export { HOME_QUEUE } from './signals.js';
/** views.publish is Tier 4 (~100 per minute per workspace). */
export const PUBLISH_SPACING_MS = 600;
const PACE_METHOD = 'views.publish';
const PACE_SCOPE = 'workspace';

/**
 * Where a person's Home is shown, and which channels they are in: Slack's App Home tab (src/slack/homeTab.ts).
 * Throws as the Slack Web API does (src/slackApi/errors.ts says what a failure means).
 */
export interface HomeTab {
  publish(userId: string, view: View): Promise<void>;
  /** The public and private channels a person is in. */
  userChannels(userId: string): Promise<string[]>;
}

export interface HomePublisherOptions {
  redis: RedisClient;
  /** The deployment's key prefix (BullMQ's too). */
  prefix: string;
  keys: RedisKeys;
  /** A tab whose client throws on 429 (createWorkerSlackClient), so the pace decides when to try again. */
  tab: Pick<HomeTab, 'publish'>;
  /** Each workspace's such tab (OAuth mode); default: `tab` for every workspace. */
  tabFor?: (workspace: WorkspaceRef) => Pick<HomeTab, 'publish'>;
  sources: Pick<HomeSources, 'read'>;
  log: Logger;
  clock?: () => number;
  timing?: Partial<HomeTiming>;
  /** Spacing of publishes in the workspace (default PUBLISH_SPACING_MS). */
  spacingMs?: number;
  /** Where the queue's and worker's connection errors go (the process's RedisHealth). */
  absorb?: ErrorAbsorber;
}

export type PublishResult = 'published' | 'waiting' | 'nothing';

/** The pace's scope: the home workspace's is the one it always had, another's is named by its team. */
function paceScope(workspace: WorkspaceRef): string {
  const id = workspace.teamId ?? workspace.enterpriseId;
  return id === undefined ? PACE_SCOPE : `${PACE_SCOPE}:${id}`;
}

export class HomePublisher {
  readonly changes: HomeChanges;
  readonly signals: HomeSignals;
  readonly #options: HomePublisherOptions;
  readonly #pace: SlackPace;
  readonly #clock: () => number;
  #worker: Worker | undefined;
  /** Publishes made by this process (for tests and the log). */
  published = 0;

  constructor(options: HomePublisherOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.signals = new HomeSignals({
      redis: options.redis,
      prefix: options.prefix,
      log: options.log,
      clock: this.#clock,
      ...(options.timing ? { timing: options.timing } : {}),
      ...(options.absorb ? { absorb: options.absorb } : {}),
    });
    this.changes = this.signals.changes;
    this.#pace = new SlackPace(options.redis, options.keys);
  }

  /**
   * The person opened their Home (in `workspace`; absent: the home workspace's): remembered, with its
   * workspace (updates are pushed to them there from now on), and published now.
   */
  async opened(userId: string, workspace: WorkspaceRef = {}): Promise<PublishResult> {
    await this.changes.opened(userId, this.#clock(), workspace);
    return this.#publish(userId);
  }

  /** Something changed for these people; only opened Homes are scheduled. Never throws (logged). */
  changed(users: readonly string[] | 'everyone'): Promise<void> {
    return this.signals.changed(users);
  }

  mark(users: readonly string[] | 'everyone'): Promise<DuePublish[]> {
    return this.signals.mark(users);
  }

  /** Runs a due publish (the queue's job): claim the mark, then publish; a mark not yet due waits. */
  async runDue(userId: string): Promise<PublishResult> {
    const claim = await this.changes.claim(userId, this.#clock());
    if (claim.kind === 'nothing') return 'nothing';
    if (claim.kind === 'later') {
      await this.signals.schedule([{ userId, at: this.#clock() + claim.inMs }]);
      return 'waiting';
    }
    return this.#publish(userId);
  }

  /** After a claim: Slack's pace first, then build and publish; if it must wait, the mark comes back. */
  async #publish(userId: string): Promise<PublishResult> {
    const { sources, log } = this.#options;
    const workspace = await this.changes.workspaceOf(userId);
    const tab = this.#options.tabFor?.(workspace) ?? this.#options.tab;
    // Slack's limits are per workspace: each workspace's publishes have a pace of their own.
    const scope = paceScope(workspace);
    const wait = await this.#pace.reserve(PACE_METHOD, scope, this.#options.spacingMs ?? PUBLISH_SPACING_MS);
    if (wait > 0) return this.#again(userId, wait);
    const view = homeView(await sources.read(userId, workspace));
    try {
      await tab.publish(userId, view);
    } catch (error) {
      const failure = classifySlackError(error);
      if (failure.kind === 'rateLimited') {
        const delay = failure.retryAfterMs ?? 1_000;
        await this.#pace.holdOff(PACE_METHOD, scope, delay);
        log.info({ retryAfterMs: delay }, 'Slack rate-limited views.publish; the Home is published later');
        return this.#again(userId, delay);
      }
      throw error;
    }
    this.published += 1;
    return 'published';
  }

  async #again(userId: string, inMs: number): Promise<PublishResult> {
    const at = this.#clock() + inMs;
    if (await this.changes.retry(userId, at)) await this.signals.schedule([{ userId, at }]);
    return 'waiting';
  }

  /** Starts this process's share of the scheduled publishes. */
  start(concurrency = 2): void {
    if (this.#worker) return;
    const { redis, prefix, log } = this.#options;
    this.#worker = new Worker(
      HOME_QUEUE,
      async (job) => {
        const userId = String((job.data as { userId?: unknown }).userId ?? '');
        return this.runDue(userId);
      },
      { connection: redis, prefix, concurrency },
    );
    (this.#options.absorb ?? debugAbsorber(log))(`worker ${HOME_QUEUE}`, this.#worker);
    this.#worker.on('failed', (job, error) =>
      log.warn({ err: error, jobId: job?.id }, 'a Home publish failed'),
    );
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.close();
    await this.signals.close();
  }
}
