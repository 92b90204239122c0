// /fw upgrade through the MSP portal, across its managed tenants, against the simulator on its manual clock:
// the devices are checked in bulk and split into requests of at most 50 per hardware model per tenant (SCC's
// limit, which the simulator enforces with a 400), deterministically; each request is one MSP run, followed
// by the mspDeviceUpgradeRun kind with its siblings (the holds end with the last). In a customer channel (a
// tenant's own token) only that tenant's devices can be named. Without fwbot's timed work (this harness, the
// CLI) the image is staged and applied at once and `--at` and `--canary` (timed work in each device's window)
// are refused in one sentence; with it, see test/approvals/mspUpgradeSchedule.test.ts.
import { describe, expect, it } from 'vitest';
import { type Batchable, mspBatches } from '../../src/catalogue/mspDeviceUpgrade.js';
import type { Outcome } from '../../src/catalogue/operation.js';
import { isDeviceUpgradeEnded } from '../../src/follow/deviceUpgradeWords.js';
import { mspDeviceUpgradeOutcome, type RunDevice } from '../../src/follow/mspDeviceUpgradeRun.js';
import type { MspUpgradeRunDto } from '../../src/scc/generated/models.js';
import type { DeviceRecord } from '../../src/simulator/state/model.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });

async function resolve(text: string, token?: string) {
  const { op, raw } = catalogue.parse(text);
  const target = op.target;
  if (!target) throw new Error('upgrade declares no target');
  return { op, target, ...(await driving(target.resolve(h.context(token), raw))) };
}

const record = (name: string) => {
  const found = [...h.sim.state.devices.values()].find((d) => d.device.name === name);
  if (!found) throw new Error(`no ${name} in the seed`);
  return found;
};

/** `count` copies of a seeded ASA in a tenant, named `<prefix>-001…`, of `model`, with no maintenance window. */
function clone(from: string, tenant: string, prefix: string, count: number, model?: string): string[] {
  const source = record(from);
  const names: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const uid = h.sim.state.rng.uuid();
    const name = `${prefix}-${String(i).padStart(3, '0')}`;
    const copy: DeviceRecord = structuredClone(source);
    copy.tenantUid = h.sim.tenantUid(tenant);
    copy.device = {
      ...copy.device,
      uid,
      name,
      serial: `JAD${uid.slice(0, 8)}`,
      redundancyMode: 'STANDALONE',
      asaFailoverMode: 'OFF',
      ...(model ? { hardwareModel: model } : {}),
    };
    delete copy.device.asaFailoverMate;
    delete copy.device.asaFailoverState;
    delete copy.maintenanceWindow;
    h.sim.state.devices.set(uid, copy);
    names.push(name);
  }
  return names;
}

/** The devices of each MSP run the simulator was asked for, by tenant and model. */
function mspRuns(): { tenant: string; model: string; count: number }[][] {
  return [...h.sim.state.mspDeviceUpgradeRuns.values()]
    .sort((a, b) => a.submissionTime - b.submissionTime || a.name.localeCompare(b.name))
    .map((run) => {
      const counts = new Map<string, { tenant: string; model: string; count: number }>();
      for (const uid of run.tenantRunUids) {
        const tenantRun = h.sim.state.deviceUpgradeRuns.get(uid);
        for (const d of tenantRun?.devices ?? []) {
          const device = h.sim.state.devices.get(d.uid);
          const tenant = h.sim.state.tenants.get(device?.tenantUid ?? '')?.name ?? '?';
          const model = device?.device.hardwareModel ?? '?';
          const key = `${tenant}/${model}`;
          const entry = counts.get(key) ?? { tenant, model, count: 0 };
          entry.count += 1;
          counts.set(key, entry);
        }
      }
      return [...counts.values()].sort((a, b) =>
        `${a.tenant}/${a.model}`.localeCompare(`${b.tenant}/${b.model}`),
      );
    });
}

/** Moves simulated time until the MSP run the outcome's track names has ended. */
async function mspRunToEnd(outcome: Outcome, index: number): Promise<MspUpgradeRunDto> {
  const request = outcome.track[index];
  if (request?.kind !== 'mspDeviceUpgradeRun') throw new Error('no MSP upgrade run followed');
  const scc = h.client();
  for (let step = 0; step < 2_000; step += 1) {
    const { data } = await scc.call('getMspDeviceUpgradeRuns', {
      query: { q: `transactionUid:"${request.transactionUid}"`, limit: '1' },
    });
    const run = data.items?.[0];
    if (run && isDeviceUpgradeEnded(run)) return run;
    h.sim.clock.advance(10_000);
  }
  throw new Error('the MSP upgrade run did not end');
}

describe('mspBatches', () => {
  const devices = (tenant: string, model: string, kind: 'ASA' | 'FTD', count: number): Batchable[] =>
    Array.from({ length: count }, (_, i) => ({
      uid: `${tenant}-${model}-${i}`,
      name: `${tenant}-${model}-${String(i).padStart(3, '0')}`,
      kind,
      model,
      tenantUid: `uid-${tenant}`,
      tenant,
    }));

  it('120 devices of one model in one tenant: three requests of 50, 50 and 20', () => {
    const batches = mspBatches(devices('northwind', 'ASA5516', 'ASA', 120));
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect(new Set(batches.flat().map((d) => d.uid)).size).toBe(120);
  });

  it('mixed tenants and models: each request at most 50 per model per tenant, ASAs apart from FTDs, same split whatever the order', () => {
    const all = [
      ...devices('northwind', 'ASA5516', 'ASA', 120),
      ...devices('northwind', 'ASAv', 'ASA', 10),
      ...devices('globex', 'ASA5516', 'ASA', 60),
      ...devices('globex', 'FP1120', 'FTD', 51),
      ...devices('northwind', 'FP1120', 'FTD', 3),
    ];
    const batches = mspBatches(all);
    expect(batches.map((b) => b.length)).toEqual([50 + 10 + 50, 50 + 10, 20, 50 + 3, 1]);
    for (const batch of batches) {
      expect(new Set(batch.map((d) => d.kind)).size).toBe(1);
      const per = new Map<string, number>();
      for (const d of batch) per.set(`${d.tenant}/${d.model}`, (per.get(`${d.tenant}/${d.model}`) ?? 0) + 1);
      expect(Math.max(...per.values())).toBeLessThanOrEqual(50);
    }
    expect(
      batches
        .flat()
        .map((d) => d.uid)
        .sort(),
    ).toEqual(all.map((d) => d.uid).sort());
    const shuffled = [...all].reverse();
    expect(mspBatches(shuffled).map((b) => b.map((d) => d.uid))).toEqual(
      batches.map((b) => b.map((d) => d.uid)),
    );
  });
});

describe('upgrade across tenants through the MSP portal', () => {
  it('120 ASAs of one model in one tenant: three MSP requests, each run followed, the holds shared', async () => {
    clone('nw-asa-hq', 'northwind-us', 'nw-bulk', 120);
    const { op, target, facts, raw } = await resolve('upgrade name:nw-bulk-* --version 9.20.3');
    expect(facts).toMatchObject({ acrossTenants: true, leftOut: [] });
    expect((facts as { devices: unknown[] }).devices).toHaveLength(120);
    const description = target.describe(facts, h.sim.clock.now());
    expect(description.action).toContain('upgrade 120 devices in 1 tenant to `9.20.3`');
    expect(JSON.stringify(description.fields)).toContain('northwind-us: 120 × ASA Cisco ASA5516-X');
    expect(JSON.stringify(description.fields)).toContain('3 upgrade requests to SCC');

    const outcome = await op.execute(h.context(), raw, facts);
    expect(h.sim.requestLog.list({ operationId: 'upgradeMspManagedAsaDevices' })).toHaveLength(3);
    expect(h.sim.requestLog.list({ operationId: 'upgradeAsaDevices' })).toHaveLength(0);
    expect(mspRuns()).toEqual([
      [{ tenant: 'northwind-us', model: 'Cisco ASA5516-X', count: 50 }],
      [{ tenant: 'northwind-us', model: 'Cisco ASA5516-X', count: 50 }],
      [{ tenant: 'northwind-us', model: 'Cisco ASA5516-X', count: 20 }],
    ]);
    const transactions = outcome.track.map((t) => ('transactionUid' in t ? t.transactionUid : ''));
    expect(outcome.track).toHaveLength(3);
    for (const request of outcome.track)
      expect(request).toMatchObject({
        kind: 'mspDeviceUpgradeRun',
        holder: 'req-test',
        siblings: transactions,
        label: expect.stringMatching(/^upgrade \d+ devices in 1 tenant to 9\.20\.3$/),
      });
    const first = outcome.track[0];
    expect(first?.kind === 'mspDeviceUpgradeRun' ? first.devices[0] : undefined).toEqual({
      uid: h.sim.deviceUid('nw-bulk-001'),
      name: 'nw-bulk-001',
      tenant: 'northwind-us',
    });
    const run = await mspRunToEnd(outcome, 2);
    expect(run).toMatchObject({ upgradeRunStatus: 'UPGRADE_COMPLETED', name: 'fwbot req-test msp 3' });
    expect(record('nw-bulk-120').device.softwareVersion).toBe('9.20.3');
  });

  it('mixed tenants, models and kinds: per model per tenant in each request; ASAs and FTDs apart', async () => {
    clone('nw-asa-hq', 'northwind-us', 'nw-bulk', 60);
    clone('nw-asa-hq', 'northwind-us', 'nw-virt', 5, 'Cisco ASAv');
    clone('globex-asa-01', 'globex-apj', 'gx-bulk', 55);
    const { op, facts, raw } = await resolve(
      'upgrade name:nw-bulk-* name:nw-virt-* name:gx-bulk-* --version 9.20.3',
    );
    expect((facts as { devices: unknown[] }).devices).toHaveLength(120);
    await op.execute(h.context(), raw, facts);
    expect(mspRuns()).toEqual([
      [
        { tenant: 'globex-apj', model: 'Cisco ASA5516-X', count: 50 },
        { tenant: 'northwind-us', model: 'Cisco ASA5516-X', count: 50 },
        { tenant: 'northwind-us', model: 'Cisco ASAv', count: 5 },
      ],
      [
        { tenant: 'globex-apj', model: 'Cisco ASA5516-X', count: 5 },
        { tenant: 'northwind-us', model: 'Cisco ASA5516-X', count: 10 },
      ],
    ]);
    // FTDs go through the FTD operation, by version.
    const ftd = await resolve('upgrade nw-ftd-edge --version 7.4.2 --stage-only');
    expect(ftd.facts).toMatchObject({ acrossTenants: true, devices: [{ name: 'nw-ftd-edge', kind: 'FTD' }] });
    await ftd.op.execute({ ...h.context(), requestId: 'req-ftd' }, ftd.raw, ftd.facts);
    expect(h.sim.requestLog.list({ operationId: 'upgradeMspManagedFtdDevices' })).toHaveLength(1);
  });

  it('checks each device first: one offline or already upgrading is left out, named with the reason', async () => {
    clone('nw-asa-hq', 'northwind-us', 'nw-bulk', 3);
    record('nw-bulk-002').device.connectivityState = 'UNREACHABLE';
    const first = await resolve('upgrade nw-bulk-003 --version 9.20.3 --stage-only');
    await first.op.execute(h.context(), first.raw, first.facts);
    const { facts } = await resolve('upgrade name:nw-bulk-* --version 9.20.3');
    expect(facts).toMatchObject({
      devices: [{ name: 'nw-bulk-001', tenant: 'northwind-us' }],
      leftOut: [
        { name: 'nw-bulk-002', reason: 'not ONLINE (UNREACHABLE)' },
        { name: 'nw-bulk-003', reason: 'already upgrading (run fwbot req-test msp 1)' },
      ],
    });
  });

  it('a readiness fault ends that run in a staging failure, told with SCC’s reason and a tenant column', async () => {
    clone('nw-asa-hq', 'northwind-us', 'nw-bulk', 2);
    await fetch(`${h.sim.url}/_sim/devices/nw-bulk-002/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'READINESS_CHECK', message: 'Not enough disk space on disk0' }),
    });
    const { op, facts, raw } = await resolve('upgrade name:nw-bulk-* --version 9.20.3');
    const outcome = await op.execute(h.context(), raw, facts);
    const run = await mspRunToEnd(outcome, 0);
    const request = outcome.track[0];
    const devices: RunDevice[] = request?.kind === 'mspDeviceUpgradeRun' ? request.devices : [];
    const told = mspDeviceUpgradeOutcome(run, devices);
    expect(told?.status).toBe('failed');
    expect(told?.text).toContain('across 1 tenant failed before the upgrade');
    expect(told?.text).toContain('Not enough disk space on disk0');
    expect(told?.progressText).toMatch(/Tenant\s+Device/);
    expect(told?.progressText).toMatch(/northwind-us\s+nw-bulk-002\s+.*Not enough disk space/);
  });

  it('without timed work, --at and --canary are refused across tenants in one sentence, before any device is checked', async () => {
    clone('nw-asa-hq', 'northwind-us', 'nw-bulk', 3);
    for (const later of ['--canary', '--at 22:00', '--at "sat 22:00" --canary'])
      await expect(resolve(`upgrade name:nw-bulk-* --version 9.20.3 ${later}`)).rejects.toThrow(
        '`--at` and `--canary` leave the upgrade for later, which needs fwbot’s timed work (Redis): ask in Slack or the console, or give the command line the bot’s Redis (REDIS_URL).',
      );
    expect(h.sim.requestLog.list({ operationId: 'getMspDeviceUpgradeRuns' })).toHaveLength(0);
    const { facts } = await resolve('upgrade name:nw-bulk-* --version 9.20.3');
    expect(facts).toMatchObject({ acrossTenants: true, inWindows: false, canary: false, slots: [] });
  });

  it('in a customer channel (the tenant’s own token): only that tenant’s devices, its own operations', async () => {
    const token = h.sim.mintTenantToken(h.sim.tenantUid('northwind-us'));
    await expect(resolve('upgrade globex-asa-01 --version 9.20.3', token)).rejects.toThrow(
      'No device named “globex-asa-01” in the inventory',
    );
    await expect(resolve('upgrade name:globex-* --version 9.20.3', token)).rejects.toThrow(
      /No ASA or FTD matches/,
    );
    const { facts } = await resolve('upgrade nw-asa-hq --version 9.20.3', token);
    expect(facts).toMatchObject({ devices: [{ name: 'nw-asa-hq' }] });
    expect((facts as { acrossTenants?: boolean }).acrossTenants).toBeUndefined();
    expect(h.sim.requestLog.list({ operationId: 'getMspManagedDevices' })).toHaveLength(0);
  });
});
