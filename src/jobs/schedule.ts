// How often and for how long fwbot follows asynchronous work, and how fast it talks to Slack. One object,
// injected into the workers, so tests run the same machinery with millisecond timings and production
// uses the defaults below (docs/using/following.md's schedule table is written from them).
import { z } from 'zod';
import { alertIntervals } from '../alerts/index.js';
import { ALERT_KINDS } from '../alerts/model.js';
import {
  configuredPollSchedules,
  type FollowSettings,
  PollSchedule,
  pollSchedules,
  TRACK_KINDS,
  type TrackKind,
} from '../follow/index.js';

export { PollSchedule, type TrackKind };

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

/** The alert scan (src/jobs/alerts/scan.ts): how often each kind's list is read, and what it may cost. */
export const AlertSchedule = z.object({
  /** How often each profile's scan job runs; each run reads the lists that are due. */
  tickMs: z.number().int().positive(),
  /** How often each kind's list is read (each kind declares its own, src/alerts/kinds/). */
  intervals: z.record(z.enum(ALERT_KINDS), z.number().int().positive()),
  /** Devices in an open incident are read by uid this often (when shorter than their kind's interval). */
  incidentsEveryMs: z.number().int().positive(),
  /**
   * SCC calls per minute one profile's scan may make. When its lists need more, every interval is stretched
   * by the same factor, and readiness and fwbot_alert_scan_stretch say so.
   */
  callsPerMinute: z.number().positive(),
  /** A stream whose last good scan is older than this (and than 3 of its intervals) tells what it finds as catch-up. */
  catchUpAfterMs: z.number().int().positive(),
  /** Staged changes left undeployed longer than this are told (the `staged` kind). */
  stagedAfterMs: z.number().int().positive(),
  /** How long a subscription's `--devices` query, resolved to device uids by listing it, is used. */
  deviceSetRefreshMs: z.number().int().positive(),
  /** Runs read per scan (deployments, upgrades): the newest updated, one page. */
  runsPerScan: z.number().int().positive().max(200),
  /** How often the per-profile scan schedulers are matched to the profiles that have subscriptions. */
  reconcileEveryMs: z.number().int().positive(),
  /** How long the token's roles (getToken) are trusted before they are read again. */
  tokenRefreshMs: z.number().int().positive(),
});
export type AlertSchedule = z.infer<typeof AlertSchedule>;

export const Schedule = z.object({
  /** How each kind of followed work is read (each kind declares its own, src/follow/). */
  poll: z.record(z.enum(TRACK_KINDS), PollSchedule),
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
  /** The incident desk (src/jobs/alerts/desk.ts): how incidents collapse before they reach Slack. */
  desk: z.object({
    /** A close then an open of one incident within this time reopens it (a flap), not a new message. */
    flapWindowMs: z.number().int().nonnegative(),
    /** More opens than this of one kind in one channel (one batch, or within burstWindowMs) are a burst. */
    burstOpens: z.number().int().positive(),
    /** How long opens count towards a burst, and how long a burst summary takes new members. */
    burstWindowMs: z.number().int().positive(),
  }),
  /**
   * Limits of operation queues by queue name, over what each operation declares (QueueSpec.limit): tests
   * shorten a window here; production runs the declarations.
   */
  queues: z.record(
    z.string(),
    z.object({
      max: z.number().int().positive().optional(),
      perMs: z.number().int().positive().optional(),
    }),
  ),
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
  alerts: AlertSchedule,
  /** Timed work (src/jobs/timed/runner.ts): the pass every process runs. */
  timed: z.object({
    /** How often each process looks for items due. */
    passEveryMs: z.number().int().positive(),
    /** A run's claim lapses this long after its last renewal: a dead process's item is taken over then. */
    leaseMs: z.number().int().positive(),
    /** Items claimed per pass at most, and how many of them run at once. */
    batch: z.number().int().positive(),
    concurrency: z.number().int().positive(),
  }),
  /** How long outcomes, notification marks and finished jobs are remembered. */
  retentionMs: z.number().int().positive(),
});
export type Schedule = z.infer<typeof Schedule>;

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const DEFAULT_SCHEDULE: Schedule = {
  poll: pollSchedules(),
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
  desk: { flapWindowMs: 30 * MINUTE, burstOpens: 5, burstWindowMs: 2 * MINUTE },
  alerts: {
    tickMs: 15 * SECOND,
    intervals: alertIntervals(),
    incidentsEveryMs: 15 * SECOND,
    callsPerMinute: 60,
    catchUpAfterMs: 10 * MINUTE,
    stagedAfterMs: 4 * HOUR,
    deviceSetRefreshMs: 15 * MINUTE,
    runsPerScan: 50,
    reconcileEveryMs: 1 * MINUTE,
    tokenRefreshMs: 1 * HOUR,
  },
  queues: {},
  workers: {
    trackConcurrency: 20,
    notifyConcurrency: 5,
    commandConcurrency: 32,
    lockDurationMs: 30 * SECOND,
    stalledIntervalMs: 30 * SECOND,
    maxStalledCount: 5,
  },
  timed: { passEveryMs: 5 * SECOND, leaseMs: 60 * SECOND, batch: 50, concurrency: 4 },
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
  desk?: Partial<Schedule['desk']>;
  alerts?: Partial<Omit<AlertSchedule, 'intervals'>> & { intervals?: Partial<AlertSchedule['intervals']> };
  queues?: Schedule['queues'];
  workers?: Partial<Schedule['workers']>;
  timed?: Partial<Schedule['timed']>;
  retentionMs?: number;
}

/** What the configuration changes in the schedule: the poll schedules some kinds take from a setting. */
export function scheduleFromConfig(config: FollowSettings): ScheduleOverrides {
  return { poll: configuredPollSchedules(config) };
}

export function resolveSchedule(
  overrides: ScheduleOverrides = {},
  base: Schedule = DEFAULT_SCHEDULE,
): Schedule {
  const poll = { ...base.poll };
  for (const kind of TRACK_KINDS) poll[kind] = { ...base.poll[kind], ...overrides.poll?.[kind] };
  return Schedule.parse({
    ...base,
    ...overrides,
    poll,
    learning: { ...base.learning, ...overrides.learning },
    slack: { ...base.slack, ...overrides.slack },
    desk: { ...base.desk, ...overrides.desk },
    alerts: {
      ...base.alerts,
      ...overrides.alerts,
      intervals: { ...base.alerts.intervals, ...overrides.alerts?.intervals },
    },
    queues: { ...base.queues, ...overrides.queues },
    workers: { ...base.workers, ...overrides.workers },
    timed: { ...base.timed, ...overrides.timed },
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
