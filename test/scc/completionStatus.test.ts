// The vendor's newest OpenAPI file drops CompletionStatusDto.completedAt (issue 24). fwbot never needs
// it: the models the client parses SCC's answers with take a device's completion status without it (or
// with null, "still in progress"), and the deployment views read the device's own status instead.
import { describe, expect, it } from 'vitest';
import type { RenderMeta } from '../../src/model/types.js';
import { renderDeployment, renderDeploymentList } from '../../src/render/changes.js';
import { renderText } from '../../src/render/text.js';
import type { DeploymentRunDto } from '../../src/scc/generated/models.js';
import { responseSchema } from '../../src/scc/responseSchemas.js';

const META: RenderMeta = {
  operationId: 'deployments',
  raw: {},
  actor: { userId: 'U0ENGINEER', channelId: 'C0NETOPS' },
};

/** A finished run of two devices, as SCC answers it, with each device's completion status given. */
function runWith(completion: (i: number) => Record<string, unknown>) {
  return {
    uid: '4d1b5c0e-8a51-4cb3-9f3c-2f3d3f8f5e01',
    name: 'deploy',
    deployerUsername: 'ana@example.com',
    deploymentRunStatus: 'DEPLOY_COMPLETED',
    deploymentType: 'ASA_DEVICE_DEPLOY',
    submissionTime: '2026-11-26T14:05:17.558Z',
    lastUpdatedTime: '2026-11-26T14:06:02.101Z',
    deviceDeploymentStatuses: ['asa-hq-01', 'asa-dc-03'].map((name, i) => ({
      uid: `0744ab6c-8eff-4732-a59e-5ff0a13a97f${i}`,
      name,
      status: 'DONE',
      completionStatus: { name, percentageComplete: 1, ...completion(i) },
    })),
  };
}

describe('a deployment run without completedAt', () => {
  const cases: [string, (i: number) => Record<string, unknown>][] = [
    ['absent (the newest reference)', () => ({})],
    ['null (still in progress, the older reference)', () => ({ completedAt: null })],
    ['given for one device only', (i) => (i === 0 ? { completedAt: '2026-11-26T14:06:00Z' } : {})],
  ];

  it.each(cases)('is read by the client’s models when completedAt is %s', (_, completion) => {
    const body = runWith(completion);
    const one = responseSchema('getDeviceDeploymentRun', 200)?.safeParse(body);
    expect(one?.success).toBe(true);
    const page = responseSchema('getDeviceDeploymentRuns', 200)?.safeParse({
      count: 1,
      offset: 0,
      limit: 25,
      items: [body],
    });
    expect(page?.success).toBe(true);
  });

  it('is shown, listed and summed up by its devices’ own statuses', () => {
    const parsed = responseSchema('getDeviceDeploymentRun', 200)?.parse(runWith(() => ({})));
    const run = parsed as DeploymentRunDto;
    const shown = renderText(renderDeployment(run, [], META));
    expect(shown).toContain('asa-hq-01: DONE, asa-dc-03: DONE');
    expect(shown).toContain('2026-11-26 14:05 UTC');
    const page = { offset: 0, limit: 25, count: 1, shown: 1 };
    expect(renderText(renderDeploymentList([run], page, undefined, META))).toContain('asa-hq-01: DONE');
  });
});
