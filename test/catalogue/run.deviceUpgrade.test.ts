// /fw upgrade against the simulator on its manual clock: every device checked before the card (a device that
// fails a check is left out, named with the reason), the card the approver sees (golden), the checks read
// again right before the run, and the runs SCC starts followed to their ends: stage-only stops at
// UPGRADE_STAGED, a full upgrade leaves the device running the target, a readiness fault ends the run in
// SCC's staging failure with its reason.
import { describe, expect, it } from 'vitest';
import { renderCard } from '../../src/approvals/card.js';
import type { ApprovalRecord } from '../../src/approvals/record.js';
import type { Outcome } from '../../src/catalogue/operation.js';
import { NO_BASELINE } from '../../src/catalogue/timed/deviceUpgradeInWindow.js';
import { deviceUpgradeOutcome } from '../../src/follow/deviceUpgradeRun.js';
import { isDeviceUpgradeEnded } from '../../src/follow/deviceUpgradeWords.js';
import { renderText } from '../../src/render/text.js';
import type { UpgradeRunDto } from '../../src/scc/generated/models.js';
import { expectCardGolden } from '../approvals/support/golden.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
const CREATED = Date.parse('2025-06-02T09:00:00Z');

async function resolve(text: string) {
  const { op, raw } = catalogue.parse(text);
  const target = op.target;
  if (!target) throw new Error('upgrade declares no target');
  return { op, target, ...(await target.resolve(h.context(), raw)) };
}

function card(
  facts: unknown,
  describe: (facts: unknown, now: number) => ApprovalRecord['request']['target']['description'],
) {
  const record: ApprovalRecord = {
    request: {
      id: 'ap-0123456789',
      operationId: 'upgrade',
      raw: {},
      commandText: '/fw upgrade …',
      profile: 'default',
      requesterId: 'U0ALICE',
      channelId: 'C0OPS',
      createdAt: CREATED,
      expiresAt: CREATED + 30 * 60_000,
      role: 'operator',
      target: { facts, description: describe(facts, CREATED) },
    },
    state: 'pending',
    attempts: 0,
  };
  return renderCard(record, CREATED);
}

/** Moves simulated time until the run the outcome's track names has ended; returns it as SCC reads it. */
async function runToEnd(outcome: Outcome, index = 0): Promise<UpgradeRunDto> {
  const request = outcome.track[index];
  if (request?.kind !== 'deviceUpgradeRun') throw new Error('no upgrade run followed');
  const scc = h.client();
  for (let step = 0; step < 2_000; step += 1) {
    const { data } = await scc.call('getDeviceUpgradeRuns', {
      query: { q: `transactionUid:"${request.transactionUid}"`, limit: '1' },
    });
    const run = data.items?.[0];
    if (run && isDeviceUpgradeEnded(run)) return run;
    h.sim.clock.advance(10_000);
  }
  throw new Error('the upgrade run did not end');
}

const device = (name: string) => {
  const found = [...h.sim.state.devices.values()].find((d) => d.device.name === name);
  if (!found) throw new Error(`no ${name} in the seed`);
  return found;
};

describe('upgrade', () => {
  it('checks each device before the card; one that fails is left out with the reason', async () => {
    device('asa-branch-02').device.connectivityState = 'UNREACHABLE';
    const { target, facts, raw } = await resolve(
      'upgrade asa-hq-01 asa-dc-03 asa-branch-02 --version 9.20(3)',
    );
    expectCardGolden('upgrade', card(facts, target.describe));
    const text = renderText(card(facts, target.describe));
    expect(text).toContain('asks to upgrade 2 devices to `9.20.3`');
    expect(text).toContain('asa-dc-03');
    expect(text).toMatch(/HA pair: Primary - Active, Secondary - Standby Ready/);
    expect(text).toContain('Left out');
    expect(text).toContain('asa-branch-02: not ONLINE (UNREACHABLE)');
    expect(raw.device).toEqual([h.sim.deviceUid('asa-hq-01'), h.sim.deviceUid('asa-dc-03')]);
  });

  it('leaves out an HA pair not in the expected failover state, and a device with a conflict', async () => {
    device('asa-dc-03').device.asaFailoverState = 'Primary - Standby Ready';
    const mate = device('asa-dc-03').device.asaFailoverMate;
    if (mate) mate.failoverState = 'Secondary - Active';
    device('asa-branch-02').device.conflictDetectionState = 'CONFLICT_DETECTED';
    const { facts } = await resolve('upgrade asa-hq-01 asa-dc-03 asa-branch-02 --version 9.20.3');
    expect(facts).toMatchObject({
      devices: [{ name: 'asa-hq-01' }],
      leftOut: [
        {
          name: 'asa-dc-03',
          reason:
            'not in the expected failover state (primary Active, secondary Standby Ready): Primary - Standby Ready, Secondary - Active',
        },
        { name: 'asa-branch-02', reason: expect.stringContaining('a conflict is detected') },
      ],
    });
  });

  it('refuses in one sentence when no device passes, naming each reason', async () => {
    device('asa-hq-01').device.configState = 'NOT_SYNCED';
    await expect(resolve('upgrade asa-hq-01 asa-branch-02 --version 9.9.9')).rejects.toThrow(
      /^No device can be upgraded to 9\.9\.9: asa-hq-01 \(not SYNCED \(NOT_SYNCED\).*9\.9\.9 is not offered.*\); asa-branch-02 \(9\.9\.9 is not offered/,
    );
  });

  it('without timed work (the CLI) --at and --canary are refused in one sentence; stage only takes neither', async () => {
    await expect(resolve('upgrade asa-hq-01 --version 9.20.3 --at 22:00')).rejects.toThrow(
      /`--at` and `--canary` leave the upgrade for later, which needs fwbot’s timed work/,
    );
    await expect(resolve('upgrade asa-hq-01 --version 9.20.3 --canary')).rejects.toThrow(/timed work/);
    await expect(resolve('upgrade asa-hq-01 --version 9.20.3 --stage-only --canary')).rejects.toThrow(
      /`--at` and `--canary` are for the upgrade itself/,
    );
  });

  it('stage only: one ASA run with stageUpgrade, ended at UPGRADE_STAGED, the device unchanged', async () => {
    const { op, facts, raw } = await resolve('upgrade asa-hq-01 --version 9.20.3 --stage-only');
    const outcome = await op.execute(h.context(), raw, facts);
    h.golden('upgrade', outcome);
    const calls = h.sim.requestLog.list({ operationId: 'upgradeAsaDevice' });
    expect(calls).toHaveLength(1);
    expect(outcome.track).toMatchObject([{ kind: 'deviceUpgradeRun', holder: 'req-test' }]);
    const run = await runToEnd(outcome);
    expect(run).toMatchObject({
      upgradeRunStatus: 'UPGRADE_STAGED',
      stageUpgradeOnly: true,
      name: 'fwbot req-test 1',
    });
    expect(deviceUpgradeOutcome(run)?.status).toBe('succeeded');
    expect(device('asa-hq-01').device.softwareVersion).toBe('9.20.2');
  });

  it('a full upgrade of an ASA and an HA pair completes; the devices report the target', async () => {
    // SCC applies an upgrade only in a device's maintenance window: these two have none.
    for (const name of ['asa-hq-01', 'asa-dc-03']) delete device(name).maintenanceWindow;
    const { op, facts, raw } = await resolve('upgrade asa-hq-01 asa-dc-03 --version 9.20.3');
    const outcome = await op.execute(h.context(), raw, facts);
    expect(h.sim.requestLog.list({ operationId: 'upgradeAsaDevices' })).toHaveLength(1);
    const run = await runToEnd(outcome);
    expect(run.upgradeRunStatus).toBe('UPGRADE_COMPLETED');
    const said = deviceUpgradeOutcome(run)?.text ?? '';
    expect(said).toContain('completed (UPGRADE_COMPLETED)');
    expect(said).toMatch(/\(primary\)/);
    expect(said).toMatch(/\(secondary\)/);
    const { data } = await h
      .client()
      .call('getDevice', { path: { deviceUid: h.sim.deviceUid('asa-dc-03') } });
    expect(data.softwareVersion).toBe('9.20.3');
    expect(device('asa-hq-01').device.softwareVersion).toBe('9.20.3');
    // Asked again, the devices run it already: nothing to approve.
    await expect(resolve('upgrade asa-hq-01 --version 9.20.3')).rejects.toThrow(/it runs 9\.20\.3 already/);
  });

  it('a readiness fault ends the run in a staging failure, told with SCC’s reason', async () => {
    await fetch(`${h.sim.url}/_sim/devices/asa-hq-01/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'READINESS_CHECK', message: 'Not enough disk space on disk0' }),
    });
    const { op, facts, raw } = await resolve('upgrade asa-hq-01 --version 9.20.3');
    const run = await runToEnd(await op.execute(h.context(), raw, facts));
    expect(run.upgradeRunStatus).toBe('UPGRADE_STAGING_FAILED');
    const told = deviceUpgradeOutcome(run);
    expect(told?.status).toBe('failed');
    expect(told?.text).toContain('failed before the upgrade');
    expect(told?.text).toContain('Not enough disk space on disk0');
    expect(device('asa-hq-01').device.softwareVersion).toBe('9.20.2');
  });

  it('reads the checks again before the run: a device that changed is left out and said', async () => {
    const { target, facts } = await resolve('upgrade asa-hq-01 asa-dc-03 --version 9.20.3');
    device('asa-dc-03').device.configState = 'NOT_SYNCED';
    const again = await target.reread(h.context(), facts);
    if (!again.found) throw new Error('expected the target still found');
    const text = renderText(card(again.facts, target.describe));
    expect(text).toContain('Left out since the card');
    expect(text).toContain('asa-dc-03 (changed since the card): not SYNCED (NOT_SYNCED)');
    device('asa-hq-01').device.connectivityState = 'UNREACHABLE';
    const none = await target.reread(h.context(), facts);
    expect(none).toMatchObject({
      found: false,
      reason: expect.stringContaining('no device passes its checks'),
    });
  });

  it('an FTD is upgraded with its model’s package; a device in a run is not upgraded twice', async () => {
    const { op, facts, raw } = await resolve('upgrade ftd-edge-01 --version 7.4.2 --stage-only');
    const outcome = await op.execute(h.context(), raw, facts);
    expect(h.sim.requestLog.list({ operationId: 'upgradeFtdDevice' })).toHaveLength(1);
    await expect(resolve('upgrade ftd-edge-01 --version 7.4.2')).rejects.toThrow(
      /already upgrading \(run fwbot req-test 1\)/,
    );
    const run = await runToEnd(outcome);
    expect(run).toMatchObject({ upgradeRunStatus: 'UPGRADE_STAGED', upgradePackageUid: expect.any(String) });
  });

  it('after a crash while it was started, finds its runs by name in SCC instead of starting them again', async () => {
    const { op, target, facts, raw } = await resolve('upgrade asa-hq-01 ftd-edge-01 --version 7.4.2');
    expect(await target.interrupted?.(h.context(), facts)).toBeUndefined();
    // ftd-edge-01 only: asa-hq-01 is left out (no ASA 7.4.2), so one run is started.
    expect(facts).toMatchObject({ devices: [{ name: 'ftd-edge-01' }], leftOut: [{ name: 'asa-hq-01' }] });
    const outcome = await op.execute(h.context(), raw, facts);
    const found = await target.interrupted?.(h.context(), facts);
    // The same runs followed; the state kept right before the upgrade was lost with the crash, so the runs
    // found again carry no proof but say why at their end (docs/using/upgrades.md says so).
    const withoutProof = (outcome.track ?? []).map((t) => {
      const { proof: _proof, ...rest } = t as typeof t & { proof?: unknown };
      return { ...rest, unproven: NO_BASELINE };
    });
    expect(found?.track).toEqual(withoutProof);
    expect((outcome.track ?? []).every((t) => 'proof' in t)).toBe(true);
    expect(found?.view ? renderText(found.view) : '').toContain('it was not started again');
  });

  it('outside SCC’s maintenance window the image is staged and the upgrade refused, with SCC’s reason', async () => {
    const { op, facts, raw } = await resolve('upgrade asa-hq-01 --version 9.20.3');
    const run = await runToEnd(await op.execute(h.context(), raw, facts));
    const told = deviceUpgradeOutcome(run);
    expect(told?.status).toBe('failed');
    expect(told?.text).toContain('Outside the maintenance window');
  });
});
