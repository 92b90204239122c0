// The client's behaviour on the network, against a real local server: retries and their limits per method
// and status, Retry-After, timeouts, how failures become errors, and the onCall and logger hooks.
import { createServer } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createSccClient } from '../../src/scc/client.js';
import { SccApiError, SccNetworkError, SccResponseError } from '../../src/scc/errors.js';
import type { SccCallEvent } from '../../src/scc/http.js';
import {
  clientOf,
  DEVICE,
  DEVICE_UID,
  type FakeScc,
  inOrder,
  startFakeScc,
  TENANT_UID,
  TEST_TOKEN,
} from './fakeScc.js';

const PAGE = { count: 1, limit: 50, offset: 0, items: [DEVICE] };
const TRANSACTION = {
  transactionUid: '11111111-2222-3333-4444-555555555555',
  cdoTransactionStatus: 'PENDING',
};
const serverError = { status: 500, body: { errorCode: 'SERVER_ERROR', errorMsg: 'Internal error' } };

let fake: FakeScc | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function serve(...replies: Parameters<typeof inOrder>): Promise<FakeScc> {
  fake = await startFakeScc(inOrder(...replies));
  return fake;
}

describe('retries of reads', () => {
  it('retries a GET after 5xx with jittered exponential backoff until it succeeds', async () => {
    const server = await serve(
      serverError,
      { status: 502, text: 'bad gateway' },
      { status: 200, body: PAGE },
    );
    const { client, sleeps } = clientOf(server);

    const page = await client.devices.list();

    expect(page.items?.[0]?.name).toBe('fw-01');
    expect(server.requests).toHaveLength(3);
    // random() = 0.5: half of 250 ms, then half of 500 ms.
    expect(sleeps).toEqual([125, 250]);
    await client.close();
  });

  it('gives up after maxAttempts and says how many it made', async () => {
    const server = await serve({ status: 503, body: { errorCode: 'SERVER_ERROR', errorMsg: 'Unavailable' } });
    const { client, sleeps } = clientOf(server);

    const error = await client.devices.list().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SccApiError);
    expect(error).toMatchObject({ status: 503, attempts: 4, notRetriedBecause: 'gave up after 4 attempts' });
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toEqual([125, 250, 500]);
    await client.close();
  });

  it('takes the number of attempts and the delays from the options', async () => {
    const server = await serve(serverError);
    const { client, sleeps } = clientOf(server, {
      retry: { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 1_500, random: () => 1 },
    });

    await expect(client.devices.list()).rejects.toBeInstanceOf(SccApiError);

    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([1_000, 1_500]);
    await client.close();
  });

  it('retries a GET after 429, waiting the Retry-After seconds', async () => {
    const server = await serve(
      {
        status: 429,
        body: { errorCode: 'TOO_MANY_REQUESTS', errorMsg: 'Slow down' },
        headers: { 'retry-after': '2' },
      },
      { status: 200, body: PAGE },
    );
    const { client, sleeps } = clientOf(server);

    await client.devices.list();

    expect(sleeps).toEqual([2_000]);
    await client.close();
  });

  it('does not retry a GET answered 404', async () => {
    const server = await serve({ status: 404, body: { errorCode: 'NOT_FOUND', errorMsg: 'No such device' } });
    const { client, sleeps } = clientOf(server);

    await expect(client.devices.get(DEVICE_UID)).rejects.toMatchObject({
      status: 404,
      errorCode: 'NOT_FOUND',
    });

    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    await client.close();
  });

  it('retries a GET whose connection dropped', async () => {
    const server = await serve({ drop: true }, { status: 200, body: DEVICE });
    const { client } = clientOf(server);

    await expect(client.devices.get(DEVICE_UID)).resolves.toMatchObject({ name: 'fw-01' });

    expect(server.requests).toHaveLength(2);
    await client.close();
  });

  it('retries a GET when nothing listens, then reports a connection error', async () => {
    const { client, sleeps } = clientOf({
      baseUrl: `http://127.0.0.1:${await freePort()}/firewall`,
    } as FakeScc);

    const error = await client.devices.list().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SccNetworkError);
    expect(error).toMatchObject({ kind: 'connection', attempts: 4, mayHaveBeenProcessed: false });
    expect((error as SccNetworkError).message).toMatch(/could not reach SCC \(ECONNREFUSED\)/);
    expect(sleeps).toHaveLength(3);
    await client.close();
  });
});

describe('retries of writes', () => {
  it('retries a POST answered 503 with Retry-After as an HTTP date, resending the same body', async () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    const server = await serve(
      {
        status: 503,
        body: { errorCode: 'SERVER_ERROR' },
        headers: { 'retry-after': 'Sat, 01 Mar 2025 12:00:03 GMT' },
      },
      { status: 202, body: TRANSACTION },
    );
    const { client, sleeps } = clientOf(server, { retry: { now: () => now } });

    await client.tenants.create({ tenantName: 'acme' });

    expect(sleeps).toEqual([3_000]);
    expect(server.requests.map((r) => r.body)).toEqual([{ tenantName: 'acme' }, { tenantName: 'acme' }]);
    await client.close();
  });

  it('retries a DELETE answered 429 with Retry-After', async () => {
    const server = await serve({ status: 429, headers: { 'retry-after': '1' } }, { status: 204 });
    const { client, sleeps } = clientOf(server);

    await expect(client.tenants.remove(TENANT_UID)).resolves.toBeUndefined();

    expect(sleeps).toEqual([1_000]);
    await client.close();
  });

  it('does not retry a POST answered 429 or 503 without Retry-After', async () => {
    const server = await serve({
      status: 429,
      body: { errorCode: 'TOO_MANY_REQUESTS', errorMsg: 'Too many' },
    });
    const { client } = clientOf(server);

    const error = await client.tenants.create({ tenantName: 'acme' }).catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 429, mayHaveBeenProcessed: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('does not retry a POST answered 500, and says it may have been applied', async () => {
    const server = await serve(serverError);
    const { client, sleeps } = clientOf(server);

    const error = (await client.tenants
      .create({ tenantName: 'acme' })
      .catch((e: unknown) => e)) as SccApiError;

    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(error.message).toBe(
      'createTenant (POST /firewall/v1/msp/tenants/create) failed: 500 SERVER_ERROR: Internal error; not retried because it may have been applied',
    );
    expect(error.userMessage()).toBe(
      'SCC could not handle the request (500 SERVER_ERROR): Internal error. It may still have been applied: check before trying again.',
    );
    await client.close();
  });

  it('does not wait for a Retry-After above the maximum: it fails with that error at once', async () => {
    const server = await serve({
      status: 429,
      body: { errorCode: 'TOO_MANY_REQUESTS' },
      headers: { 'retry-after': '600' },
    });
    const { client, sleeps } = clientOf(server, { retry: { maxRetryAfterMs: 30_000 } });

    const error = (await client.devices.list().catch((e: unknown) => e)) as SccApiError;

    expect(sleeps).toEqual([]);
    expect(error.retryAfterMs).toBe(600_000);
    expect(error.notRetriedBecause).toBe('SCC asked to wait 600 s, more than the 30 s allowed');
    expect(error.userMessage()).toBe(
      'SCC is limiting the rate of requests (429 TOO_MANY_REQUESTS). Try again in 600 s.',
    );
    await client.close();
  });

  it('does not retry a POST whose connection dropped', async () => {
    const server = await serve({ drop: true });
    const { client } = clientOf(server);

    const error = await client.tenants.create({ tenantName: 'acme' }).catch((e: unknown) => e);

    expect(error).toMatchObject({ kind: 'connection', mayHaveBeenProcessed: true, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    await client.close();
  });
});

describe('timeouts', () => {
  it('ends a call that gets no answer within its per-call timeout', async () => {
    const server = await serve({ hang: true });
    const { client } = clientOf(server, { retry: { maxAttempts: 1 } });

    const error = (await client.devices
      .get(DEVICE_UID, { timeoutMs: 100 })
      .catch((e: unknown) => e)) as SccNetworkError;

    expect(error).toBeInstanceOf(SccNetworkError);
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 100 });
    expect(error.userMessage()).toBe('SCC did not answer within 100 ms.');
    await client.close();
  });

  it('retries a GET that timed out', async () => {
    const server = await serve({ hang: true }, { status: 200, body: DEVICE });
    const { client, sleeps } = clientOf(server);

    await expect(client.devices.get(DEVICE_UID, { timeoutMs: 100 })).resolves.toMatchObject({
      name: 'fw-01',
    });

    expect(server.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    await client.close();
  });

  it('does not retry a POST that timed out, and says why', async () => {
    const server = await serve({ hang: true });
    const { client } = clientOf(server);

    const error = (await client.tenants
      .create({ tenantName: 'acme' }, { timeoutMs: 100 })
      .catch((e: unknown) => e)) as SccNetworkError;

    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'timeout', mayHaveBeenProcessed: true, attempts: 1 });
    expect(error.message).toBe(
      'createTenant (POST /firewall/v1/msp/tenants/create) failed: no answer within 100 ms; not retried because it may have been applied',
    );
    expect(error.userMessage()).toBe(
      'SCC did not answer within 100 ms. It may still have been applied: check before trying again.',
    );
    await client.close();
  });

  it('takes the default timeout from the client options', async () => {
    const server = await serve({ hang: true });
    const { client } = clientOf(server, { timeouts: { defaultMs: 100 }, retry: { maxAttempts: 1 } });

    await expect(client.devices.list()).rejects.toMatchObject({ kind: 'timeout', timeoutMs: 100 });
    await client.close();
  });

  it('gives a synchronous gateway command 75 s and an async one the default, as configured', async () => {
    const server = await serve({ status: 200, body: { status: 'responded', requestId: 'r-1' } });
    const seen = recordingDispatcher();
    const { client } = clientOf(server, { dispatcher: seen.dispatcher });
    const commands = [{ method: 'GET', link: '/api/fmc_config/v1/domain' }];

    await client.gateway.execute(DEVICE_UID, commands);
    await client.gateway.execute(DEVICE_UID, commands, { async: true });
    await client.gateway.execute(DEVICE_UID, commands, { timeoutMs: 5_000 });

    expect(client.timeouts.gatewaySyncMs).toBe(75_000);
    expect(seen.headersTimeouts).toEqual([75_000, 30_000, 5_000]);
    await client.close();
    await seen.close();
  });

  it('stops at once when the caller aborts', async () => {
    const server = await serve({ hang: true });
    const { client } = clientOf(server);
    const controller = new AbortController();

    const pending = client.devices.list({}, { signal: controller.signal });
    controller.abort();

    await expect(pending).rejects.toMatchObject({ kind: 'aborted', attempts: 1 });
    await client.close();
  });
});

describe('error answers', () => {
  it("carries SCC's errorCode, errorMsg and details, and reads as a refusal to users", async () => {
    const details = { tenantName: { reason: 'duplicate' } };
    const server = await serve({
      status: 409,
      body: { errorCode: 'CONFLICT', errorMsg: 'A tenant with this name already exists', details },
    });
    const { client } = clientOf(server);

    const error = (await client.tenants
      .create({ tenantName: 'acme' })
      .catch((e: unknown) => e)) as SccApiError;

    expect(error).toBeInstanceOf(SccApiError);
    expect(error).toMatchObject({
      status: 409,
      errorCode: 'CONFLICT',
      errorMsg: 'A tenant with this name already exists',
      details,
      operationId: 'createTenant',
      method: 'POST',
      path: '/firewall/v1/msp/tenants/create',
      mayHaveBeenProcessed: false,
      safeForUser: true,
    });
    expect(error.userMessage()).toBe(
      'SCC refused the request (409 CONFLICT): A tenant with this name already exists',
    );
    await client.close();
  });

  it('reads a 401 AuthenticationError body', async () => {
    const server = await serve({
      status: 401,
      body: { error: 'invalid_token', errorDescription: 'Token expired' },
    });
    const { client } = clientOf(server);

    const error = (await client.devices.list().catch((e: unknown) => e)) as SccApiError;

    expect(error.errorMsg).toBe('Token expired');
    expect(error.userMessage()).toBe('SCC refused the request (401 UNAUTHORIZED): Token expired');
    await client.close();
  });

  it('keeps the start of a body that is not JSON (a proxy page) for the log', async () => {
    const server = await serve({ status: 502, text: '<html><body>Bad Gateway</body></html>' });
    const { client } = clientOf(server, { retry: { maxAttempts: 1 } });

    const error = (await client.devices.list().catch((e: unknown) => e)) as SccApiError;

    expect(error.errorCode).toBeUndefined();
    expect(error.rawBody).toBe('<html><body>Bad Gateway</body></html>');
    expect(error.message).toMatch(
      /failed: 502 Bad Gateway: the answer was not SCC JSON; gave up after 1 attempt$/,
    );
    expect(error.userMessage()).toBe('SCC could not handle the request (502 BAD_GATEWAY).');
    expect(error.safeForUser).toBe(false);
    await client.close();
  });

  it('names the path without the query string', async () => {
    const server = await serve({
      status: 400,
      body: { errorCode: 'BAD_REQUEST', errorMsg: 'name is not searchable' },
    });
    const { client } = clientOf(server);

    const error = (await client.devices
      .list({ q: 'name:secret-project*' })
      .catch((e: unknown) => e)) as SccApiError;

    expect(error.path).toBe('/firewall/v1/inventory/devices');
    expect(error.message).not.toContain('secret-project');
    await client.close();
  });
});

describe('success answers', () => {
  it('names the operation and the field when a body does not match the model', async () => {
    const server = await serve({
      status: 200,
      body: { count: 1, items: [{ name: 'acme', displayName: 'Acme', region: 'US' }] },
    });
    const { client } = clientOf(server);

    const error = await client.tenants.list().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SccResponseError);
    expect((error as SccResponseError).message).toBe(
      'getMspManagedTenants: response field items[0].uid is required',
    );
    await client.close();
  });

  it('says what is wrong with a field of the wrong type, without echoing its value', async () => {
    const server = await serve({ status: 201, body: { apiToken: 12345 } });
    const { client } = clientOf(server);

    const error = (await client.tenants
      .generateApiToken(TENANT_UID, DEVICE_UID)
      .catch((e: unknown) => e)) as Error;

    expect(error.message).toBe(
      'generateApiTokenForUserInTenant: response field apiToken expected string, received number',
    );
    await client.close();
  });

  it('refuses a success body that is not JSON, and a success status the reference does not declare', async () => {
    const server = await serve({ status: 200, text: 'OK' }, { status: 200, body: TRANSACTION });
    const { client } = clientOf(server);

    await expect(client.devices.list()).rejects.toThrow('getDevices: response body is not JSON');
    await expect(client.tenants.create({ tenantName: 'acme' })).rejects.toThrow(
      'createTenant: response status 200 is not one the reference declares (202)',
    );
    await client.close();
  });

  it('answers undefined for 204 and tells 200 from 202 where both are declared', async () => {
    const server = await serve(
      { status: 204 },
      { status: 202, body: TRANSACTION },
      { status: 200, body: { ...TRANSACTION, cdoTransactionStatus: 'DONE' } },
    );
    const { client } = clientOf(server);

    const removed = await client.call('deleteAsaVlanInterface', {
      path: { deviceUid: DEVICE_UID, interfaceUid: DEVICE_UID },
    });
    const running = await client.call('getTransaction', {
      path: { transactionUid: TRANSACTION.transactionUid },
    });
    const finished = await client.call('getTransaction', {
      path: { transactionUid: TRANSACTION.transactionUid },
    });

    expect(removed).toMatchObject({ status: 204, data: undefined });
    expect(running).toMatchObject({ status: 202, data: { cdoTransactionStatus: 'PENDING' } });
    expect(finished).toMatchObject({ status: 200, data: { cdoTransactionStatus: 'DONE' } });
    expect(finished.headers.get('content-type')).toBe('application/json');
    await client.close();
  });
});

describe('hooks', () => {
  it('reports every attempt to onCall, with its status and duration', async () => {
    const server = await serve(serverError, { status: 200, body: PAGE });
    const events: SccCallEvent[] = [];
    const { client } = clientOf(server, { profile: 'eu-prod', onCall: (event) => events.push(event) });

    await client.devices.list();

    expect(events.map(({ durationMs, ...rest }) => rest)).toEqual([
      {
        profile: 'eu-prod',
        operationId: 'getDevices',
        method: 'GET',
        status: 500,
        outcome: 'response',
        attempt: 1,
      },
      {
        profile: 'eu-prod',
        operationId: 'getDevices',
        method: 'GET',
        status: 200,
        outcome: 'response',
        attempt: 2,
      },
    ]);
    expect(events.every((event) => event.durationMs >= 0)).toBe(true);
    await client.close();
  });

  it('keeps calling when the onCall hook throws', async () => {
    const server = await serve({ status: 200, body: PAGE });
    const { client } = clientOf(server, {
      onCall: () => {
        throw new Error('metrics down');
      },
    });

    await expect(client.devices.list()).resolves.toMatchObject({ count: 1 });
    await client.close();
  });

  it('logs calls and retries without the token', async () => {
    const server = await serve(serverError, { status: 200, body: PAGE });
    const lines: unknown[] = [];
    const logger = {
      debug: (fields: Record<string, unknown>, message: string) =>
        lines.push({ level: 'debug', fields, message }),
      warn: (fields: Record<string, unknown>, message: string) =>
        lines.push({ level: 'warn', fields, message }),
    };
    const { client } = clientOf(server, { logger });

    await client.devices.list();

    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'scc call retrying',
        fields: expect.objectContaining({ attempt: 1 }),
      }),
    );
    expect(lines.filter((line) => (line as { message: string }).message === 'scc call')).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain(TEST_TOKEN);
    await client.close();
  });
});

describe('the connection pool', () => {
  it('keeps connections alive and reuses them for consecutive calls', async () => {
    const server = await serve({ status: 200, body: PAGE });
    const client = createSccClient({ baseUrl: server.baseUrl, token: TEST_TOKEN });

    for (let call = 0; call < 6; call++) await client.devices.list();

    // undici's Pool may open a second connection while the first is being released, never one per call.
    const connections = new Set(server.requests.map((r) => r.remotePort));
    expect(server.requests).toHaveLength(6);
    expect(connections.size).toBeLessThanOrEqual(2);
    await client.close();
  });
});

/** A port nothing listens on: bound by the OS, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** An undici Agent that records the headersTimeout each request was dispatched with. */
function recordingDispatcher(): {
  dispatcher: Dispatcher;
  headersTimeouts: number[];
  close(): Promise<void>;
} {
  const headersTimeouts: number[] = [];
  const agent = new Agent();
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    headersTimeouts.push(options.headersTimeout ?? -1);
    return dispatch(options, handler);
  });
  return { dispatcher, headersTimeouts, close: () => agent.close() };
}
