import { describe, expect, it } from 'vitest';
import { deploymentFraction } from '../../src/follow/deployment.js';
import { mspUpgradeRunFraction, upgradeRunFraction } from '../../src/follow/upgradeWords.js';
import { nextRunPollDelayMs, progressToKeep } from '../../src/jobs/learningRuns.js';
import { DEFAULT_SCHEDULE, pollDelayMs } from '../../src/jobs/schedule.js';

const poll = DEFAULT_SCHEDULE.poll.upgradeRun;
const learn = DEFAULT_SCHEDULE.learning;

describe('how far a run is', () => {
  it('counts an upgrade run by its steps and the step’s percentage, ASA or FTD', () => {
    expect(upgradeRunFraction({ upgradeRunStatus: 'VALIDATING_INPUTS', percentageComplete: 0 })).toBe(0);
    expect(
      upgradeRunFraction({ upgradeRunStatus: 'DELETING_OLD_IMAGES', percentageComplete: 0.5 }),
    ).toBeCloseTo(13.5 / 14);
    // FTD runs skip the DNS checks and the write to memory: ten steps.
    expect(
      upgradeRunFraction({
        upgradeRunType: 'FTD_SECURE_CLIENT_UPGRADE',
        upgradeRunStatus: 'DELETING_OLD_IMAGES',
        percentageComplete: 0,
      }),
    ).toBeCloseTo(9 / 10);
    expect(
      upgradeRunFraction({ upgradeRunStatus: 'SOMETHING_NEW', percentageComplete: 0.5 }),
    ).toBeUndefined();
    expect(
      mspUpgradeRunFraction({ upgradeRunStatus: 'PERFORMING_UPGRADE', percentageComplete: 0.5 }),
    ).toBeCloseTo(2.5 / 3);
  });

  it('counts a deploy by its devices once it deploys', () => {
    expect(deploymentFraction({ deploymentRunStatus: 'VALIDATING_DEVICES' })).toBe(0);
    expect(
      deploymentFraction({
        deploymentRunStatus: 'DEPLOYING',
        deviceDeploymentStatuses: [
          { status: 'IN_PROGRESS', completionStatus: { percentageComplete: 0.5 } },
          { status: 'DONE' },
        ],
      }),
    ).toBeCloseTo(0.75);
    expect(
      deploymentFraction({ deploymentRunStatus: 'DEPLOYING', deviceDeploymentStatuses: [] }),
    ).toBeUndefined();
  });
});

describe('when a run is read next', () => {
  const scheduled = (step: number, elapsedMs: number) => pollDelayMs(poll, step, undefined, elapsedMs);

  it('reads where the run should end, at its pace, when that is sooner than the schedule', () => {
    // 40 % → 80 % in 40 s: the rest should take 20 s.
    const before = { fraction: 0.4, atMs: 60_000 };
    const delay = nextRunPollDelayMs({ poll, learn, step: 10, elapsedMs: 100_000, before, fraction: 0.8 });
    expect(scheduled(10, 100_000)).toBe(poll.capMs);
    expect(delay).toBe(20_000);
    // Nearly done: no sooner than the minimum gap.
    expect(nextRunPollDelayMs({ poll, learn, step: 10, elapsedMs: 100_000, before, fraction: 0.9999 })).toBe(
      learn.minGapMs,
    );
  });

  it('keeps to the schedule when the end is far, the progress stalls, is unknown, or learning is off', () => {
    const before = { fraction: 0.1, atMs: 10_000 };
    expect(nextRunPollDelayMs({ poll, learn, step: 4, elapsedMs: 20_000, before, fraction: 0.2 })).toBe(
      scheduled(4, 20_000),
    );
    expect(nextRunPollDelayMs({ poll, learn, step: 4, elapsedMs: 20_000, before, fraction: 0.1 })).toBe(
      scheduled(4, 20_000),
    );
    expect(nextRunPollDelayMs({ poll, learn, step: 4, elapsedMs: 20_000, fraction: 0.9 })).toBe(
      scheduled(4, 20_000),
    );
    const off = { ...learn, enabled: false };
    expect(
      nextRunPollDelayMs({
        poll,
        learn: off,
        step: 10,
        elapsedMs: 100_000,
        before: { fraction: 0.4, atMs: 60_000 },
        fraction: 0.8,
      }),
    ).toBe(poll.capMs);
  });

  it("waits at least as long as SCC's Retry-After", () => {
    const before = { fraction: 0.4, atMs: 60_000 };
    expect(
      nextRunPollDelayMs({
        poll,
        learn,
        step: 10,
        elapsedMs: 100_000,
        before,
        fraction: 0.8,
        retryAfterMs: 45_000,
      }),
    ).toBe(45_000);
  });

  it('keeps the read at which the progress last changed', () => {
    const kept = { fraction: 0.4, atMs: 60_000 };
    expect(progressToKeep(kept, 0.4, 70_000)).toBe(kept);
    expect(progressToKeep(kept, 0.5, 70_000)).toEqual({ fraction: 0.5, atMs: 70_000 });
    expect(progressToKeep(kept, undefined, 70_000)).toBe(kept);
    expect(progressToKeep(undefined, 0, 1_000)).toEqual({ fraction: 0, atMs: 1_000 });
  });
});
