// The simulator's model of change governance (scc-openapi-governance.yaml), over HTTP on the manual clock:
// change requests per tenant (names unique in a tenant, Lucene and paging, other tenants' invisible),
// tenant settings switched by an admin route, cancelling deploys and command-line runs (the cancelled
// deploy is not applied; 422 for a type that cannot be cancelled), a device's maintenance window opening
// and closing with the simulated clock, and deploy events in the change log tied to the change request
// the deploy's description names.
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

const admin = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: null, ...(body === undefined ? {} : { body }) });
const createChangeRequest = (name: string, options: CallOptions = {}) =>
  api('POST', '/v1/changeRequests', { ...options, body: { name, description: `about ${name}` } });
const deploy = async (device: string, description?: string) =>
  obj(
    await api('POST', '/v1/inventory/devices/asas/deploy', {
      body: { deviceUids: [sim.deviceUid(device)], ...(description === undefined ? {} : { description }) },
    }),
  );
const stage = (device: string, description: string) =>
  admin('POST', `/_sim/devices/${device}/stage`, { description });
const transaction = async (uid: string) => obj(await api('GET', `/v1/transactions/${uid}`));
const cancel = (uid: string) => api('POST', `/v1/transactions/${uid}/cancel`);
const run = async (uid: string) => obj(await api('GET', `/v1/inventory/devices/deployments/runs/${uid}`));
const device = async (name: string) => obj(await api('GET', `/v1/inventory/devices/${sim.deviceUid(name)}`));
const deployEvents = async (name: string) =>
  items(await api('GET', '/v1/changelogs', { query: { q: `entityName:${name}` } }))
    .flatMap((log) => log.events as Record<string, unknown>[])
    .filter((e) => str(e.description).startsWith('Deployed'))
    .sort((a, b) => str(a.date).localeCompare(str(b.date)));

describe('change requests', () => {
  it('are created with a name unique in the tenant, searched, paged and read', async () => {
    const first = await createChangeRequest('CHG0000001');
    expect(first.status).toBe(201);
    const created = obj(first);
    expect(created).toEqual({ uid: expect.any(String), name: 'CHG0000001', description: 'about CHG0000001' });
    expect((await createChangeRequest('CHG0000002')).status).toBe(201);

    const duplicate = await createChangeRequest('CHG0000001');
    expect(duplicate.status).toBe(400);
    expect(obj(duplicate)).toMatchObject({
      errorCode: 'INVALID_INPUT',
      errorMsg: 'A change request named CHG0000001 already exists',
    });

    const found = obj(await api('GET', '/v1/changeRequests', { query: { q: 'name:CHG0000001' } }));
    expect(found).toMatchObject({ count: 1, items: [created] });
    const page = obj(await api('GET', '/v1/changeRequests', { query: { limit: 1, offset: 1 } }));
    expect(page).toMatchObject({ count: 2, limit: 1, offset: 1, items: [{ name: 'CHG0000002' }] });
    expect(obj(await api('GET', `/v1/changeRequests/${str(created.uid)}`))).toEqual(created);
  });

  it("are the tenant's own: another tenant neither sees them nor is refused the same name", async () => {
    const created = obj(await createChangeRequest('CHG0000001'));
    const other = sim.mintTenantToken(sim.tenantUid('contoso-eu'));
    const unseen = await api('GET', `/v1/changeRequests/${str(created.uid)}`, { token: other });
    expect(unseen.status).toBe(404);
    expect(obj(await api('GET', '/v1/changeRequests', { token: other }))).toMatchObject({ count: 0 });
    expect((await createChangeRequest('CHG0000001', { token: other })).status).toBe(201);
  });

  it('refuses a read-only user, a blank name and a malformed UID', async () => {
    expect((await createChangeRequest('CHG0000001', { token: 'sim-read-only' })).status).toBe(403);
    expect((await api('POST', '/v1/changeRequests', { body: { name: '' } })).status).toBe(400);
    expect((await api('POST', '/v1/changeRequests', { body: { name: '  ' } })).status).toBe(400);
    expect((await api('GET', '/v1/changeRequests/not-a-uid')).status).toBe(400);
  });
});

describe('tenant settings', () => {
  it('say the tenant tracks neither change requests nor scheduled deployments until an admin route says so', async () => {
    const before = obj(await api('GET', '/v1/settings/tenant'));
    expect(before).toMatchObject({
      uid: sim.state.portalUid,
      mspPortalUid: sim.state.portalUid,
      changeRequestSupport: false,
      scheduledDeployments: false,
    });
    const changed = await admin('POST', '/_sim/tenants/acme-msp/settings', { changeRequestSupport: true });
    expect(obj(changed)).toMatchObject({ changeRequestSupport: true, scheduledDeployments: false });
    await admin('POST', '/_sim/tenants/acme-msp/settings', { scheduledDeployments: true });
    expect(obj(await api('GET', '/v1/settings/tenant'))).toMatchObject({
      changeRequestSupport: true,
      scheduledDeployments: true,
    });
    // Another tenant's settings are its own.
    const other = sim.mintTenantToken(sim.tenantUid('contoso-eu'));
    expect(obj(await api('GET', '/v1/settings/tenant', { token: other }))).toMatchObject({
      changeRequestSupport: false,
    });
    expect((await admin('POST', '/_sim/tenants/acme-msp/settings', { changeRequests: true })).status).toBe(
      400,
    );
    expect(
      (await admin('POST', '/_sim/tenants/no-such/settings', { scheduledDeployments: true })).status,
    ).toBe(404);
  });
});

describe('cancelling a transaction', () => {
  it('cancels a PENDING deploy: nothing is applied, the change stays staged', async () => {
    await stage('asa-hq-01', 'to be cancelled');
    const tx = await deploy('asa-hq-01');
    expect(tx).toMatchObject({ cdoTransactionStatus: 'PENDING', cancellable: true });
    const cancelled = await cancel(str(tx.transactionUid));
    expect(cancelled.status).toBe(200);
    expect(obj(cancelled)).toMatchObject({ cdoTransactionStatus: 'CANCELLED', cancellable: false });

    sim.clock.advance(5 * 60_000);
    expect(await transaction(str(tx.transactionUid))).toMatchObject({ cdoTransactionStatus: 'CANCELLED' });
    expect(await run(str(tx.entityUid))).toMatchObject({
      deploymentRunStatus: 'DEPLOY_FAILED',
      errorMsg: 'The deployment was cancelled',
    });
    expect((await device('asa-hq-01')).configState).toBe('NOT_SYNCED');
    expect(await deployEvents('asa-hq-01')).toEqual([]);

    const again = await cancel(str(tx.transactionUid));
    expect(again.status).toBe(400);
    expect(obj(again).errorMsg).toContain('is CANCELLED and can no longer be cancelled');
  });

  it('cancels a deploy while it is being applied, before the device is done', async () => {
    await stage('asa-hq-01', 'half way');
    const tx = await deploy('asa-hq-01');
    sim.clock.advance(8_000); // validated; the device's deploy takes at least 8 s more
    expect(await run(str(tx.entityUid))).toMatchObject({ deploymentRunStatus: 'DEPLOYING' });
    expect(await transaction(str(tx.transactionUid))).toMatchObject({
      cdoTransactionStatus: 'IN_PROGRESS',
      cancellable: true,
    });
    expect((await cancel(str(tx.transactionUid))).status).toBe(200);
    sim.clock.advance(5 * 60_000);
    expect((await device('asa-hq-01')).configState).toBe('NOT_SYNCED');
    expect(await deployEvents('asa-hq-01')).toEqual([]);
    // Deployed normally, the same change is applied: the cancel was what stopped it.
    await deploy('asa-hq-01');
    sim.clock.advance(5 * 60_000);
    expect((await device('asa-hq-01')).configState).toBe('SYNCED');
  });

  it('cancels a command-line run: the devices never run the script', async () => {
    const tx = obj(
      await api('POST', '/v1/inventory/devices/asas/cli/execute', {
        body: { deviceUids: [sim.deviceUid('asa-hq-01')], script: 'show version' },
      }),
    );
    expect(tx).toMatchObject({ transactionType: 'EXECUTE_ASA_COMMAND', cancellable: true });
    expect((await cancel(str(tx.transactionUid))).status).toBe(200);
    sim.clock.advance(5 * 60_000);
    expect(await transaction(str(tx.transactionUid))).toMatchObject({ cdoTransactionStatus: 'CANCELLED' });
    const results = await api('GET', '/v1/cli/results', {
      query: { q: `executionUid:${str(tx.entityUid)}` },
    });
    expect(obj(results).count).toBe(0);
  });

  it('refuses a type that cannot be cancelled (422), another tenant and a read-only user', async () => {
    const calculation = obj(
      await api('POST', `/v1/inventory/devices/asas/${sim.deviceUid('asa-hq-01')}/changes/pending/commands`),
    );
    expect(calculation).toMatchObject({ cancellable: false });
    const refused = await cancel(str(calculation.transactionUid));
    expect(refused.status).toBe(422);
    expect(obj(refused)).toMatchObject({
      errorCode: 'UNPROCESSABLE_ENTITY',
      errorMsg: 'Transactions of type CALCULATE_ASA_CONFIG_COMMANDS cannot be cancelled',
    });
    const tx = await deploy('asa-hq-01');
    const other = sim.mintTenantToken(sim.tenantUid('contoso-eu'));
    expect(
      (await api('POST', `/v1/transactions/${str(tx.transactionUid)}/cancel`, { token: other })).status,
    ).toBe(404);
    expect(
      (await api('POST', `/v1/transactions/${str(tx.transactionUid)}/cancel`, { token: 'sim-read-only' }))
        .status,
    ).toBe(403);
    expect((await cancel('not-a-uid')).status).toBe(400);
  });
});

describe('maintenance windows', () => {
  it("opens and closes asa-hq-01's seeded window (Saturdays 22:00 UTC, 4 h) with the simulated clock", async () => {
    // The manual clock starts on Monday 2 June 2025, 09:00 UTC.
    expect((await device('asa-hq-01')).deviceMaintenanceWindow).toEqual({
      startCron: '0 22 * * 6',
      durationMinutes: 240,
      isOpen: false,
      nextStart: '2025-06-07T22:00:00.000Z',
      nextEnd: '2025-06-08T02:00:00.000Z',
    });
    sim.clock.advance(5 * 86_400_000 + 13 * 3_600_000); // Saturday 22:00: open
    expect((await device('asa-hq-01')).deviceMaintenanceWindow).toMatchObject({
      isOpen: true,
      currentStart: '2025-06-07T22:00:00.000Z',
      currentEnd: '2025-06-08T02:00:00.000Z',
      nextStart: '2025-06-14T22:00:00.000Z',
    });
    sim.clock.advance(4 * 3_600_000); // Sunday 02:00: closed again (the end is not inside)
    const closed = (await device('asa-hq-01')).deviceMaintenanceWindow as Record<string, unknown>;
    expect(closed).toMatchObject({ isOpen: false, nextStart: '2025-06-14T22:00:00.000Z' });
    expect(closed.currentStart).toBeUndefined();
    // Devices without one have none.
    expect((await device('asa-branch-02')).deviceMaintenanceWindow).toBeUndefined();
  });

  it('is set and cleared by an admin route, which refuses a malformed cron', async () => {
    const set = await admin('PUT', '/_sim/devices/asa-branch-02/maintenance-window', {
      startCron: '30 1 * * 1-5',
      durationMinutes: 60,
    });
    expect(obj(set)).toMatchObject({
      device: 'asa-branch-02',
      deviceMaintenanceWindow: { isOpen: false, nextStart: '2025-06-03T01:30:00.000Z' },
    });
    const listed = items(await api('GET', '/v1/inventory/devices', { query: { q: 'name:asa-branch-02' } }));
    expect(listed[0]?.deviceMaintenanceWindow).toMatchObject({
      startCron: '30 1 * * 1-5',
      durationMinutes: 60,
    });
    const bad = await admin('PUT', '/_sim/devices/asa-branch-02/maintenance-window', {
      startCron: '0 25 * * *',
      durationMinutes: 60,
    });
    expect(bad.status).toBe(400);
    expect(obj(bad).errorMsg).toBe('Invalid startCron: the hour field "25" is outside 0-23');
    // The MSP portal answers a managed tenant's device with its window too.
    await admin('PUT', '/_sim/devices/nw-asa-hq/maintenance-window', {
      startCron: '0 2 * * *',
      durationMinutes: 30,
    });
    const managed = obj(await api('GET', `/v1/msp/inventory/devices/${sim.deviceUid('nw-asa-hq')}`));
    expect(managed.deviceMaintenanceWindow).toMatchObject({
      isOpen: false,
      nextStart: '2025-06-03T02:00:00.000Z',
    });
    expect((await admin('DELETE', '/_sim/devices/asa-hq-01/maintenance-window')).status).toBe(204);
    expect((await device('asa-hq-01')).deviceMaintenanceWindow).toBeUndefined();
  });
});

describe('changes tied to a change request', () => {
  it('ties the deploy events to the open change request the description names, and no longer once it is closed', async () => {
    const changeRequest = obj(await createChangeRequest('CHG0000001'));
    await stage('asa-hq-01', 'under a change request');
    await deploy('asa-hq-01', 'CHG0000001: rename inside');
    sim.clock.advance(5 * 60_000);
    const [tied] = await deployEvents('asa-hq-01');
    expect(tied).toMatchObject({ changeRequestName: 'CHG0000001', changeRequestUid: changeRequest.uid });
    const byRequest = items(
      await api('GET', '/v1/changelogs', { query: { q: 'events.changeRequestName:CHG0000001' } }),
    );
    expect(byRequest.map((l) => l.entityName)).toEqual(['asa-hq-01']);

    // A description naming no change request, or one that was closed, ties nothing.
    await stage('asa-hq-01', 'no change request');
    await deploy('asa-hq-01', 'CHG0000009: unknown');
    sim.clock.advance(5 * 60_000);
    const closed = await admin('POST', `/_sim/change-requests/${str(changeRequest.uid)}/close`);
    expect(closed.status).toBe(200);
    await stage('asa-hq-01', 'after closing');
    await deploy('asa-hq-01', 'CHG0000001: after closing');
    sim.clock.advance(5 * 60_000);
    const events = await deployEvents('asa-hq-01');
    expect(events).toHaveLength(3);
    for (const event of events.slice(1)) expect(event.changeRequestName).toBeUndefined();
  });
});
