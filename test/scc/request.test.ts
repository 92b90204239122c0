// How the client writes requests on the wire: headers, path escaping, every kind of query parameter, and
// input refused before anything is sent. Checked on a real local HTTP server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SccInputError } from '../../src/scc/errors.js';
import { USER_AGENT } from '../../src/scc/http.js';
import {
  clientOf,
  DEVICE,
  DEVICE_UID,
  type FakeScc,
  INTERFACE_UID,
  inOrder,
  startFakeScc,
  TENANT_UID,
  TEST_TOKEN,
} from './fakeScc.js';

const PAGE = { count: 0, limit: 50, offset: 0, items: [] };
const TRANSACTION = {
  transactionUid: '11111111-2222-3333-4444-555555555555',
  cdoTransactionStatus: 'PENDING',
};

let fake: FakeScc;
afterEach(async () => {
  await fake.close();
});

describe('request headers', () => {
  beforeEach(async () => {
    fake = await startFakeScc(inOrder({ status: 200, body: PAGE }));
  });

  it('sends the bearer token, asks for JSON and names itself fwbot/<version>', async () => {
    const { client } = clientOf(fake);

    await client.devices.list();

    const headers = fake.requests[0]?.headers;
    expect(headers?.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(headers?.accept).toBe('application/json');
    expect(headers?.['user-agent']).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^fwbot\/\d+\.\d+\.\d+/);
    await client.close();
  });

  it('sends a JSON body with its content type, and none on reads', async () => {
    fake = await startFakeScc(inOrder({ status: 202, body: TRANSACTION }));
    const { client } = clientOf(fake);

    await client.tenants.create({ tenantName: 'acme-prod', displayName: 'Acme production' });
    await client.devices.get(DEVICE_UID).catch(() => undefined);

    const [create, read] = fake.requests;
    expect(create?.headers['content-type']).toBe('application/json');
    expect(create?.body).toEqual({ tenantName: 'acme-prod', displayName: 'Acme production' });
    expect(read?.headers['content-type']).toBeUndefined();
    expect(read?.rawBody).toBe('');
    await client.close();
  });

  it('keeps the base URL path (/firewall) in front of every operation path', async () => {
    const { client } = clientOf(fake);

    await client.devices.list();

    expect(fake.requests[0]?.path).toBe('/firewall/v1/inventory/devices');
    await client.close();
  });
});

describe('path parameters', () => {
  beforeEach(async () => {
    fake = await startFakeScc(inOrder({ status: 200, body: DEVICE }));
  });

  it('percent-encodes each value so it stays one path segment', async () => {
    const { client } = clientOf(fake);

    await client.devices.get('a/b?c#d%e f');

    expect(fake.requests[0]?.apiPath).toBe('/v1/inventory/devices/a%2Fb%3Fc%23d%25e%20f');
    await client.close();
  });

  it('fills several parameters in their places', async () => {
    const { client } = clientOf(fake);

    await client.interfaces.vlan.get(DEVICE_UID, INTERFACE_UID);

    expect(fake.requests[0]?.apiPath).toBe(
      `/v1/inventory/devices/asas/${DEVICE_UID}/vlaninterfaces/${INTERFACE_UID}`,
    );
    await client.close();
  });

  it('refuses an empty value, "." and "..", without sending anything', async () => {
    const { client } = clientOf(fake);

    for (const bad of ['', '.', '..']) {
      await expect(client.devices.get(bad)).rejects.toBeInstanceOf(SccInputError);
    }

    expect(fake.requests).toHaveLength(0);
    await client.close();
  });
});

describe('query parameters', () => {
  beforeEach(async () => {
    fake = await startFakeScc(inOrder({ status: 200, body: PAGE }));
  });

  it('sends limit and offset as integer text', async () => {
    const { client } = clientOf(fake);

    await client.devices.list({ limit: 25, offset: 75 });

    expect(fake.requests[0]?.rawQuery).toBe('limit=25&offset=75');
    await client.close();
  });

  it('repeats sort once per order, in the order given', async () => {
    const { client } = clientOf(fake);

    await client.devices.list({ sort: ['name:ASC', 'connectivityState:DESC'] });

    expect(fake.requests[0]?.query.getAll('sort')).toEqual(['name:ASC', 'connectivityState:DESC']);
    expect(fake.requests[0]?.rawQuery).toBe('sort=name%3AASC&sort=connectivityState%3ADESC');
    await client.close();
  });

  it('repeats deviceUids once per device (the product calls the argument device_uids)', async () => {
    const second = '0b6a3c1e-9f3c-4d65-a0a4-0c2c8e6a1f00';
    const { client } = clientOf(fake);

    await client.secureClient.asaCompatibleVersions([DEVICE_UID, second], { limit: 10 });

    expect(fake.requests[0]?.rawQuery).toBe(`deviceUids=${DEVICE_UID}&deviceUids=${second}&limit=10`);
    await client.close();
  });

  it('carries a Lucene query with its special characters intact', async () => {
    const lucene = 'name:*fw-01* AND lastUpdated:[2024-01-01 TO *} OR model:"ASA 5516" && !x^2~ (a+b)/c';
    const { client } = clientOf(fake);

    await client.devices.list({ q: lucene });

    const request = fake.requests[0];
    expect(request?.query.get('q')).toBe(lucene);
    // Spaces and plus signs must not be confused: a space is %20, a plus is %2B.
    expect(request?.rawQuery).toContain('%20AND%20');
    expect(request?.rawQuery).toContain('(a%2Bb)');
    await client.close();
  });

  it('leaves out parameters that are undefined', async () => {
    const { client } = clientOf(fake);

    await client.devices.list({ q: undefined, limit: 5 });

    expect(fake.requests[0]?.rawQuery).toBe('limit=5');
    await client.close();
  });

  it('sends booleans as text through the generic call', async () => {
    fake = await startFakeScc(inOrder({ status: 200, body: { status: 'pending', requestId: 'r-1' } }));
    const { client } = clientOf(fake);

    await client.call('executeDeviceCommand', {
      body: { deviceUid: DEVICE_UID, request: { commands: [{ method: 'GET', link: '/api/x' }] } },
      query: { async: true },
    });

    expect(fake.requests[0]?.rawQuery).toBe('async=true');
    await client.close();
  });

  it('appends the gateway async flag only when asked to', async () => {
    fake = await startFakeScc(inOrder({ status: 200, body: { status: 'pending', requestId: 'r-1' } }));
    const { client } = clientOf(fake);
    const commands = [{ method: 'GET', link: '/api/fmc_config/v1/domain' }];

    await client.gateway.execute(DEVICE_UID, commands, { async: true });
    await client.gateway.execute(DEVICE_UID, commands);
    await client.gateway.execute(DEVICE_UID, commands, { async: false });

    expect(fake.requests.map((r) => r.rawQuery)).toEqual(['async=true', '', '']);
    expect(fake.requests[0]?.body).toEqual({ deviceUid: DEVICE_UID, request: { commands } });
    await client.close();
  });
});

describe('input refused before sending', () => {
  beforeEach(async () => {
    fake = await startFakeScc(inOrder({ status: 202, body: TRANSACTION }));
  });

  it('refuses a tenant name outside [a-zA-Z0-9-_]{1,50}, naming the field', async () => {
    const { client } = clientOf(fake);

    const error = await client.tenants.create({ tenantName: 'acme prod!' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SccInputError);
    expect((error as SccInputError).issues[0]).toMatch(/^body\.tenantName: /);
    expect((error as SccInputError).message).toMatch(/^createTenant: request not sent: body\.tenantName/);
    expect(fake.requests).toHaveLength(0);
    await client.close();
  });

  it('refuses an unknown role and more than 50 users', async () => {
    const { client } = clientOf(fake);
    const user = { username: 'ann@example.com', role: 'ROLE_READ_ONLY' as const };

    await expect(
      // @ts-expect-error: the role is not one of UserRole's values
      client.tenants.users.add(TENANT_UID, [{ username: 'bob@example.com', role: 'ROLE_GOD' }]),
    ).rejects.toThrow(/body\.users\[0\]\.role/);
    await expect(client.tenants.users.add(TENANT_UID, Array(51).fill(user))).rejects.toThrow(/body\.users: /);

    expect(fake.requests).toHaveLength(0);
    await client.close();
  });

  it('refuses a gateway request without commands', async () => {
    const { client } = clientOf(fake);

    await expect(client.gateway.execute(DEVICE_UID, [])).rejects.toThrow(/body\.request\.commands/);

    expect(fake.requests).toHaveLength(0);
    await client.close();
  });

  it('refuses limit above 200 or negative, and offset that is not an integer', async () => {
    const { client } = clientOf(fake);

    await expect(client.devices.list({ limit: 500 })).rejects.toThrow(/limit: /);
    await expect(client.devices.list({ limit: -1 })).rejects.toThrow(/limit: /);
    await expect(client.devices.list({ offset: 1.5 })).rejects.toThrow(/offset: /);

    expect(fake.requests).toHaveLength(0);
    await client.close();
  });

  it('refuses deviceUids that are empty, not UUIDs, repeated or more than 50', async () => {
    const { client } = clientOf(fake);
    const many = Array.from(
      { length: 51 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );

    await expect(client.secureClient.ftdCompatibleVersions([])).rejects.toThrow(/deviceUids is required/);
    await expect(client.secureClient.ftdCompatibleVersions(['fw-01'])).rejects.toThrow(/deviceUids\[0\]/);
    await expect(client.secureClient.ftdCompatibleVersions([DEVICE_UID, DEVICE_UID])).rejects.toThrow(
      /must not repeat/,
    );
    await expect(client.secureClient.ftdCompatibleVersions(many)).rejects.toThrow(/deviceUids: /);

    expect(fake.requests).toHaveLength(0);
    await client.close();
  });

  it('refuses query parameters and bodies the operation does not take', async () => {
    const { client } = clientOf(fake);
    const loose = client.call as (id: string, params: Record<string, unknown>) => Promise<unknown>;

    await expect(loose('getDevice', { path: { deviceUid: DEVICE_UID }, query: { q: 'x' } })).rejects.toThrow(
      /getDevice takes no query parameter q/,
    );
    await expect(loose('getDevice', { path: { deviceUid: DEVICE_UID }, body: {} })).rejects.toThrow(
      /takes no request body/,
    );
    await expect(loose('getDevice', {})).rejects.toThrow(/deviceUid is required/);

    expect(fake.requests).toHaveLength(0);
    await client.close();
  });
});
