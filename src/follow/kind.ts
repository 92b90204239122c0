// What a kind of followed work is. When SCC answers 202 (a transaction, a gateway request, an upgrade or
// deploy run, a change staged on an ASA), an operation's `track()` names what to follow; each kind of such
// work is declared once, in its own file of this folder, with everything about it: the request's schema,
// the id that makes one job per followed thing, what the audit trail calls it, how often it is read, one
// read (its step) and what that read means, and how a thread names it. The registry (index.ts) derives the
// request type, the job payload, the stored approval's schema and the worker's dispatch from the kinds.
//
// A step makes one read from SCC and says what it means; it never waits and never touches Slack or the
// queue: the tracking worker (src/jobs/trackWorker.ts) turns its result into a re-delay, a progress edit, a
// note in the threads, or the final outcome.
import { z } from 'zod';
import type { SccClient } from '../scc/client.js';
import { classifySccError } from './failures.js';

/** Polling of one kind of work: fast at first, growing to a cap, given up after a deadline. */
export const PollSchedule = z
  .object({
    /** Delay before the second poll (the first runs as soon as a worker picks the job up). */
    firstDelayMs: z.number().int().positive(),
    /** Each following delay is the previous one times this factor… */
    factor: z.number().min(1),
    /** …up to this cap. */
    capMs: z.number().int().positive(),
    /**
     * Work still running this long after following began is a straggler: from then on the delays may
     * grow to `lateCapMs` instead, so hours-long work does not cost a read every `capMs`.
     */
    lateAfterMs: z.number().int().positive().optional(),
    lateCapMs: z.number().int().positive().optional(),
    /** Wall time after which fwbot stops following and says so in the thread. */
    deadlineMs: z.number().int().positive(),
  })
  .refine((poll) => (poll.lateAfterMs === undefined) === (poll.lateCapMs === undefined), {
    message: 'lateAfterMs and lateCapMs go together',
  })
  .refine((poll) => poll.lateCapMs === undefined || poll.lateCapMs >= poll.capMs, {
    message: 'lateCapMs must be at least capMs',
  });
export type PollSchedule = z.infer<typeof PollSchedule>;

/** How a followed thing ended, as every subscriber will be told. */
export const Outcome = z.object({
  status: z.enum(['succeeded', 'failed', 'unknown', 'stopped']),
  /** Plain sentences (mrkdwn, escaped where they quote SCC), said after the subscriber's own label. */
  text: z.string(),
  /** The last text of the progress message, for kinds that keep one (upgrade runs). */
  progressText: z.string().optional(),
  /** Nothing to tell (a staged change that was deployed before its reminder): settled, not posted. */
  quiet: z.boolean().optional(),
  /**
   * A button under the final reply, which runs a command line as if the one who presses it typed it (so the
   * dispatcher applies that operation's rules: a governed removal stays governed).
   */
  button: z.object({ label: z.string().min(1), command: z.string().min(1).max(300) }).optional(),
});
export type Outcome = z.infer<typeof Outcome>;

/** Where every tracking job is in its work, whatever it follows; saved with the job after every step. */
export const CommonState = z.object({
  /** Polls made so far. */
  step: z.number().int().nonnegative(),
  /** Consecutive transient failures (reset by any answer from SCC). */
  failures: z.number().int().nonnegative(),
  /** When following began (ms); the deadline counts from here, or from the start of the current leg. */
  startedAt: z.number(),
  legStartedAt: z.number(),
  /** The last status seen, to say how far it got when fwbot stops. */
  lastStatus: z.string().optional(),
  /** Runs: the read at which the run's progress last changed (fraction 0–1, ms since following began). */
  progressSeen: z.object({ fraction: z.number(), atMs: z.number() }).optional(),
  /** Its threads were offered a Cancel… button (SCC said it may be cancelled): withdrawn when it ends. */
  cancelOffered: z.boolean().optional(),
});
export type CommonState = z.infer<typeof CommonState>;

/** Finds the profile whose token can read a managed tenant's transactions. */
export type TenantProfileResolver = (tenant: {
  tenantUid: string;
  tenantName: string;
  /** A transaction on that tenant, which the right profile can read. */
  transactionUid: string;
  /** The portal's own profile, which is not the tenant's. */
  portalProfile: string;
}) => Promise<string | undefined>;

export interface StepContext {
  /** The profile that started the work, and its client. */
  profile: string;
  client: SccClient;
  /** Another profile's client (a managed tenant's, for cdFMC's second leg). */
  clientOf(profile: string): SccClient;
  resolveTenantProfile: TenantProfileResolver;
  now: number;
}

/** How long a transaction SCC has finished took, by its own timestamps: what the schedule learns from. */
export interface Took {
  transactionType: string;
  durationMs: number;
}

export type StepResult<S> =
  | {
      kind: 'continue';
      took?: Took;
      /** How far a run is by SCC's own steps and percentages (0–1): when it should end (learningRuns.ts). */
      fraction?: number;
      state: CommonState & S;
      /** Progress in words, shown in the thread's one progress message (kinds that keep one). */
      progress?: string;
      /** Said once in every thread (e.g. the second leg of a cdFMC provisioning has begun). */
      note?: { id: string; text: string };
      /** When the next step should run, instead of the kind's schedule (a short wait inside a long one). */
      delayMs?: number;
      /**
       * SCC marks the transaction (the kind's sccId) `cancellable` in this read: its threads are offered a
       * Cancel… button, which runs `transactions cancel` like the typed command, until the work ends.
       */
      cancellable?: boolean;
    }
  | { kind: 'end'; outcome: Outcome; took?: Took };

/** A kind whose durations are learned (src/jobs/learning.ts): by which type, and whether it still runs. */
export interface LearnedDurations<S> {
  /** The type its durations are learned and planned by (SCC's transaction type), once known. */
  type(state: CommonState & S): string | undefined;
  /** Still running after this read (it counts as evidence of a type getting slower). */
  running(state: CommonState & S): boolean;
}

/** A running configuration kept right before the work began (a deploy's snapshot, src/jobs/configSnapshots.ts). */
export const KeptSnapshot = z.object({
  deviceUid: z.string(),
  device: z.string(),
  snapshotId: z.string(),
});
export type KeptSnapshot = z.infer<typeof KeptSnapshot>;

/** Timed work due after followed work ends (src/catalogue/timed/), named by its kind. */
export interface LaterWork {
  /** The timed kind's name (`upgrade-proof`); its schema checks the payload when it is scheduled. */
  kind: string;
  payload: unknown;
  /** How long after the end it is due. */
  delayMs: number;
}

/** Every followed request names its kind and says what its thread calls it. */
export type RequestSchema = z.ZodObject<{ kind: z.ZodLiteral<string>; label: z.ZodString }>;

/** What a kind keeps in its state, as its steps see it (a kind that keeps nothing: no fields). */
export type StateOf<S extends z.ZodObject> = string extends keyof z.infer<S> ? object : z.infer<S>;

export interface FollowKind<Q extends RequestSchema, S extends z.ZodObject> {
  readonly kind: z.infer<Q>['kind'];
  /** The request as operations name it, as the queue and an approval's stored outcome carry it. */
  readonly request: Q;
  /** What this kind keeps in its job's state besides CommonState (every field optional). */
  readonly state: S;
  /** What makes one job per followed thing: two threads following it share one poller. */
  id(request: z.infer<Q>): string;
  /** The SCC id the audit trail records (a transaction or gateway request); none for some kinds. */
  sccId(request: z.infer<Q>): string | undefined;
  /** How often it is read, unless the configuration says otherwise (see `configured`). */
  readonly poll: PollSchedule;
  /** The poll schedule a setting of the configuration gives it (e.g. the reminder time of staged changes). */
  configured?(settings: FollowSettings): PollSchedule;
  /** One read, and what it means. */
  step(
    ctx: StepContext,
    request: z.infer<Q>,
    state: CommonState & StateOf<S>,
  ): Promise<StepResult<StateOf<S>>>;
  /** How a thread names it when fwbot speaks about following it: `transaction \`…\``. */
  describe(request: z.infer<Q>): string;
  /** Learned durations plan its reads (transactions). */
  readonly learns?: LearnedDurations<StateOf<S>>;
  /**
   * Running configurations kept before the work began: when it ends, the tracking worker reads each
   * device's again and posts what changed into the threads (src/jobs/configChanges.ts).
   */
  configBefore?(request: z.infer<Q>): readonly KeptSnapshot[];
  /** The ASA a staged change waits on, for the Home's "Staged, not deployed" list. */
  stagedOn?(request: z.infer<Q>): string | undefined;
  /**
   * The holder whose device holds the followed work keeps until it ends (a deploy's, src/catalogue/
   * deviceHolds.ts): the tracking worker releases them when it ends, however it ends.
   */
  holder?(request: z.infer<Q>): string | undefined;
  /**
   * The devices whose holds end with this work, when it is one of several pieces of its holder's work (one
   * of an upgrade's runs): only those are released at its end, the holder's other devices stay held.
   * Absent or undefined: every hold of the holder ends with it.
   */
  heldDevices?(request: z.infer<Q>): readonly string[] | undefined;
  /**
   * Timed work due after it ends, given how it ended (a software upgrade's proof): the tracking worker
   * schedules it once, in its first thread, before the end is told, so a crash between them loses nothing
   * (src/jobs/laterWork.ts).
   */
  later?(request: z.infer<Q>, outcome: Outcome): readonly LaterWork[];
  /**
   * The ids (as `id()` gives them) of the other followed things of the same kind that keep the same
   * holder's holds (the runs one request started): the holds are released only when all of them have ended.
   */
  holderSiblings?(request: z.infer<Q>): readonly string[];
}

/** The settings of the configuration that change how some kinds are followed. */
export interface FollowSettings {
  stagedReminderMinutes: number;
}

/** Declares a kind; the identity function that lets TypeScript check a kind's parts against each other. */
export function defineFollowKind<Q extends RequestSchema, S extends z.ZodObject>(
  kind: FollowKind<Q, S>,
): FollowKind<Q, S> {
  return kind;
}

export const end = <S>(outcome: Outcome, took?: Took): StepResult<S> =>
  took ? { kind: 'end', outcome, took } : { kind: 'end', outcome };

/** How long a DONE transaction took (submitted to last updated), when SCC says. */
export function tookOf(transaction: {
  cdoTransactionStatus?: string | null | undefined;
  transactionType?: string | null | undefined;
  submissionTime?: string | null | undefined;
  lastUpdatedTime?: string | null | undefined;
}): Took | undefined {
  const { transactionType, submissionTime, lastUpdatedTime } = transaction;
  if (transaction.cdoTransactionStatus !== 'DONE' || !transactionType || !submissionTime || !lastUpdatedTime)
    return undefined;
  const durationMs = Date.parse(lastUpdatedTime) - Date.parse(submissionTime);
  return durationMs > 0 ? { transactionType, durationMs } : undefined;
}

/** Runs a read; undefined on 404, any other error goes to the worker. */
export async function unlessGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (classifySccError(error).kind === 'notFound') return undefined;
    throw error;
  }
}
