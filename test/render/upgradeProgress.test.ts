import { describe, expect, it } from 'vitest';
import {
  describeProgress,
  mspRunProgress,
  overallPercent,
  pipelineSteps,
  runProgress,
} from '../../src/render/upgradeProgress.js';

/** The whole run's percentage, as shown, for a run state. */
const overall = (status: string, fraction: number | null, pipeline: 'asa' | 'ftd' | 'msp' = 'asa') =>
  Number(overallPercent(runProgress(status, fraction, pipeline))?.replace('%', ''));

describe('upgrade run progress', () => {
  it('places the step SCC reports in the run and says both numbers', () => {
    expect(describeProgress(runProgress('UPLOADING_IMAGES', 0.52, 'asa'))).toBe(
      'step 6 of 14, uploading images 52%; overall 39%',
    );
    expect(describeProgress(runProgress('UPLOADING_IMAGES', 0.52, 'ftd'))).toBe(
      'step 4 of 10, uploading images 52%; overall 35%',
    );
    expect(describeProgress(runProgress('PERFORMING_UPGRADE', null, 'msp'))).toBe(
      'step 3 of 3, performing upgrade; overall 66%',
    );
  });

  it('goes forward where the step’s own percentage fell back (74% → 52% → 12%)', () => {
    const states: [string, number][] = [
      ['UPLOADING_IMAGES', 0.74],
      ['CHECKING_IMAGES_UPLOAD_RESULTS', 0.52],
      ['REGISTERING_NEW_RA_VPN_IMAGES', 0.12],
    ];
    expect(states.map(([status, fraction]) => overall(status, fraction))).toEqual([41, 46, 50]);
  });

  it('never falls back over every step of each pipeline, and reads 100% only when done', () => {
    for (const pipeline of ['asa', 'ftd', 'msp'] as const) {
      const steps = pipelineSteps(pipeline);
      const seen = steps.flatMap((status) =>
        [null, 0, 0.3, 0.99, 1].map((f) => overall(status, f, pipeline)),
      );
      expect(seen, pipeline).toEqual([...seen].sort((a, b) => a - b));
      expect(Math.max(...seen), pipeline).toBeLessThan(100);
      expect(overall('DONE_WITH_DEVICE_WARNINGS', 0.2, pipeline)).toBe(100);
    }
  });

  it('counts a run across tenants by its tenants’ own runs, a tenant that ended as complete', () => {
    const legs = [
      { upgradeRunStatus: 'DONE' },
      { upgradeRunStatus: 'UPLOADING_IMAGES', upgradeRunStepPercentageComplete: 0.5 },
      { upgradeRunStatus: 'ERROR' },
      { transactionStatus: 'PENDING' },
    ];
    // (1 + 5.5/14 + 1 + 0) / 4
    expect(describeProgress(mspRunProgress('UPLOADING_IMAGES', 0.1, legs))).toBe(
      'step 2 of 3, uploading images 10%; overall 59%',
    );
  });

  it('gives no number for a run that failed or a status outside the pipeline', () => {
    expect(describeProgress(runProgress('ERROR', 0.4, 'asa'))).toBeUndefined();
    expect(overallPercent(runProgress('PERFORMING_UPGRADE', 0.4, 'asa'))).toBeUndefined();
    expect(describeProgress(runProgress('DONE', null, 'msp'))).toBe('overall 100%');
  });
});
