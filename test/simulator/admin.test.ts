// The /_sim/ admin routes: fault injection (status with Retry-After, latency, connection resets, rates
// that are deterministic per seed, limited counts, method and path filters), the request log, reset to
// the seed, the clock, tenant tokens, and the presigned downloads event-search reports link to.
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

const addFault = (rule: Record<string, unknown>) => api('POST', '/_sim/faults', { token: null, body: rule });
const statuses = async (path: string, n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) out.push((await api('GET', path)).status);
  return out;
};

describe('fault injection', () => {
  it('answers 503 with Retry-After and a CommonApiError on matching paths only', async () => {
    const rule = await addFault({ path: '/v1/transactions/*', status: 503, retryAfterSeconds: 7 });
    expect(rule.status).toBe(201);
    expect(obj(rule)).toMatchObject({ id: 'fault-1', rate: 1 });
    const hit = await api('GET', '/v1/transactions/6e3492c6-083a-4ead-9da9-cd2db32a965d');
    expect(hit.status).toBe(503);
    expect(hit.headers['retry-after']).toBe('7');
    expect(obj(hit)).toMatchObject({ errorCode: 'SERVER_ERROR' });
    expect((await api('GET', '/v1/inventory/devices')).status).toBe(200);
  });

  it('answers 429 TOO_MANY_REQUESTS and 500 SERVER_ERROR', async () => {
    await addFault({ path: '/v1/msp/**', status: 429, retryAfterSeconds: 2 });
    await addFault({ path: '/v1/inventory/devices', method: 'GET', status: 500 });
    const limited = await api('GET', `/v1/msp/tenants/${sim.tenantUid('northwind-us')}`);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
    expect(obj(limited).errorCode).toBe('TOO_MANY_REQUESTS');
    expect(obj(await api('GET', '/v1/inventory/devices')).errorCode).toBe('SERVER_ERROR');
  });

  it('injects at a rate that is the same sequence for the same seed, and stops after `times`', async () => {
    await addFault({ path: '/v1/inventory/devices', status: 500, rate: 0.5 });
    const first = await statuses('/v1/inventory/devices', 20);
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(3);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(3);
    await api('POST', '/_sim/reset', { token: null, body: {} });
    await addFault({ path: '/v1/inventory/devices', status: 500, rate: 0.5 });
    expect(await statuses('/v1/inventory/devices', 20)).toEqual(first);

    await api('DELETE', '/_sim/faults', { token: null });
    await addFault({ path: '/v1/inventory/devices', status: 503, times: 2 });
    expect(await statuses('/v1/inventory/devices', 4)).toEqual([503, 503, 200, 200]);
    expect(items(await api('GET', '/_sim/faults', { token: null }))[0]).toMatchObject({
      matched: 4,
      injected: 2,
    });
  });

  it('filters on the method', async () => {
    await addFault({ path: '/v1/msp/tenants/create', method: 'POST', status: 500 });
    expect((await api('POST', '/v1/msp/tenants/create', { body: { tenantName: 'a' } })).status).toBe(500);
    expect((await api('GET', '/v1/msp/tenants')).status).toBe(200);
  });

  it('adds latency before answering', async () => {
    await addFault({ path: '/v1/inventory/devices', latencyMs: 150 });
    const started = performance.now();
    expect((await api('GET', '/v1/inventory/devices')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('resets the connection', async () => {
    await addFault({ path: '/v1/inventory/devices', reset: true });
    await expect(api('GET', '/v1/inventory/devices')).rejects.toThrow();
    const log = items(await api('GET', '/_sim/requests', { token: null }));
    expect(log.at(-1)).toMatchObject({ path: '/v1/inventory/devices', status: 0, fault: 'fault-1' });
  });

  it('refuses malformed rules and removes rules one by one', async () => {
    expect((await addFault({ path: '/x' })).status).toBe(400);
    expect((await addFault({ path: '/x', status: 404 })).status).toBe(400);
    expect((await addFault({ path: '/x', status: 500, rate: 2 })).status).toBe(400);
    const id = str(obj(await addFault({ path: '/v1/inventory/devices', status: 500 })).id);
    expect((await api('DELETE', `/_sim/faults/${id}`, { token: null })).status).toBe(204);
    expect((await api('DELETE', `/_sim/faults/${id}`, { token: null })).status).toBe(404);
    expect((await api('GET', '/v1/inventory/devices')).status).toBe(200);
  });
});

describe('request log', () => {
  it('records method, path, status, time and operation id of API requests, not admin ones', async () => {
    await api('GET', '/v1/inventory/devices', { query: { limit: 1 } });
    await api('GET', '/v1/nowhere');
    await api('GET', '/v1/inventory/devices', { token: 'bad' });
    const log = obj(await api('GET', '/_sim/requests', { token: null }));
    expect(log.count).toBe(3);
    expect(log.items).toEqual([
      expect.objectContaining({
        seq: 1,
        method: 'GET',
        path: '/v1/inventory/devices',
        query: '?limit=1',
        status: 200,
        operationId: 'getDevices',
        // Which token came, by the tenant it acts on (the demo tokens are the portal's); never the token.
        tenant: 'acme-msp',
        time: '2025-06-02T09:00:00.000Z',
      }),
      expect.not.objectContaining({ operationId: expect.anything() }),
      expect.objectContaining({ status: 401, operationId: 'getDevices' }),
    ]);
    expect(log.items).toEqual([
      expect.anything(),
      expect.not.objectContaining({ tenant: expect.anything() }),
      expect.not.objectContaining({ tenant: expect.anything() }),
    ]);
    expect((log.items as { durationMs: number }[])[0]?.durationMs).toBeGreaterThanOrEqual(0);
    const since = items(await api('GET', '/_sim/requests', { token: null, query: { since: 2 } }));
    expect(since.map((e) => e.seq)).toEqual([3]);
    const byOperation = items(
      await api('GET', '/_sim/requests', { token: null, query: { operationId: 'getDevices' } }),
    );
    expect(byOperation).toHaveLength(2);
    expect((await api('DELETE', '/_sim/requests', { token: null })).status).toBe(204);
    expect(obj(await api('GET', '/_sim/requests', { token: null })).count).toBe(0);
  });
});

describe('reset, clock and tokens', () => {
  it('reset restores the seeded world and the start time', async () => {
    await api('DELETE', `/v1/msp/tenants/${sim.tenantUid('hooli-uae')}`);
    sim.clock.advance(3_600_000);
    const response = await api('POST', '/_sim/reset', { token: null, body: {} });
    expect(obj(response)).toMatchObject({ seed: 'default', clock: { now: '2025-06-02T09:00:00.000Z' } });
    expect(items(await api('GET', '/v1/msp/tenants')).map((t) => t.name)).toContain('hooli-uae');
  });

  it('reset can switch to another seed', async () => {
    const before = sim.deviceUid('asa-hq-01');
    await api('POST', '/_sim/reset', { token: null, body: { seed: 'demo-2' } });
    expect(sim.state.seed).toBe('demo-2');
    expect(sim.deviceUid('asa-hq-01')).not.toBe(before);
  });

  it('the clock route shows and advances simulated time', async () => {
    expect(obj(await api('GET', '/_sim/clock', { token: null }))).toEqual({
      now: '2025-06-02T09:00:00.000Z',
      nowMs: Date.UTC(2025, 5, 2, 9),
      mode: 'manual',
      speed: 1,
      parkedRequests: 0,
    });
    const tx = obj(await api('POST', `/v1/msp/tenants/${sim.tenantUid('contoso-eu')}/mcd`));
    const advanced = await api('POST', '/_sim/clock/advance', { token: null, body: { ms: 600_000 } });
    expect(obj(advanced).now).toBe('2025-06-02T09:10:00.000Z');
    expect(obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`)).cdoTransactionStatus).toBe(
      'DONE',
    );
    expect((await api('POST', '/_sim/clock/advance', { token: null, body: { ms: -1 } })).status).toBe(400);
  });

  it('mints tokens for a tenant', async () => {
    const response = await api('POST', '/_sim/tokens', {
      token: null,
      body: { tenantUid: sim.tenantUid('wayne-eu') },
    });
    expect(response.status).toBe(201);
    expect(obj(response)).toMatchObject({ tenantName: 'wayne-eu' });
    expect((await api('GET', '/v1/inventory/devices', { token: str(obj(response).token) })).status).toBe(200);
    expect((await api('POST', '/_sim/tokens', { token: null, body: { tenantUid: 'nope' } })).status).toBe(
      404,
    );
  });

  it('describes itself and the world', async () => {
    const index = obj(await api('GET', '/_sim', { token: null }));
    expect((index.routes as { path: string }[]).map((r) => r.path)).toContain('/_sim/faults');
    const state = obj(await api('GET', '/_sim/state', { token: null }));
    expect(state).toMatchObject({ seed: 'default', tokens: { superAdmin: 'sim-super-admin' } });
    // The portal's seven devices and those of the managed (and associated) tenants.
    const devices = (state.devices as { name: string }[]).map((d) => d.name);
    expect(devices).toHaveLength(sim.state.devices.size);
    expect(devices).toEqual(expect.arrayContaining(['asa-hq-01', 'cdfmc-acme', 'nw-asa-hq', 'stark-asa-01']));
    expect((await api('GET', '/_sim/nothing', { token: null })).status).toBe(404);
  });
});

describe('event-search reports', () => {
  it('list finished reports with a presigned download URL the simulator serves as CSV', async () => {
    const reports = items(await api('GET', '/v1/events/reports'));
    expect(reports.map((r) => r.status)).toEqual([
      'RUNNING',
      'FAILED',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
    ]);
    const done = reports.find((r) => r.status === 'COMPLETED');
    const url = new URL(str(done?.downloadUrl));
    expect(url.origin).toBe(sim.url);
    expect(url.pathname).toMatch(/^\/_sim\/downloads\//);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(reports.find((r) => r.status === 'RUNNING')).not.toHaveProperty('downloadUrl');

    const csv = await api('GET', `${url.pathname}${url.search}`, { token: null });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv');
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('timestamp,deviceName,action,sourceIp,destinationIp,destinationPort,protocol');
    expect(lines).toHaveLength(Number(done?.rowCount) + 1);
  });

  it('refuse a tampered signature and an expired URL (403, S3-style)', async () => {
    const done = items(await api('GET', '/v1/events/reports', { query: { q: 'status:COMPLETED' } }))[0];
    const url = new URL(str(done?.downloadUrl));
    const tampered = new URL(url);
    tampered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    const refused = await api('GET', `${tampered.pathname}${tampered.search}`, { token: null });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('SignatureDoesNotMatch');
    sim.clock.advance(3_600_000);
    const expired = await api('GET', `${url.pathname}${url.search}`, { token: null });
    expect(expired.status).toBe(403);
    expect(expired.text).toContain('Request has expired');
  });

  it('are searchable by date and sortable', async () => {
    const since = new Date(sim.clock.now() - 10 * 3_600_000).toISOString();
    const recent = items(
      await api('GET', '/v1/events/reports', {
        query: { q: `createdDate:[${since} TO *]`, sort: 'name:ASC' },
      }),
    );
    expect(recent.map((r) => r.name)).toEqual([
      'full-traffic-export',
      'geo-blocked-apac',
      'intrusion-events-daily',
    ]);
  });
});
