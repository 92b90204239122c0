import { describe, expect, it } from 'vitest';
import {
  describeProgress,
  mspRunProgress,
  overallPercent,
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
    const pipelines = {
      asa: runSteps('asa'),
      ftd: runSteps('ftd'),
      msp: runSteps('msp'),
    };
    for (const [pipeline, steps] of Object.entries(pipelines) as ['asa' | 'ftd' | 'msp', string[]][]) {
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

/** The statuses a pipeline walks, found through the module itself (step 1 … n). */
function runSteps(pipeline: 'asa' | 'ftd' | 'msp'): string[] {
  const all = [
    'VALIDATING_INPUTS',
    'FETCHING_CURRENTLY_INSTALLED_PACKAGES',
    'CHECKING_ASA_DEVICES_DNS',
    'CHECKING_ASA_DEVICES_DNS_RESULTS',
    'VALIDATING_RA_VPN_SLOT_CONFLICTS',
    'UPLOADING_IMAGES',
    'CHECKING_IMAGES_UPLOAD_RESULTS',
    'REGISTERING_NEW_RA_VPN_IMAGES',
    'CHECKING_REGISTER_NEW_RA_VPN_IMAGES_RESULTS',
    'UNREGISTERING_OLD_RA_VPN_IMAGES',
    'CHECKING_UNREGISTER_OLD_RA_VPN_IMAGES_RESULTS',
    'WRITING_CHANGES_TO_MEMORY',
    'CHECKING_WRITE_CHANGES_TO_MEMORY_RESULTS',
    'DELETING_OLD_IMAGES',
    'PERFORMING_UPGRADE',
  ];
  const walked = all
    .map((status) => ({ status, progress: runProgress(status, 0, pipeline) }))
    .filter((s) => s.progress.kind === 'step');
  const order = (p: ReturnType<typeof runProgress>) => (p.kind === 'step' ? p.step : 0);
  return walked.sort((a, b) => order(a.progress) - order(b.progress)).map((s) => s.status);
}
