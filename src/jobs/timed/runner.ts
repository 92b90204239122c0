// The pass that runs timed work: every process (bot, worker, demo) runs it every few seconds, like the
// approvals' recovery pass, and a test runs it on its own driven clock. A pass reads the items due now from
// Redis, claims each in one Lua step (so of every process passing at once exactly one runs it), holds the
// claim with a renewed lease while the run lasts, and ends it: done, failed (its thread is told why), or due
// again later (a periodic kind's next round, a wait for the change windows, a transient failure of SCC with
// backoff). A runner that dies leaves its claim to lapse: the next pass after the lease takes the item over,
// and a run that had passed its point of no return (`committing`) is settled by its kind's `interrupted`.
// Followed work an item ends with is handed to the tracking queue after the end is recorded, and handed
// again by the next pass when a crash came between.
import type { Logger } from 'pino';
import type { OperationPolicy, OperationServices, TimedItem } from '../../catalogue/operation.js';
import type {
  AnyTimedKind,
  PersonToCheck,
  RoleHolder,
  TimedContext,
  TimedOutcome,
} from '../../catalogue/timed/index.js';
import { operationContext } from '../../dispatch/context.js';
import type { SccClients, Tracker } from '../../dispatch/ports.js';
import { classifySccError } from '../../follow/failures.js';
import { type TrackRequest, TrackRequestSchema } from '../../follow/index.js';
import { nextCommonOpening, windowState, windowsText, windowsZone } from '../../model/changeWindows.js';
import { UserError } from '../../model/errors.js';
import { jsonValue } from '../../model/json.js';
import type { View } from '../../model/view.js';
import { workspaceOf } from '../../model/workspace.js';
import { type KeptLease, keepLease } from '../../redis/lease.js';
import { channelMention, userMention } from '../../render/mrkdwn.js';
import { untrusted } from '../../render/untrusted.js';
import { viewerTime } from '../../render/viewerTime.js';
import { type NotifyJobData, textBeside } from '../payloads.js';
import type { TimedStore } from './store.js';

/** How the pass runs; the schedule's `timed` section (src/jobs/schedule.ts). */
export interface TimedSettings {
  /** How often each process passes. */
  passEveryMs: number;
  /** A run's claim lapses this long after its last renewal (renewed every third of it while it runs). */
  leaseMs: number;
  /** Items claimed per pass at most, and run at once. */
  batch: number;
  concurrency: number;
  /** Transient failures of SCC in a row before an item fails, and the wait after the n-th one. */
  maxTransientFailures: number;
  transientDelayMs(failures: number, retryAfterMs?: number): number;
}

export interface TimedRunnerDeps {
  store: TimedStore;
  kinds: ReadonlyMap<string, AnyTimedKind>;
  clients: SccClients;
  /** What the dispatcher gives operations (the deployment's Redis services, its policy). */
  services?: OperationServices | undefined;
  policy?: OperationPolicy | undefined;
  /** Whether someone still holds a grant, right now: the policy's check, as the approvals ask it. */
  roleCheck: (check: RoleHolder) => Promise<boolean>;
  tracker: Tracker;
  /** Queues messages to post exactly once (JobsCore.notify). */
  notify: (messages: readonly NotifyJobData[]) => Promise<void>;
  clock: () => number;
  settings: TimedSettings;
  /** Identifies this process in claims, so a takeover fences the previous runner out. */
  runnerId: string;
  log: Logger;
}

/** Thrown when another process took the item over: this run stops without changing anything. */
class ClaimLost extends Error {}

type Ending =
  | { kind: 'finish'; state: 'done' | 'failed'; summary: string; track: TrackRequest[] }
  | { kind: 'defer'; at: number; summary: string; nextRound: boolean; failures: number };

const finished = (state: 'done' | 'failed', summary: string, track: TrackRequest[] = []): Ending => ({
  kind: 'finish',
  state,
  summary,
  track,
});

/** The sentence naming the first person who lost a grant; undefined when every one still holds. */
async function rolesLost(
  people: readonly PersonToCheck[],
  check: (holder: RoleHolder) => Promise<boolean>,
): Promise<string | undefined> {
  for (const person of people) {
    const checks: readonly RoleHolder[] = Array.isArray(person) ? person : [person as RoleHolder];
    let holds = false;
    for (const one of checks) if (await check(one)) holds = true;
    const first = checks[0];
    if (holds || !first) continue;
    return first.among
      ? `${userMention(first.userId)} is no longer among the people named to approve it.`
      : `${userMention(first.userId)} no longer holds the ${first.role} role in ${channelMention(first.channelId)}.`;
  }
  return undefined;
}

export class TimedRunner {
  readonly #deps: TimedRunnerDeps;
  #timer: NodeJS.Timeout | undefined;
  #passing: Promise<void> | undefined;

  constructor(deps: TimedRunnerDeps) {
    this.#deps = deps;
  }

  /** One pass: every item due now is run (or handed on); resolves once they are. The number looked at. */
  async pass(): Promise<number> {
    const { store, clock, settings } = this.#deps;
    const ids = await store.due(clock(), settings.batch);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < ids.length; i = next++) {
        const id = ids[i];
        if (id !== undefined) await this.#one(id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, ids.length) }, worker));
    return ids.length;
  }

  /** Passes every `passEveryMs` until close(); a pass never overlaps the previous one. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#passing) return;
      this.#passing = this.pass()
        .then(() => undefined)
        .catch((error: unknown) =>
          this.#deps.log.error({ err: error }, 'timed work pass failed; the next one retries'),
        )
        .finally(() => {
          this.#passing = undefined;
        });
    }, this.#deps.settings.passEveryMs);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#passing;
  }

  async #one(id: string): Promise<void> {
    const { store, clock, settings, runnerId, log } = this.#deps;
    try {
      const read = await store.read(id);
      if (read && read.item.state !== 'scheduled' && read.item.state !== 'running') {
        await this.#handOn(read.item, read.hash);
        return;
      }
      const claim = await store.claim(id, runnerId, clock(), settings.leaseMs);
      if (!claim.claimed) return;
      await this.#run(id, claim.previous);
    } catch (error) {
      log.error({ err: error, timedItem: id }, 'timed item not run; the next pass retries');
    }
  }

  async #run(id: string, previous: 'changing' | undefined): Promise<void> {
    const { store, log } = this.#deps;
    const read = await store.read(id);
    if (!read) return;
    const { item } = read;
    const failures = Number(read.hash.failures ?? '0') || 0;
    const lease = this.#holdLease(id);
    const state = { phase: previous ?? 'starting' };
    const ctx = this.#context(item, state, lease.lost);
    let ending: Ending;
    try {
      ending = await this.#attempt(ctx, item, previous, state);
    } catch (error) {
      if (error instanceof ClaimLost) {
        log.warn({ timedItem: id }, 'another process took this timed item over; stopping');
        return;
      }
      ending = this.#failure(item, error, failures);
    } finally {
      lease.stop();
    }
    await this.#end(ctx, item, ending, state.phase === 'changing');
  }

  /** What one claimed run comes to: the interrupted rule, the windows, then the kind's run. */
  async #attempt(
    ctx: TimedContext,
    item: TimedItem,
    previous: 'changing' | undefined,
    state: { phase: string },
  ): Promise<Ending> {
    const kind = this.#deps.kinds.get(item.kind);
    if (!kind) return finished('failed', `this fwbot no longer knows the kind of timed work ${item.kind}`);
    const parsed = kind.payload.safeParse(item.payload);
    if (!parsed.success) return finished('failed', 'its stored payload no longer fits its kind');
    const payload: unknown = parsed.data;
    if (previous === 'changing' && kind.interrupted !== 'run-again') {
      const found = await kind.interrupted(ctx, payload);
      if (found === 'took-effect') return finished('done', 'it took effect before fwbot restarted');
      if (found === 'unknown')
        return finished(
          'failed',
          'not run again: fwbot restarted while it ran, and whether it took effect cannot be told; check by hand',
        );
      // Not done: it runs again from the start.
      await this.#phase(item.id, 'starting');
      state.phase = 'starting';
    }
    if (kind.windows) {
      const waiting = await this.#waitForWindows(ctx, item, await kind.windows(ctx, payload));
      if (waiting) return waiting;
    }
    return this.#ending(await kind.run(ctx, payload));
  }

  #ending(outcome: TimedOutcome): Ending {
    switch (outcome.status) {
      case 'done':
        return finished('done', outcome.summary, outcome.track ?? []);
      case 'failed':
        return finished('failed', outcome.summary);
      case 'again':
        return { kind: 'defer', at: outcome.at, summary: outcome.summary, nextRound: true, failures: 0 };
    }
  }

  /** Its devices' windows closed now: due again when they open together (its thread told once), or refused. */
  async #waitForWindows(
    ctx: TimedContext,
    item: TimedItem,
    devices: Parameters<typeof windowsText>[0],
  ): Promise<Ending | undefined> {
    const now = ctx.now();
    const closed = devices.filter((device) => !windowState(device.windows, now).open);
    if (closed.length === 0) return undefined;
    const opens = nextCommonOpening(
      devices.map((device) => device.windows),
      now,
    );
    if (opens === undefined)
      return finished(
        'failed',
        `the change windows of its devices never open together in the coming year (${windowsText(devices)})`,
      );
    const when = viewerTime(opens, now, windowsZone(devices));
    await ctx.say(
      'window',
      `:calendar: ${untrusted(item.what)} waits for the change window: it runs ${when} (${untrusted(windowsText(closed))}).`,
    );
    return {
      kind: 'defer',
      at: opens,
      summary: `waits for the change window (${windowsText(closed)})`,
      nextRound: false,
      failures: 0,
    };
  }

  /** An error out of a run: a refusal fails it; SCC's transient trouble retries it, up to a limit. */
  #failure(item: TimedItem, error: unknown, failures: number): Ending {
    const { settings, log } = this.#deps;
    if (error instanceof UserError) return finished('failed', error.message);
    const failure = classifySccError(error);
    if (failure.kind !== 'transient') return finished('failed', failure.sccSays);
    const count = failures + 1;
    log.warn({ err: error, timedItem: item.id, failures: count }, 'timed item failed for now');
    if (count >= settings.maxTransientFailures)
      return finished('failed', `it failed ${count} times in a row (${failure.reason})`);
    return {
      kind: 'defer',
      at: this.#deps.clock() + settings.transientDelayMs(count, failure.retryAfterMs),
      summary: `retrying: ${failure.reason}`,
      nextRound: false,
      failures: count,
    };
  }

  /** Records the end; a failure is told in the thread; followed work is handed on. */
  async #end(ctx: TimedContext, item: TimedItem, ending: Ending, pastNoReturn: boolean): Promise<void> {
    const { store, clock, runnerId, log } = this.#deps;
    if (ending.kind === 'defer') {
      const deferred = await store.defer(item.id, runnerId, {
        at: ending.at,
        summary: ending.summary,
        // A transient failure after the point of no return leaves the next claim to the interrupted rule.
        keepPhase: !ending.nextRound && pastNoReturn,
        nextRound: ending.nextRound,
        failures: ending.failures,
      });
      if (!deferred) log.warn({ timedItem: item.id }, 'timed item taken over before it could be deferred');
      return;
    }
    const done = await store.finish(item.id, runnerId, ending, clock());
    if (!done) return;
    log.info({ timedItem: item.id, state: ending.state, summary: ending.summary }, 'timed item ended');
    if (ending.state === 'failed')
      await ctx
        .say('failed', `:x: ${untrusted(item.what)}: ${untrusted(ending.summary)}`)
        .catch((error: unknown) => log.warn({ err: error, timedItem: item.id }, 'failure not told'));
    if (ending.track.length > 0) {
      const read = await store.read(item.id);
      if (read) await this.#handOn(read.item, read.hash);
    }
  }

  /** Hands an ended item's followed work to the tracking queue (idempotent), then takes it off the due index. */
  async #handOn(item: TimedItem, hash: Record<string, string>): Promise<void> {
    const { tracker, store, log } = this.#deps;
    const parsed = TrackRequestSchema.array().safeParse(jsonValue(hash.track ?? '[]'));
    const track = parsed.success ? parsed.data : [];
    if (!parsed.success) log.error({ timedItem: item.id }, 'followed work of a timed item unreadable');
    if (item.thread) for (const request of track) await tracker.follow(request, item.thread);
    else if (track.length > 0)
      log.warn({ timedItem: item.id }, 'a timed item without a thread ended with followed work');
    await store.handedOn(item.id);
  }

  /** Moves the run's phase while this process still holds the claim; otherwise the run stops here. */
  async #phase(id: string, phase: 'changing' | 'starting'): Promise<void> {
    const { store, runnerId, settings, clock } = this.#deps;
    if (!(await store.renew(id, runnerId, clock(), settings.leaseMs, phase))) throw new ClaimLost();
  }

  #context(item: TimedItem, state: { phase: string }, lost: () => boolean): TimedContext {
    const { clients, services, policy, clock, notify, roleCheck } = this.#deps;
    const asView = (message: string | View): View =>
      typeof message === 'string'
        ? { summary: item.what, blocks: [{ kind: 'text', text: message }], visibility: 'in_channel' }
        : message;
    const log = this.#deps.log.child({ timedItem: item.id, kind: item.kind });
    const { thread } = item;
    const op = operationContext(
      { scc: clients, services, policy, clock },
      {
        requestId: item.id,
        actor: thread
          ? { userId: item.owner, channelId: thread.channelId, ...workspaceOf(thread) }
          : { userId: item.owner, channelId: '', noChannel: true },
        log,
      },
      item.profile,
    );
    const info = {
      id: item.id,
      kind: item.kind,
      profile: item.profile,
      key: item.key,
      owner: item.owner,
      thread,
      dueAt: item.dueAt,
      attempt: item.attempts,
      round: item.round,
    };
    return {
      item: info,
      op,
      clientOf: (profile) => clients.get(profile),
      now: clock,
      log,
      say: async (key, message) => {
        if (!thread) return;
        const view = asView(message);
        await notify([
          {
            key: `timed~${item.id}~${item.round}~${key}`,
            channelId: thread.channelId,
            threadTs: thread.threadTs,
            text: textBeside(view),
            view,
            eventType: 'fwbot_note',
            ...workspaceOf(thread),
          },
        ]);
      },
      tell: async (userId, key, message) => {
        const view = asView(message);
        // A user id as the channel: Slack delivers it in the person's direct messages with the app.
        await notify([
          {
            key: `timed~${item.id}~${item.round}~to~${userId}~${key}`,
            channelId: userId,
            text: textBeside(view),
            view,
            eventType: 'fwbot_note',
            ...(thread ? workspaceOf(thread) : {}),
          },
        ]);
      },
      rolesLost: (people) => rolesLost(people, roleCheck),
      committing: async () => {
        if (lost()) throw new ClaimLost();
        await this.#phase(item.id, 'changing');
        state.phase = 'changing';
      },
    };
  }

  /** Renews the claim while the run lasts; `lost()` says whether a renewal was refused. */
  #holdLease(id: string): KeptLease {
    const { store, clock, settings, runnerId, log } = this.#deps;
    return keepLease(
      () => store.renew(id, runnerId, clock(), settings.leaseMs),
      settings.leaseMs,
      (error) => log.warn({ err: error, timedItem: id }, 'could not renew a timed lease'),
    );
  }
}
