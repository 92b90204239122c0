// What a kind of timed work is: work that must happen at a later time, exactly once, by whichever fwbot
// process is alive then (a shun's end, an access rule's expiry, a reminder, a run in a change window). Each
// kind is declared once, in its own file of this folder, with everything about it: its payload's schema, the
// id that makes one item per thing, what it does when due, whether a run interrupted by a crash may simply
// run again (or how to tell whether it took effect), the change windows it waits for, and how lists name
// it. The registry (index.ts) is the one list; the store and the pass that runs due items are src/jobs/timed/
// (docs/developing/add-a-timed-job.md).
//
// A run gets a TimedContext: an operation's context on the item's profile (so the catalogue's helpers run
// on it), every profile's SCC client, the clock, a logger, a way to say things in the thread the item came
// from (once per key, however often the run is repeated), a way to re-check people's roles right then,
// and the point of no return (`committing`). It returns what happened; it never waits for long: what SCC
// finishes later is handed to the tracking queue (`track`), and a wait of minutes is `again`.
import type { Logger } from 'pino';
import { z } from 'zod';
import type { TrackRequest } from '../../follow/index.js';
import type { DeviceWindows } from '../../model/changeWindows.js';
import { ROLES } from '../../model/types.js';
import type { View } from '../../model/view.js';
import type { SccClient } from '../../scc/client.js';
import type { OperationContext } from '../context.js';
import type { PersonToCheck, ThreadPlace } from '../services.js';

export type { PersonToCheck, RoleHolder, ThreadPlace } from '../services.js';

/** A RoleHolder as a payload keeps it. */
export const RoleHolderSchema = z.object({
  userId: z.string().min(1),
  role: z.enum(ROLES),
  channelId: z.string().min(1),
  teamId: z.string().optional(),
  enterpriseId: z.string().optional(),
  external: z.boolean().optional(),
  among: z.array(z.string()).readonly().optional(),
  customerSide: z.boolean().optional(),
});

/** A PersonToCheck as a payload keeps it. */
export const PersonToCheckSchema = z.union([RoleHolderSchema, z.array(RoleHolderSchema).min(1).readonly()]);

/** The stored item a run is for, as its kind sees it. */
export interface TimedItemInfo {
  /** `<kind>~<profile>~<key>`: what cancel, reschedule and the lists name it by. */
  readonly id: string;
  readonly kind: string;
  readonly profile: string;
  /** The kind's id of the thing (TimedKindSpec.id). */
  readonly key: string;
  /** Who it is for (who scheduled it, or on whose behalf). */
  readonly owner: string;
  readonly thread?: ThreadPlace | undefined;
  /** When it was due this time. */
  readonly dueAt: number;
  /** How many times it has been claimed, this run included. */
  readonly attempt: number;
  /** How many times it has run to an end or an `again` before: a periodic item's round. */
  readonly round: number;
}

export interface TimedContext {
  readonly item: TimedItemInfo;
  /**
   * An operation's context on the item's profile, built by the one context builder (src/dispatch/context.ts):
   * its SCC client, the deployment's services and policy, the clock; its actor is the item's owner (in the
   * item's channel), its requestId the item's id.
   */
  readonly op: OperationContext;
  /** Another profile's SCC client (the work of a managed tenant). */
  clientOf(profile: string): SccClient;
  now(): number;
  readonly log: Logger;
  /**
   * Says something in the item's thread, once per `key` in this round: a run repeated after a crash says it
   * once. A string is a View's text (mentions made with userMention stay live, the rest is escaped as every
   * View is; quote what people typed with render/untrusted.ts). Nothing is said for an item without a thread.
   */
  say(key: string, message: string | View): Promise<void>;
  /**
   * Says something to one person directly (Slack's direct message from the app: `chat.postMessage` to their
   * user id), once per `key` in this round, as `say` does. In the item's workspace.
   */
  tell(userId: string, key: string, message: string | View): Promise<void>;
  /**
   * The grants of these people right now: a sentence naming the first who lost theirs, or undefined when
   * every one still holds (for an alternative, at least one of its checks).
   */
  rolesLost(people: readonly PersonToCheck[]): Promise<string | undefined>;
  /**
   * The point of no return: called right before the change (a `no shun`, a delete). It holds only while this
   * process still holds the item's claim (otherwise the run stops here, changing nothing); after it, a crash
   * leaves the item to the kind's `interrupted` rule.
   */
  committing(): Promise<void>;
}

/** How a run ended. `summary` is one plain line kept for lists ("what happened"). */
export type TimedOutcome =
  /** Done; `track`: what SCC finishes later, followed in the item's thread (src/follow/ kinds). */
  | { status: 'done'; summary: string; track?: TrackRequest[] }
  /** Failed for good: its thread is told `summary`. */
  | { status: 'failed'; summary: string }
  /** Not finished: due again at `at` (a periodic kind's next round, or a wait it decides on). */
  | { status: 'again'; at: number; summary: string };

/** What a look in SCC found after a run interrupted past its point of no return. */
export type Interrupted = 'took-effect' | 'not-done' | 'unknown';

export interface TimedKindSpec<S extends z.ZodType> {
  /** Lower-case words joined by hyphens, unique: `shun-expiry`. Stored with every item: never rename it. */
  readonly kind: string;
  /** The payload, as stored with the item (JSON) and parsed with this schema when it is read back. */
  readonly payload: S;
  /** What makes one item per thing (scheduling the same thing again changes nothing while it waits). */
  id(payload: z.output<S>): string;
  /** How lists name it, one line: `no shun 198.51.100.7 on asa-hq-01`. */
  describe(payload: z.output<S>): string;
  /** The devices it acts on, for lists by device. */
  devices?(payload: z.output<S>): readonly { uid: string; name: string }[];
  /**
   * The change windows it waits for: when due and any device's windows are closed, the item waits until they
   * are open together (its thread is told once when), and is refused when they never are within a year.
   */
  windows?(ctx: TimedContext, payload: z.output<S>): Promise<DeviceWindows[]>;
  /** What it does when due. */
  run(ctx: TimedContext, payload: z.output<S>): Promise<TimedOutcome>;
  /**
   * A run interrupted by a crash after its point of no return (`committing`): `run-again` when running it
   * again is harmless (saying something, which `say` does once anyway); otherwise a look that says whether it
   * took effect (then it is done), did not (it runs again), or cannot tell (it fails, and its thread is told
   * to check by hand). A run interrupted before `committing` always simply runs again.
   */
  readonly interrupted: 'run-again' | ((ctx: TimedContext, payload: z.output<S>) => Promise<Interrupted>);
}

/** A kind with its payload's type erased, as the store and the pass run it. */
export type AnyTimedKind = TimedKindSpec<z.ZodType>;

/** Declares a kind; checks its name, and lets TypeScript check its parts against each other. */
export function defineTimedKind<S extends z.ZodType>(kind: TimedKindSpec<S>): TimedKindSpec<S> {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(kind.kind))
    throw new Error(`timed kind ${kind.kind}: its name is lower-case words joined by hyphens`);
  return kind;
}
