// Secure Client: packages on ASAs and FTDs (the FTD rules: 404 for anything but a cdFMC-managed FTD, an
// empty page without an RA VPN policy, parsed or omitted version/OS/architecture), compatible versions
// for a set of devices, upgrade triggers that name ineligible devices, and runs walking to each end.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { type CallOptions, items, obj, type RawResponse, simulator, str } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;

beforeEach(async () => {
  ({ sim, api } = await simulator());
});
afterEach(async () => {
  await sim.stop();
});

const UNKNOWN = '6e3492c6-083a-4ead-9da9-cd2db32a965d';
const asaPackages = (device: string) =>
  api('GET', `/v1/inventory/devices/asas/${device}/secure-client/packages`);
const ftdPackages = (device: string, query: CallOptions['query'] = {}) =>
  api('GET', `/v1/inventory/devices/ftds/${device}/secure-client/packages`, { query });
const versions = (kind: 'asas' | 'ftds', deviceUids: readonly string[]) =>
  api('GET', `/v1/inventory/devices/${kind}/secure-client/upgrades/versions`, { query: { deviceUids } });
const versionList = async (kind: 'asas' | 'ftds', names: string[]) =>
  items(
    await versions(
      kind,
      names.map((n) => sim.deviceUid(n)),
    ),
  ).map((v) => v.version);

describe('Secure Client packages', () => {
  it('on an ASA: webdeploy packages with version, OS and architecture parsed from the filename', async () => {
    const packages = items(await asaPackages(sim.deviceUid('asa-hq-01')));
    expect(packages).toHaveLength(3);
    expect(packages[0]).toMatchObject({
      deviceUid: sim.deviceUid('asa-hq-01'),
      fileName: 'cisco-secure-client-win-5.0.05040-webdeploy-k9.pkg',
      version: '5.0.05040',
      os: 'WINDOWS',
      cpuArchitecture: 'X86_64',
    });
    const one = await api(
      'GET',
      `/v1/inventory/devices/asas/${sim.deviceUid('asa-hq-01')}/secure-client/packages/${str(packages[1]?.uid)}`,
    );
    expect(obj(one)).toMatchObject({ os: 'MACOS', cpuArchitecture: 'UNIVERSAL' });
  });

  it('on an FTD: the policy packages; an unparseable filename omits version, OS and architecture', async () => {
    const ftd = sim.deviceUid('ftd-edge-01');
    const packages = items(await ftdPackages(ftd));
    expect(packages).toHaveLength(3);
    const odd = packages.find((p) => p.fileName === 'acme-custom-vpn-client-build7.pkg');
    expect(odd).toBeDefined();
    expect(Object.keys(odd ?? {}).sort()).toEqual(['deviceUid', 'fileName', 'uid']);
    const single = obj(
      await api('GET', `/v1/inventory/devices/ftds/${ftd}/secure-client/packages/${str(odd?.uid)}`),
    );
    expect(single).not.toHaveProperty('version');
    expect(single).not.toHaveProperty('os');
  });

  it('on an FTD without an RA VPN policy: an empty page', async () => {
    const response = await ftdPackages(sim.deviceUid('ftd-lab-03'));
    expect(response.status).toBe(200);
    expect(obj(response)).toEqual({ count: 0, limit: 50, offset: 0, items: [] });
  });

  it('404 when the device is unknown or not a cdFMC-managed FTD, or the package is not on its policy', async () => {
    expect((await ftdPackages(UNKNOWN)).status).toBe(404);
    expect((await ftdPackages(sim.deviceUid('asa-hq-01'))).status).toBe(404);
    expect((await asaPackages(sim.deviceUid('ftd-edge-01'))).status).toBe(404);
    const other = items(await ftdPackages(sim.deviceUid('ftd-edge-01')))[0];
    const response = await api(
      'GET',
      `/v1/inventory/devices/ftds/${sim.deviceUid('ftd-edge-02')}/secure-client/packages/${str(other?.uid)}`,
    );
    expect(response.status).toBe(404);
    expect(obj(response).errorCode).toBe('NOT_FOUND');
    expect(
      (
        await api(
          'GET',
          `/v1/inventory/devices/asas/${sim.deviceUid('asa-hq-01')}/secure-client/packages/${UNKNOWN}`,
        )
      ).status,
    ).toBe(404);
  });

  it('400 for a malformed device or package UUID, and for limit/offset out of range', async () => {
    expect((await ftdPackages('not-a-uuid')).status).toBe(400);
    const bad = await api(
      'GET',
      `/v1/inventory/devices/ftds/${sim.deviceUid('ftd-edge-01')}/secure-client/packages/nope`,
    );
    expect(bad.status).toBe(400);
    expect(obj(bad).details).toHaveProperty('packageUid');
    expect(
      (await api('GET', `/v1/inventory/devices/asas/bad/secure-client/packages/${UNKNOWN}`)).status,
    ).toBe(400);
    expect((await ftdPackages(sim.deviceUid('ftd-edge-01'), { limit: 201 })).status).toBe(400);
    expect((await ftdPackages(sim.deviceUid('ftd-edge-01'), { offset: -1 })).status).toBe(400);
  });
});

describe('compatible Secure Client versions', () => {
  it('are the catalogue versions every device of the set can take, newest first', async () => {
    expect(await versionList('asas', ['asa-hq-01'])).toEqual([
      '5.1.15.287',
      '5.1.8.105',
      '5.1.2.42',
      '5.0.05040',
      '4.10.08029',
    ]);
    expect(await versionList('asas', ['asa-hq-01', 'asa-branch-02'])).toEqual(['5.0.05040', '4.10.08029']);
    expect(await versionList('ftds', ['ftd-edge-01', 'ftd-edge-02'])).toEqual([
      '5.1.8.105',
      '5.1.2.42',
      '5.0.05040',
      '4.10.08029',
    ]);
    expect(await versionList('ftds', ['ftd-lab-03'])).toEqual([]);
    const one = items(await versions('asas', [sim.deviceUid('asa-hq-01')]))[0];
    expect(one?.platforms).toContainEqual({ os: 'WINDOWS', cpuArchitecture: 'ARM64' });
  });

  it('accept the device list as repeated or comma-separated deviceUids', async () => {
    const joined = [sim.deviceUid('asa-hq-01'), sim.deviceUid('asa-branch-02')].join(',');
    expect(items(await versions('asas', [joined])).map((v) => v.version)).toEqual([
      '5.0.05040',
      '4.10.08029',
    ]);
  });

  it.each([
    ['none', [] as string[]],
    ['51', Array.from({ length: 51 }, (_, i) => `6e3492c6-083a-4ead-9da9-${String(i).padStart(12, '0')}`)],
    ['a malformed one', ['abc']],
    ['duplicates', [UNKNOWN, UNKNOWN]],
  ])('answer 400 INVALID_INPUT for %s', async (_what, uids) => {
    const response = await versions('asas', uids);
    expect(response.status).toBe(400);
    expect(obj(response).details).toHaveProperty('deviceUids');
  });

  it('answer 400 naming unknown devices and devices of the other kind', async () => {
    const ftd = sim.deviceUid('ftd-edge-01');
    const response = await versions('asas', [sim.deviceUid('asa-hq-01'), UNKNOWN, ftd]);
    expect(response.status).toBe(400);
    expect(Object.keys(obj(response).details as object).sort()).toEqual([UNKNOWN, ftd].sort());
  });
});

const trigger = (kind: 'asas' | 'ftds', body: Record<string, unknown>, token?: string) =>
  api(
    'POST',
    `/v1/inventory/devices/${kind}/secure-client/upgrades`,
    token === undefined ? { body } : { body, token },
  );
const run = async (uid: string) =>
  obj(await api('GET', `/v1/inventory/devices/secure-client/upgrades/runs/${uid}`));

/** Advances a second at a time until the run ends; returns the statuses it went through, in order. */
async function walk(
  runUid: string,
): Promise<{ statuses: string[]; progress: number[]; final: Record<string, unknown> }> {
  const statuses: string[] = [];
  const progress: number[] = [];
  for (let i = 0; i < 600; i += 1) {
    const current = await run(runUid);
    const status = str(current.upgradeRunStatus);
    if (statuses.at(-1) !== status) statuses.push(status);
    if (typeof current.percentageComplete === 'number') progress.push(current.percentageComplete);
    if (['DONE', 'DONE_WITH_DEVICE_WARNINGS', 'DONE_WITH_DEVICE_ERRORS', 'ERROR'].includes(status)) {
      return { statuses, progress, final: current };
    }
    sim.clock.advance(1_000);
  }
  throw new Error('the run did not finish in 10 simulated minutes');
}

const ASA_WALK = [
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
];

describe('Secure Client upgrades', () => {
  it('walk every ASA step to DONE, with per-step progress, a transaction and new packages on the device', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    const started = await trigger('asas', { deviceUids: [hq], version: '5.1.15.287', name: 'hq-upgrade' });
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect(tx).toMatchObject({
      transactionType: 'UPGRADE_SECURE_CLIENT_PACKAGES',
      cdoTransactionStatus: 'PENDING',
    });
    const runUid = str(tx.entityUid);
    expect(await run(runUid)).toMatchObject({
      name: 'hq-upgrade',
      upgradeRunType: 'ASA_SECURE_CLIENT_UPGRADE',
      transactionUid: tx.transactionUid,
      username: 'super.admin@acme-msp.example',
    });

    const { statuses, progress, final } = await walk(runUid);
    expect(statuses).toEqual([...ASA_WALK, 'DONE']);
    expect(progress.every((p) => p >= 0 && p <= 1)).toBe(true);
    expect(progress.some((p) => p > 0 && p < 1)).toBe(true);
    expect(final).toMatchObject({
      percentageComplete: 1,
      devices: [{ uid: hq, name: 'asa-hq-01', status: 'SUCCESS' }],
    });
    const done = await api('GET', `/v1/transactions/${str(tx.transactionUid)}`);
    expect(done.status).toBe(200);
    expect(obj(done).cdoTransactionStatus).toBe('DONE');
    const files = items(await asaPackages(hq)).map((p) => p.fileName);
    expect(files).toContain('cisco-secure-client-win-arm64-5.1.15.287-webdeploy-k9.pkg');
    expect(files.some((f) => String(f).includes('5.0.05040'))).toBe(false);
  });

  it('end DONE_WITH_DEVICE_WARNINGS when a device cannot clean up its old images (asa-dc-03), keeping them', async () => {
    const dc = sim.deviceUid('asa-dc-03');
    const tx = obj(await trigger('asas', { deviceUids: [dc], version: '5.1.15.287' }));
    const { final } = await walk(str(tx.entityUid));
    expect(final.upgradeRunStatus).toBe('DONE_WITH_DEVICE_WARNINGS');
    expect(final.devices).toEqual([
      {
        uid: dc,
        name: 'asa-dc-03',
        status: 'CLEANUP_FAILED',
        errorMsg: expect.stringContaining('file in use'),
      },
    ]);
    const files = items(await asaPackages(dc)).map((p) => String(p.fileName));
    expect(files.some((f) => f.includes('5.1.2.42'))).toBe(true);
    expect(files.some((f) => f.includes('5.1.15.287'))).toBe(true);
  });

  it('end DONE_WITH_DEVICE_ERRORS when some devices fail (asa-branch-02)', async () => {
    const tx = obj(
      await trigger('asas', {
        deviceUids: [sim.deviceUid('asa-hq-01'), sim.deviceUid('asa-branch-02')],
        version: '5.0.05040',
      }),
    );
    const { final } = await walk(str(tx.entityUid));
    expect(final.upgradeRunStatus).toBe('DONE_WITH_DEVICE_ERRORS');
    expect(final.devices).toEqual([
      { uid: sim.deviceUid('asa-hq-01'), name: 'asa-hq-01', status: 'SUCCESS' },
      {
        uid: sim.deviceUid('asa-branch-02'),
        name: 'asa-branch-02',
        status: 'FAILED',
        errorMsg: 'No CLI result received for device',
      },
    ]);
    expect(obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`)).cdoTransactionStatus).toBe(
      'DONE',
    );
  });

  it('end in ERROR when every device fails, and the transaction ends in ERROR too', async () => {
    const tx = obj(
      await trigger('asas', { deviceUids: [sim.deviceUid('asa-branch-02')], version: '5.0.05040' }),
    );
    const { statuses, final } = await walk(str(tx.entityUid));
    expect(statuses.at(-2)).toBe('CHECKING_IMAGES_UPLOAD_RESULTS');
    expect(final).toMatchObject({
      upgradeRunStatus: 'ERROR',
      percentageComplete: null,
      errorMsg: 'All devices failed to upgrade',
    });
    const finished = obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`));
    expect(finished).toMatchObject({
      cdoTransactionStatus: 'ERROR',
      errorMessage: 'All devices failed to upgrade',
    });
  });

  it('end in ERROR at the upload when the run name contains "fail"', async () => {
    const tx = obj(
      await trigger('ftds', {
        deviceUids: [sim.deviceUid('ftd-edge-01')],
        version: '5.1.15.287',
        name: 'fail-on-purpose',
      }),
    );
    const { statuses, final } = await walk(str(tx.entityUid));
    expect(statuses).toEqual([
      'VALIDATING_INPUTS',
      'FETCHING_CURRENTLY_INSTALLED_PACKAGES',
      'VALIDATING_RA_VPN_SLOT_CONFLICTS',
      'UPLOADING_IMAGES',
      'ERROR',
    ]);
    expect(final.errorMsg).toContain('Uploading');
  });

  it('walk the FTD steps (no DNS check, nothing written to memory) and only upload the chosen platforms', async () => {
    const ftd = sim.deviceUid('ftd-edge-01');
    const tx = obj(
      await trigger('ftds', {
        deviceUids: [ftd],
        version: '5.1.15.287',
        platforms: [{ os: 'LINUX', cpuArchitecture: 'ARM64' }],
      }),
    );
    const { statuses, final } = await walk(str(tx.entityUid));
    expect(statuses).toEqual([
      ...ASA_WALK.filter((s) => !s.includes('DNS') && !/WRIT(E|ING)_/.test(s)),
      'DONE',
    ]);
    expect(final.upgradeRunType).toBe('FTD_SECURE_CLIENT_UPGRADE');
    const files = items(await ftdPackages(ftd)).map((p) => p.fileName);
    expect(files).toEqual([
      'acme-custom-vpn-client-build7.pkg',
      'cisco-secure-client-linux-arm64-5.1.15.287-webdeploy-k9.pkg',
    ]);
  });

  it('refuse ineligible devices with 400 and details naming each of them', async () => {
    const branch = sim.deviceUid('asa-branch-02');
    const response = await trigger('asas', {
      deviceUids: [sim.deviceUid('asa-hq-01'), branch],
      version: '5.1.15.287',
    });
    expect(response.status).toBe(400);
    const details = obj(response).details as Record<string, Record<string, unknown>>;
    expect(Object.keys(details)).toEqual([branch]);
    expect(details[branch]).toMatchObject({ name: 'asa-branch-02', reason: expect.stringContaining('9.18') });
    expect(str(obj(response).errorMsg)).toContain('asa-branch-02');

    const lab = await trigger('ftds', { deviceUids: [sim.deviceUid('ftd-lab-03')], version: '5.0.05040' });
    expect(lab.status).toBe(400);
    expect(JSON.stringify(obj(lab).details)).toContain('remote-access VPN policy');
    const wrongKind = await trigger('asas', {
      deviceUids: [sim.deviceUid('ftd-edge-01')],
      version: '5.0.05040',
    });
    expect(Object.keys(obj(wrongKind).details as object)).toEqual([sim.deviceUid('ftd-edge-01')]);
  });

  it('refuse a device that is already being upgraded', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    expect((await trigger('asas', { deviceUids: [hq], version: '5.1.15.287' })).status).toBe(202);
    const again = await trigger('asas', { deviceUids: [hq], version: '5.1.8.105' });
    expect(again.status).toBe(400);
    expect(JSON.stringify(obj(again).details)).toContain('already in a running');
  });

  it('refuse an unknown version, unavailable platforms, bad device lists and read-only users', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    expect(obj(await trigger('asas', { deviceUids: [hq], version: '9.9.9' })).details).toHaveProperty(
      'version',
    );
    const platform = await trigger('asas', {
      deviceUids: [hq],
      version: '5.0.05040',
      platforms: [{ os: 'WINDOWS', cpuArchitecture: 'ARM64' }],
    });
    expect(obj(platform).details).toHaveProperty('platforms');
    expect(obj(await trigger('asas', { deviceUids: [], version: '5.0.05040' })).details).toHaveProperty(
      'deviceUids',
    );
    expect(obj(await trigger('asas', { deviceUids: [hq, hq], version: '5.0.05040' })).details).toHaveProperty(
      'deviceUids',
    );
    expect((await trigger('asas', { deviceUids: [hq], version: '5.0.05040' }, 'sim-read-only')).status).toBe(
      403,
    );
  });
});

describe('upgrade runs', () => {
  it('are listed newest first, searchable and sortable, with seeded history', async () => {
    const all = items(await api('GET', '/v1/inventory/devices/secure-client/upgrades/runs'));
    expect(all.map((r) => r.name)).toEqual([
      'ftd-canary',
      'ftd-vpn-5-1',
      'branch-rollout',
      'quarterly-vpn-refresh',
    ]);
    const ftdRuns = items(
      await api('GET', '/v1/inventory/devices/secure-client/upgrades/runs', {
        query: { q: 'upgradeRunType:FTD_SECURE_CLIENT_UPGRADE', sort: 'name:ASC' },
      }),
    );
    expect(ftdRuns.map((r) => r.name)).toEqual(['ftd-canary', 'ftd-vpn-5-1']);
    expect((await api('GET', `/v1/inventory/devices/secure-client/upgrades/runs/${UNKNOWN}`)).status).toBe(
      404,
    );
  });

  it('report distinct statuses, types and users as attribute values', async () => {
    const values = obj(
      await api('GET', '/v1/inventory/devices/secure-client/upgrades/runs/attribute-values'),
    );
    expect(values).toEqual({
      upgradeRunStatuses: ['ERROR', 'DONE_WITH_DEVICE_ERRORS', 'DONE_WITH_DEVICE_WARNINGS', 'DONE'],
      upgradeRunTypes: ['FTD_SECURE_CLIENT_UPGRADE', 'ASA_SECURE_CLIENT_UPGRADE'],
      users: ['super.admin@acme-msp.example', 'alice.nguyen@acme-msp.example', 'ops.admin@acme-msp.example'],
    });
    await trigger('asas', { deviceUids: [sim.deviceUid('asa-hq-01')], version: '5.0.05040' }, 'sim-admin');
    const after = obj(await api('GET', '/v1/inventory/devices/secure-client/upgrades/runs/attribute-values'));
    expect(after.upgradeRunStatuses).toContain('VALIDATING_INPUTS');
  });
});
