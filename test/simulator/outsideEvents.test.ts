// The admin routes that make things happen outside fwbot, driven over HTTP on the manual clock: devices
// going offline and back (one, or a burst), an out-of-band change on an ASA (a conflict in the device
// record, its diff in the change log), HA failovers and a failed unit, certificate expiry, and what people
// do in SCC's UI: stage a change, start deployments and upgrade runs that succeed or fail per device,
// and change users (the audit log). Also the large MSP world the benchmark runs on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { type CallOptions, eventsOf, items, obj, type RawResponse, simulator, str } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;

beforeEach(async () => {
  ({ sim, api } = await simulator());
});
afterEach(async () => {
  await sim.stop();
});

const admin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: null, ...(body === undefined ? {} : { body }) });
const device = async (name: string) => obj(await api('GET', `/v1/inventory/devices/${sim.deviceUid(name)}`));
const changelogOf = async (name: string, token = 'sim-super-admin') =>
  items(await api('GET', '/v1/changelogs', { token, query: { q: `entityName:${name}` } }));

describe('connectivity', () => {
  it('takes a device offline and back; lists see it', async () => {
    const off = await admin('POST', '/_sim/devices/asa-branch-02/connectivity', {
      connectivityState: 'NEW_CERT_DETECTED',
    });
    expect(obj(off)).toEqual({ device: 'asa-branch-02', connectivityState: 'NEW_CERT_DETECTED' });
    const offline = items(
      await api('GET', '/v1/inventory/devices', { query: { q: 'NOT connectivityState:ONLINE' } }),
    );
    expect(offline.map((d) => d.name)).toEqual(['asa-branch-02']);
    await admin('POST', `/_sim/devices/${sim.deviceUid('asa-branch-02')}/connectivity`, {
      connectivityState: 'ONLINE',
    });
    expect((await device('asa-branch-02')).connectivityState).toBe('ONLINE');
    expect(
      (await admin('POST', '/_sim/devices/asa-branch-02/connectivity', { connectivityState: 'GONE' })).status,
    ).toBe(400);
    expect(
      (await admin('POST', '/_sim/devices/no-such/connectivity', { connectivityState: 'ONLINE' })).status,
    ).toBe(404);
  });

  it('takes many devices offline in one request, by name or by query', async () => {
    const burst = obj(
      await admin('POST', '/_sim/devices/connectivity', {
        connectivityState: 'UNREACHABLE',
        devices: ['nw-asa-hq', sim.deviceUid('globex-asa-01'), 'hooli-ftd-01'],
      }),
    );
    expect(burst).toMatchObject({ count: 3, devices: ['nw-asa-hq', 'globex-asa-01', 'hooli-ftd-01'] });
    const msp = items(
      await api('GET', '/v1/msp/inventory/devices', {
        query: { q: 'connectivityState:UNREACHABLE', limit: 50 },
      }),
    );
    // globex-asa-02 is seeded UNREACHABLE.
    expect(msp.map((d) => d.name).sort()).toEqual([
      'globex-asa-01',
      'globex-asa-02',
      'hooli-ftd-01',
      'nw-asa-hq',
    ]);
    const byQuery = obj(
      await admin('POST', '/_sim/devices/connectivity', {
        connectivityState: 'ONLINE',
        q: 'NOT connectivityState:ONLINE',
        limit: 2,
      }),
    );
    expect(byQuery.count).toBe(2);
    expect((await admin('POST', '/_sim/devices/connectivity', { connectivityState: 'ONLINE' })).status).toBe(
      400,
    );
    const unknown = await admin('POST', '/_sim/devices/connectivity', {
      connectivityState: 'ONLINE',
      devices: ['nope'],
    });
    expect(unknown.status).toBe(404);
  });
});

describe('out-of-band change', () => {
  it('marks the conflict and records what changed on the device, as the user the route names', async () => {
    const answer = obj(
      await admin('POST', '/_sim/devices/asa-hq-01/out-of-band', {
        hardwareName: 'GigabitEthernet1/3',
        enabled: false,
        username: 'enable_15@asa-hq-01',
      }),
    );
    expect(answer).toMatchObject({ conflictDetectionState: 'CONFLICT_DETECTED', configState: 'NOT_SYNCED' });
    const conflicts = items(
      await api('GET', '/v1/inventory/devices', { query: { q: 'conflictDetectionState:CONFLICT_DETECTED' } }),
    );
    expect(conflicts.map((d) => d.name)).toEqual(['asa-hq-01']);
    const [log] = await changelogOf('asa-hq-01');
    expect(log).toMatchObject({ uid: answer.changelogUid, status: 'ACTIVE' });
    expect(eventsOf(log)[0]).toMatchObject({
      action: 'UPDATE',
      username: 'enable_15@asa-hq-01',
      commands: 'interface GigabitEthernet1/3\nshutdown',
      description: 'Out-of-band change detected on asa-hq-01: GigabitEthernet1/3 was changed on the device',
    });
    expect(eventsOf(log)[0]?.diff).toContain('\n+ shutdown\n  nameif dmz\n');
  });

  it('works on a managed tenant’s ASA, which carries no interfaces until then', async () => {
    const answer = await admin('POST', '/_sim/devices/nw-asa-branch/out-of-band', {});
    expect(obj(answer)).toMatchObject({
      hardwareName: 'GigabitEthernet1/2',
      conflictDetectionState: 'CONFLICT_DETECTED',
    });
    const token = sim.mintTenantToken(sim.tenantUid('northwind-us'));
    const [log] = await changelogOf('nw-asa-branch', token);
    expect(eventsOf(log)[0]).toMatchObject({
      username: 'admin@customer.example',
    });
    expect((await admin('POST', '/_sim/devices/ftd-edge-01/out-of-band', {})).status).toBe(400);
  });
});

describe('HA failover', () => {
  it('switches the active unit, fails a unit and recovers it', async () => {
    const d = sim.deviceUid('asa-dc-03');
    const ha = items(
      await api('GET', '/v1/inventory/devices', {
        query: { q: 'asaFailoverMode:(ACTIVE_STANDBY OR ACTIVE_ACTIVE)' },
      }),
    );
    expect(ha.map((x) => x.name)).toEqual(['asa-dc-03']);
    expect(obj(await admin('POST', `/_sim/devices/${d}/failover`, {}))).toMatchObject({
      asaFailoverState: 'Primary - Standby Ready',
      mateFailoverState: 'Secondary - Active',
    });
    expect(obj(await admin('POST', `/_sim/devices/${d}/failover`, { action: 'fail-active' }))).toMatchObject({
      asaFailoverState: 'Primary - Active',
      mateFailoverState: 'Secondary - Failed',
    });
    const record = await device('asa-dc-03');
    expect(record.asaFailoverState).toBe('Primary - Active');
    expect((record.asaFailoverMate as Record<string, unknown>).failoverState).toBe('Secondary - Failed');
    expect((await admin('POST', `/_sim/devices/${d}/failover`, {})).status).toBe(409);
    expect(obj(await admin('POST', `/_sim/devices/${d}/failover`, { action: 'recover' }))).toMatchObject({
      mateFailoverState: 'Secondary - Standby Ready',
    });
    expect(obj(await admin('POST', `/_sim/devices/${d}/failover`, { action: 'fail-standby' }))).toMatchObject(
      {
        asaFailoverState: 'Primary - Active',
        mateFailoverState: 'Secondary - Failed',
      },
    );
    expect((await admin('POST', '/_sim/devices/asa-hq-01/failover', {})).status).toBe(400);
  });

  it('gives an HA ASA without a mate record one (the MSP seed has none)', async () => {
    const answer = obj(await admin('POST', '/_sim/devices/hooli-asa-01/failover', { action: 'fail-active' }));
    expect(answer).toMatchObject({
      asaFailoverState: 'Primary - Failed',
      mateFailoverState: 'Secondary - Active',
    });
  });
});

describe('certificates', () => {
  it('sets expiry dates absolutely or relative to the simulated now, and they are searchable', async () => {
    const answer = obj(
      await admin('POST', '/_sim/devices/asa-hq-01/certificates', {
        certificateExpiresInDays: 6,
        raVpnCertificateExpiryDate: '2025-06-01T00:00:00Z',
      }),
    );
    expect(answer).toEqual({
      device: 'asa-hq-01',
      certificateExpiryDate: '2025-06-08T09:00:00.000Z',
      raVpnCertificateExpiryDate: '2025-06-01T00:00:00.000Z',
    });
    const soon = items(
      await api('GET', '/v1/inventory/devices', {
        query: {
          q: 'certificateExpiryDate:[* TO 2025-06-09] OR raVpnCertificateExpiryDate:[* TO 2025-06-09]',
        },
      }),
    );
    expect(soon.map((d) => d.name)).toEqual(['asa-hq-01']);
    await admin('POST', '/_sim/devices/asa-hq-01/certificates', { raVpnCertificateExpiryDate: null });
    expect((await device('asa-hq-01')).raVpnCertificateExpiryDate).toBeUndefined();
    expect((await admin('POST', '/_sim/devices/asa-hq-01/certificates', {})).status).toBe(400);
    expect(
      (await admin('POST', '/_sim/devices/asa-hq-01/certificates', { certificateExpiryDate: 'soon' })).status,
    ).toBe(400);
  });
});

describe("SCC's UI", () => {
  it('stages a change as another user: NOT_SYNCED, in the change log', async () => {
    const answer = obj(
      await admin('POST', '/_sim/devices/asa-branch-02/stage', { username: 'carol@customer.example' }),
    );
    expect(answer).toMatchObject({ hardwareName: 'GigabitEthernet1/2', configState: 'NOT_SYNCED' });
    const [log] = await changelogOf('asa-branch-02');
    expect(eventsOf(log)[0]).toMatchObject({
      action: 'UPDATE',
      username: 'carol@customer.example',
      commands: 'interface GigabitEthernet1/2\ndescription changed in SCC by carol@customer.example',
    });
    const pending = await api('GET', `/v1/inventory/devices/asas/${sim.deviceUid('asa-branch-02')}/configs`);
    expect(String(obj(pending).configOnCloud)).toContain(
      'description changed in SCC by carol@customer.example',
    );
  });

  it('starts a deployment that succeeds on one device and fails on another, as that user', async () => {
    await admin('POST', '/_sim/devices/asa-hq-01/stage', {});
    await admin('POST', '/_sim/devices/asa-branch-02/stage', {});
    const started = obj(
      await admin('POST', '/_sim/deployments', {
        devices: ['asa-hq-01', 'asa-branch-02'],
        username: 'dave@customer.example',
        failing: ['asa-branch-02'],
      }),
    );
    const [run] = started.runs as Record<string, unknown>[];
    expect(run).toMatchObject({ tenantName: 'acme-msp', devices: ['asa-hq-01', 'asa-branch-02'] });
    const runUid = str(run?.deploymentRunUid);
    const running = obj(await api('GET', `/v1/inventory/devices/deployments/runs/${runUid}`));
    expect(running).toMatchObject({
      deployerUsername: 'dave@customer.example',
      deploymentRunStatus: 'PENDING',
    });
    sim.clock.advance(120_000);
    const done = obj(await api('GET', `/v1/inventory/devices/deployments/runs/${runUid}`));
    expect(done).toMatchObject({
      deploymentRunStatus: 'DEPLOY_FAILED',
      failureReason: 'DEVICE_DEPLOY_FAILED',
    });
    const statuses = Object.fromEntries(
      (done.deviceDeploymentStatuses as Record<string, unknown>[]).map((d) => [d.name, d.status]),
    );
    expect(statuses).toEqual({ 'asa-hq-01': 'DONE', 'asa-branch-02': 'ERROR' });
    expect((await device('asa-hq-01')).configState).toBe('SYNCED');
    expect((await device('asa-branch-02')).configState).toBe('NOT_SYNCED');
    const [hqLog] = await changelogOf('asa-hq-01');
    expect(hqLog?.status).toBe('COMPLETED');
    expect(eventsOf(hqLog)[1]).toMatchObject({
      username: 'dave@customer.example',
    });
    const [branchLog] = await changelogOf('asa-branch-02');
    expect(eventsOf(branchLog)[1]).toMatchObject({
      action: 'ERROR',
      username: 'dave@customer.example',
    });
    const tx = obj(await api('GET', `/v1/transactions/${str(run?.transactionUid)}`));
    expect(tx.cdoTransactionStatus).toBe('ERROR');
  });

  it('starts ASA and FTD upgrade runs per tenant that fail or warn per device as told', async () => {
    const started = obj(
      await admin('POST', '/_sim/upgrades', {
        type: 'ASA',
        devices: ['asa-hq-01', 'nw-asa-hq'],
        version: '5.1.8.105',
        username: 'erin@customer.example',
        failing: ['nw-asa-hq'],
        cleanupFailing: ['asa-hq-01'],
      }),
    );
    const runs = started.runs as Record<string, unknown>[];
    expect(runs.map((r) => r.tenantName)).toEqual(['acme-msp', 'northwind-us']);
    sim.clock.advance(10 * 60_000);
    const portalRun = obj(
      await api('GET', `/v1/inventory/devices/secure-client/upgrades/runs/${str(runs[0]?.upgradeRunUid)}`),
    );
    expect(portalRun).toMatchObject({
      username: 'erin@customer.example',
      upgradeRunStatus: 'DONE_WITH_DEVICE_WARNINGS',
      devices: [expect.objectContaining({ name: 'asa-hq-01', status: 'CLEANUP_FAILED' })],
    });
    const tenantToken = sim.mintTenantToken(sim.tenantUid('northwind-us'));
    const tenantRun = obj(
      await api('GET', `/v1/inventory/devices/secure-client/upgrades/runs/${str(runs[1]?.upgradeRunUid)}`, {
        token: tenantToken,
      }),
    );
    expect(tenantRun).toMatchObject({
      upgradeRunStatus: 'ERROR',
      devices: [expect.objectContaining({ status: 'FAILED' })],
    });

    const ftd = obj(
      await admin('POST', '/_sim/upgrades', { type: 'FTD', devices: ['ftd-edge-01'], version: '5.1.8.105' }),
    );
    sim.clock.advance(10 * 60_000);
    const ftdRun = obj(
      await api(
        'GET',
        `/v1/inventory/devices/secure-client/upgrades/runs/${str((ftd.runs as Record<string, unknown>[])[0]?.upgradeRunUid)}`,
      ),
    );
    expect(ftdRun).toMatchObject({
      upgradeRunType: 'FTD_SECURE_CLIENT_UPGRADE',
      upgradeRunStatus: 'DONE',
      username: 'admin@customer.example',
    });
    const refused = await admin('POST', '/_sim/upgrades', {
      type: 'ASA',
      devices: ['ftd-edge-01'],
      version: '5.1.8.105',
    });
    expect(refused.status).toBe(400);
  });

  it('starts an MSP upgrade run across tenants whose devices fail as told', async () => {
    const started = obj(
      await admin('POST', '/_sim/upgrades', {
        type: 'MSP',
        devices: ['nw-asa-hq', 'globex-asa-01'],
        version: '5.1.8.105',
        username: 'frank@acme-msp.example',
        failing: ['globex-asa-01'],
      }),
    );
    const [run] = started.runs as Record<string, unknown>[];
    expect(run?.legs).toHaveLength(2);
    sim.clock.advance(15 * 60_000);
    const msp = obj(
      await api('GET', `/v1/msp/inventory/devices/secure-client/upgrades/runs/${str(run?.mspUpgradeRunUid)}`),
    );
    expect(msp).toMatchObject({
      username: 'frank@acme-msp.example',
      upgradeRunStatus: 'DONE_WITH_DEVICE_ERRORS',
    });
    const results = Object.fromEntries(
      (msp.devices as Record<string, unknown>[]).map((d) => [d.name, d.status]),
    );
    expect(results).toEqual({ 'nw-asa-hq': 'SUCCESS', 'globex-asa-01': 'FAILED' });
  });

  it('adds a user, changes their role and removes them as another user, in the audit log', async () => {
    const tenant = 'northwind-us';
    expect(
      (
        await admin('POST', `/_sim/tenants/${tenant}/users`, {
          username: 'mallory@evil.example',
          role: 'ROLE_READ_ONLY',
          by: 'bob@northwind.example',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await admin('POST', `/_sim/tenants/${tenant}/users`, {
          username: 'mallory@evil.example',
          role: 'ROLE_ADMIN',
        })
      ).status,
    ).toBe(409);
    expect(
      obj(
        await admin('PATCH', `/_sim/tenants/${tenant}/users/mallory@evil.example`, {
          role: 'ROLE_SUPER_ADMIN',
        }),
      ),
    ).toMatchObject({
      role: 'ROLE_SUPER_ADMIN',
      previousRole: 'ROLE_READ_ONLY',
    });
    expect((await admin('DELETE', `/_sim/tenants/${tenant}/users/mallory@evil.example`)).status).toBe(204);
    expect((await admin('DELETE', `/_sim/tenants/${tenant}/users/mallory@evil.example`)).status).toBe(404);
    const token = sim.mintTenantToken(sim.tenantUid(tenant));
    const log = items(
      await api('GET', '/v1/auditlogs', { token, query: { q: 'username:mallory*', sort: 'eventTime:ASC' } }),
    );
    expect(log.map((e) => [e.eventType, e.roles])).toEqual([
      ['USER_ADDED_TO_TENANT', ['ROLE_READ_ONLY']],
      ['USER_ROLE_CHANGED', ['ROLE_SUPER_ADMIN']],
      ['USER_REMOVED_FROM_TENANT', ['ROLE_SUPER_ADMIN']],
    ]);
    expect(log.map((e) => e.eventDescription)).toEqual([
      'bob@northwind.example added mallory@evil.example to tenant northwind-us with role ROLE_READ_ONLY',
      'admin@customer.example changed the role of mallory@evil.example in tenant northwind-us from ROLE_READ_ONLY to ROLE_SUPER_ADMIN',
      'admin@customer.example removed mallory@evil.example from tenant northwind-us',
    ]);
  });

  it('lists its routes', async () => {
    const routes = (obj(await admin('GET', '/_sim')).routes as Record<string, string>[]).map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /_sim/devices/connectivity',
        'POST /_sim/devices/{device}/failover',
        'POST /_sim/devices/{device}/certificates',
        'POST /_sim/devices/{device}/stage',
        'POST /_sim/deployments',
        'POST /_sim/upgrades',
        'PATCH /_sim/tenants/{tenant}/users/{username}',
      ]),
    );
  });
});

describe('a large MSP world', () => {
  it('has 200 more managed tenants and 10 000 devices, listed across tenants and taken offline 300 at once', async () => {
    expect(
      obj(await admin('POST', '/_sim/reset', { scale: { tenants: 200, devices: 10_000 } })),
    ).toMatchObject({ seed: 'default' });
    const page = obj(
      await api('GET', '/v1/msp/inventory/devices', { query: { q: 'managedTenantName:bench-*', limit: 1 } }),
    );
    expect(page.count).toBe(10_000);
    const tenants = obj(await api('GET', '/v1/msp/tenants', { query: { q: 'name:bench-*', limit: 1 } }));
    expect(tenants.count).toBe(200);
    const burst = obj(
      await admin('POST', '/_sim/devices/connectivity', {
        connectivityState: 'UNREACHABLE',
        q: 'name:bench-00*',
        limit: 300,
      }),
    );
    expect(burst.count).toBe(300);
    const offline = obj(
      await api('GET', '/v1/msp/inventory/devices', {
        query: { q: 'NOT connectivityState:ONLINE', limit: 200 },
      }),
    );
    // globex-asa-02 of the seed is UNREACHABLE too.
    expect(offline.count).toBe(301);
    // A reset without a scale keeps it.
    await admin('POST', '/_sim/reset', {});
    expect(obj(await api('GET', '/v1/msp/inventory/devices', { query: { limit: 0 } })).count).toBe(
      10_000 + 11 - 1,
    );
  });
});
