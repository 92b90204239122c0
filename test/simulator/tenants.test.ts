// The MSP portal: tenant creation rules (name, 409, one per 30 s with Retry-After, 100 at most), adding
// tenants by token and as existing associated tenants, removing them, users (50 at a time, asynchronous)
// and API tokens for API-only users.
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

const create = (tenantName: string, extra: Record<string, string> = {}) =>
  api('POST', '/v1/msp/tenants/create', { body: { tenantName, ...extra } });
const managedNames = async () =>
  items(await api('GET', '/v1/msp/tenants', { query: { limit: 200 } })).map((t) => t.name);

describe('tenant creation', () => {
  it('creates the tenant when its transaction is DONE, as a trial without a sales order', async () => {
    const started = await create('acme-new_1', { displayName: 'Acme New' });
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect(tx.transactionType).toBe('MSP_CREATE_TENANT');
    expect(await managedNames()).not.toContain('acme-new_1');
    sim.clock.advance(60_000);
    expect(obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`)).cdoTransactionStatus).toBe(
      'DONE',
    );
    const tenant = obj(await api('GET', `/v1/msp/tenants/${str(tx.entityUid)}`));
    expect(tenant).toMatchObject({
      name: 'acme-new_1',
      displayName: 'Acme New',
      tenantPayType: 'TRIAL',
      cdFmcType: 'UNPROVISIONED',
    });
  });

  it.each([
    ['', 'empty'],
    ['has space', 'a space'],
    ['bad!name', 'a "!"'],
    ['x'.repeat(51), '51 characters'],
  ])('refuses the name %j (%s) with 400 naming tenantName', async (name) => {
    const response = await create(name);
    expect(response.status).toBe(400);
    expect(obj(response)).toMatchObject({ errorCode: 'INVALID_INPUT' });
    expect(obj(response).details).toHaveProperty('tenantName');
  });

  it('accepts a 50-character name of letters, digits, "-" and "_"', async () => {
    expect((await create(`A-_9${'z'.repeat(46)}`)).status).toBe(202);
  });

  it('answers 409 for a name already taken, also by a creation still running (case-insensitive)', async () => {
    expect((await create('northwind-us')).status).toBe(409);
    expect(obj(await create('NORTHWIND-US')).errorCode).toBe('CONFLICT');
    expect((await create('in-flight')).status).toBe(202);
    sim.clock.advance(30_000);
    expect((await create('in-flight')).status).toBe(409);
  });

  it('allows one creation every 30 simulated seconds: 429 TOO_MANY_REQUESTS with Retry-After in between', async () => {
    expect((await create('first-one')).status).toBe(202);
    sim.clock.advance(10_000);
    const limited = await create('second-one');
    expect(limited.status).toBe(429);
    expect(obj(limited).errorCode).toBe('TOO_MANY_REQUESTS');
    expect(limited.headers['retry-after']).toBe('20');
    sim.clock.advance(19_999);
    expect((await create('second-one')).status).toBe(429);
    sim.clock.advance(1);
    expect((await create('second-one')).status).toBe(202);
  });

  it('refuses the 101st creation', async () => {
    for (let i = 1; i <= 100; i += 1) {
      expect((await create(`bulk-${i}`)).status).toBe(202);
      sim.clock.advance(30_000);
    }
    const refused = await create('bulk-101');
    expect(refused.status).toBe(400);
    expect(str(obj(refused).errorMsg)).toContain('100');
  });

  it('fails provisioning of a tenant whose name contains "fail" and frees the name', async () => {
    const tx = obj(await create('will-fail-today'));
    sim.clock.advance(60_000);
    const finished = obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`));
    expect(finished.cdoTransactionStatus).toBe('ERROR');
    expect(await managedNames()).not.toContain('will-fail-today');
    expect((await create('will-fail-today')).status).toBe(202);
  });

  it('is refused (403) to anyone but the portal super-admin', async () => {
    expect(
      (await api('POST', '/v1/msp/tenants/create', { token: 'sim-admin', body: { tenantName: 'x1' } }))
        .status,
    ).toBe(403);
    expect(
      (await api('POST', '/v1/msp/tenants/create', { token: 'sim-read-only', body: { tenantName: 'x1' } }))
        .status,
    ).toBe(403);
    const tenantToken = sim.mintTenantToken(sim.tenantUid('contoso-eu'));
    const asTenant = await api('POST', '/v1/msp/tenants/create', {
      token: tenantToken,
      body: { tenantName: 'x1' },
    });
    expect(asTenant.status).toBe(403);
    expect(obj(asTenant).errorCode).toBe('FORBIDDEN');
  });
});

describe('adding and removing tenants', () => {
  it('adds an associated tenant (MSP_ADD_EXISTING_TENANT), then answers 409 when it is in the portal', async () => {
    const stark = sim.tenantUid('stark-us');
    const started = await api('POST', `/v1/msp/tenants/${stark}`);
    expect(started.status).toBe(202);
    expect(obj(started).transactionType).toBe('MSP_ADD_EXISTING_TENANT');
    expect((await api('POST', `/v1/msp/tenants/${stark}`)).status).toBe(409);
    sim.clock.advance(30_000);
    expect(await managedNames()).toContain('stark-us');
    const again = await api('POST', `/v1/msp/tenants/${stark}`);
    expect(again.status).toBe(409);
    expect(obj(again).errorCode).toBe('CONFLICT');
    expect((await api('POST', `/v1/msp/tenants/${sim.tenantUid('northwind-us')}`)).status).toBe(409);
  });

  it('refuses add-existing (403) for a tenant the super-admin is not associated with, and to an admin', async () => {
    expect((await api('POST', `/v1/msp/tenants/${sim.tenantUid('tyrell-apj')}`)).status).toBe(403);
    expect(
      (await api('POST', `/v1/msp/tenants/${sim.tenantUid('stark-us')}`, { token: 'sim-admin' })).status,
    ).toBe(403);
  });

  it('adds a tenant by its API token (201), then 409; refuses an invalid token with 400', async () => {
    const token = sim.mintTenantToken(sim.tenantUid('tyrell-apj'));
    const added = await api('POST', '/v1/msp/tenants', { body: { apiToken: token } });
    expect(added.status).toBe(201);
    expect(obj(added)).toEqual({ status: 'OK' });
    expect(await managedNames()).toContain('tyrell-apj');
    expect((await api('POST', '/v1/msp/tenants', { body: { apiToken: token } })).status).toBe(409);
    const invalid = await api('POST', '/v1/msp/tenants', { body: { apiToken: 'no-such-token' } });
    expect(invalid.status).toBe(400);
    expect(obj(invalid).details).toHaveProperty('apiToken');
    expect(
      (await api('POST', '/v1/msp/tenants', { body: { apiToken: token }, token: 'sim-admin' })).status,
    ).toBe(403);
  });

  it('removes a tenant with 204; it leaves the portal and can be added again', async () => {
    const hooli = sim.tenantUid('hooli-uae');
    expect((await api('DELETE', `/v1/msp/tenants/${hooli}`, { token: 'sim-admin' })).status).toBe(403);
    const removed = await api('DELETE', `/v1/msp/tenants/${hooli}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await managedNames()).not.toContain('hooli-uae');
    expect((await api('GET', `/v1/msp/tenants/${hooli}`)).status).toBe(404);
    expect((await api('DELETE', `/v1/msp/tenants/${hooli}`)).status).toBe(404);
    expect((await api('POST', `/v1/msp/tenants/${hooli}`)).status).toBe(202);
  });
});

describe('tenant users', () => {
  const northwind = () => sim.tenantUid('northwind-us');
  const user = (i: number) => ({ username: `user${i}@northwind.example`, role: 'ROLE_READ_ONLY' });

  it('lists human users only', async () => {
    const users = items(await api('GET', `/v1/msp/tenants/${northwind()}/users`));
    expect(users.length).toBeGreaterThan(0);
    expect(users.every((u) => u.apiOnlyUser === false)).toBe(true);
    const all = sim.state.tenants.get(northwind())?.users ?? [];
    expect(all.some((u) => u.apiOnly)).toBe(true);
  });

  it('adds at most 50 users per call', async () => {
    const tooMany = await api('POST', `/v1/msp/tenants/${northwind()}/users`, {
      body: { users: Array.from({ length: 51 }, (_, i) => user(i)) },
    });
    expect(tooMany.status).toBe(400);
    expect(obj(tooMany).details).toHaveProperty('users');
    const fifty = await api('POST', `/v1/msp/tenants/${northwind()}/users`, {
      body: { users: Array.from({ length: 50 }, (_, i) => user(i)) },
    });
    expect(fifty.status).toBe(202);
    expect(obj(fifty).transactionType).toBe('MSP_ADD_USERS_TO_TENANT');
    sim.clock.advance(30_000);
    expect(
      obj(await api('GET', `/v1/transactions/${str(obj(fifty).transactionUid)}`)).cdoTransactionStatus,
    ).toBe('DONE');
    const names = items(
      await api('GET', `/v1/msp/tenants/${northwind()}/users`, { query: { limit: 200 } }),
    ).map((u) => u.name);
    expect(names).toContain('user49@northwind.example');
  });

  it('refuses a human user without an e-mail address and an API-only user with a first name', async () => {
    const response = await api('POST', `/v1/msp/tenants/${northwind()}/users`, {
      body: {
        users: [
          { username: 'not-an-email', role: 'ROLE_ADMIN' },
          { username: 'bot', role: 'ROLE_ADMIN', apiOnlyUser: true, firstName: 'Bot' },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(Object.keys(obj(response).details as object)).toEqual(['users.0.username', 'users.1.firstName']);
  });

  it('ends the transaction in ERROR, adding nobody, when a user already exists', async () => {
    const existing = sim.state.tenants.get(northwind())?.users[0]?.username ?? '';
    const tx = obj(
      await api('POST', `/v1/msp/tenants/${northwind()}/users`, {
        body: { users: [user(1), { username: existing, role: 'ROLE_ADMIN' }] },
      }),
    );
    sim.clock.advance(30_000);
    const finished = obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`));
    expect(finished.cdoTransactionStatus).toBe('ERROR');
    expect(finished.errorDetails).toEqual({ [existing]: 'already exists' });
    expect(
      sim.state.tenants.get(northwind())?.users.some((u) => u.username === 'user1@northwind.example'),
    ).toBe(false);
  });

  it('removes at most 50 users per call, and fails for unknown usernames', async () => {
    const tooMany = await api('POST', `/v1/msp/tenants/${northwind()}/users/delete`, {
      body: { usernames: Array.from({ length: 51 }, (_, i) => `u${i}`) },
    });
    expect(tooMany.status).toBe(400);
    const unknown = obj(
      await api('POST', `/v1/msp/tenants/${northwind()}/users/delete`, {
        body: { usernames: ['nobody@x.example'] },
      }),
    );
    const victim = sim.state.tenants.get(northwind())?.users[1]?.username ?? '';
    const ok = obj(
      await api('POST', `/v1/msp/tenants/${northwind()}/users/delete`, { body: { usernames: [victim] } }),
    );
    sim.clock.advance(30_000);
    expect(
      obj(await api('GET', `/v1/transactions/${str(unknown.transactionUid)}`)).cdoTransactionStatus,
    ).toBe('ERROR');
    expect(obj(await api('GET', `/v1/transactions/${str(ok.transactionUid)}`)).cdoTransactionStatus).toBe(
      'DONE',
    );
    expect(sim.state.tenants.get(northwind())?.users.some((u) => u.username === victim)).toBe(false);
  });

  it('are refused to read-only users (403)', async () => {
    const response = await api('POST', `/v1/msp/tenants/${northwind()}/users`, {
      token: 'sim-read-only',
      body: { users: [user(1)] },
    });
    expect(response.status).toBe(403);
  });
});

describe('API tokens', () => {
  it('are generated for API-only users (201), work as that user, and revoke the previous one', async () => {
    const tenant = sim.state.tenants.get(sim.tenantUid('northwind-us'));
    const bot = tenant?.users.find((u) => u.apiOnly);
    const path = `/v1/msp/tenants/${tenant?.uid}/users/${bot?.uid}/token`;
    const first = await api('POST', path);
    expect(first.status).toBe(201);
    const token = str(obj(first).apiToken);
    expect(token.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ parentId: tenant?.uid, roles: [bot?.role] });
    expect((await api('GET', '/v1/inventory/devices', { token })).status).toBe(200);
    const second = str(obj(await api('POST', path)).apiToken);
    expect((await api('GET', '/v1/inventory/devices', { token })).status).toBe(401);
    expect((await api('GET', '/v1/inventory/devices', { token: second })).status).toBe(200);
  });

  it('are refused with 400 for a user that is not API-only, and 404 for an unknown user', async () => {
    const tenant = sim.state.tenants.get(sim.tenantUid('northwind-us'));
    const human = tenant?.users.find((u) => !u.apiOnly);
    const refused = await api('POST', `/v1/msp/tenants/${tenant?.uid}/users/${human?.uid}/token`);
    expect(refused.status).toBe(400);
    expect(obj(refused).details).toHaveProperty('apiUserUid');
    expect(
      (await api('POST', `/v1/msp/tenants/${tenant?.uid}/users/6e3492c6-083a-4ead-9da9-cd2db32a965d/token`))
        .status,
    ).toBe(404);
  });
});
