// How often and for how long fwbot follows asynchronous work, and how fast it talks to Slack. One object,
// injected into the workers, so tests run the same machinery with millisecond timings and production
// uses the defaults below (the README's schedule table is written from them).
import { z } from 'zod';

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

export const TrackKind = z.enum([
  'transaction',
  'cdfmc',
  'gateway',
  'upgradeRun',
  'deployment',
  'staged',
  'mspUpgradeRun',
]);
export type TrackKind = z.infer<typeof TrackKind>;

/** Learning how long work takes, and polling where it is likely to end (src/jobs/learning.ts). */
export const Learning = z.object({
  /** Off: every kind polls on its schedule alone (what the benchmark compares against). */
  enabled: z.boolean(),
  /** Durations kept per (profile, transaction type): the newest. */
  keep: z.number().int().positive().max(1_000),
  /** A duration's weight halves with every this many newer ones, so a slower SCC is soon noticed. */
  halfLife: z.number().positive(),
  /** Fewer durations than this: the schedule alone. */
  minSamples: z.number().int().positive(),
  /**
   * Reads the learned schedule may spend on a kind of work, as a multiple of what the schedule alone
   * would spend on the same durations: 1 never costs SCC more reads than without learning.
   */
  readBudget: z.number().positive(),
  /** Never two polls closer than this. */
  minGapMs: z.number().int().positive(),
  /** A kind of work not seen for this long is forgotten (its durations expire in Redis). */
  forgetAfterMs: z.number().int().positive(),
  /** How long a worker uses the durations it read before reading them again. */
  refreshMs: z.number().int().positive(),
});
export type Learning = z.infer<typeof Learning>;

export const Schedule = z.object({
  poll: z.object({
    transaction: PollSchedule,
    cdfmc: PollSchedule,
    gateway: PollSchedule,
    upgradeRun: PollSchedule,
    deployment: PollSchedule,
    /** The first step only starts the wait; firstDelayMs is the reminder time (STAGED_REMINDER_MINUTES). */
    staged: PollSchedule,
    mspUpgradeRun: PollSchedule,
  }),
  learning: Learning,
  /** Consecutive transient failures (5xx, 429, network) tolerated before fwbot gives up on a job. */
  maxTransientFailures: z.number().int().positive(),
  /** Backoff between transient failures: base·2^(n-1), capped; SCC's Retry-After wins when longer. */
  transientBaseMs: z.number().int().positive(),
  transientCapMs: z.number().int().positive(),
  slack: z.object({
    /** chat.postMessage: Slack allows about one message per second per channel. */
    postIntervalMs: z.number().int().nonnegative(),
    /** chat.update of a progress message (Tier 3, ~50 a minute): no more often than this per channel. */
    updateIntervalMs: z.number().int().nonnegative(),
    /** Attempts of a notification on Slack errors other than 429 (network, 5xx). */
    attempts: z.number().int().positive(),
    backoffMs: z.number().int().positive(),
    /** Guards one notification against two workers at once; longer than a Slack call can take. */
    lockMs: z.number().int().positive(),
  }),
  watch: z.object({
    /** How often the recent upgrade runs of every watched profile are scanned. */
    scanEveryMs: z.number().int().positive(),
    /** How many of the most recently updated runs one scan reads. */
    scanRuns: z.number().int().positive().max(200),
  }),
  tenantCreation: z.object({
    /** SCC creates at most one tenant per 30 seconds: one job per this window, per profile. */
    intervalMs: z.number().int().positive(),
  }),
  workers: z.object({
    /** Jobs in flight per worker process on the tracking queue (each is one short HTTP call). */
    trackConcurrency: z.number().int().positive(),
    notifyConcurrency: z.number().int().positive(),
    /** Queued /fw commands in flight per worker process (most wait on SCC). */
    commandConcurrency: z.number().int().positive(),
    /** A killed worker's jobs are picked up again after its lock expires and a stall check runs. */
    lockDurationMs: z.number().int().positive(),
    stalledIntervalMs: z.number().int().positive(),
    /** Times a job may be rescued from a killed worker before BullMQ fails it. */
    maxStalledCount: z.number().int().positive(),
  }),
  /** How long outcomes, notification marks and finished jobs are remembered. */
  retentionMs: z.number().int().positive(),
});
export type Schedule = z.infer<typeof Schedule>;

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** How a staged change is followed: one wait of `afterMs`, then one read of the device. */
export function stagedReminder(afterMs: number): PollSchedule {
  return { firstDelayMs: afterMs, factor: 1, capMs: afterMs, deadlineMs: 3 * afterMs };
}

export const DEFAULT_SCHEDULE: Schedule = {
  poll: {
    // Tuned on `npm run bench` (tracking): transactions finishing anywhere from 1 s to 10 min. Against a
    // poller every 10 s it makes fewer reads with a lower median and mean delay; the 12 s cap keeps its
    // p95 near that poller's (bench/RESULTS.md has the figures, and what matching that p95 would cost).
    transaction: {
      firstDelayMs: 3 * SECOND,
      factor: 2,
      capMs: 12 * SECOND,
      lateAfterMs: 10 * MINUTE,
      lateCapMs: 60 * SECOND,
      deadlineMs: 6 * HOUR,
    },
    // cdFMC provisioning takes tens of minutes: poll more gently, and each leg gets the whole deadline.
    cdfmc: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 60 * SECOND, deadlineMs: 6 * HOUR },
    // A device answers in seconds or not at all; the gateway itself gives up after 70 s.
    gateway: { firstDelayMs: 1 * SECOND, factor: 1.5, capMs: 10 * SECOND, deadlineMs: 15 * MINUTE },
    upgradeRun: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 30 * SECOND, deadlineMs: 12 * HOUR },
    // A deploy writes a few lines to each device: seconds to minutes, at most 50 devices at once.
    deployment: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 20 * SECOND, deadlineMs: 2 * HOUR },
    staged: stagedReminder(60 * MINUTE),
    // Upgrades across tenants run as long as their slowest tenant: paced like single-tenant runs.
    mspUpgradeRun: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 30 * SECOND, deadlineMs: 12 * HOUR },
  },
  // Tuned on `npm run bench` (tracking, mixed workload): bench/RESULTS.md has the figures.
  learning: {
    enabled: true,
    keep: 40,
    halfLife: 20,
    minSamples: 5,
    readBudget: 1,
    minGapMs: 1 * SECOND,
    forgetAfterMs: 30 * 24 * HOUR,
    refreshMs: 5 * SECOND,
  },
  maxTransientFailures: 8,
  transientBaseMs: 2 * SECOND,
  transientCapMs: 5 * MINUTE,
  slack: {
    postIntervalMs: 1_100,
    updateIntervalMs: 3 * SECOND,
    attempts: 8,
    backoffMs: 2 * SECOND,
    lockMs: 60 * SECOND,
  },
  watch: { scanEveryMs: 1 * MINUTE, scanRuns: 50 },
  tenantCreation: { intervalMs: 30 * SECOND },
  workers: {
    trackConcurrency: 20,
    notifyConcurrency: 5,
    commandConcurrency: 32,
    lockDurationMs: 30 * SECOND,
    stalledIntervalMs: 30 * SECOND,
    maxStalledCount: 5,
  },
  retentionMs: 7 * 24 * HOUR,
};

/** A partial schedule over the defaults, one level deep per section (what tests and config override). */
export interface ScheduleOverrides {
  poll?: Partial<Record<TrackKind, Partial<PollSchedule>>>;
  learning?: Partial<Learning>;
  maxTransientFailures?: number;
  transientBaseMs?: number;
  transientCapMs?: number;
  slack?: Partial<Schedule['slack']>;
  watch?: Partial<Schedule['watch']>;
  tenantCreation?: Partial<Schedule['tenantCreation']>;
  workers?: Partial<Schedule['workers']>;
  retentionMs?: number;
}

/** What the configuration changes in the schedule: the reminder time of staged changes. */
export function scheduleFromConfig(config: { stagedReminderMinutes: number }): ScheduleOverrides {
  return { poll: { staged: stagedReminder(config.stagedReminderMinutes * MINUTE) } };
}

export function resolveSchedule(
  overrides: ScheduleOverrides = {},
  base: Schedule = DEFAULT_SCHEDULE,
): Schedule {
  const poll = { ...base.poll };
  for (const kind of TrackKind.options) poll[kind] = { ...base.poll[kind], ...overrides.poll?.[kind] };
  return Schedule.parse({
    ...base,
    ...overrides,
    poll,
    learning: { ...base.learning, ...overrides.learning },
    slack: { ...base.slack, ...overrides.slack },
    watch: { ...base.watch, ...overrides.watch },
    tenantCreation: { ...base.tenantCreation, ...overrides.tenantCreation },
    workers: { ...base.workers, ...overrides.workers },
  });
}

/**
 * Delay after poll number `step` (1-based) of a kind, `elapsedMs` after following began; Retry-After from
 * SCC wins when it is longer.
 */
export function pollDelayMs(
  schedule: PollSchedule,
  step: number,
  retryAfterMs?: number,
  elapsedMs = 0,
): number {
  const grown = schedule.firstDelayMs * schedule.factor ** Math.max(0, step - 1);
  const late = schedule.lateAfterMs !== undefined && elapsedMs >= schedule.lateAfterMs;
  const cap = late ? (schedule.lateCapMs ?? schedule.capMs) : schedule.capMs;
  const delay = Math.min(cap, Math.round(grown));
  return Math.max(delay, retryAfterMs ?? 0);
}

/** Delay after the `failures`-th consecutive transient failure. */
export function transientDelayMs(schedule: Schedule, failures: number, retryAfterMs?: number): number {
  const grown = schedule.transientBaseMs * 2 ** Math.max(0, failures - 1);
  return Math.max(Math.min(schedule.transientCapMs, grown), retryAfterMs ?? 0);
}
