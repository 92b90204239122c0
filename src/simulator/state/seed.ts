// Builds the simulated world for a seed name: the same name always yields the same tenants, UIDs,
// devices, interfaces, packages, runs and reports. Everything else starts empty.
import { SeededRandom } from '../random.js';
import { seedAclHits } from './asaAccessListHits.js';
import { seedAsaConfigs } from './asaConfig.js';
import type { SimState, TokenRecord } from './model.js';
import { seedAuditLogs } from './seedEvents.js';
import { DEVICE_NAMES, seedInventory } from './seedInventory.js';
import { seedMspWorld } from './seedMsp.js';
import { seedAsaPolicies } from './seedPolicy.js';
import { seedResponse } from './seedResponse.js';
import { seedScale, type WorldScale } from './seedScale.js';
import { CATALOGUE, seedFmc, seedPackages, seedReports, seedUpgradeRuns } from './seedSecureClient.js';
import { DEMO_TOKENS, PORTAL_USERS, seedTenants } from './seedTenants.js';

export const DEFAULT_SEED = 'default';
/** Start of simulated time for a manual clock: fixed, so timestamps in answers are reproducible. */
export const DEFAULT_START_TIME = Date.UTC(2025, 5, 2, 9, 0, 0);

/** The world of `seed`, at `scale` when given (a large MSP world, see seedScale.ts). */
/** asa-hq-01 may be deployed to on Saturdays from 22:00 UTC for four hours, as SCC would say it. */
function seedMaintenanceWindows(state: SimState): void {
  for (const record of state.devices.values())
    if (record.device.name === DEVICE_NAMES.asaHq)
      record.maintenanceWindow = { startCron: '0 22 * * 6', durationMinutes: 240 };
}

export function seedState(seed: string, startTime: number, scale?: WorldScale): SimState {
  const rng = new SeededRandom(`seed:${seed}`);
  const tenants = seedTenants(rng, startTime);
  const portal = tenants.find((t) => t.isPortal);
  if (portal === undefined) throw new Error('the seed has no portal tenant');
  const { devices, interfaces } = seedInventory(rng, portal.uid, startTime);
  const packages = seedPackages(rng, devices);
  const runs = seedUpgradeRuns(rng, portal.uid, devices, startTime);
  const reports = seedReports(rng, portal.uid, startTime);
  const fmc = seedFmc(rng, devices);

  const demo: TokenRecord[] = [
    {
      token: DEMO_TOKENS.superAdmin,
      tenantUid: portal.uid,
      username: PORTAL_USERS.superAdmin,
      role: 'ROLE_SUPER_ADMIN',
      source: 'demo',
    },
    {
      token: DEMO_TOKENS.admin,
      tenantUid: portal.uid,
      username: PORTAL_USERS.admin,
      role: 'ROLE_ADMIN',
      source: 'demo',
    },
    {
      token: DEMO_TOKENS.readOnly,
      tenantUid: portal.uid,
      username: PORTAL_USERS.readOnly,
      role: 'ROLE_READ_ONLY',
      source: 'demo',
    },
  ];

  const state: SimState = {
    seed,
    startTime,
    portalUid: portal.uid,
    tenants: new Map(tenants.map((t) => [t.uid, t])),
    tokens: new Map(demo.map((t) => [t.token, t])),
    devices: new Map(devices.map((d) => [d.device.uid, d])),
    interfaces: new Map(interfaces.map((i) => [i.uid, i])),
    packages: new Map(packages.map((p) => [p.uid, p])),
    catalogue: CATALOGUE.map((v) => ({ ...v, platforms: [...v.platforms] })),
    upgradeRuns: new Map(runs.map((r) => [r.uid, r])),
    transactions: new Map(),
    gatewayRequests: new Map(),
    reports: new Map(reports.map((r) => [r.uid, r])),
    asaConfigs: new Map(seedAsaConfigs(devices, interfaces).map((c) => [c.deviceUid, c])),
    asaPolicies: new Map(),
    uidAliases: new Map(),
    unassociatedObjects: new Map(),
    deploymentRuns: new Map(),
    deviceUpgradeRuns: new Map(),
    mspDeviceUpgradeRuns: new Map(),
    upgradeCompatibility: new Map(),
    ftdUpgradeCaches: new Map(),
    changelogs: new Map(),
    activeChangelogs: new Map(),
    auditLogs: [],
    changeRequests: new Map(),
    // The portal tenant has object sharing on (its object APIs answer); every other tenant SCC's default.
    tenantSettings: new Map([
      [portal.uid, { changeRequestSupport: false, scheduledDeployments: false, objectSharing: true }],
    ]),
    connectorOutages: new Map(),
    raVpnSessions: new Map(),
    mfaEvents: [],
    shuns: new Map(),
    aclHits: new Map(),
    eventSeq: 0,
    fmc,
    tenantsCreated: 0,
    pendingTenantNames: new Set(),
    rng: new SeededRandom(`runtime:${seed}`),
  };
  seedMspWorld(state);
  state.asaPolicies = seedAsaPolicies(state);
  state.aclHits = seedAclHits(state.asaPolicies);
  if (scale !== undefined) seedScale(state, scale);
  seedAuditLogs(state);
  seedMaintenanceWindows(state);
  seedResponse(state);
  return state;
}
