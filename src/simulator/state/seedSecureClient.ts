// Seeded Secure Client world and the rest of the history: the version catalogue (with the oldest ASA and
// FTD software each version supports), packages installed on the ASAs and configured on the FTDs' RA VPN
// policies (one FTD package with a filename outside the naming pattern), historical upgrade runs, event
// search reports, and the objects of the cloud-delivered FMC that answers gateway commands.
import type { SeededRandom } from '../random.js';
import type {
  CatalogueVersion,
  DeviceRecord,
  FmcState,
  PackageRecord,
  Platform,
  ReportRecord,
  UpgradeRunRecord,
} from './model.js';
import { DEVICE_NAMES, FMC_DOMAIN_UID } from './seedInventory.js';
import { PORTAL_USERS } from './seedTenants.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const WIN: Platform = { os: 'WINDOWS', cpuArchitecture: 'X86_64' };
const WIN_ARM: Platform = { os: 'WINDOWS', cpuArchitecture: 'ARM64' };
const MAC: Platform = { os: 'MACOS', cpuArchitecture: 'UNIVERSAL' };
const LINUX: Platform = { os: 'LINUX', cpuArchitecture: 'X86_64' };
const LINUX_ARM: Platform = { os: 'LINUX', cpuArchitecture: 'ARM64' };

export const CATALOGUE: CatalogueVersion[] = [
  { version: '4.10.08029', platforms: [WIN, MAC, LINUX], minAsa: '9.8', minFtd: '6.7' },
  { version: '5.0.05040', platforms: [WIN, MAC, LINUX], minAsa: '9.12', minFtd: '7.0' },
  { version: '5.1.2.42', platforms: [WIN, WIN_ARM, MAC, LINUX], minAsa: '9.16', minFtd: '7.2' },
  { version: '5.1.8.105', platforms: [WIN, WIN_ARM, MAC, LINUX, LINUX_ARM], minAsa: '9.16', minFtd: '7.2' },
  { version: '5.1.15.287', platforms: [WIN, WIN_ARM, MAC, LINUX, LINUX_ARM], minAsa: '9.18', minFtd: '7.4' },
];

/** A filename in the naming pattern `cisco-secure-client-<os>-<version>-webdeploy-k9.pkg`. */
export function packageFileName(version: string, platform: Platform, legacy = false): string {
  const osToken =
    platform.os === 'WINDOWS'
      ? platform.cpuArchitecture === 'ARM64'
        ? 'win-arm64'
        : 'win'
      : platform.os === 'MACOS'
        ? 'macos'
        : platform.cpuArchitecture === 'ARM64'
          ? 'linux-arm64'
          : 'linux64';
  return `${legacy ? 'anyconnect' : 'cisco-secure-client'}-${osToken}-${version}-webdeploy-k9.pkg`;
}

/** Filename not in the pattern: version, OS and architecture cannot be parsed from it. */
export const UNPARSEABLE_PACKAGE = 'acme-custom-vpn-client-build7.pkg';

export function seedPackages(rng: SeededRandom, devices: DeviceRecord[]): PackageRecord[] {
  const byName = new Map(devices.map((d) => [d.device.name, d.device.uid]));
  const plan: [string, string[]][] = [
    [DEVICE_NAMES.asaHq, [WIN, MAC, LINUX].map((p) => packageFileName('5.0.05040', p))],
    [DEVICE_NAMES.asaBranch, [WIN, MAC].map((p) => packageFileName('4.10.08029', p, true))],
    [DEVICE_NAMES.asaDc, [WIN, WIN_ARM, MAC].map((p) => packageFileName('5.1.2.42', p))],
    [DEVICE_NAMES.ftdEdge1, [...[WIN, MAC].map((p) => packageFileName('5.1.8.105', p)), UNPARSEABLE_PACKAGE]],
    [DEVICE_NAMES.ftdEdge2, [WIN, LINUX].map((p) => packageFileName('5.0.05040', p))],
  ];
  const out: PackageRecord[] = [];
  for (const [deviceName, files] of plan) {
    const deviceUid = byName.get(deviceName);
    if (deviceUid === undefined) throw new Error(`seed refers to unknown device ${deviceName}`);
    for (const fileName of files) out.push({ uid: rng.uuid(), deviceUid, fileName });
  }
  return out;
}

export function seedUpgradeRuns(
  rng: SeededRandom,
  tenantUid: string,
  devices: DeviceRecord[],
  startTime: number,
): UpgradeRunRecord[] {
  const dev = (name: string) => {
    const d = devices.find((x) => x.device.name === name);
    if (d === undefined) throw new Error(`seed refers to unknown device ${name}`);
    return { uid: d.device.uid, name };
  };
  const run = (
    name: string,
    type: UpgradeRunRecord['type'],
    version: string,
    username: string,
    daysAgo: number,
    status: UpgradeRunRecord['status'],
    results: UpgradeRunRecord['devices'],
    errorMsg?: string,
  ): UpgradeRunRecord => {
    const submissionTime = startTime - daysAgo * DAY - rng.int(0, 8) * HOUR;
    const lastUpdatedTime = submissionTime + rng.int(4, 12) * 60_000;
    return {
      uid: rng.uuid(),
      tenantUid,
      name,
      type,
      version,
      platforms: [],
      username,
      transactionUid: rng.uuid(),
      submissionTime,
      lastUpdatedTime,
      status,
      stepStartedAt: lastUpdatedTime,
      stepDurationMs: 0,
      devices: results,
      ...(errorMsg === undefined ? {} : { errorMsg }),
    };
  };
  const alice = 'alice.nguyen@acme-msp.example';
  return [
    run('quarterly-vpn-refresh', 'ASA_SECURE_CLIENT_UPGRADE', '5.0.05040', alice, 40, 'DONE', [
      { ...dev(DEVICE_NAMES.asaHq), status: 'SUCCESS' },
    ]),
    run(
      'branch-rollout',
      'ASA_SECURE_CLIENT_UPGRADE',
      '5.1.2.42',
      PORTAL_USERS.admin,
      21,
      'DONE_WITH_DEVICE_WARNINGS',
      [
        {
          ...dev(DEVICE_NAMES.asaDc),
          status: 'CLEANUP_FAILED',
          errorMsg: 'Old image could not be deleted: file in use',
        },
      ],
    ),
    run('ftd-vpn-5-1', 'FTD_SECURE_CLIENT_UPGRADE', '5.1.8.105', alice, 9, 'DONE_WITH_DEVICE_ERRORS', [
      { ...dev(DEVICE_NAMES.ftdEdge1), status: 'SUCCESS' },
      {
        ...dev(DEVICE_NAMES.ftdEdge2),
        status: 'FAILED',
        errorMsg: 'Deployment to the device failed on the FMC',
      },
    ]),
    run(
      'ftd-canary',
      'FTD_SECURE_CLIENT_UPGRADE',
      '5.1.8.105',
      PORTAL_USERS.superAdmin,
      2,
      'ERROR',
      [
        {
          ...dev(DEVICE_NAMES.ftdEdge2),
          status: 'FAILED',
          errorMsg: 'Deployment to the device failed on the FMC',
        },
      ],
      'All devices failed to upgrade',
    ),
  ];
}

export function seedReports(rng: SeededRandom, tenantUid: string, startTime: number): ReportRecord[] {
  const report = (
    name: string,
    query: string,
    status: ReportRecord['status'],
    hoursAgo: number,
    spanHours: number,
    createdBy: string,
  ): ReportRecord => {
    const createdDate = startTime - hoursAgo * HOUR;
    return {
      uid: rng.uuid(),
      tenantUid,
      name,
      query,
      status,
      createdBy,
      createdDate,
      ...(status === 'RUNNING' ? {} : { completedDate: createdDate + rng.int(1, 20) * 60_000 }),
      startDate: createdDate - spanHours * HOUR,
      endDate: createdDate,
      rowCount: status === 'COMPLETED' ? rng.int(20, 400) : 0,
    };
  };
  return [
    report('blocked-connections-24h', 'action:BLOCK', 'COMPLETED', 50, 24, PORTAL_USERS.admin),
    report(
      'vpn-logins-week',
      'eventType:VPN_LOGIN',
      'COMPLETED',
      30,
      24 * 7,
      'alice.nguyen@acme-msp.example',
    ),
    report(
      'intrusion-events-daily',
      'eventType:INTRUSION AND priority:HIGH',
      'COMPLETED',
      6,
      24,
      PORTAL_USERS.admin,
    ),
    report(
      'geo-blocked-apac',
      'action:BLOCK AND destinationCountry:AU',
      'FAILED',
      3,
      48,
      PORTAL_USERS.superAdmin,
    ),
    report('full-traffic-export', 'deviceName:asa-hq-01', 'RUNNING', 0, 24 * 30, PORTAL_USERS.superAdmin),
  ];
}

export function seedFmc(rng: SeededRandom, devices: DeviceRecord[]): FmcState {
  const fmcId = () => rng.uuid().toUpperCase();
  const link = (path: string) =>
    `https://acme-msp.app.us.cdo.cisco.com/api/fmc_config/v1/domain/${FMC_DOMAIN_UID}/${path}`;
  const network = (name: string, value: string) => {
    const id = fmcId();
    return {
      id,
      name,
      type: 'Network',
      value,
      overridable: false,
      links: { self: link(`object/networks/${id}`) },
    };
  };
  const dynamicObject = (name: string, description: string) => {
    const id = fmcId();
    return {
      id,
      name,
      type: 'DynamicObject',
      objectType: 'IP',
      description,
      links: { self: link(`object/dynamicobjects/${id}`) },
    };
  };
  const dynamicObjects = [
    dynamicObject('Marketing', 'IPs of marketing department'),
    dynamicObject('Quarantine', 'Hosts isolated by the SOC'),
  ];
  const mappings = new Map<string, string[]>();
  for (const o of dynamicObjects)
    mappings.set(o.id, o.name === 'Marketing' ? ['10.1.100.20', '10.1.100.21'] : []);
  return {
    domainUid: FMC_DOMAIN_UID,
    larUid: rng.uuid(),
    serverVersion: '7.6.0 (build 1234)',
    networks: [
      network('corp-lan', '10.0.0.0/8'),
      network('dmz-net', '172.16.0.0/16'),
      network('vpn-pool', '192.168.250.0/24'),
      network('aws-vpc', '10.200.0.0/16'),
      network('guest-net', '10.10.0.0/16'),
    ],
    dynamicObjects,
    dynamicObjectMappings: mappings,
    accessPolicies: ['Default-Access-Policy', 'Edge-Policy'].map((name) => {
      const id = fmcId();
      return { id, name, type: 'AccessPolicy', links: { self: link(`policy/accesspolicies/${id}`) } };
    }),
    deviceRecords: devices
      .filter((d) => d.kind === 'FTD')
      .map((d) => {
        const id = d.device.deviceRecordOnFmc?.uid ?? fmcId();
        return {
          id,
          name: d.device.name,
          type: 'Device',
          sw_version: d.device.softwareVersion,
          model: d.device.hardwareModel,
          links: { self: link(`devices/devicerecords/${id}`) },
        };
      }),
  };
}
