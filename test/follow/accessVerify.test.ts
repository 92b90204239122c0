// The verification of an access rule after its deploy (src/follow/accessVerify.ts), stepped by hand against
// the simulator as the tracking worker steps it: it waits for the deploy's run to end, runs packet-tracer
// again, and says "verified: ALLOW by line N" only when the new rule decided; a rule that the device does
// not reach (placed under the deny that shadows it) is "NOT verified", with the governed removal's button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessVerifyRequest, accessVerify } from '../../src/follow/accessVerify.js';
import type { CommonState, Outcome, StepContext } from '../../src/follow/index.js';
import { createSccClient, type SccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';

const SCRIPT = 'packet-tracer input outside tcp 198.51.100.1 49152 172.20.40.10 8443';

describe('access-verify: packet-tracer again after the deploy', () => {
  let sim: SimulatorHandle;
  let scc: SccClient;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    scc = createSccClient({ baseUrl: sim.url, token: 'sim-super-admin', retry: { maxAttempts: 1 } });
  });
  afterAll(async () => {
    await scc.close();
    await sim.stop();
  });

  /** Stages a permit for the partner to DC-WEB:8443 at `index` of outside_access_in and deploys it. */
  async function stageAndDeploy(index: number): Promise<{ request: AccessVerifyRequest }> {
    sim.reset();
    const dc = sim.deviceUid('asa-dc-03');
    const groups = await scc.lookups.accessGroups({ q: `entityUid:${dc}` });
    const group = groups.items?.find((g) => g.name === 'outside_access_in');
    const { data: rule } = await scc.call('createAccessRule', {
      body: {
        accessGroupUid: group?.uid ?? '',
        entityUid: dc,
        index,
        ruleAction: 'PERMIT',
        protocol: { name: 'tcp' },
        sourceNetwork: { name: 'PARTNER-NET' },
        destinationNetwork: { name: 'DC-WEB' },
        destinationPort: { name: '8443' },
      },
    });
    const { data: deploy } = await scc.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [dc] },
    });
    return {
      request: {
        kind: 'access-verify',
        label: 'access request on asa-dc-03',
        transactionUid: deploy.transactionUid ?? '',
        device: { uid: dc, name: 'asa-dc-03' },
        script: SCRIPT,
        rule: { uid: rule.uid ?? '', text: rule.ruleConfigurationText ?? '' },
        removal: `rules remove ${dc} ${rule.uid}`,
      },
    };
  }

  /** Steps the kind as the worker does (the simulator's clock moving between reads) until it ends. */
  async function follow(request: AccessVerifyRequest): Promise<{ outcome: Outcome; steps: number }> {
    const ctx: StepContext = {
      profile: 'default',
      client: scc,
      clientOf: () => scc,
      resolveTenantProfile: async () => undefined,
      now: Date.now(),
    };
    let state: CommonState & Record<string, unknown> = {
      step: 0,
      failures: 0,
      startedAt: 0,
      legStartedAt: 0,
    };
    for (let steps = 1; steps <= 60; steps += 1) {
      const result = await accessVerify.step(ctx, request, state);
      if (result.kind === 'end') return { outcome: result.outcome, steps };
      state = { ...result.state, step: steps };
      sim.clock.advance(5_000);
    }
    throw new Error('the verification did not end');
  }

  it('says verified: ALLOW by the new rule’s line when the rule sits above the deny', async () => {
    const { request } = await stageAndDeploy(2);
    const { outcome } = await follow(request);
    expect(outcome.status).toBe('succeeded');
    expect(outcome.text).toMatch(
      /^verified: ALLOW by line \d+ \(the new rule, `access-list outside_access_in/,
    );
    expect(outcome.button).toBeUndefined();
  });

  it('says NOT verified, with the governed removal’s button, when the deny above shadows the rule', async () => {
    // Below the partner's deny (#2): the device drops the flow there before reaching the new rule.
    const { request } = await stageAndDeploy(3);
    const { outcome } = await follow(request);
    expect(outcome.status).toBe('failed');
    expect(outcome.text).toContain(
      'NOT verified: packet-tracer says DROP: dropped by `access-list outside_access_in extended deny ip object PARTNER-NET any log`',
    );
    expect(outcome.button).toEqual({ label: 'Remove the rule…', command: request.removal });
  });

  it('runs packet-tracer only once the deploy has ended (the device refuses it before)', async () => {
    const { request } = await stageAndDeploy(2);
    const before = sim.requestLog.list({ operationId: 'executeCliCommand' }).length;
    const ctx = {
      profile: 'default',
      client: scc,
      clientOf: () => scc,
      resolveTenantProfile: async () => undefined,
      now: Date.now(),
    };
    const first = await accessVerify.step(ctx, request, {
      step: 0,
      failures: 0,
      startedAt: 0,
      legStartedAt: 0,
    });
    expect(first.kind).toBe('continue');
    expect(sim.requestLog.list({ operationId: 'executeCliCommand' }).length).toBe(before);
  });
});
