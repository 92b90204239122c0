// The events cut on the simulator, over HTTP: every change through the API is in the device's change log
// (who, action, a unified diff, the commands; ACTIVE until a deploy or a read of configuration completes
// it), user changes are in the tenant's audit log (admins only), getToken says who the token is, and the
// lists page, filter, search and take a timeRange exactly as the reference says.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { eventsOf, items, obj, simulator, str } from './support.js';

const ASAS = '/v1/inventory/devices/asas';

describe('simulator: change log, audit log and token', () => {
  let sim: SimulatorHandle;
  let api: Awaited<ReturnType<typeof simulator>>['api'];
  let hq: string;

  beforeEach(async () => {
    ({ sim, api } = await simulator());
    hq = sim.deviceUid('asa-hq-01');
  });
  afterEach(async () => {
    await sim.stop();
  });

  const iface = (device: string, hardwareName: string) => {
    const deviceUid = sim.deviceUid(device);
    for (const i of sim.state.interfaces.values())
      if (i.deviceUid === deviceUid && i.hardwareName === hardwareName) return i.uid;
    throw new Error(`no ${hardwareName} on ${device}`);
  };
  const changelogsOf = async (deviceUid: string, token?: string) =>
    items(
      await api('GET', '/v1/changelogs', {
        query: { q: `entityUid:${deviceUid}` },
        ...(token ? { token } : {}),
      }),
    );
  const deleteVlan20 = async (token = 'sim-admin') =>
    expect(
      (await api('DELETE', `${ASAS}/${hq}/vlaninterfaces/${iface('asa-hq-01', 'Vlan20')}`, { token })).status,
    ).toBe(204);

  describe('change log', () => {
    it('records a staged change as the token user, with the diff and the commands a deploy would run, ACTIVE', async () => {
      await deleteVlan20();
      const [log, ...others] = await changelogsOf(hq);
      expect(others).toEqual([]);
      expect(log).toMatchObject({ entityUid: hq, entityName: 'asa-hq-01', status: 'ACTIVE' });
      const [event] = eventsOf(log);
      expect(event).toMatchObject({
        action: 'DELETE',
        username: 'ops.admin@acme-msp.example',
        date: '2025-06-02T09:00:00.000Z',
        description: 'Deleted interface Vlan20 (iot) on asa-hq-01',
        commands: 'no interface Vlan20',
      });
      expect(event?.diff).toContain('--- running-config\n+++ running-config\n@@ ');
      expect(event?.diff).toContain('\n-interface Vlan20\n- nameif iot\n');
      expect(event?.diff).toContain('\n-mtu iot 1500\n');
    });

    it('adds later changes to the same change log, and a deploy completes it; the next change opens another', async () => {
      await deleteVlan20();
      sim.clock.advance(60_000);
      const created = await api('POST', `${ASAS}/${hq}/vlaninterfaces`, {
        body: {
          vlanId: 77,
          name: 'lab',
          ipv4: { ipType: 'STATIC', ipAddress: { ipAddress: '10.77.0.1', netmask: '255.255.255.0' } },
        },
      });
      expect(created.status).toBe(201);
      const [open] = await changelogsOf(hq);
      expect(eventsOf(open).length).toBe(2);
      expect(eventsOf(open)[1]).toMatchObject({
        action: 'CREATE',
        username: 'super.admin@acme-msp.example',
        description: 'Created interface Vlan77 (lab) on asa-hq-01',
      });
      expect(eventsOf(open)[1]?.commands).toContain('interface Vlan77\nnameif lab');

      const tx = await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [hq] } });
      expect(tx.status).toBe(202);
      sim.clock.advance(120_000);
      const [done] = await changelogsOf(hq);
      expect(done).toMatchObject({ uid: open?.uid, status: 'COMPLETED' });
      const deployed = eventsOf(done)[2];
      expect(deployed).toMatchObject({ action: 'UPDATE', username: 'super.admin@acme-msp.example' });
      expect(deployed?.description).toMatch(
        /^Deployed \d+ commands to asa-hq-01 \(deployment asa-deployment-/,
      );
      expect(deployed?.commands).toContain('no interface Vlan20');
      expect(deployed?.diff).toContain('+interface Vlan77');
      expect(done?.lastEventDate).toBe(deployed?.date);

      await api('PATCH', `${ASAS}/${hq}/vlaninterfaces/${iface('asa-hq-01', 'Vlan10')}`, {
        body: { enabled: false },
      });
      const logs = await changelogsOf(hq);
      expect(logs.map((l) => l.status)).toEqual(['ACTIVE', 'COMPLETED']);
      expect(logs[0]?.uid).not.toBe(open?.uid);
    });

    it('records a deploy that fails as an ERROR event and stays ACTIVE', async () => {
      await deleteVlan20();
      await api('POST', `/_sim/devices/${hq}/connectivity`, {
        token: null,
        body: { connectivityState: 'UNREACHABLE' },
      });
      await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [hq] } });
      sim.clock.advance(120_000);
      const [log] = await changelogsOf(hq);
      expect(log?.status).toBe('ACTIVE');
      expect(eventsOf(log).at(-1)).toMatchObject({
        action: 'ERROR',
        description: expect.stringContaining('is unreachable (connectivity state UNREACHABLE)'),
      });
    });

    it('records a read of the configuration (staged changes discarded) and completes the change log', async () => {
      await deleteVlan20();
      expect((await api('POST', `${ASAS}/${hq}/read`, { token: 'sim-admin' })).status).toBe(202);
      sim.clock.advance(10_000);
      const [log] = await changelogsOf(hq);
      expect(log?.status).toBe('COMPLETED');
      const read = eventsOf(log)[1];
      expect(read).toMatchObject({ action: 'UPDATE', username: 'ops.admin@acme-msp.example' });
      expect(read?.description).toContain('staged changes were discarded');
      expect(read?.diff).toContain('+interface Vlan20');
    });

    it('reads one change log by UID; 404 for an unknown one or another tenant’s, 400 for a malformed UID', async () => {
      await deleteVlan20();
      const [log] = await changelogsOf(hq);
      const one = await api('GET', `/v1/changelogs/${str(log?.uid)}`);
      expect(one.status).toBe(200);
      expect(obj(one)).toEqual(log);
      const unknown = await api('GET', '/v1/changelogs/00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(obj(unknown).errorCode).toBe('NOT_FOUND');
      const tenantToken = sim.mintTenantToken(sim.tenantUid('northwind-us'));
      expect((await api('GET', `/v1/changelogs/${str(log?.uid)}`, { token: tenantToken })).status).toBe(404);
      expect(items(await api('GET', '/v1/changelogs', { token: tenantToken }))).toEqual([]);
      expect((await api('GET', '/v1/changelogs/not-a-uid')).status).toBe(400);
    });

    it('pages with limit and offset as strings within 0–200, searches text, and filters on event fields', async () => {
      for (const name of ['asa-hq-01', 'asa-branch-02', 'asa-dc-03']) {
        await api('POST', `/_sim/devices/${name}/stage`, {
          token: null,
          body: { username: `${name}@customer.example` },
        });
        sim.clock.advance(1_000);
      }
      const page = obj(await api('GET', '/v1/changelogs', { query: { limit: '2', offset: '1' } }));
      expect(page).toMatchObject({ count: 3, limit: 2, offset: 1 });
      expect((page.items as Record<string, unknown>[]).map((l) => l.entityName)).toEqual([
        'asa-branch-02',
        'asa-hq-01',
      ]);
      const search = items(
        await api('GET', '/v1/changelogs', { query: { searchText: 'ASA-DC-03@customer' } }),
      );
      expect(search.map((l) => l.entityName)).toEqual(['asa-dc-03']);
      const byUser = items(
        await api('GET', '/v1/changelogs', {
          query: { q: 'events.username:asa-hq-01*', searchText: 'inside' },
        }),
      );
      expect(byUser.map((l) => l.entityName)).toEqual(['asa-hq-01']);
      for (const limit of ['201', '-1', 'ten']) {
        const refused = await api('GET', '/v1/changelogs', { query: { limit } });
        expect(refused.status).toBe(400);
        expect(obj(refused)).toMatchObject({
          errorCode: 'INVALID_INPUT',
          details: { limit: expect.anything() },
        });
      }
      expect((await api('GET', '/v1/changelogs', { query: { q: 'nosuchfield:x' } })).status).toBe(400);
    });

    it('maps timeRange to lastEventDate, and refuses it beside a q on lastEventDate', async () => {
      await api('POST', '/_sim/devices/asa-hq-01/stage', { token: null, body: {} });
      sim.clock.advance(20 * 60_000);
      await api('POST', '/_sim/devices/asa-dc-03/stage', { token: null, body: {} });
      sim.clock.advance(60_000);
      const recent = (range: string) =>
        api('GET', '/v1/changelogs', { query: { timeRange: range } }).then((r) =>
          items(r).map((l) => l.entityName),
        );
      expect(await recent('5m')).toEqual(['asa-dc-03']);
      expect(await recent('30m')).toEqual(['asa-dc-03', 'asa-hq-01']);
      const both = await api('GET', '/v1/changelogs', {
        query: { timeRange: '1h', q: 'lastEventDate:[2025-06-01 TO *]' },
      });
      expect(both.status).toBe(400);
      expect(obj(both)).toMatchObject({
        errorCode: 'INVALID_INPUT',
        details: { timeRange: expect.anything() },
      });
      const range = await api('GET', '/v1/changelogs', {
        query: { q: 'lastEventDate:[2025-06-02T09:10:00Z TO *]' },
      });
      expect(items(range).map((l) => l.entityName)).toEqual(['asa-dc-03']);
      expect((await api('GET', '/v1/changelogs', { query: { timeRange: '2h' } })).status).toBe(400);
      const withOtherField = await api('GET', '/v1/changelogs', {
        query: { timeRange: '1h', q: 'status:ACTIVE' },
      });
      expect(items(withOtherField)).toHaveLength(2);
    });
  });

  describe('audit log', () => {
    it('records users added and removed through the MSP operations in the managed tenant’s log', async () => {
      const northwind = sim.tenantUid('northwind-us');
      const added = await api('POST', `/v1/msp/tenants/${northwind}/users`, {
        body: { users: [{ username: 'new.user@northwind.example', role: 'ROLE_READ_ONLY' }] },
      });
      expect(added.status).toBe(202);
      const removed = await api('POST', `/v1/msp/tenants/${northwind}/users/delete`, {
        body: { usernames: ['northwind-us-automation'] },
      });
      expect(removed.status).toBe(202);
      sim.clock.advance(20_000);
      const tenantToken = sim.mintTenantToken(northwind);
      const log = items(
        await api('GET', '/v1/auditlogs', {
          token: tenantToken,
          query: { q: 'NOT eventType:USER_LOGGED_IN' },
        }),
      );
      expect(log).toEqual([
        expect.objectContaining({
          eventType: 'USER_REMOVED_FROM_TENANT',
          username: 'northwind-us-automation',
          roles: ['ROLE_ADMIN'],
          eventDescription:
            'super.admin@acme-msp.example removed northwind-us-automation from tenant northwind-us',
        }),
        expect.objectContaining({
          eventType: 'USER_ADDED_TO_TENANT',
          username: 'new.user@northwind.example',
          roles: ['ROLE_READ_ONLY'],
        }),
      ]);
      expect(log.every((e) => typeof e.uid === 'string' && typeof e.eventTime === 'string')).toBe(true);
    });

    it('is seeded with logins, sorts, searches usernames and takes a timeRange on eventTime', async () => {
      const seeded = items(await api('GET', '/v1/auditlogs'));
      expect(seeded.map((e) => e.eventType)).toEqual(['USER_LOGGED_IN']);
      expect(seeded[0]).toMatchObject({
        username: 'super.admin@acme-msp.example',
        roles: ['ROLE_SUPER_ADMIN'],
      });
      await api('POST', '/_sim/tenants/acme-msp/logins', {
        token: null,
        body: { username: 'ops.admin@acme-msp.example' },
      });
      const recent = items(await api('GET', '/v1/auditlogs', { query: { timeRange: '5m' } }));
      expect(recent.map((e) => e.username)).toEqual(['ops.admin@acme-msp.example']);
      const ascending = items(await api('GET', '/v1/auditlogs', { query: { sort: 'eventTime:ASC' } }));
      expect(ascending.map((e) => e.username)).toEqual([
        'super.admin@acme-msp.example',
        'ops.admin@acme-msp.example',
      ]);
      expect(items(await api('GET', '/v1/auditlogs', { query: { searchText: 'OPS.ADMIN' } }))).toHaveLength(
        1,
      );
      expect(
        (await api('GET', '/v1/auditlogs', { query: { timeRange: '5m', q: 'eventTime:[* TO *]' } })).status,
      ).toBe(400);
    });

    it('refuses tokens that are not admins with 403 FORBIDDEN, and a role minted for a token is enforced', async () => {
      const readOnly = await api('GET', '/v1/auditlogs', { token: 'sim-read-only' });
      expect(readOnly.status).toBe(403);
      expect(obj(readOnly)).toMatchObject({ errorCode: 'FORBIDDEN' });
      const minted = obj(
        await api('POST', '/_sim/tokens', {
          token: null,
          body: { tenantUid: 'northwind-us', role: 'ROLE_DEPLOY_ONLY' },
        }),
      );
      expect((await api('GET', '/v1/auditlogs', { token: str(minted.token) })).status).toBe(403);
      const admin = obj(
        await api('POST', '/_sim/tokens', {
          token: null,
          body: { tenantUid: 'northwind-us', role: 'ROLE_ADMIN' },
        }),
      );
      expect((await api('GET', '/v1/auditlogs', { token: str(admin.token) })).status).toBe(200);
      // Reading the change log needs no admin.
      expect((await api('GET', '/v1/changelogs', { token: 'sim-read-only' })).status).toBe(200);
    });
  });

  describe('token', () => {
    it('says who the demo token is', async () => {
      const info = obj(await api('GET', '/v1/token', { token: 'sim-read-only' }));
      const portal = sim.state.tenants.get(sim.state.portalUid);
      expect(info).toEqual({
        uid: portal?.users.find((u) => u.username === 'auditor@acme-msp.example')?.uid,
        name: 'auditor@acme-msp.example',
        roles: ['ROLE_READ_ONLY'],
        tenantUid: sim.state.portalUid,
        tenantName: 'acme-msp',
        tenantPayType: 'PARTNER',
        enterpriseId: portal?.sccOrganizationUid,
      });
    });

    it('reports a minted token’s role, user name and expiry; 401 for an unknown token', async () => {
      const minted = obj(
        await api('POST', '/_sim/tokens', {
          token: null,
          body: {
            tenantUid: 'globex-apj',
            role: 'ROLE_READ_ONLY',
            username: 'fwbot@globex.example',
            expiresAt: '2026-01-01T00:00:00Z',
          },
        }),
      );
      expect(minted).toMatchObject({
        tenantName: 'globex-apj',
        role: 'ROLE_READ_ONLY',
        username: 'fwbot@globex.example',
      });
      const info = obj(await api('GET', '/v1/token', { token: str(minted.token) }));
      expect(info).toMatchObject({
        name: 'fwbot@globex.example',
        roles: ['ROLE_READ_ONLY'],
        tenantUid: sim.tenantUid('globex-apj'),
        tenantName: 'globex-apj',
        expiresAt: '2026-01-01T00:00:00.000Z',
      });
      expect(str(info.uid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
      const refused = await api('GET', '/v1/token', { token: 'nope' });
      expect(refused.status).toBe(401);
      expect(obj(refused)).toMatchObject({ error: 'invalid_token' });
    });
  });
});
