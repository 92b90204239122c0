// When each person's App Home is published again, decided in Redis so any number of bot and worker
// processes agree. Only people who opened their Home lately are tracked (a set with an expiry per person):
// a change for anyone else costs one script call that does nothing. A change marks the person "due" at
// max(now + debounce, last publish + interval) unless already due, so a burst of changes makes one
// publish, and no Home is published more than once per interval. Claiming a due mark (just before the
// data is read) removes it: a change after the claim marks the person due again, so the last change of a
// burst is never lost. Times come from the caller's clock, so tests drive them.
//
// Keys under `<prefix>:home:`: `open` zset person → until when their Home counts as opened; `due` zset
// person → when to publish; `last` hash person → when their Home was last claimed for publishing;
// `workspace` hash person → the workspace (JSON WorkspaceRef) whose Home tab they opened last, so each
// publish goes out with that workspace's client and roles are read in its policy (none: the home one).
import { z } from 'zod';
import { jsonValue } from '../model/json.js';
import { type WorkspaceRef, workspaceOf } from '../model/workspace.js';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';
import { runScript } from '../redis/scripts.js';

const StoredWorkspace = z.object({ teamId: z.string().optional(), enterpriseId: z.string().optional() });

export interface HomeTiming {
  /** How long a change waits for others before the publish (a burst → one publish). */
  debounceMs: number;
  /** At most one publish per person per this long. */
  intervalMs: number;
  /** How long an opened Home keeps receiving updates after the person last opened it. */
  openTtlMs: number;
  /** A mark overdue this long lost its publish job (its process died): the next change schedules anew. */
  lostAfterMs: number;
}

export const DEFAULT_HOME_TIMING: HomeTiming = {
  debounceMs: 1_000,
  intervalMs: 5_000,
  openTtlMs: 7 * 24 * 60 * 60 * 1000,
  lostAfterMs: 60_000,
};

/** A publish to schedule: this person's Home, at this time (ms since the epoch). */
export interface DuePublish {
  userId: string;
  at: number;
}

export type Claim = { kind: 'publish' } | { kind: 'nothing' } | { kind: 'later'; inMs: number };

/** Slack user ids only: they are field names and script arguments. */
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;

export class HomeChanges {
  readonly #redis: RedisClient;
  readonly #keys: { open: string; due: string; last: string; workspace: string };
  readonly timing: HomeTiming;

  constructor(redis: RedisClient, prefix: string, timing: Partial<HomeTiming> = {}) {
    this.#redis = redis;
    const keys = new RedisKeys(prefix);
    this.#keys = {
      open: keys.homeOpen(),
      due: keys.homeDue(),
      last: keys.homeLast(),
      workspace: keys.homeWorkspace(),
    };
    this.timing = { ...DEFAULT_HOME_TIMING, ...timing };
  }

  /**
   * The person opened their Home (in `workspace`; absent: the home workspace): it counts as opened for
   * openTtlMs, and is to be published now.
   */
  async opened(userId: string, now: number, workspace: WorkspaceRef = {}): Promise<void> {
    if (!USER_ID.test(userId)) throw new Error(`not a Slack user id: ${userId}`);
    const team = workspaceOf(workspace);
    if (Object.keys(team).length === 0) await this.#redis.hdel(this.#keys.workspace, userId);
    else await this.#redis.hset(this.#keys.workspace, userId, JSON.stringify(team));
    const { open, due, last } = this.#keys;
    await runScript(this.#redis, 'home-open', [open, due, last], [now, userId, now + this.timing.openTtlMs]);
  }

  /** The workspace whose Home tab the person opened last ({}: the home workspace, or not known). */
  async workspaceOf(userId: string): Promise<WorkspaceRef> {
    const stored = await this.#redis.hget(this.#keys.workspace, userId);
    const parsed = stored === null ? undefined : StoredWorkspace.safeParse(jsonValue(stored));
    return parsed?.success ? workspaceOf(parsed.data) : {};
  }

  /** Whether this person opened their Home within openTtlMs. */
  async isOpen(userId: string, now: number): Promise<boolean> {
    const until = await this.#redis.zscore(this.#keys.open, userId);
    return until !== null && Number(until) > now;
  }

  /**
   * Something changed for these people ('everyone': everyone with an opened Home). Returns the publishes
   * this call scheduled; people already due, or whose Home is not opened, add nothing.
   */
  async mark(users: readonly string[] | 'everyone', now: number): Promise<DuePublish[]> {
    const ids = users === 'everyone' ? ['*'] : [...new Set(users)].filter((id) => USER_ID.test(id));
    if (ids.length === 0) return [];
    const { open, due, last } = this.#keys;
    const { debounceMs, intervalMs, lostAfterMs } = this.timing;
    const reply = (await runScript(
      this.#redis,
      'home-mark',
      [open, due, last],
      [now, debounceMs, intervalMs, lostAfterMs, ...ids],
    )) as string[];
    const out: DuePublish[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2)
      out.push({ userId: String(reply[i]), at: Number(reply[i + 1]) });
    return out;
  }

  /** Takes a due mark just before publishing; `earlyMs` forgives a timer that fires a little early. */
  async claim(userId: string, now: number, earlyMs = 250): Promise<Claim> {
    const { due, last } = this.#keys;
    const reply = Number(await runScript(this.#redis, 'home-claim', [due, last], [now, userId, earlyMs]));
    if (reply === 1) return { kind: 'publish' };
    if (reply === 0) return { kind: 'nothing' };
    return { kind: 'later', inMs: -reply };
  }

  /** A claimed publish that could not go (Slack's pace, a 429): due again at `at`. True if newly marked. */
  async retry(userId: string, at: number): Promise<boolean> {
    return Number(await runScript(this.#redis, 'home-retry', [this.#keys.due], [at, userId])) === 1;
  }
}
