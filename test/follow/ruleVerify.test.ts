// The verification of a removed or disabled rule (src/follow/ruleVerify.ts), stepped by hand against the
// simulator as the tracking worker steps it: it waits for the first deploy of the device after the one SCC
// listed when the change was made, then packet-tracer says which line decides now. A state saved between
// the deploy's end and packet-tracer (a crash there) resumes to one verdict; the same rule added again
// before the deploy is NOT verified; a change discarded with no deploy is said.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommonState, Outcome, StepContext } from '../../src/follow/index.js';
import { type RuleVerifyRequest, ruleVerify } from '../../src/follow/ruleVerify.js';
import { createSccClient, type SccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';

const SCRIPT = 'packet-tracer input outside tcp 198.51.100.1 49152 172.20.40.10 8443';
const PARTNER_DENY = 'outside_access_in extended deny ip object PARTNER-NET any log';

type State = CommonState & Record<string, unknown>;
const START: State = { step: 0, failures: 0, startedAt: 0, legStartedAt: 0 };

describe('rule-verify: packet-tracer after the deploy that carries a rule change', () => {
  let sim: SimulatorHandle;
  let scc: SccClient;
  let ctx: StepContext;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    scc = createSccClient({ baseUrl: sim.url, token: 'sim-super-admin', retry: { maxAttempts: 1 } });
    ctx = {
      profile: 'default',
      client: scc,
      clientOf: () => scc,
      resolveTenantProfile: async () => undefined,
      now: Date.now(),
    };
  });
  afterAll(async () => {
    await scc.close();
    await sim.stop();
  });

  const dc = () => sim.deviceUid('asa-dc-03');

  async function createPermit(): Promise<{ uid: string; text: string }> {
    const groups = await scc.lookups.accessGroups({ q: `entityUid:${dc()}` });
    const group = groups.items?.find((g) => g.name === 'outside_access_in');
    const { data: rule } = await scc.call('createAccessRule', {
      body: {
        accessGroupUid: group?.uid ?? '',
        entityUid: dc(),
        index: 2,
        ruleAction: 'PERMIT',
        protocol: { name: 'tcp' },
        sourceNetwork: { name: 'PARTNER-NET' },
        destinationNetwork: { name: 'DC-WEB' },
        destinationPort: { name: '8443' },
      },
    });
    return { uid: rule.uid ?? '', text: rule.ruleConfigurationText ?? '' };
  }

  async function deployNow(): Promise<void> {
    await scc.call('deployChangesToMultipleAsaDevices', { body: { deviceUids: [dc()] } });
  }

  /** A permit for the partner on asa-dc-03, deployed; then removed in SCC's copy: the request made then. */
  async function removedPermit(): Promise<RuleVerifyRequest> {
    sim.reset();
    const rule = await createPermit();
    await deployNow();
    sim.clock.advance(120_000);
    const { data } = await scc.call('getDeviceDeploymentRuns', {
      query: { limit: '1', sort: ['submissionTime:DESC'] },
    });
    const newest = data.items?.[0];
    await scc.call('deleteAccessRule', { path: { accessRuleUid: rule.uid } });
    return {
      kind: 'rule-verify',
      label: 'remove of access rule on asa-dc-03',
      device: { uid: dc(), name: 'asa-dc-03' },
      after: Date.parse(newest?.submissionTime ?? ''),
      notRun: newest?.transactionUid ?? undefined,
      rule,
      change: 'remove',
      script: SCRIPT,
      removal: `rules remove ${dc()} ${rule.uid}`,
    };
  }

  /** Steps until it ends or `until` says stop (the state then returned, as the queue would keep it). */
  async function follow(
    request: RuleVerifyRequest,
    from: State = START,
    until?: (state: State) => boolean,
  ): Promise<{ outcome?: Outcome; state: State; steps: number }> {
    let state = from;
    for (let steps = 1; steps <= 60; steps += 1) {
      const result = await ruleVerify.step(ctx, request, state as never);
      if (result.kind === 'end') return { outcome: result.outcome, state, steps };
      state = { ...(result.state as State), step: state.step + 1 };
      if (until?.(state)) return { state, steps };
      sim.clock.advance(5_000);
    }
    throw new Error('the verification did not end');
  }

  it('waits for a deploy (not the one before the change), then says DROP by the later deny', async () => {
    const request = await removedPermit();
    const traces = () => sim.requestLog.list({ operationId: 'executeCliCommand' }).length;
    const before = traces();
    const waiting = await ruleVerify.step(ctx, request, START as never);
    expect(waiting.kind).toBe('continue');
    if (waiting.kind === 'continue') {
      expect(waiting.progress).toContain('waiting for a deploy of `asa-dc-03`');
      expect(waiting.state.transactionUid).toBeUndefined();
    }
    await deployNow();
    const { outcome } = await follow(request);
    expect(outcome?.status).toBe('succeeded');
    expect(outcome?.text).toMatch(/^verified: DROP by line \d+ \(`access-list /);
    expect(outcome?.text).toContain(PARTNER_DENY);
    expect(outcome?.text).toContain('no longer by the removed rule `access-list outside_access_in');
    expect(traces()).toBe(before + 1);
  });

  it('resumes from the state kept after the deploy ended (a crash there) to one verdict', async () => {
    const request = await removedPermit();
    await deployNow();
    const { state } = await follow(request, START, (s) => s.deployed === true);
    expect(state.cliTransactionUid).toBeUndefined();
    // A restart reads the job back from Redis: the state as JSON, checked with the kind's schema.
    const kept = ruleVerify.state.parse(JSON.parse(JSON.stringify(state)));
    const before = sim.requestLog.list({ operationId: 'executeCliCommand' }).length;
    const { outcome } = await follow(request, { ...state, ...kept } as State);
    expect(outcome?.status).toBe('succeeded');
    expect(outcome?.text).toContain('verified: DROP by line');
    expect(sim.requestLog.list({ operationId: 'executeCliCommand' }).length).toBe(before + 1);
  });

  it('is NOT verified when the same rule is back on the device by the deploy', async () => {
    const request = await removedPermit();
    await createPermit();
    await deployNow();
    const { outcome } = await follow(request);
    expect(outcome?.status).toBe('failed');
    expect(outcome?.text).toContain(
      'removed, but NOT verified: packet-tracer says ALLOW still by the rule itself',
    );
  });

  it('says so when the change was discarded and no deploy ran', async () => {
    const request = await removedPermit();
    // `/fw discard`'s call: SCC reads the device's configuration again, dropping what was staged.
    await scc.call('readAsaDeviceConfiguration', { path: { deviceUid: dc() } });
    let state: string | null | undefined;
    for (let reads = 0; reads < 30 && state !== 'SYNCED'; reads += 1) {
      sim.clock.advance(5_000);
      state = (await scc.call('getDevice', { path: { deviceUid: dc() } })).data.configState;
    }
    expect(state).toBe('SYNCED');
    const { outcome } = await follow(request);
    expect(outcome?.status).toBe('failed');
    expect(outcome?.text).toContain('has nothing staged any more and no deploy of it ran since the change');
  });
});
