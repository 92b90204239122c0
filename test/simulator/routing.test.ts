// The HTTP edge: bearer tokens (401 with SCC's AuthenticationError body), the role rules (403), unknown
// routes (404), wrong methods (405 with Allow), malformed bodies (400), tenant scoping of the inventory,
// and a seed that always produces the same world.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { startSimulator } from '../../src/simulator/index.js';
import { type CallOptions, call, items, obj, type RawResponse, simulator } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;

beforeEach(async () => {
  ({ sim, api } = await simulator());
});
afterEach(async () => {
  await sim.stop();
});

describe('authentication', () => {
  it.each([
    ['no Authorization header', null],
    ['an unknown token', 'not-a-token'],
  ])('answers 401 with an AuthenticationError body for %s', async (_what, token) => {
    const response = await api('GET', '/v1/inventory/devices', { token });
    expect(response.status).toBe(401);
    expect(obj(response)).toEqual({ error: 'invalid_token', errorDescription: expect.any(String) });
    expect(response.headers['www-authenticate']).toContain('Bearer');
  });

  it('accepts the three demo tokens for reads', async () => {
    for (const token of ['sim-super-admin', 'sim-admin', 'sim-read-only']) {
      expect((await api('GET', '/v1/msp/tenants', { token })).status).toBe(200);
    }
  });
});

describe('role rules', () => {
  it('refuse every change to the read-only user with 403 FORBIDDEN', async () => {
    const asa = sim.deviceUid('asa-hq-01');
    const northwind = sim.tenantUid('northwind-us');
    const vlan = [...sim.state.interfaces.values()].find(
      (i) => i.deviceUid === asa && i.hardwareName === 'Vlan10',
    )?.uid;
    const changes: [string, string, unknown][] = [
      ['POST', `/v1/msp/tenants/${northwind}/mcd`, undefined],
      ['POST', `/v1/msp/tenants/${northwind}/cdfmc`, undefined],
      ['POST', `/v1/msp/tenants/${northwind}/users/delete`, { usernames: [] }],
      ['PATCH', `/v1/inventory/devices/asas/${asa}/vlaninterfaces/${vlan}`, { mtu: 1400 }],
      [
        'POST',
        '/v1/inventory/devices/ftds/secure-client/upgrades',
        { deviceUids: [sim.deviceUid('ftd-edge-01')], version: '5.0.05040' },
      ],
    ];
    for (const [method, path, body] of changes) {
      const response = await api(method, path, {
        token: 'sim-read-only',
        ...(body === undefined ? {} : { body }),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(obj(response).errorCode).toBe('FORBIDDEN');
    }
  });

  it('let an admin change devices and users but not create, add or remove tenants', async () => {
    const northwind = sim.tenantUid('northwind-us');
    expect((await api('POST', `/v1/msp/tenants/${northwind}/mcd`, { token: 'sim-admin' })).status).toBe(202);
    expect(
      (await api('POST', '/v1/msp/tenants/create', { token: 'sim-admin', body: { tenantName: 'x' } })).status,
    ).toBe(403);
    expect((await api('DELETE', `/v1/msp/tenants/${northwind}`, { token: 'sim-admin' })).status).toBe(403);
  });

  it('refuse MSP operations to a token of a tenant that is not a portal', async () => {
    const token = sim.mintTenantToken(sim.tenantUid('contoso-eu'));
    const response = await api('GET', '/v1/msp/tenants', { token });
    expect(response.status).toBe(403);
    expect(obj(response).errorMsg).toContain('not an MSP portal');
  });

  it("scope the inventory to the caller's tenant", async () => {
    const token = sim.mintTenantToken(sim.tenantUid('contoso-eu'));
    expect(obj(await api('GET', '/v1/inventory/devices', { token })).count).toBe(0);
    expect((await api('GET', `/v1/inventory/devices/${sim.deviceUid('asa-hq-01')}`, { token })).status).toBe(
      404,
    );
  });
});

describe('routes', () => {
  it('answer 404 NOT_FOUND for an unknown path', async () => {
    const response = await api('GET', '/v1/nothing/here');
    expect(response.status).toBe(404);
    expect(obj(response)).toMatchObject({
      errorCode: 'NOT_FOUND',
      errorMsg: expect.stringContaining('/v1/nothing/here'),
    });
  });

  it('answer 405 METHOD_NOT_ALLOWED with Allow for a known path and the wrong method', async () => {
    const response = await api('DELETE', '/v1/inventory/devices');
    expect(response.status).toBe(405);
    expect(obj(response).errorCode).toBe('METHOD_NOT_ALLOWED');
    expect(response.headers.allow).toBe('GET');
    expect((await api('PUT', '/v1/msp/tenants')).headers.allow).toBe('GET, POST');
  });

  it('prefer literal segments: /tenants/create is tenant creation, /runs/attribute-values is not a run', async () => {
    expect(
      (await api('POST', '/v1/msp/tenants/create', { body: { tenantName: 'literal-wins' } })).status,
    ).toBe(202);
    expect(
      (await api('GET', '/v1/inventory/devices/secure-client/upgrades/runs/attribute-values')).status,
    ).toBe(200);
  });

  it('answer 400 for malformed JSON and for a missing required body', async () => {
    const malformed = await api('POST', '/v1/msp/tenants/create', { rawBody: '{"tenantName":' });
    expect(malformed.status).toBe(400);
    expect(obj(malformed).errorCode).toBe('INVALID_INPUT');
    const missing = await api('POST', '/v1/msp/tenants/create');
    expect(missing.status).toBe(400);
    expect(obj(missing).details).toHaveProperty('body');
  });

  it('answer 400 with every offending field of a body named in details', async () => {
    const northwind = sim.tenantUid('northwind-us');
    const response = await api('POST', `/v1/msp/tenants/${northwind}/users`, {
      body: { users: [{ username: '', role: 'ROLE_KING' }] },
    });
    expect(response.status).toBe(400);
    expect(Object.keys(obj(response).details as object).sort()).toEqual(['users.0.role', 'users.0.username']);
  });
});

describe('seeds', () => {
  it('give the same world for the same seed name and another for another name', async () => {
    const again = await startSimulator();
    const other = await startSimulator({ seed: 'other' });
    try {
      const uids = (s: SimulatorHandle) => [...s.state.devices.keys(), ...s.state.tenants.keys()];
      expect(uids(again)).toEqual(uids(sim));
      expect(uids(other)).not.toEqual(uids(sim));
      expect([...other.state.devices.values()].map((d) => d.device.name)).toEqual(
        [...sim.state.devices.values()].map((d) => d.device.name),
      );
    } finally {
      await again.stop();
      await other.stop();
    }
  });

  it('give the same answers to the same requests', async () => {
    const twin = await startSimulator();
    try {
      const body = { tenantName: 'twin' };
      const a = obj(await api('POST', '/v1/msp/tenants/create', { body }));
      const b = obj(await call(twin.url, 'POST', '/v1/msp/tenants/create', { body }));
      expect(b.transactionUid).toBe(a.transactionUid);
      expect(b.entityUid).toBe(a.entityUid);
    } finally {
      await twin.stop();
    }
  });

  it('hold a portal with managed tenants in six regions and tenants not yet in the portal', async () => {
    const managed = items(await api('GET', '/v1/msp/tenants'));
    expect(new Set(managed.map((t) => t.region))).toEqual(new Set(['US', 'EU', 'APJ', 'AUS', 'IN', 'UAE']));
    const waiting = [...sim.state.tenants.values()].filter((t) => !t.inPortal && !t.isPortal);
    expect(waiting.map((t) => [t.name, t.associated])).toEqual([
      ['stark-us', true],
      ['wayne-eu', true],
      ['tyrell-apj', false],
    ]);
  });
});
