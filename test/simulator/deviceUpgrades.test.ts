// Firewall software upgrades in the simulator, through its HTTP API on the manual clock: versions by model
// and current version, runs walking UPLOADING_IMAGE → PERFORMING_READINESS_CHECK → UPGRADE_STAGED →
// PERFORMING_UPGRADE → UPGRADE_COMPLETED in minutes, a stage-only run continued by a later upgrade, faults
// made on request (a readiness check, an HA node), maintenance windows, a deleted run letting a duplicate
// start, and the MSP portal's versions, upgrades (50 per model per tenant) and runs.
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { type CallOptions, call, items, obj, type RawResponse, simulator, str } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;

async function start(options: Parameters<typeof simulator>[0] = {}) {
  ({ sim, api } = await simulator(options));
}
afterEach(async () => {
  await sim.stop();
});

const MINUTE = 60_000;
const ENDED = ['UPGRADE_STAGING_FAILED', 'UGPRADE_STAGING_FAILED', 'UPGRADE_COMPLETED', 'UPGRADE_FAILED'];
const admin = (method: string, path: string, body?: unknown) =>
  call(sim.url, method, path, { token: null, ...(body === undefined ? {} : { body }) });
const device = async (name: string) => obj(await api('GET', `/v1/inventory/devices/${sim.deviceUid(name)}`));
const run = async (uid: string, token?: string) =>
  obj(await api('GET', `/v1/inventory/devices/upgrades/runs/${uid}`, token === undefined ? {} : { token }));
const asaVersions = async (name: string) =>
  items(await api('GET', `/v1/inventory/devices/asas/${sim.deviceUid(name)}/upgrades/versions`)).map(
    (v) => v.softwareVersion,
  );
const ftdVersions = async (name: string) =>
  items(await api('GET', `/v1/inventory/devices/ftds/${sim.deviceUid(name)}/upgrades/versions`)).map(
    (v) => v.softwareVersion,
  );

async function upgradeAsa(name: string, body: Record<string, unknown>) {
  const response = await api('POST', `/v1/inventory/devices/asas/${sim.deviceUid(name)}/upgrades/trigger`, {
    body,
  });
  return response;
}

/** Advances the clock 5 s at a time until the run ends (or stops at UPGRADE_STAGED when `stagedStops`). */
async function walk(uid: string, options: { token?: string; stagedStops?: boolean } = {}) {
  const seen: string[] = [];
  const started = sim.clock.now();
  for (let i = 0; i < 2_000; i += 1) {
    const status = str((await run(uid, options.token)).upgradeRunStatus);
    if (seen.at(-1) !== status) seen.push(status);
    if (ENDED.includes(status) || (options.stagedStops === true && status === 'UPGRADE_STAGED')) break;
    sim.clock.advance(5_000);
  }
  return { seen, tookMs: sim.clock.now() - started };
}

describe('compatible versions', () => {
  it('depend on the model and the current version', async () => {
    await start();
    expect(await asaVersions('asa-hq-01')).toEqual(['9.20.3']);
    expect(await asaVersions('asa-branch-02')).toEqual(['9.20.3', '9.20.2', '9.19.1', '9.18.4', '9.16.4']);
    // A Firepower 2110 takes 7.6; a 1120 stops at 7.4.
    expect(await ftdVersions('ftd-edge-01')).toEqual(['7.6.0', '7.4.2.1', '7.4.2']);
    expect(await ftdVersions('ftd-edge-02')).toEqual(['7.4.2.1', '7.4.2', '7.4.1', '7.2.8']);
    const many = obj(
      await api('GET', '/v1/inventory/devices/asas/upgrades/versions', {
        query: { deviceUids: [sim.deviceUid('asa-branch-02'), sim.deviceUid('asa-dc-03')] },
      }),
    );
    expect(many.hardwareModel).toBe('Cisco ASA5516-X');
    expect(
      (many.compatibleAsaVersions as { softwareVersion: string }[]).map((v) => v.softwareVersion),
    ).toEqual(['9.20.3', '9.20.2', '9.19.1']);
    const mixed = await api('GET', '/v1/inventory/devices/ftds/upgrades/versions', {
      query: { deviceUids: [sim.deviceUid('ftd-edge-01'), sim.deviceUid('ftd-edge-02')] },
    });
    expect(mixed.status).toBe(400);
    expect(str(obj(mixed).errorMsg)).toContain('one hardware model');
  });
});

describe('an ASA upgrade run', () => {
  it('walks every status in minutes and the HA pair reports the new version after', async () => {
    await start();
    const started = await upgradeAsa('asa-dc-03', { softwareVersion: '9.20(3)', name: 'dc to 9.20.3' });
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect(tx).toMatchObject({ transactionType: 'UPGRADE_ASA', cdoTransactionStatus: 'PENDING' });
    const uid = str(tx.entityUid);
    const first = await run(uid);
    expect(first).toMatchObject({
      name: 'dc to 9.20.3',
      upgradeRunType: 'ASA_DEVICE_UPGRADE',
      stageUpgradeOnly: false,
    });
    const nodes = (first.deviceUpgradeStatuses as { completionStatuses: { nodeType: string }[] }[])[0];
    expect(nodes?.completionStatuses.map((n) => n.nodeType)).toEqual(['HA_PRIMARY', 'HA_SECONDARY']);

    // Each node's progress is the current task's, 0–1: 20 s into an upload of 45–90 s.
    sim.clock.advance(20_000);
    const uploading = (await run(uid)).deviceUpgradeStatuses as {
      completionStatuses: { percentageComplete: number }[];
    }[];
    for (const node of uploading[0]?.completionStatuses ?? []) {
      expect(node.percentageComplete).toBeGreaterThan(0.2);
      expect(node.percentageComplete).toBeLessThan(0.5);
    }
    const { seen, tookMs } = await walk(uid);
    expect(seen).toEqual([
      'UPLOADING_IMAGE',
      'PERFORMING_READINESS_CHECK',
      'UPGRADE_STAGED',
      'PERFORMING_UPGRADE',
      'UPGRADE_COMPLETED',
    ]);
    expect(tookMs + 20_000).toBeGreaterThan(6 * MINUTE);
    expect(tookMs).toBeLessThan(15 * MINUTE);
    const after = await device('asa-dc-03');
    expect(after).toMatchObject({
      softwareVersion: '9.20.3',
      asdmVersion: '7.20(4)',
      asaFailoverState: 'Primary - Active',
      asaFailoverMate: { softwareVersion: '9.20.3', failoverState: 'Secondary - Standby Ready' },
    });
    const done = obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`));
    expect(done.cdoTransactionStatus).toBe('DONE');
    // The device's own command line says so too.
    const cli = obj(
      await api('POST', '/v1/inventory/devices/asas/cli/execute', {
        body: { deviceUids: [sim.deviceUid('asa-dc-03')], script: 'show version' },
      }),
    );
    sim.clock.advance(10_000);
    const results = items(
      await api('GET', '/v1/cli/results', { query: { q: `executionUid:${str(cli.entityUid)}` } }),
    );
    expect(str(results[0]?.result)).toContain('Version 9.20(3)');
  });

  it('stage-only stops at UPGRADE_STAGED; a later upgrade to that version uses the staged image', async () => {
    await start();
    const staged = obj(await upgradeAsa('asa-branch-02', { softwareVersion: '9.20.3', stageUpgrade: true }));
    const first = await walk(str(staged.entityUid), { stagedStops: true });
    expect(first.seen).toEqual(['UPLOADING_IMAGE', 'PERFORMING_READINESS_CHECK', 'UPGRADE_STAGED']);
    sim.clock.advance(30 * MINUTE);
    expect((await run(str(staged.entityUid))).upgradeRunStatus).toBe('UPGRADE_STAGED');
    expect((await device('asa-branch-02')).softwareVersion).toBe('9.14.4');

    // Another version while one is staged: refused unless forced.
    const other = await upgradeAsa('asa-branch-02', { softwareVersion: '9.20.2' });
    expect(other.status).toBe(409);
    expect(str(obj(other).errorMsg)).toContain('forceUpgrade');

    const go = obj(await upgradeAsa('asa-branch-02', { softwareVersion: '9.20.3' }));
    const upload = await run(str(go.entityUid));
    const message = (upload.deviceUpgradeStatuses as { completionStatuses: { message: string }[] }[])[0]
      ?.completionStatuses[0]?.message;
    expect(message).toBe('The image is already staged on the device');
    const second = await walk(str(go.entityUid));
    expect(second.seen.at(-1)).toBe('UPGRADE_COMPLETED');
    expect((await device('asa-branch-02')).softwareVersion).toBe('9.20.3');
  });

  it('refuses a device outside its maintenance window unless told to ignore it', async () => {
    await start();
    const closed = obj(await upgradeAsa('asa-hq-01', { softwareVersion: '9.20.3' }));
    const refused = await walk(str(closed.entityUid));
    expect(refused.seen.at(-1)).toBe('UPGRADE_FAILED');
    expect(str((await run(str(closed.entityUid))).errorMsg)).toContain(
      'Outside the maintenance window: asa-hq-01',
    );
    expect((await device('asa-hq-01')).softwareVersion).toBe('9.20.2');

    const ignoring = obj(
      await upgradeAsa('asa-hq-01', { softwareVersion: '9.20.3', ignoreMaintenanceWindow: true }),
    );
    expect((await walk(str(ignoring.entityUid))).seen.at(-1)).toBe('UPGRADE_COMPLETED');
    expect((await device('asa-hq-01')).softwareVersion).toBe('9.20.3');
  });

  it('fails on request: a readiness check, or one node of an HA pair', async () => {
    await start();
    expect(
      (
        await admin('POST', '/_sim/devices/asa-branch-02/upgrade-fault', {
          kind: 'READINESS_CHECK',
          times: 1,
        })
      ).status,
    ).toBe(200);
    const readiness = obj(await upgradeAsa('asa-branch-02', { softwareVersion: '9.20.3' }));
    expect((await walk(str(readiness.entityUid))).seen.at(-1)).toBe('UPGRADE_STAGING_FAILED');
    expect(str((await run(str(readiness.entityUid))).errorMsg)).toContain(
      'Readiness check failed on asa-branch-02',
    );
    const tx = obj(await api('GET', `/v1/transactions/${str(readiness.transactionUid)}`));
    expect(tx.cdoTransactionStatus).toBe('ERROR');
    // The fault was for one run: the next one passes.
    const retry = obj(await upgradeAsa('asa-branch-02', { softwareVersion: '9.20.3' }));
    expect((await walk(str(retry.entityUid))).seen.at(-1)).toBe('UPGRADE_COMPLETED');

    await admin('POST', '/_sim/devices/asa-dc-03/upgrade-fault', { kind: 'NODE', node: 'HA_PRIMARY' });
    const ha = obj(await upgradeAsa('asa-dc-03', { softwareVersion: '9.20.3' }));
    expect((await walk(str(ha.entityUid))).seen.at(-1)).toBe('UPGRADE_FAILED');
    // The secondary was upgraded first; the primary failed and still runs the old version.
    expect(await device('asa-dc-03')).toMatchObject({
      softwareVersion: '9.18.4',
      asaFailoverState: 'Primary - Failed',
      asaFailoverMate: { softwareVersion: '9.20.3', failoverState: 'Secondary - Active' },
    });
  });

  it('deleting a run in progress lets a duplicate upgrade start', async () => {
    await start();
    const first = obj(await upgradeAsa('asa-branch-02', { softwareVersion: '9.20.3', name: 'branch' }));
    expect((await upgradeAsa('asa-branch-02', { softwareVersion: '9.20.3' })).status).toBe(409);
    const taken = await upgradeAsa('asa-dc-03', { softwareVersion: '9.20.3', name: 'BRANCH' });
    expect(taken.status).toBe(400);
    const renamed = obj(
      await api('PATCH', `/v1/inventory/devices/upgrades/runs/${str(first.entityUid)}`, {
        body: { name: 'branch-renamed' },
      }),
    );
    expect(renamed).toMatchObject({ count: 1, items: [{ name: 'branch-renamed' }] });

    expect((await api('DELETE', `/v1/inventory/devices/upgrades/runs/${str(first.entityUid)}`)).status).toBe(
      204,
    );
    expect((await api('GET', `/v1/inventory/devices/upgrades/runs/${str(first.entityUid)}`)).status).toBe(
      404,
    );
    const duplicate = await upgradeAsa('asa-branch-02', { softwareVersion: '9.20.3' });
    expect(duplicate.status).toBe(202);
    const listed = items(await api('GET', '/v1/inventory/devices/upgrades/runs'));
    expect(listed.map((r) => r.uid)).toEqual([str(obj(duplicate).entityUid)]);
    // The deleted run's work goes on: its transaction still ends.
    sim.clock.advance(20 * MINUTE);
    expect(obj(await api('GET', `/v1/transactions/${str(first.transactionUid)}`)).cdoTransactionStatus).toBe(
      'DONE',
    );
  });
});

describe('an FTD upgrade run', () => {
  it('takes a package for its model; SCC misspells the staging failure; the cache recomputes a changed device', async () => {
    await start();
    const packages = items(
      await api('GET', `/v1/inventory/devices/ftds/${sim.deviceUid('ftd-edge-02')}/upgrades/versions`),
    );
    const p742 = packages.find((p) => p.softwareVersion === '7.4.2');
    expect(str(p742?.filename)).toBe('Cisco_FTD_SSP_FP1K_Upgrade-7.4.2-172.sh.REL.tar');
    const wrongModel = await api(
      'POST',
      `/v1/inventory/devices/ftds/${sim.deviceUid('ftd-edge-01')}/upgrades/trigger`,
      {
        body: { upgradePackageUid: p742?.upgradePackageUid },
      },
    );
    expect(wrongModel.status).toBe(422);

    await admin('POST', '/_sim/devices/ftd-edge-02/upgrade-fault', { kind: 'READINESS_CHECK', times: 1 });
    const trigger = () =>
      api('POST', '/v1/inventory/devices/ftds/upgrades/trigger', {
        body: { deviceUids: [sim.deviceUid('ftd-edge-02')], upgradePackageUid: p742?.upgradePackageUid },
      });
    const failing = obj(await trigger());
    expect(failing.transactionType).toBe('UPGRADE_FTD');
    expect((await walk(str(failing.entityUid))).seen.at(-1)).toBe('UGPRADE_STAGING_FAILED');

    const ok = obj(await trigger());
    const walked = await walk(str(ok.entityUid));
    expect(walked.seen.at(-1)).toBe('UPGRADE_COMPLETED');
    expect(walked.tookMs).toBeGreaterThan(10 * MINUTE);
    expect((await device('ftd-edge-02')).softwareVersion).toBe('7.4.2');

    // Its software changed: the multi-device read computes it first (202), then answers.
    const read = () =>
      api('GET', '/v1/inventory/devices/ftds/upgrades/versions', {
        query: { deviceUids: [sim.deviceUid('ftd-edge-02')] },
      });
    const computing = await read();
    expect(computing.status).toBe(202);
    expect(obj(computing).transactionType).toBe('UPGRADE_FTD_CACHE');
    sim.clock.advance(20_000);
    const answered = obj(await read());
    expect(
      (answered.compatibleFtdVersions as { softwareVersion: string }[]).map((v) => v.softwareVersion),
    ).toEqual(['7.4.2.1']);
  });
});

describe('MSP upgrades across tenants', () => {
  it('lists ASA versions with the devices of each tenant that can take them', async () => {
    await start();
    const body = obj(
      await api('GET', '/v1/msp/inventory/devices/asas/upgrades/versions', {
        query: {
          deviceUids: [
            sim.deviceUid('nw-asa-hq'),
            sim.deviceUid('nw-asa-branch'),
            sim.deviceUid('globex-asa-01'),
          ],
        },
      }),
    );
    const versions = body.compatibleVersions as {
      softwareVersion: string;
      compatibleDevices: { name: string; managedTenantName: string }[];
    }[];
    expect(versions.map((v) => v.softwareVersion)).toEqual(['9.20.3', '9.20.2', '9.19.1', '9.18.4']);
    expect(versions[0]?.compatibleDevices.map((d) => `${d.managedTenantName}/${d.name}`).sort()).toEqual([
      'globex-apj/globex-asa-01',
      'northwind-us/nw-asa-branch',
      'northwind-us/nw-asa-hq',
    ]);
    expect(versions.at(-1)?.compatibleDevices.map((d) => d.name)).toEqual(['nw-asa-branch']);
    const ftd = await api('GET', '/v1/msp/inventory/devices/asas/upgrades/versions', {
      query: { deviceUids: [sim.deviceUid('nw-ftd-edge')] },
    });
    expect(ftd.status).toBe(422);
  });

  it('upgrades ASAs of two tenants as one MSP run over one run per tenant', async () => {
    await start();
    const started = await api('POST', '/v1/msp/inventory/devices/asas/upgrades/trigger', {
      body: {
        deviceUids: [sim.deviceUid('nw-asa-hq'), sim.deviceUid('globex-asa-01')],
        softwareVersion: '9.20.3',
        name: 'spring',
      },
    });
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect(tx.transactionType).toBe('MSP_UPGRADE_ASAS');
    const mspUid = str(tx.entityUid);
    const mspRun = async () => obj(await api('GET', `/v1/msp/inventory/devices/upgrades/runs/${mspUid}`));
    expect(await mspRun()).toMatchObject({
      name: 'spring',
      softwareVersion: '9.20.3',
      upgradeRunStatus: 'UPLOADING_IMAGE',
    });
    // The tenant sees its own part with its own token.
    const northwind = sim.mintTenantToken(sim.tenantUid('northwind-us'));
    const own = items(await api('GET', '/v1/inventory/devices/upgrades/runs', { token: northwind }));
    expect(own).toHaveLength(1);
    expect(own[0]?.deviceUids).toEqual([sim.deviceUid('nw-asa-hq')]);

    sim.clock.advance(20 * MINUTE);
    const done = await mspRun();
    expect(done.upgradeRunStatus).toBe('UPGRADE_COMPLETED');
    expect((done.metadata as { devices: unknown[] }).devices).toHaveLength(2);
    expect(obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`)).cdoTransactionStatus).toBe(
      'DONE',
    );
    expect(items(await api('GET', '/v1/msp/inventory/devices/upgrades/runs')).map((r) => r.uid)).toEqual([
      mspUid,
    ]);
    expect(obj(await api('GET', '/v1/msp/inventory/devices/upgrades/runs/attribute-values'))).toMatchObject({
      upgradeRunStatuses: ['UPGRADE_COMPLETED'],
      upgradeRunTypes: ['ASA_DEVICE_UPGRADE'],
    });
    expect((await api('DELETE', `/v1/msp/inventory/devices/upgrades/runs/${mspUid}`)).status).toBe(204);
    expect((await api('GET', `/v1/msp/inventory/devices/upgrades/runs/${mspUid}`)).status).toBe(404);
  });

  it('refuses more than 50 ASAs of one model in one tenant', async () => {
    await start({ scale: { tenants: 1, devices: 70 } });
    const asas = items(
      await api('GET', '/v1/msp/inventory/devices', {
        query: { q: 'managedTenantName:bench-001 AND deviceType:ASA', limit: 200 },
      }),
    );
    expect(asas.length).toBeGreaterThan(50);
    const refused = await api('POST', '/v1/msp/inventory/devices/asas/upgrades/trigger', {
      body: { deviceUids: asas.map((d) => str(d.uid)), softwareVersion: '9.22.1' },
    });
    expect(refused.status).toBe(400);
    expect(str(obj(refused).errorMsg)).toContain('at most 50 devices per hardware model per managed tenant');
  });

  it('calculates FTD versions across tenants, then answers them by UID', async () => {
    await start();
    const started = obj(
      await api('POST', '/v1/msp/inventory/devices/ftds/upgrades/versions', {
        body: { deviceUids: [sim.deviceUid('nw-ftd-edge'), sim.deviceUid('hooli-ftd-01')] },
      }),
    );
    expect(started.transactionType).toBe('MSP_GET_COMPATIBLE_FTD_UPGRADE_PACKAGES');
    const read = async () =>
      obj(await api('GET', `/v1/msp/inventory/devices/ftds/upgrades/versions/${str(started.entityUid)}`));
    expect((await read()).status).toBe('IN_PROGRESS');
    sim.clock.advance(10_000);
    const done = await read();
    expect(done.status).toBe('DONE');
    const versions = done.compatibleVersions as {
      softwareVersion: string;
      compatibleDevices: { name: string }[];
    }[];
    expect(versions.find((v) => v.softwareVersion === '7.2.8')?.compatibleDevices.map((d) => d.name)).toEqual(
      ['hooli-ftd-01'],
    );
    expect(versions.find((v) => v.softwareVersion === '7.4.2')?.compatibleDevices).toHaveLength(2);
  });
});
