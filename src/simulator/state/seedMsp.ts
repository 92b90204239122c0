// Seeded MSP world: devices in the managed tenants (ASAs and cdFMC-managed FTDs, with the states that
// make cross-tenant Secure Client checks fail: unreachable, not synced, no RA VPN role, too old), their
// packages, the versions two tenants do not offer, and two finished cross-tenant upgrade runs. Draws from
// its own PRNG, so the rest of the seeded world (and its UIDs) is the same as without it.
import { SeededRandom } from '../random.js';
import type { DeviceRecord, PackageRecord, Platform, SimState, UpgradeRunRecord } from './model.js';
import { type MspTenantLeg, type MspUpgradeRunRecord, mspWorld } from './mspWorld.js';
import { packageFileName } from './seedSecureClient.js';
import { PORTAL_USERS } from './seedTenants.js';

const DAY = 86_400_000;
const WIN: Platform = { os: 'WINDOWS', cpuArchitecture: 'X86_64' };
const WIN_ARM: Platform = { os: 'WINDOWS', cpuArchitecture: 'ARM64' };
const MAC: Platform = { os: 'MACOS', cpuArchitecture: 'UNIVERSAL' };
const LINUX_ARM: Platform = { os: 'LINUX', cpuArchitecture: 'ARM64' };

interface ManagedDevicePlan {
  tenant: string;
  name: string;
  kind: 'ASA' | 'FTD';
  softwareVersion: string;
  connectivityState?: 'ONLINE' | 'UNREACHABLE';
  configState?: 'SYNCED' | 'NOT_SYNCED';
  /** Remote-access VPN headend (ASA role / FTD policy); default true. */
  headend?: boolean;
  ha?: boolean;
  packages?: string[];
  upgradeFault?: DeviceRecord['upgradeFault'];
}

export const MANAGED_DEVICES: ManagedDevicePlan[] = [
  {
    tenant: 'northwind-us',
    name: 'nw-asa-hq',
    kind: 'ASA',
    softwareVersion: '9.20.2',
    packages: [WIN, MAC].map((p) => packageFileName('5.0.05040', p)),
  },
  {
    tenant: 'northwind-us',
    name: 'nw-asa-branch',
    kind: 'ASA',
    softwareVersion: '9.16.4',
    packages: [packageFileName('5.0.05040', WIN)],
  },
  {
    tenant: 'northwind-us',
    name: 'nw-ftd-edge',
    kind: 'FTD',
    softwareVersion: '7.4.1',
    packages: [packageFileName('5.1.8.105', WIN)],
  },
  {
    tenant: 'globex-apj',
    name: 'globex-asa-01',
    kind: 'ASA',
    softwareVersion: '9.18.4',
    packages: [packageFileName('5.1.2.42', WIN)],
  },
  {
    tenant: 'globex-apj',
    name: 'globex-asa-02',
    kind: 'ASA',
    softwareVersion: '9.19.1',
    connectivityState: 'UNREACHABLE',
  },
  {
    tenant: 'initech-aus',
    name: 'initech-asa-01',
    kind: 'ASA',
    softwareVersion: '9.18.4',
    configState: 'NOT_SYNCED',
  },
  { tenant: 'initech-aus', name: 'initech-asa-02', kind: 'ASA', softwareVersion: '9.20.2', headend: false },
  {
    tenant: 'failing-labs-in',
    name: 'failing-asa-01',
    kind: 'ASA',
    softwareVersion: '9.20.2',
    upgradeFault: { status: 'FAILED', errorMsg: 'No CLI result received for device' },
  },
  {
    tenant: 'hooli-uae',
    name: 'hooli-asa-01',
    kind: 'ASA',
    softwareVersion: '9.18.4',
    ha: true,
    packages: [WIN, MAC].map((p) => packageFileName('5.1.2.42', p)),
    upgradeFault: {
      status: 'CLEANUP_FAILED',
      errorMsg: 'Old image could not be deleted from disk0: file in use',
    },
  },
  { tenant: 'hooli-uae', name: 'hooli-ftd-01', kind: 'FTD', softwareVersion: '7.2.5' },
  // Associated with the portal's super-admin but not in the portal: never listed by the MSP operations.
  { tenant: 'stark-us', name: 'stark-asa-01', kind: 'ASA', softwareVersion: '9.20.2' },
];

/** Regional catalogue gaps: what these tenants do not offer (cross-tenant results are intersections). */
const OFFER_GAPS: Record<string, { versions?: string[]; platforms?: Platform[] }> = {
  'globex-apj': { versions: ['5.1.15.287'] },
  'hooli-uae': { platforms: [WIN_ARM, LINUX_ARM] },
};

const samePlatform = (a: Platform, b: Platform) => a.os === b.os && a.cpuArchitecture === b.cpuArchitecture;

export function seedMspWorld(state: SimState): void {
  const rng = new SeededRandom(`msp:${state.seed}`);
  const world = mspWorld(state);
  const byName = new Map([...state.tenants.values()].map((t) => [t.name, t]));
  const iso = (t: number) => new Date(t).toISOString();

  for (const [tenantName, gap] of Object.entries(OFFER_GAPS)) {
    const tenant = byName.get(tenantName);
    if (tenant === undefined) continue;
    world.offers.set(
      tenant.uid,
      state.catalogue
        .filter((v) => !(gap.versions ?? []).includes(v.version))
        .map((v) => ({
          ...v,
          platforms: v.platforms.filter((p) => !(gap.platforms ?? []).some((g) => samePlatform(g, p))),
        })),
    );
  }

  for (const plan of MANAGED_DEVICES) {
    const tenant = byName.get(plan.tenant);
    if (tenant === undefined) throw new Error(`MSP seed refers to unknown tenant ${plan.tenant}`);
    const uid = rng.uuid();
    const headend = plan.headend ?? true;
    const policyUid = plan.kind === 'FTD' && headend ? rng.uuid() : undefined;
    const record: DeviceRecord = {
      tenantUid: tenant.uid,
      kind: plan.kind,
      ...(plan.upgradeFault === undefined ? {} : { upgradeFault: plan.upgradeFault }),
      ...(policyUid === undefined ? {} : { raVpnPolicyUid: policyUid }),
      device: {
        uid,
        name: plan.name,
        deviceType: plan.kind === 'ASA' ? 'ASA' : 'CDFMC_MANAGED_FTD',
        address: `${plan.name}.${plan.tenant}.example:443`,
        connectivityState: plan.connectivityState ?? 'ONLINE',
        configState: plan.configState ?? 'SYNCED',
        conflictDetectionState: 'NO_CONFLICTS',
        connectorType: plan.kind === 'ASA' ? 'SDC' : 'CDG',
        softwareVersion: plan.softwareVersion,
        serial: `JAD${rng.int(2000, 2599)}${rng.hex(4).toUpperCase()}`,
        redundancyMode: plan.ha ? 'HA' : 'STANDALONE',
        ...(plan.kind === 'ASA'
          ? {
              chassisSerial: `JMX${rng.int(2000, 2599)}${rng.hex(4).toUpperCase()}`,
              modelNumber: 'ASA5516',
              hardwareModel: 'Cisco ASA5516-X',
              asdmVersion: `7.${plan.softwareVersion.split('.')[1] ?? '20'}(1)`,
              contextMode: 'SINGLE_CONTEXT',
              firewallMode: 'routed',
              asaFailoverMode: plan.ha ? 'ACTIVE_STANDBY' : 'OFF',
              ...(plan.ha ? { asaFailoverState: 'Primary - Active' } : {}),
            }
          : { hardwareModel: 'Cisco Firepower 1120 Threat Defense' }),
        deviceRoles: headend ? [plan.kind === 'ASA' ? 'ASA_RA_VPN_HEADEND' : 'FTD_RA_VPN_HEADEND'] : [],
        ...(headend ? { raVpnCertificateExpiryDate: iso(state.startTime + rng.int(30, 400) * DAY) } : {}),
        certificateExpiryDate: iso(state.startTime + rng.int(200, 700) * DAY),
        labels: { groupedLabels: { customer: [plan.tenant] }, ungroupedLabels: ['managed'] },
        state: 'DONE',
      },
    };
    state.devices.set(uid, record);
    for (const fileName of plan.packages ?? []) {
      const pkg: PackageRecord = { uid: rng.uuid(), deviceUid: uid, fileName };
      state.packages.set(pkg.uid, pkg);
    }
  }

  for (const run of seedHistory(rng, state)) world.runs.set(run.uid, run);
}

/** Two finished cross-tenant runs, each with its per-tenant runs in the tenants' own history. */
function seedHistory(rng: SeededRandom, state: SimState): MspUpgradeRunRecord[] {
  const device = (name: string) => {
    const d = [...state.devices.values()].find((x) => x.device.name === name);
    if (d === undefined) throw new Error(`MSP seed refers to unknown device ${name}`);
    return d;
  };
  const history = (
    name: string,
    version: string,
    username: string,
    daysAgo: number,
    status: MspUpgradeRunRecord['status'],
    results: { device: string; status: 'SUCCESS' | 'FAILED'; errorMsg?: string }[],
  ): MspUpgradeRunRecord => {
    const submissionTime = state.startTime - daysAgo * DAY;
    const lastUpdatedTime = submissionTime + rng.int(6, 14) * 60_000;
    const legs = new Map<string, MspTenantLeg>();
    const tenantRuns = new Map<string, UpgradeRunRecord>();
    for (const result of results) {
      const d = device(result.device);
      let run = tenantRuns.get(d.tenantUid);
      if (run === undefined) {
        run = {
          uid: rng.uuid(),
          tenantUid: d.tenantUid,
          name,
          type: 'ASA_SECURE_CLIENT_UPGRADE',
          version,
          platforms: [],
          username,
          transactionUid: rng.uuid(),
          submissionTime,
          lastUpdatedTime,
          status: 'DONE',
          stepStartedAt: lastUpdatedTime,
          stepDurationMs: 0,
          devices: [],
        };
        tenantRuns.set(d.tenantUid, run);
        legs.set(d.tenantUid, {
          tenantUid: d.tenantUid,
          displayName: state.tenants.get(d.tenantUid)?.displayName ?? '',
          runUid: run.uid,
          transactionUid: run.transactionUid,
        });
      }
      run.devices.push({
        uid: d.device.uid,
        name: d.device.name,
        status: result.status,
        ...(result.errorMsg === undefined ? {} : { errorMsg: result.errorMsg }),
      });
    }
    for (const run of tenantRuns.values()) {
      const failed = run.devices.filter((x) => x.status === 'FAILED').length;
      if (failed === run.devices.length)
        Object.assign(run, { status: 'ERROR', errorMsg: 'All devices failed to upgrade' });
      else if (failed > 0) run.status = 'DONE_WITH_DEVICE_ERRORS';
      state.upgradeRuns.set(run.uid, run);
    }
    return {
      uid: rng.uuid(),
      portalUid: state.portalUid,
      name,
      version,
      username,
      transactionUid: rng.uuid(),
      submissionTime,
      lastUpdatedTime,
      status,
      legs: [...legs.values()],
      devices: [],
    };
  };
  return [
    history('msp-spring-refresh', '5.0.05040', PORTAL_USERS.superAdmin, 45, 'DONE', [
      { device: 'nw-asa-hq', status: 'SUCCESS' },
      { device: 'nw-asa-branch', status: 'SUCCESS' },
    ]),
    history('msp-apac-rollout', '5.1.2.42', PORTAL_USERS.admin, 12, 'DONE_WITH_DEVICE_ERRORS', [
      { device: 'globex-asa-01', status: 'SUCCESS' },
      { device: 'failing-asa-01', status: 'FAILED', errorMsg: 'No CLI result received for device' },
    ]),
  ];
}
