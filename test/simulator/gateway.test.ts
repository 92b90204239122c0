// The FMC command gateway: synchronous calls answered when the simulated device answers, the 70-second
// timeout and the belated answer, asynchronous requests going pending → responded, device errors inside
// `data` with a 200, listcommands, and who may send what.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SLOW_COMMAND_MS } from '../../src/simulator/api/fmcDevice.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { type CallOptions, obj, type RawResponse, simulator, str } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;
let domain: string;

beforeEach(async () => {
  ({ sim, api } = await simulator());
  domain = sim.state.fmc.domainUid;
});
afterEach(async () => {
  await sim.stop();
});

const command = (method: string, link: string, body?: unknown) => ({
  deviceUid: sim.deviceUid('cdfmc-acme'),
  request: { commands: [{ method, link, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }] },
});
const networks = () => `/api/fmc_config/v1/domain/${domain}/object/networks`;
const slow = () => `/api/fmc_config/v1/domain/${domain}/deployment/deployabledevices`;

/** Sends a synchronous command and advances the clock once the request is parked on it. */
async function sync(
  body: unknown,
  advanceMs: number,
  options: CallOptions = {},
): Promise<{ response: RawResponse; at: number }> {
  const before = sim.clock.now();
  const pending = api('POST', '/v1/fmc/gateway/command', { ...options, body });
  await sim.untilParked(1);
  sim.clock.advance(advanceMs);
  const response = await pending;
  return { response, at: sim.clock.now() - before };
}

function data(response: RawResponse): Record<string, unknown> {
  const value = obj(response).data;
  if (typeof value !== 'object' || value === null) throw new Error(`no data object in ${response.text}`);
  return value as Record<string, unknown>;
}

describe('gateway, synchronous', () => {
  it('waits for the simulated device and answers responded with the FMC body as a JSON string', async () => {
    const { response } = await sync(command('GET', networks()), 5_000);
    expect(response.status).toBe(200);
    expect(obj(response)).toMatchObject({ status: 'responded', responseOrigin: 'secure-connector' });
    expect(str(obj(response).requestId)).toMatch(/^[0-9a-f-]{36}$/);
    const d = data(response);
    expect(d).toMatchObject({ responseStatus: 'SUCCESS', tenantUid: sim.state.portalUid });
    expect(d.inResponseTo).toMatchObject({
      command: 'executeFmcRequests',
      deviceType: 'fmc',
      deviceUid: sim.deviceUid('cdfmc-acme'),
    });
    const bodies = JSON.parse(str(d.responseBody)) as { items: { name: string }[] }[];
    expect(bodies[0]?.items.map((n) => n.name)).toContain('corp-lan');
  });

  it('does not answer before the device does', async () => {
    const pending = api('POST', '/v1/fmc/gateway/command', { body: command('GET', networks()) });
    await sim.untilParked(1);
    sim.clock.advance(1_000);
    expect(obj(await api('GET', '/_sim/clock')).parkedRequests).toBe(1);
    sim.clock.advance(2_000);
    expect((await pending).status).toBe(200);
    expect(obj(await api('GET', '/_sim/clock')).parkedRequests).toBe(0);
  });

  it('answers timeout with the requestId after 70 simulated seconds; the belated answer can be polled', async () => {
    const pending = api('POST', '/v1/fmc/gateway/command', { body: command('GET', slow()) });
    await sim.untilParked(1);
    sim.clock.advance(69_999);
    sim.clock.advance(1);
    const response = await pending;
    expect(response.status).toBe(200);
    const body = obj(response);
    expect(body).toMatchObject({ status: 'timeout', responseOrigin: 'device-gateway-api' });
    expect(str(body.data)).toMatch(/^The request timed out due to a hard limit of 70 seconds/);
    const id = str(body.requestId);

    const early = await api('GET', `/v1/fmc/gateway/command/${id}`);
    expect(early.status).toBe(200);
    expect(obj(early).status).toBe('pending');
    sim.clock.advance(SLOW_COMMAND_MS);
    const late = await api('GET', `/v1/fmc/gateway/command/${id}`);
    expect(obj(late).status).toBe('responded');
    expect(data(late).responseStatus).toBe('SUCCESS');
  });

  it('applies a change when the device runs it (POST creates a network object)', async () => {
    const { response } = await sync(
      command('POST', networks(), { name: 'sim-net', value: '10.99.0.0/16' }),
      10_000,
    );
    expect(data(response).responseStatus).toBe('SUCCESS');
    expect(sim.state.fmc.networks.map((n) => n.name)).toContain('sim-net');
  });
});

describe('gateway, asynchronous', () => {
  it('returns a pending requestId at once; the request goes pending → responded', async () => {
    const accepted = await api('POST', '/v1/fmc/gateway/command', {
      query: { async: 'true' },
      body: command('GET', networks()),
    });
    expect(accepted.status).toBe(200);
    expect(obj(accepted)).toMatchObject({ status: 'pending', responseOrigin: 'device-gateway-api' });
    const id = str(obj(accepted).requestId);
    expect(obj(await api('GET', `/v1/fmc/gateway/command/${id}`)).status).toBe('pending');
    sim.clock.advance(5_000);
    const done = await api('GET', `/v1/fmc/gateway/command/${id}`);
    expect(obj(done)).toMatchObject({ status: 'responded', requestId: id });
  });

  it('treats a bare ?async flag as asynchronous', async () => {
    const response = await api('POST', '/v1/fmc/gateway/command?async', { body: command('GET', networks()) });
    expect(obj(response).status).toBe('pending');
  });

  it('answers 200 with the device error inside data for a command outside the supported patterns', async () => {
    const accepted = obj(
      await api('POST', '/v1/fmc/gateway/command', {
        query: { async: 'true' },
        body: command('GET', '/api/unknown/thing'),
      }),
    );
    sim.clock.advance(5_000);
    const response = await api('GET', `/v1/fmc/gateway/command/${str(accepted.requestId)}`);
    expect(response.status).toBe(200);
    expect(obj(response).status).toBe('responded');
    expect(data(response).responseStatus).toBe('ERROR');
    const bodies = JSON.parse(str(data(response).responseBody)) as {
      error: { messages: { description: string }[] };
    }[];
    expect(bodies[0]?.error.messages[0]?.description).toContain('Unsupported command');
  });

  it('reports an unknown object and a wrong domain as device errors', async () => {
    const missing = `/api/fmc_config/v1/domain/${domain}/object/networks/00000000-0000-0000-0000-000000000000`;
    const wrongDomain = '/api/fmc_config/v1/domain/11111111-1111-1111-1111-111111111111/object/networks';
    const { response } = await sync(
      {
        deviceUid: sim.deviceUid('cdfmc-acme'),
        request: {
          commands: [
            { method: 'GET', link: missing },
            { method: 'GET', link: wrongDomain },
          ],
        },
      },
      10_000,
    );
    expect(data(response).responseStatus).toBe('ERROR');
    const bodies = JSON.parse(str(data(response).responseBody)) as {
      error: { messages: { description: string }[] };
    }[];
    expect(bodies.map((b) => b.error.messages[0]?.description)).toEqual([
      expect.stringContaining('not found'),
      expect.stringContaining('Domain 11111111-1111-1111-1111-111111111111 not found'),
    ]);
  });

  it('answers 404 for an unknown requestId and for another tenant', async () => {
    expect((await api('GET', '/v1/fmc/gateway/command/6e3492c6-083a-4ead-9da9-cd2db32a965d')).status).toBe(
      404,
    );
    const accepted = obj(
      await api('POST', '/v1/fmc/gateway/command', {
        query: { async: 'true' },
        body: command('GET', networks()),
      }),
    );
    const other = sim.mintTenantToken(sim.tenantUid('contoso-eu'));
    expect(
      (await api('GET', `/v1/fmc/gateway/command/${str(accepted.requestId)}`, { token: other })).status,
    ).toBe(404);
  });
});

describe('gateway, commands and devices', () => {
  it('lists the supported command patterns, including the slow one', async () => {
    const response = await api('GET', '/v1/fmc/gateway/listcommands');
    expect(response.status).toBe(200);
    const patterns = data(response).supportedCommands as { method: string; pattern: string }[];
    expect(patterns).toContainEqual({
      method: 'GET',
      pattern: '/api/fmc_config/v1/domain/{domainUUID}/object/networks',
    });
    expect(patterns).toContainEqual({
      method: 'GET',
      pattern: '/api/fmc_config/v1/domain/{domainUUID}/deployment/deployabledevices',
    });
  });

  it('answers status failed for a device that is not an FMC', async () => {
    const response = await api('POST', '/v1/fmc/gateway/command', {
      body: {
        deviceUid: sim.deviceUid('asa-hq-01'),
        request: { commands: [{ method: 'GET', link: networks() }] },
      },
    });
    expect(response.status).toBe(200);
    expect(obj(response)).toMatchObject({ status: 'failed' });
  });

  it('refuses a body without commands (400)', async () => {
    const response = await api('POST', '/v1/fmc/gateway/command', {
      body: { deviceUid: sim.deviceUid('cdfmc-acme'), request: { commands: [] } },
    });
    expect(response.status).toBe(400);
    expect(obj(response).details).toHaveProperty(['request.commands']);
  });

  it('lets read-only users read through the gateway but not change the device', async () => {
    const write = await api('POST', '/v1/fmc/gateway/command', {
      token: 'sim-read-only',
      query: { async: 'true' },
      body: command('POST', networks(), { name: 'x', value: '10.0.0.0/8' }),
    });
    expect(write.status).toBe(403);
    const read = await api('POST', '/v1/fmc/gateway/command', {
      token: 'sim-read-only',
      query: { async: 'true' },
      body: command('GET', networks()),
    });
    expect(read.status).toBe(200);
  });

  it('answers a parked synchronous call when the simulator is reset', async () => {
    const pending = api('POST', '/v1/fmc/gateway/command', { body: command('GET', slow()) });
    await sim.untilParked(1);
    const reset = await api('POST', '/_sim/reset', { body: {} });
    expect(reset.status).toBe(200);
    expect(obj(await pending).status).toBe('failed');
  });
});
