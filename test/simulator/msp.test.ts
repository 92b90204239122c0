// The MSP portal's reach (scc-openapi-msp.yaml): devices across managed tenants (with their tenant), their
// Secure Client packages, the asynchronous cross-tenant compatibility calculation (an intersection over
// devices and tenants), cross-tenant upgrades (one run per tenant, aggregated), revoking a tenant
// (asynchronous, the tenant survives), and the API-only users the human-user list leaves out.
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
const DEVICES = '/v1/msp/inventory/devices';
const VERSIONS = '/v1/msp/inventory/devices/asas/secure-client/upgrades/versions';
const COMPATIBILITY = '/v1/msp/inventory/devices/secure-client/upgrades/versions';
const UPGRADES = '/v1/msp/inventory/devices/asas/secure-client/upgrades';
const RUNS = '/v1/msp/inventory/devices/secure-client/upgrades/runs';
const uids = (...names: string[]) => names.map((n) => sim.deviceUid(n));
const tenantToken = (name: string) => sim.mintTenantToken(sim.tenantUid(name));
const transaction = async (uid: unknown, token?: string) =>
  obj(await api('GET', `/v1/transactions/${str(uid)}`, token === undefined ? {} : { token }));

describe('MSP devices', () => {
  it('lists the devices of every managed tenant with the tenant they belong to', async () => {
    const response = await api('GET', DEVICES, { query: { limit: 200, sort: 'name:ASC' } });
    expect(response.status).toBe(200);
    const names = items(response).map((d) => d.name);
    expect(names).toContain('nw-asa-hq');
    expect(names).toContain('hooli-ftd-01');
    // Neither the portal's own inventory nor a tenant outside the portal.
    expect(names).not.toContain('asa-hq-01');
    expect(names).not.toContain('stark-asa-01');
    expect(obj(response).count).toBe(10);
    expect(names).toEqual([...names].sort());
    const hq = items(response).find((d) => d.name === 'nw-asa-hq');
    expect(hq).toMatchObject({
      uid: sim.deviceUid('nw-asa-hq'),
      deviceType: 'ASA',
      softwareVersion: '9.20.2',
      connectivityState: 'ONLINE',
      managedTenantUid: sim.tenantUid('northwind-us'),
      managedTenantName: 'northwind-us',
      managedTenantDisplayName: 'Northwind Traders (US)',
      managedTenantRegion: 'us1',
      tenantUid: sim.tenantUid('northwind-us'),
    });
  });

  it('searches with Lucene and pages like other lists', async () => {
    const found = items(
      await api('GET', DEVICES, { query: { q: 'managedTenantName:hooli* AND deviceType:ASA' } }),
    );
    expect(found.map((d) => d.name)).toEqual(['hooli-asa-01']);
    const page = obj(await api('GET', DEVICES, { query: { limit: 3, offset: 9 } }));
    expect(page).toMatchObject({ count: 10, limit: 3, offset: 9 });
    expect(page.items).toHaveLength(1);
    const refused = await api('GET', DEVICES, { query: { q: 'colour:red' } });
    expect(refused.status).toBe(400);
    expect(obj(refused).details).toMatchObject({ q: { field: 'colour' } });
  });

  it('reads one device, and 404s a device that is not in a managed tenant', async () => {
    const one = await api('GET', `${DEVICES}/${sim.deviceUid('globex-asa-02')}`);
    expect(obj(one)).toMatchObject({ name: 'globex-asa-02', connectivityState: 'UNREACHABLE' });
    for (const uid of [UNKNOWN, sim.deviceUid('asa-hq-01'), sim.deviceUid('stark-asa-01')]) {
      const missing = await api('GET', `${DEVICES}/${uid}`);
      expect(missing.status).toBe(404);
      expect(obj(missing).errorCode).toBe('NOT_FOUND');
    }
    expect((await api('GET', `${DEVICES}/not-a-uuid`)).status).toBe(400);
  });

  it('lists the Secure Client packages of a managed ASA or FTD, searchable', async () => {
    const packages = items(await api('GET', `${DEVICES}/${sim.deviceUid('nw-asa-hq')}/packages`));
    expect(packages).toHaveLength(2);
    expect(packages[0]).toMatchObject({
      deviceUid: sim.deviceUid('nw-asa-hq'),
      fileName: 'cisco-secure-client-win-5.0.05040-webdeploy-k9.pkg',
      version: '5.0.05040',
      os: 'WINDOWS',
      cpuArchitecture: 'X86_64',
    });
    const macs = items(
      await api('GET', `${DEVICES}/${sim.deviceUid('nw-asa-hq')}/packages`, { query: { q: 'os:MACOS' } }),
    );
    expect(macs.map((p) => p.os)).toEqual(['MACOS']);
    const ftd = items(await api('GET', `${DEVICES}/${sim.deviceUid('nw-ftd-edge')}/packages`));
    expect(ftd.map((p) => p.version)).toEqual(['5.1.8.105']);
    expect((await api('GET', `${DEVICES}/${UNKNOWN}/packages`)).status).toBe(404);
  });

  it('needs the MSP portal: 403 with a tenant token, 401 without a token', async () => {
    const token = tenantToken('northwind-us');
    expect((await api('GET', DEVICES, { token })).status).toBe(403);
    expect((await api('GET', `${DEVICES}/${sim.deviceUid('nw-asa-hq')}/packages`, { token })).status).toBe(
      403,
    );
    expect((await api('GET', DEVICES, { token: null })).status).toBe(401);
    expect((await api('GET', DEVICES, { token: 'sim-read-only' })).status).toBe(200);
    // The tenant's own token sees its devices in its own inventory.
    const own = items(await api('GET', '/v1/inventory/devices', { token }));
    expect(own.map((d) => d.name).sort()).toEqual(['nw-asa-branch', 'nw-asa-hq', 'nw-ftd-edge']);
  });
});

describe('MSP compatible Secure Client versions', () => {
  const calculate = (deviceUids: unknown, token?: string) =>
    api('POST', VERSIONS, { body: { deviceUids }, ...(token === undefined ? {} : { token }) });
  const result = async (uid: unknown) => obj(await api('GET', `${COMPATIBILITY}/${str(uid)}`));

  it('is calculated asynchronously and read by the compatibility-info UID of the entity URL', async () => {
    const started = await calculate(uids('nw-asa-hq', 'globex-asa-01'));
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect(tx).toMatchObject({
      transactionType: 'MSP_GET_COMPATIBLE_SECURE_CLIENT_UPGRADE_PACKAGES',
      cdoTransactionStatus: 'PENDING',
    });
    expect(str(tx.entityUrl)).toMatch(new RegExp(`${COMPATIBILITY}/${str(tx.entityUid)}$`));
    expect(await result(tx.entityUid)).toEqual({ uid: tx.entityUid, status: 'IN_PROGRESS' });
    sim.clock.advance(10_000);
    expect((await transaction(tx.transactionUid)).cdoTransactionStatus).toBe('DONE');
    const done = await result(tx.entityUid);
    expect(done.status).toBe('DONE');
    // globex-apj does not offer 5.1.15.287 although both devices could run it.
    expect((done.compatibleVersions as { version: string }[]).map((v) => v.version)).toEqual([
      '5.1.8.105',
      '5.1.2.42',
      '5.0.05040',
      '4.10.08029',
    ]);
  });

  it('intersects the platforms every tenant offers and the versions every device can run', async () => {
    const tx = obj(await calculate(uids('nw-asa-hq', 'nw-asa-branch', 'hooli-asa-01')));
    sim.clock.advance(10_000);
    const done = await result(tx.entityUid);
    const versions = done.compatibleVersions as { version: string; platforms: { os: string }[] }[];
    // nw-asa-branch runs 9.16.4: nothing that needs 9.18.
    expect(versions.map((v) => v.version)).not.toContain('5.1.15.287');
    // hooli-uae offers no ARM64 packages.
    expect(versions.find((v) => v.version === '5.1.8.105')?.platforms).toEqual([
      { os: 'WINDOWS', cpuArchitecture: 'X86_64' },
      { os: 'MACOS', cpuArchitecture: 'UNIVERSAL' },
      { os: 'LINUX', cpuArchitecture: 'X86_64' },
    ]);
  });

  it('ends in ERROR naming each device that fails validation in its tenant', async () => {
    const tx = obj(
      await calculate(uids('nw-asa-hq', 'globex-asa-02', 'initech-asa-01', 'initech-asa-02', 'nw-ftd-edge')),
    );
    sim.clock.advance(10_000);
    const finished = await transaction(tx.transactionUid);
    expect(finished.cdoTransactionStatus).toBe('ERROR');
    expect(Object.keys(finished.errorDetails as object)).toHaveLength(4);
    const failed = await result(tx.entityUid);
    expect(failed.status).toBe('ERROR');
    expect(failed.compatibleVersions).toBeUndefined();
    for (const text of [
      'globex-asa-02',
      'UNREACHABLE',
      'NOT_SYNCED',
      'ASA_RA_VPN_HEADEND',
      'CDFMC_MANAGED_FTD, not an ASA',
    ]) {
      expect(str(failed.errorMessage)).toContain(text);
    }
  });

  it('refuses bad input (400), devices outside the portal (404) and tenant tokens (403)', async () => {
    expect((await calculate([])).status).toBe(400);
    expect((await calculate(['nope'])).status).toBe(400);
    const twice = uids('nw-asa-hq', 'nw-asa-hq');
    expect((await calculate(twice)).status).toBe(400);
    const outside = await calculate([sim.deviceUid('nw-asa-hq'), sim.deviceUid('stark-asa-01')]);
    expect(outside.status).toBe(404);
    expect(Object.keys(obj(outside).details as object)).toEqual([sim.deviceUid('stark-asa-01')]);
    expect((await calculate(uids('nw-asa-hq'), tenantToken('northwind-us'))).status).toBe(403);
    expect((await api('GET', `${COMPATIBILITY}/${UNKNOWN}`)).status).toBe(404);
    expect((await api('GET', `${COMPATIBILITY}/not-a-uuid`)).status).toBe(400);
  });
});

describe('MSP Secure Client upgrades', () => {
  const upgrade = (body: Record<string, unknown>, token?: string | null) =>
    api('POST', UPGRADES, { body, ...(token === undefined ? {} : { token }) });
  const run = async (uid: unknown) => obj(await api('GET', `${RUNS}/${str(uid)}`));

  it('runs one upgrade per tenant and aggregates them into the MSP run', async () => {
    const started = await upgrade({
      deviceUids: uids('nw-asa-hq', 'globex-asa-01', 'hooli-asa-01'),
      version: '5.1.8.105',
      name: 'msp-june',
    });
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect(tx.transactionType).toBe('MSP_UPGRADE_SECURE_CLIENT_PACKAGES');
    const first = await run(tx.entityUid);
    expect(first).toMatchObject({
      name: 'msp-june',
      upgradeRunStatus: 'VALIDATING_INPUTS',
      upgradeRunType: 'ASA_SECURE_CLIENT_UPGRADE',
      secureClientVersion: '5.1.8.105',
      transactionUid: tx.transactionUid,
      username: 'super.admin@acme-msp.example',
    });
    const legs = first.managedTenantUpgrades as Record<string, unknown>[];
    expect(legs.map((l) => l.managedTenantDisplayName).sort()).toEqual([
      'Globex Asia Pacific',
      'Hooli Middle East',
      'Northwind Traders (US)',
    ]);
    // Each tenant's own run and transaction, visible with that tenant's token.
    const northwind = legs.find((l) => l.managedTenantUid === sim.tenantUid('northwind-us'));
    const token = tenantToken('northwind-us');
    const own = obj(
      await api('GET', `/v1/inventory/devices/secure-client/upgrades/runs/${str(northwind?.upgradeRunUid)}`, {
        token,
      }),
    );
    expect(own).toMatchObject({ name: 'msp-june', devices: [{ name: 'nw-asa-hq', status: 'PENDING' }] });
    expect((await transaction(northwind?.transactionUid, token)).transactionType).toBe(
      'UPGRADE_SECURE_CLIENT_PACKAGES',
    );

    sim.clock.advance(100_000);
    expect(['UPLOADING_IMAGES', 'PERFORMING_UPGRADE', 'VALIDATING_INPUTS']).toContain(
      (await run(tx.entityUid)).upgradeRunStatus,
    );
    sim.clock.advance(10 * 60_000);
    const done = await run(tx.entityUid);
    // hooli-asa-01 cannot delete its old images.
    expect(done.upgradeRunStatus).toBe('DONE_WITH_DEVICE_WARNINGS');
    expect(done.percentageComplete).toBe(1);
    expect((done.devices as Record<string, unknown>[]).map((d) => [d.name, d.status]).sort()).toEqual([
      ['globex-asa-01', 'SUCCESS'],
      ['hooli-asa-01', 'CLEANUP_FAILED'],
      ['nw-asa-hq', 'SUCCESS'],
    ]);
    expect((done.managedTenantUpgrades as Record<string, unknown>[]).map((l) => l.transactionStatus)).toEqual(
      ['DONE', 'DONE', 'DONE'],
    );
    const settled = await transaction(tx.transactionUid);
    expect(settled).toMatchObject({
      cdoTransactionStatus: 'DONE',
      transactionDetails: { upgradeRunStatus: 'DONE_WITH_DEVICE_WARNINGS' },
    });
    // The new packages are on the devices.
    const packages = items(await api('GET', `${DEVICES}/${sim.deviceUid('nw-asa-hq')}/packages`));
    expect(packages.every((p) => p.version === '5.1.8.105')).toBe(true);
  });

  it('ends in DONE_WITH_DEVICE_ERRORS when a device fails, and settles its transaction without a read', async () => {
    const tx = obj(await upgrade({ deviceUids: uids('nw-asa-hq', 'failing-asa-01'), version: '5.1.2.42' }));
    sim.clock.advance(15 * 60_000);
    expect((await transaction(tx.transactionUid)).transactionDetails).toMatchObject({
      upgradeRunStatus: 'DONE_WITH_DEVICE_ERRORS',
    });
    const done = await run(tx.entityUid);
    const failing = (done.devices as Record<string, unknown>[]).find((d) => d.name === 'failing-asa-01');
    expect(failing).toMatchObject({ status: 'FAILED', errorMsg: 'No CLI result received for device' });
    const leg = (done.managedTenantUpgrades as Record<string, unknown>[]).find(
      (l) => l.managedTenantUid === sim.tenantUid('failing-labs-in'),
    );
    expect(leg).toMatchObject({ upgradeRunStatus: 'ERROR', transactionStatus: 'ERROR' });
  });

  it('validates the devices asynchronously: the run ends in ERROR naming them, nothing is upgraded', async () => {
    const started = await upgrade({
      deviceUids: [...uids('nw-asa-hq', 'globex-asa-01', 'globex-asa-02'), UNKNOWN],
      version: '5.1.15.287',
    });
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect((await run(tx.entityUid)).upgradeRunStatus).toBe('VALIDATING_INPUTS');
    sim.clock.advance(10_000);
    const failed = await run(tx.entityUid);
    expect(failed.upgradeRunStatus).toBe('ERROR');
    expect(failed.percentageComplete).toBeNull();
    expect(str(failed.errorMsg)).toContain('globex-asa-02');
    expect(str(failed.errorMsg)).toContain('does not offer Secure Client 5.1.15.287');
    expect(str(failed.errorMsg)).toContain(UNKNOWN);
    expect((failed.devices as Record<string, unknown>[]).every((d) => d.status === 'FAILED')).toBe(true);
    expect(
      (failed.managedTenantUpgrades as Record<string, unknown>[]).every(
        (l) => l.upgradeRunUid === null && typeof l.errorMsg === 'string',
      ),
    ).toBe(true);
    const finished = await transaction(tx.transactionUid);
    expect(finished.cdoTransactionStatus).toBe('ERROR');
    expect(Object.keys(finished.errorDetails as object)).toHaveLength(3);
    const packages = items(await api('GET', `${DEVICES}/${sim.deviceUid('nw-asa-hq')}/packages`));
    expect(packages.map((p) => p.version)).toEqual(['5.0.05040', '5.0.05040']);
  });

  it('refuses an unknown version or platform (400), read-only users and tenant tokens (403)', async () => {
    const devices = uids('nw-asa-hq');
    const unknownVersion = await upgrade({ deviceUids: devices, version: '9.9.9' });
    expect(unknownVersion.status).toBe(400);
    expect(obj(unknownVersion).errorCode).toBe('INVALID_INPUT');
    const platform = await upgrade({
      deviceUids: devices,
      version: '4.10.08029',
      platforms: [{ os: 'LINUX', cpuArchitecture: 'ARM64' }],
    });
    expect(platform.status).toBe(400);
    expect((await upgrade({ deviceUids: [], version: '5.1.8.105' })).status).toBe(400);
    expect((await upgrade({ deviceUids: devices })).status).toBe(400);
    expect((await upgrade({ deviceUids: devices, version: '5.1.8.105' }, 'sim-read-only')).status).toBe(403);
    const tenant = tenantToken('northwind-us');
    expect((await upgrade({ deviceUids: devices, version: '5.1.8.105' }, tenant)).status).toBe(403);
    expect((await upgrade({ deviceUids: devices, version: '5.1.8.105' }, null)).status).toBe(401);
  });
});

describe('MSP upgrade runs', () => {
  it('lists the portal’s runs newest first, searchable, with the seeded history', async () => {
    const all = items(await api('GET', RUNS));
    expect(all.map((r) => r.name)).toEqual(['msp-apac-rollout', 'msp-spring-refresh']);
    expect(all[0]).toMatchObject({ upgradeRunStatus: 'DONE_WITH_DEVICE_ERRORS', percentageComplete: 1 });
    const found = items(
      await api('GET', RUNS, { query: { q: 'deviceName:nw-* AND upgradeRunStatus:DONE', sort: 'name:ASC' } }),
    );
    expect(found.map((r) => r.name)).toEqual(['msp-spring-refresh']);
    expect((await api('GET', RUNS, { query: { q: 'colour:red' } })).status).toBe(400);
  });

  it('summarises statuses, types and users', async () => {
    const values = obj(await api('GET', `${RUNS}/attribute-values`));
    expect(values).toEqual({
      upgradeRunStatuses: ['DONE_WITH_DEVICE_ERRORS', 'DONE'],
      upgradeRunTypes: ['ASA_SECURE_CLIENT_UPGRADE'],
      users: ['ops.admin@acme-msp.example', 'super.admin@acme-msp.example'],
    });
  });

  it('404s an unknown run and refuses tenant tokens', async () => {
    expect((await api('GET', `${RUNS}/${UNKNOWN}`)).status).toBe(404);
    const token = tenantToken('northwind-us');
    expect((await api('GET', RUNS, { token })).status).toBe(403);
    expect((await api('GET', `${RUNS}/attribute-values`, { token })).status).toBe(403);
  });
});

describe('revoking a tenant from the MSP portal', () => {
  const revoke = (tenant: string, token?: string | null) =>
    api('POST', `/v1/msp/tenants/${tenant}/revoke`, token === undefined ? {} : { token });
  const managed = async () =>
    items(await api('GET', '/v1/msp/tenants', { query: { limit: 200 } })).map((t) => t.name);

  it('removes the tenant from the portal when its transaction is DONE, without deleting it', async () => {
    const hooli = sim.tenantUid('hooli-uae');
    const started = await revoke(hooli);
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect(tx).toMatchObject({
      transactionType: 'MSP_REVOKE_TENANT_MSP_PORTAL_RELATIONSHIP',
      entityUid: hooli,
    });
    expect(await managed()).toContain('hooli-uae');
    expect((await revoke(hooli)).status).toBe(400);
    sim.clock.advance(15_000);
    expect((await transaction(tx.transactionUid)).cdoTransactionStatus).toBe('DONE');
    expect(await managed()).not.toContain('hooli-uae');
    expect(items(await api('GET', DEVICES, { query: { limit: 200 } })).map((d) => d.name)).not.toContain(
      'hooli-asa-01',
    );
    expect((await api('GET', `/v1/msp/tenants/${hooli}/users/api-only`)).status).toBe(404);
    // The tenant lives on: its own token still sees its devices, and it can be added back.
    const own = items(await api('GET', '/v1/inventory/devices', { token: tenantToken('hooli-uae') }));
    expect(own.map((d) => d.name).sort()).toEqual(['hooli-asa-01', 'hooli-ftd-01']);
    expect((await api('POST', `/v1/msp/tenants/${hooli}`)).status).toBe(202);
  });

  it('is for super-admins of the portal, and only for tenants the portal manages (400)', async () => {
    const northwind = sim.tenantUid('northwind-us');
    expect((await revoke(northwind, 'sim-admin')).status).toBe(403);
    expect((await revoke(northwind, tenantToken('northwind-us'))).status).toBe(403);
    expect((await revoke(northwind, null)).status).toBe(401);
    const outside = await revoke(sim.tenantUid('stark-us'));
    expect(outside.status).toBe(400);
    expect(obj(outside).errorCode).toBe('BAD_REQUEST');
    expect((await revoke(UNKNOWN)).status).toBe(400);
    expect((await revoke('not-a-uuid')).status).toBe(400);
  });
});

describe('API-only users of a managed tenant', () => {
  it('lists only API-only users, which the human-user list leaves out', async () => {
    const northwind = sim.tenantUid('northwind-us');
    const apiOnly = items(await api('GET', `/v1/msp/tenants/${northwind}/users/api-only`));
    expect(apiOnly.length).toBeGreaterThanOrEqual(1);
    expect(apiOnly.every((u) => u.apiOnlyUser === true && u.emailAddress === undefined)).toBe(true);
    expect(apiOnly.map((u) => u.name)).toContain('northwind-us-automation');
    const humans = items(await api('GET', `/v1/msp/tenants/${northwind}/users`));
    expect(humans.some((u) => u.apiOnlyUser === true)).toBe(false);
    // The UID listed is the one a token is generated for.
    const token = await api('POST', `/v1/msp/tenants/${northwind}/users/${str(apiOnly[0]?.uid)}/token`);
    expect(token.status).toBe(201);
  });

  it('searches with q, and refuses tenants outside the portal and tenant tokens', async () => {
    const northwind = sim.tenantUid('northwind-us');
    const found = items(
      await api('GET', `/v1/msp/tenants/${northwind}/users/api-only`, { query: { q: 'name:*automation' } }),
    );
    expect(found.map((u) => u.name)).toEqual(['northwind-us-automation']);
    expect((await api('GET', `/v1/msp/tenants/${sim.tenantUid('stark-us')}/users/api-only`)).status).toBe(
      404,
    );
    const token = tenantToken('northwind-us');
    expect((await api('GET', `/v1/msp/tenants/${northwind}/users/api-only`, { token })).status).toBe(403);
  });
});
