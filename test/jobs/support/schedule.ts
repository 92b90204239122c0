// The tracking tests' schedule: the same machinery as production with milliseconds instead of seconds.
// Kept free of vitest imports so non-test code (scripts, worker processes) can load it too.
import { ALERT_KINDS } from '../../../src/alerts/index.js';
import type { ScheduleOverrides } from '../../../src/jobs/schedule.js';

export const TEST_SCHEDULE: ScheduleOverrides = {
  poll: {
    transaction: { firstDelayMs: 5, factor: 1.5, capMs: 20, deadlineMs: 60_000 },
    cdfmc: { firstDelayMs: 5, factor: 1.5, capMs: 20, deadlineMs: 60_000 },
    gateway: { firstDelayMs: 5, factor: 1.5, capMs: 20, deadlineMs: 60_000 },
    upgradeRun: { firstDelayMs: 5, factor: 1.5, capMs: 20, deadlineMs: 60_000 },
    deployment: { firstDelayMs: 5, factor: 1.5, capMs: 20, deadlineMs: 60_000 },
    staged: { firstDelayMs: 200, factor: 1, capMs: 200, deadlineMs: 60_000 },
    mspUpgradeRun: { firstDelayMs: 5, factor: 1.5, capMs: 20, deadlineMs: 60_000 },
    deviceUpgradeRun: { firstDelayMs: 5, factor: 1.5, capMs: 20, deadlineMs: 60_000 },
  },
  maxTransientFailures: 4,
  transientBaseMs: 5,
  transientCapMs: 40,
  slack: { postIntervalMs: 10, updateIntervalMs: 10, attempts: 5, backoffMs: 10, lockMs: 2_000 },
  // Operation queues by name: tenant creation's window shortened from SCC's 30 s.
  queues: { 'tenant-creation': { perMs: 400 } },
  // The alert scan on wall-clock milliseconds: every kind read at each tick, its schedulers kept in line often.
  alerts: {
    tickMs: 50,
    reconcileEveryMs: 100,
    incidentsEveryMs: 50,
    intervals: Object.fromEntries(ALERT_KINDS.map((kind) => [kind, 50])),
    callsPerMinute: 1_000_000,
    catchUpAfterMs: 60_000,
  },
  // A killed worker's jobs are rescued about 1.5 s later (lock expiry, then a stall check).
  workers: { lockDurationMs: 1_000, stalledIntervalMs: 500, maxStalledCount: 10 },
};
