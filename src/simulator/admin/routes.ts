// The /_sim/ admin routes (no authentication; for tests, benchmarks and demos): world summary, reset
// to the seed, simulated clock, tenant tokens, request log, fault rules, device injections (an
// out-of-band change on an ASA, a device going offline), and the presigned report downloads that
// event-search reports link to.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { downloadReport } from '../api/reports.js';
import { mintTenantToken } from '../auth.js';
import { invalidInput, notFound, SimError } from '../errors.js';
import type { SimResponse } from '../http/context.js';
import { issueDetails } from '../http/input.js';
import { Router } from '../http/router.js';
import { errorResponse, type RequestTarget, send } from '../http/server.js';
import { iso, type SimRuntime } from '../runtime.js';
import { changeOutOfBand } from '../state/asaConfig.js';
import type { DeviceRecord } from '../state/model.js';
import { DEMO_TOKENS } from '../state/seedTenants.js';
import { type FaultInjector, FaultRuleInput } from './faults.js';
import type { RequestLog } from './requestLog.js';

export interface AdminDeps {
  sim: SimRuntime;
  faults: FaultInjector;
  log: RequestLog;
  reset: (seed?: string) => void;
}

interface AdminRequest {
  url: RequestTarget;
  params: Record<string, string>;
  body: () => Promise<unknown>;
}

/** Who changes made through the admin routes are recorded as, unless a route is given a `username`. */
export const UI_USER = 'admin@customer.example';

type AdminHandler = (request: AdminRequest) => SimResponse | Promise<SimResponse>;

const ResetInput = z.object({ seed: z.string().min(1).max(100).optional() }).strict();
const AdvanceInput = z
  .object({
    ms: z
      .number()
      .int()
      .min(0)
      .max(365 * 86_400_000),
  })
  .strict();
const TokenInput = z.object({ tenantUid: z.string().min(1) }).strict();
const OutOfBandInput = z
  .object({
    hardwareName: z.string().min(1).optional(),
    description: z.string().max(200).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
const ConnectivityInput = z
  .object({ connectivityState: z.enum(['ONLINE', 'UNREACHABLE', 'BAD_CREDENTIALS', 'UNKNOWN']) })
  .strict();

async function parse<S extends z.ZodType>(request: AdminRequest, schema: S): Promise<z.output<S>> {
  const raw = (await request.body()) ?? {};
  const result = schema.safeParse(raw);
  if (!result.success) throw invalidInput('Invalid admin request body', issueDetails(result.error.issues));
  return result.data;
}

export const ADMIN_ROUTES = [
  ['GET', '/_sim', 'this list'],
  ['GET', '/_sim/state', 'seed, clock, tenants, devices and demo tokens'],
  [
    'POST',
    '/_sim/reset',
    'reset the world to the seed ({seed?} switches seed); clears log, faults, pending work',
  ],
  ['GET', '/_sim/clock', 'simulated time, mode, speed and parked requests'],
  ['POST', '/_sim/clock/advance', 'advance simulated time by {ms}'],
  ['POST', '/_sim/tokens', 'mint an API token for a tenant: {tenantUid}'],
  ['GET', '/_sim/requests', 'request log (?since=<seq>&limit=&operationId=&path=)'],
  ['DELETE', '/_sim/requests', 'clear the request log'],
  ['GET', '/_sim/faults', 'fault rules with match / injection counts'],
  [
    'POST',
    '/_sim/faults',
    'add a fault rule {path, method?, rate?, times?, status?, retryAfterSeconds?, latencyMs?, reset?}',
  ],
  ['DELETE', '/_sim/faults', 'remove every fault rule'],
  ['DELETE', '/_sim/faults/{id}', 'remove one fault rule'],
  [
    'POST',
    '/_sim/devices/{device}/out-of-band',
    "change an ASA's running config behind SCC's back (CONFLICT_DETECTED): {hardwareName?, description?, enabled?}",
  ],
  ['POST', '/_sim/devices/{device}/connectivity', "set a device's connectivityState: {connectivityState}"],
  ['GET', '/_sim/downloads/{reportUid}/{file}', 'presigned report download (X-Amz-* query)'],
] as const;

export function createAdmin(deps: AdminDeps) {
  const { sim, faults, log } = deps;
  const clockView = () => ({
    now: iso(sim.clock.now()),
    nowMs: sim.clock.now(),
    mode: sim.clock.mode,
    speed: sim.clock.speed,
    parkedRequests: sim.parked.size,
  });
  const router = new Router<AdminHandler>();
  const add = (method: string, path: string, handler: AdminHandler) => router.add(method, path, handler);

  add('GET', '/_sim', () => ({
    status: 200,
    body: { routes: ADMIN_ROUTES.map(([method, path, what]) => ({ method, path, what })) },
  }));
  add('GET', '/_sim/state', () => ({ status: 200, body: summary(sim) }));
  add('POST', '/_sim/reset', async (r) => {
    const input = await parse(r, ResetInput);
    deps.reset(input.seed);
    return { status: 200, body: { seed: sim.state.seed, clock: clockView() } };
  });
  add('GET', '/_sim/clock', () => ({ status: 200, body: clockView() }));
  add('POST', '/_sim/clock/advance', async (r) => {
    const input = await parse(r, AdvanceInput);
    sim.clock.advance(input.ms);
    return { status: 200, body: clockView() };
  });
  add('POST', '/_sim/tokens', async (r) => {
    const input = await parse(r, TokenInput);
    const tenant = sim.state.tenants.get(input.tenantUid.toLowerCase());
    if (tenant === undefined) throw notFound(`Tenant ${input.tenantUid} does not exist`);
    return {
      status: 201,
      body: { token: mintTenantToken(sim.state, tenant.uid), tenantUid: tenant.uid, tenantName: tenant.name },
    };
  });
  add('GET', '/_sim/requests', (r) => {
    const num = (name: string) => {
      const raw = r.url.searchParams.get(name);
      return raw === null ? undefined : Number(raw);
    };
    const since = num('since');
    const limit = num('limit');
    const operationId = r.url.searchParams.get('operationId') ?? undefined;
    const path = r.url.searchParams.get('path') ?? undefined;
    const items = log.list({
      ...(since === undefined ? {} : { since }),
      ...(limit === undefined ? {} : { limit }),
      ...(operationId === undefined ? {} : { operationId }),
      ...(path === undefined ? {} : { path }),
    });
    return { status: 200, body: { total: log.total, count: items.length, items } };
  });
  add('DELETE', '/_sim/requests', () => {
    log.clear();
    return { status: 204 };
  });
  const deviceOf = (r: AdminRequest): DeviceRecord => {
    const key = (r.params.device ?? '').toLowerCase();
    for (const d of sim.state.devices.values())
      if (d.device.uid === key || d.device.name.toLowerCase() === key) return d;
    throw notFound(`No device ${r.params.device ?? ''}`);
  };
  add('POST', '/_sim/devices/{device}/out-of-band', async (r) => {
    const device = deviceOf(r);
    const input = await parse(r, OutOfBandInput);
    if (device.kind !== 'ASA') throw invalidInput(`${device.device.name} is not an ASA`);
    const changed = changeOutOfBand(sim.state, device, {
      ...input,
      username: UI_USER,
      at: sim.clock.now(),
    });
    if (changed === undefined)
      throw notFound(`${device.device.name} has no interface ${input.hardwareName ?? ''}`);
    return {
      status: 200,
      body: {
        device: device.device.name,
        hardwareName: changed.hardwareName,
        conflictDetectionState: device.device.conflictDetectionState,
        configState: device.device.configState,
      },
    };
  });
  add('POST', '/_sim/devices/{device}/connectivity', async (r) => {
    const device = deviceOf(r);
    const input = await parse(r, ConnectivityInput);
    device.device.connectivityState = input.connectivityState;
    return { status: 200, body: { device: device.device.name, connectivityState: input.connectivityState } };
  });
  add('GET', '/_sim/faults', () => ({ status: 200, body: { items: faults.list() } }));
  add('POST', '/_sim/faults', async (r) => {
    const raw = await r.body();
    const result = FaultRuleInput.safeParse(raw ?? {});
    if (!result.success) throw invalidInput('Invalid fault rule', issueDetails(result.error.issues));
    return { status: 201, body: faults.add(result.data) };
  });
  add('DELETE', '/_sim/faults', () => {
    faults.clear();
    return { status: 204 };
  });
  add('DELETE', '/_sim/faults/{id}', (r) => {
    if (!faults.remove(r.params.id ?? '')) throw notFound(`No fault rule ${r.params.id ?? ''}`);
    return { status: 204 };
  });

  return async (
    req: IncomingMessage,
    res: ServerResponse,
    url: RequestTarget,
    body: () => Promise<unknown>,
  ): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    sim.clock.runDue();
    if (method === 'GET' && url.pathname.startsWith('/_sim/downloads/')) {
      const result = downloadReport(sim, url.pathname, url.searchParams);
      if (res.destroyed) return;
      res.writeHead(result.status, {
        'content-type': result.contentType,
        ...(result.fileName === undefined
          ? {}
          : { 'content-disposition': `attachment; filename="${result.fileName}"` }),
      });
      res.end(result.body);
      return;
    }
    let response: SimResponse;
    try {
      const match = router.match(method, url.pathname);
      if (match.kind === 'found') response = await match.value({ url, params: match.params, body });
      else if (match.kind === 'method-not-allowed') {
        throw new SimError(
          405,
          'METHOD_NOT_ALLOWED',
          `${method} is not supported on ${url.pathname}`,
          {},
          { allow: match.allow.join(', ') },
        );
      } else throw notFound(`No such admin route: ${method} ${url.pathname}`);
    } catch (error) {
      if (!(error instanceof SimError)) throw error;
      response = errorResponse(error);
    }
    send(res, response);
  };
}

function summary(sim: SimRuntime) {
  const { state } = sim;
  return {
    seed: state.seed,
    now: iso(sim.clock.now()),
    portal: { uid: state.portalUid, name: state.tenants.get(state.portalUid)?.name },
    tokens: DEMO_TOKENS,
    tenants: [...state.tenants.values()].map((t) => ({
      uid: t.uid,
      name: t.name,
      region: t.region,
      isPortal: t.isPortal,
      inPortal: t.inPortal,
      associated: t.associated,
      cdFmcType: t.cdFmcType,
    })),
    devices: [...state.devices.values()].map((d) => ({
      uid: d.device.uid,
      name: d.device.name,
      deviceType: d.device.deviceType,
    })),
    counts: {
      transactions: state.transactions.size,
      upgradeRuns: state.upgradeRuns.size,
      deploymentRuns: state.deploymentRuns.size,
      gatewayRequests: state.gatewayRequests.size,
      interfaces: state.interfaces.size,
      packages: state.packages.size,
      reports: state.reports.size,
    },
  };
}
