// The /_sim/ admin routes (no authentication; for tests, benchmarks and demos): world summary, reset
// to the seed (at a scale), simulated clock, tenant tokens with a chosen role, request log, fault rules,
// the presigned report downloads that event-search reports link to, and the routes of devices.ts (what
// happens to devices outside SCC), sccUi.ts (what people do in SCC's UI) and governance.ts (tenant
// settings, maintenance windows, closing change requests).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { downloadReport } from '../api/reports.js';
import { mintToken } from '../auth.js';
import { invalidInput, notFound, SimError } from '../errors.js';
import type { SimResponse } from '../http/context.js';
import { issueDetails } from '../http/input.js';
import { Router } from '../http/router.js';
import { errorResponse, type RequestTarget, send } from '../http/server.js';
import { iso, type SimRuntime } from '../runtime.js';
import { MAX_SCALE, type WorldScale } from '../state/seedScale.js';
import { DEMO_TOKENS } from '../state/seedTenants.js';
import { addDeviceRoutes, DEVICE_ROUTES } from './devices.js';
import { type FaultInjector, FaultRuleInput } from './faults.js';
import { addGovernanceRoutes, GOVERNANCE_ROUTES } from './governance.js';
import { addPolicyRoutes, POLICY_ROUTES } from './policy.js';
import { type AdminHandler, findTenant, parse } from './request.js';
import type { RequestLog } from './requestLog.js';
import { addSccUiRoutes, SCC_UI_ROUTES } from './sccUi.js';
import { addTenantRoutes, TENANT_ROUTES } from './tenants.js';
import { addUpgradeRoutes, UPGRADE_ROUTES } from './upgrades.js';

export interface AdminDeps {
  sim: SimRuntime;
  faults: FaultInjector;
  log: RequestLog;
  reset: (seed?: string, scale?: WorldScale) => void;
}

const ResetInput = z
  .object({
    seed: z.string().min(1).max(100).optional(),
    /** A large MSP world: this many more managed tenants sharing this many devices (see seedScale.ts). */
    scale: z
      .object({
        tenants: z.number().int().min(1).max(MAX_SCALE.tenants),
        devices: z.number().int().min(0).max(MAX_SCALE.devices),
      })
      .strict()
      .optional(),
  })
  .strict();
const AdvanceInput = z
  .object({
    ms: z
      .number()
      .int()
      .min(0)
      .max(365 * 86_400_000),
  })
  .strict();
const ROLES = [
  'ROLE_ADMIN',
  'ROLE_SUPER_ADMIN',
  'ROLE_READ_ONLY',
  'ROLE_DEPLOY_ONLY',
  'ROLE_EDIT_ONLY',
  'ROLE_VPN_SESSIONS_MANAGER',
] as const;
const TokenInput = z
  .object({
    tenantUid: z.string().min(1),
    /** The token's role (default ROLE_SUPER_ADMIN) and user name (default `<tenant>-simulator-api`). */
    role: z.enum(ROLES).optional(),
    username: z.string().min(1).max(200).optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export const ADMIN_ROUTES = [
  ['GET', '/_sim', 'this list'],
  ['GET', '/_sim/state', 'seed, clock, tenants, devices and demo tokens'],
  [
    'POST',
    '/_sim/reset',
    'reset the world to the seed ({seed?} switches seed, {scale?: {tenants, devices}} a large MSP world); clears log, faults, pending work',
  ],
  ['GET', '/_sim/clock', 'simulated time, mode, speed and parked requests'],
  ['POST', '/_sim/clock/advance', 'advance simulated time by {ms}'],
  [
    'POST',
    '/_sim/tokens',
    'mint an API token for a tenant (uid or name): {tenantUid, role?, username?, expiresAt?}',
  ],
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
  ...DEVICE_ROUTES,
  ...SCC_UI_ROUTES,
  ...TENANT_ROUTES,
  ...POLICY_ROUTES,
  ...GOVERNANCE_ROUTES,
  ...UPGRADE_ROUTES,
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
    deps.reset(input.seed, input.scale);
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
    const tenant = findTenant(sim.state, input.tenantUid);
    const record = mintToken(sim.state, {
      tenantUid: tenant.uid,
      username: input.username ?? `${tenant.name}-simulator-api`,
      role: input.role ?? 'ROLE_SUPER_ADMIN',
      source: 'minted',
    });
    if (input.expiresAt !== undefined) record.expiresAt = Date.parse(input.expiresAt);
    return {
      status: 201,
      body: {
        token: record.token,
        tenantUid: tenant.uid,
        tenantName: tenant.name,
        username: record.username,
        role: record.role,
      },
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
  addDeviceRoutes(add, sim);
  addSccUiRoutes(add, sim);
  addTenantRoutes(add, sim);
  addPolicyRoutes(add, sim);
  addGovernanceRoutes(add, sim);
  addUpgradeRoutes(add, sim);
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
      changelogs: state.changelogs.size,
      auditLogs: state.auditLogs.length,
    },
  };
}
