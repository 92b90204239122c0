// Admin routes that act as a person in SCC's UI, not as a token: stage a change on an ASA, start a
// deployment, start a Secure Client upgrade run (ASA, FTD, or across MSP-managed tenants), and add,
// remove or re-role a user of a tenant (or record a login). Work is started through the same operation
// handlers the API uses, as a user of the device's tenant named by `username` (default UI_USER), so runs,
// transactions, the change log and the clock behave exactly as for an API call; `failing` makes chosen
// devices fail in that run. User changes go to the tenant's audit log.
import { z } from 'zod';
import type { SccOperationId } from '../../scc/operationTypes.js';
import { operationHandlers } from '../api/operations.js';
import type { Principal } from '../auth.js';
import { conflict, invalidInput, notFound } from '../errors.js';
import type { SimResponse } from '../http/context.js';
import type { SimRuntime } from '../runtime.js';
import { cloudInterfaces, cloudSnapshot, ensureAsaInterfaces, recordStaged } from '../state/asaConfig.js';
import { recordAudit } from '../state/changeLog.js';
import type { DeviceRecord, TenantRecord, UpgradeFault, UserRole } from '../state/model.js';
import { mspWorld } from '../state/mspWorld.js';
import { type AddRoute, findDevice, findDevices, findTenant, parse, UI_USER } from './request.js';

const ROLES = [
  'ROLE_ADMIN',
  'ROLE_SUPER_ADMIN',
  'ROLE_READ_ONLY',
  'ROLE_DEPLOY_ONLY',
  'ROLE_EDIT_ONLY',
  'ROLE_VPN_SESSIONS_MANAGER',
] as const satisfies readonly UserRole[];

const Username = z.string().min(1).max(200);
const Devices = z.array(z.string().min(1)).min(1).max(10_000);

const StageInput = z
  .object({
    username: Username.optional(),
    hardwareName: z.string().min(1).optional(),
    description: z.string().min(1).max(200).optional(),
  })
  .strict();
const DeploymentInput = z
  .object({
    devices: Devices,
    username: Username.optional(),
    description: z.string().max(200).optional(),
    /** Devices that fail in this run (UIDs or names, among `devices`). */
    failing: z.array(z.string().min(1)).optional(),
  })
  .strict();
const PlatformInput = z
  .object({
    os: z.enum(['LINUX', 'MACOS', 'WINDOWS']),
    cpuArchitecture: z.enum(['ARM64', 'X86_64', 'UNIVERSAL']),
  })
  .strict();
const UpgradeInput = z
  .object({
    type: z.enum(['ASA', 'FTD', 'MSP']),
    devices: Devices,
    version: z.string().min(1),
    platforms: z.array(PlatformInput).min(1).optional(),
    name: z.string().min(1).max(100).optional(),
    username: Username.optional(),
    /** Devices that fail to upgrade (FAILED), or upgrade but fail to clean up (CLEANUP_FAILED). */
    failing: z.array(z.string().min(1)).optional(),
    cleanupFailing: z.array(z.string().min(1)).optional(),
  })
  .strict();
const AddUserInput = z.object({ username: Username, role: z.enum(ROLES), by: Username.optional() }).strict();
const RoleInput = z.object({ role: z.enum(ROLES), by: Username.optional() }).strict();
const RemoveInput = z.object({ by: Username.optional() }).strict();
const LoginInput = z.object({ username: Username }).strict();

export const SCC_UI_ROUTES = [
  [
    'POST',
    '/_sim/devices/{device}/stage',
    "stage a change on an ASA in SCC's UI (NOT_SYNCED, in the change log): {username?, hardwareName?, description?}",
  ],
  [
    'POST',
    '/_sim/deployments',
    "start deployments in SCC's UI (one run per tenant): {devices, username?, description?, failing?: [device]}",
  ],
  [
    'POST',
    '/_sim/upgrades',
    "start a Secure Client upgrade run in SCC's UI: {type: ASA|FTD|MSP, devices, version, platforms?, name?, username?, failing?, cleanupFailing?}",
  ],
  ['POST', '/_sim/tenants/{tenant}/users', 'add a user to a tenant (audit log): {username, role, by?}'],
  ['PATCH', '/_sim/tenants/{tenant}/users/{username}', "change a user's role (audit log): {role, by?}"],
  ['DELETE', '/_sim/tenants/{tenant}/users/{username}', 'remove a user from a tenant (audit log): {by?}'],
  ['POST', '/_sim/tenants/{tenant}/logins', 'a user logs in (audit log): {username}'],
] as const;

/** A person working in SCC's UI, as the operation handlers see a caller. */
export function uiPrincipal(tenant: TenantRecord, username: string): Principal {
  return {
    token: { token: '(SCC UI)', tenantUid: tenant.uid, username, role: 'ROLE_SUPER_ADMIN', source: 'ui' },
    tenant,
    role: 'ROLE_SUPER_ADMIN',
    username,
  };
}

/** Runs an operation's own handler as `principal`; its SimError (a refusal) is the route's answer. */
export async function invoke(
  sim: SimRuntime,
  operationId: SccOperationId,
  principal: Principal,
  body: unknown,
): Promise<SimResponse> {
  return operationHandlers[operationId]({
    sim,
    state: sim.state,
    operationId,
    principal,
    params: {},
    query: new URLSearchParams(),
    body,
    now: sim.clock.now(),
  });
}

export const entityOf = (response: SimResponse) => {
  const body = response.body as { entityUid?: string; transactionUid?: string };
  return { entityUid: String(body.entityUid), transactionUid: String(body.transactionUid) };
};

export function byTenant(devices: readonly DeviceRecord[]): Map<string, DeviceRecord[]> {
  const groups = new Map<string, DeviceRecord[]>();
  for (const d of devices) groups.set(d.tenantUid, [...(groups.get(d.tenantUid) ?? []), d]);
  return groups;
}

function userOf(tenant: TenantRecord, username: string) {
  const user = tenant.users.find((u) => u.username.toLowerCase() === username.toLowerCase());
  if (user === undefined) throw notFound(`${username} is not a user of tenant ${tenant.name}`);
  return user;
}

export function addSccUiRoutes(add: AddRoute, sim: SimRuntime): void {
  add('POST', '/_sim/devices/{device}/stage', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    const input = await parse(r, StageInput);
    if (device.kind !== 'ASA') throw invalidInput(`${device.device.name} is not an ASA`);
    const { state } = sim;
    ensureAsaInterfaces(state, device);
    const interfaces = cloudInterfaces(state, device.device.uid);
    const target =
      input.hardwareName === undefined
        ? (interfaces.find((i) => i.name === 'inside') ?? interfaces.find((i) => !i.managementInterface))
        : interfaces.find((i) => i.hardwareName.toLowerCase() === input.hardwareName?.toLowerCase());
    if (target === undefined)
      throw notFound(`${device.device.name} has no interface ${input.hardwareName ?? ''}`);
    const before = cloudSnapshot(state, device.device.uid);
    const username = input.username ?? UI_USER;
    const now = sim.clock.now();
    target.description = input.description ?? `changed in SCC by ${username}`;
    recordStaged(state, device, before, {
      action: 'UPDATE',
      username,
      at: now,
      description: `Modified interface ${target.hardwareName} on ${device.device.name}`,
    });
    return {
      status: 200,
      body: {
        device: device.device.name,
        hardwareName: target.hardwareName,
        configState: device.device.configState,
        changelogUid: state.activeChangelogs.get(device.device.uid),
      },
    };
  });

  add('POST', '/_sim/deployments', async (r) => {
    const input = await parse(r, DeploymentInput);
    const devices = findDevices(sim.state, input.devices);
    const failing = new Set(findDevices(sim.state, input.failing ?? []).map((d) => d.device.uid));
    const runs: Record<string, unknown>[] = [];
    for (const [tenantUid, group] of byTenant(devices)) {
      const tenant = findTenant(sim.state, tenantUid);
      const response = await invoke(
        sim,
        'deployChangesToMultipleAsaDevices',
        uiPrincipal(tenant, input.username ?? UI_USER),
        {
          deviceUids: group.map((d) => d.device.uid),
          ...(input.description === undefined ? {} : { description: input.description }),
        },
      );
      const { entityUid, transactionUid } = entityOf(response);
      const run = sim.state.deploymentRuns.get(entityUid);
      if (run !== undefined) {
        const faults = group.filter((d) => failing.has(d.device.uid));
        if (faults.length > 0)
          run.deviceFaults = Object.fromEntries(
            faults.map((d) => [
              d.device.uid,
              `Deployment to ${d.device.name} failed: the device closed the session`,
            ]),
          );
      }
      runs.push({
        tenantUid,
        tenantName: tenant.name,
        deploymentRunUid: entityUid,
        transactionUid,
        devices: group.map((d) => d.device.name),
      });
    }
    return { status: 201, body: { runs } };
  });

  add('POST', '/_sim/upgrades', async (r) => {
    const input = await parse(r, UpgradeInput);
    const { state } = sim;
    const devices = findDevices(state, input.devices);
    const faults = new Map<string, UpgradeFault>();
    for (const d of findDevices(state, input.cleanupFailing ?? []))
      faults.set(d.device.uid, {
        status: 'CLEANUP_FAILED',
        errorMsg: 'Old image could not be deleted from disk0: file in use',
      });
    for (const d of findDevices(state, input.failing ?? []))
      faults.set(d.device.uid, { status: 'FAILED', errorMsg: 'No CLI result received for device' });
    const username = input.username ?? UI_USER;
    const body = {
      deviceUids: devices.map((d) => d.device.uid),
      version: input.version,
      ...(input.platforms === undefined ? {} : { platforms: input.platforms }),
      ...(input.name === undefined ? {} : { name: input.name }),
    };
    const imposeOn = (runUid: string) => {
      const run = state.upgradeRuns.get(runUid);
      if (run === undefined) return;
      const own = run.devices.filter((d) => faults.has(d.uid));
      if (own.length > 0)
        run.deviceFaults = Object.fromEntries(own.map((d) => [d.uid, faults.get(d.uid) as UpgradeFault])); // filtered on has()
    };
    if (input.type === 'MSP') {
      const portal = findTenant(state, state.portalUid);
      const response = await invoke(
        sim,
        'upgradeMspManagedAsaSecureClientPackages',
        uiPrincipal(portal, username),
        body,
      );
      const { entityUid, transactionUid } = entityOf(response);
      const run = mspWorld(state).runs.get(entityUid);
      for (const leg of run?.legs ?? []) if (leg.runUid !== undefined) imposeOn(leg.runUid);
      return {
        status: 201,
        body: {
          runs: [
            {
              tenantUid: portal.uid,
              tenantName: portal.name,
              mspUpgradeRunUid: entityUid,
              transactionUid,
              legs: run?.legs.map((l) => ({ tenantUid: l.tenantUid, upgradeRunUid: l.runUid ?? null })) ?? [],
            },
          ],
        },
      };
    }
    const runs: Record<string, unknown>[] = [];
    for (const [tenantUid, group] of byTenant(devices)) {
      const tenant = findTenant(state, tenantUid);
      const response = await invoke(
        sim,
        input.type === 'ASA' ? 'triggerSecureClientUpgrade' : 'triggerFtdSecureClientUpgrade',
        uiPrincipal(tenant, username),
        { ...body, deviceUids: group.map((d) => d.device.uid) },
      );
      const { entityUid, transactionUid } = entityOf(response);
      imposeOn(entityUid);
      runs.push({
        tenantUid,
        tenantName: tenant.name,
        upgradeRunUid: entityUid,
        transactionUid,
        devices: group.map((d) => d.device.name),
      });
    }
    return { status: 201, body: { runs } };
  });

  add('POST', '/_sim/tenants/{tenant}/users', async (r) => {
    const tenant = findTenant(sim.state, r.params.tenant ?? '');
    const input = await parse(r, AddUserInput);
    if (tenant.users.some((u) => u.username.toLowerCase() === input.username.toLowerCase()))
      throw conflict(`${input.username} is already a user of tenant ${tenant.name}`);
    const by = input.by ?? UI_USER;
    tenant.users.push({
      uid: sim.state.rng.uuid(),
      username: input.username,
      role: input.role,
      apiOnly: false,
    });
    recordAudit(sim.state, {
      tenantUid: tenant.uid,
      eventType: 'USER_ADDED_TO_TENANT',
      username: input.username,
      roles: [input.role],
      at: sim.clock.now(),
      description: `${by} added ${input.username} to tenant ${tenant.name} with role ${input.role}`,
    });
    return { status: 201, body: { tenant: tenant.name, username: input.username, role: input.role } };
  });

  add('PATCH', '/_sim/tenants/{tenant}/users/{username}', async (r) => {
    const tenant = findTenant(sim.state, r.params.tenant ?? '');
    const user = userOf(tenant, r.params.username ?? '');
    const input = await parse(r, RoleInput);
    const previous = user.role;
    user.role = input.role;
    recordAudit(sim.state, {
      tenantUid: tenant.uid,
      eventType: 'USER_ROLE_CHANGED',
      username: user.username,
      roles: [input.role],
      at: sim.clock.now(),
      description: `${input.by ?? UI_USER} changed the role of ${user.username} in tenant ${tenant.name} from ${previous} to ${input.role}`,
    });
    return {
      status: 200,
      body: { tenant: tenant.name, username: user.username, role: input.role, previousRole: previous },
    };
  });

  add('DELETE', '/_sim/tenants/{tenant}/users/{username}', async (r) => {
    const tenant = findTenant(sim.state, r.params.tenant ?? '');
    const user = userOf(tenant, r.params.username ?? '');
    const input = await parse(r, RemoveInput);
    tenant.users = tenant.users.filter((u) => u !== user);
    for (const [token, record] of sim.state.tokens)
      if (record.tenantUid === tenant.uid && record.username.toLowerCase() === user.username.toLowerCase())
        sim.state.tokens.delete(token);
    recordAudit(sim.state, {
      tenantUid: tenant.uid,
      eventType: 'USER_REMOVED_FROM_TENANT',
      username: user.username,
      roles: [user.role],
      at: sim.clock.now(),
      description: `${input.by ?? UI_USER} removed ${user.username} from tenant ${tenant.name}`,
    });
    return { status: 204 };
  });

  add('POST', '/_sim/tenants/{tenant}/logins', async (r) => {
    const tenant = findTenant(sim.state, r.params.tenant ?? '');
    const input = await parse(r, LoginInput);
    const user = userOf(tenant, input.username);
    const now = sim.clock.now();
    user.lastSuccessfulLogin = now;
    recordAudit(sim.state, {
      tenantUid: tenant.uid,
      eventType: 'USER_LOGGED_IN',
      username: user.username,
      roles: [user.role],
      at: now,
      description: `${user.username} logged in`,
    });
    return { status: 200, body: { tenant: tenant.name, username: user.username } };
  });
}
