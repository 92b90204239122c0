// Seeded device inventory of the portal tenant: three ASAs (eight data ports and a management port
// each, EtherChannels, subinterfaces, VLAN and virtual tunnel interfaces), three cdFMC-managed FTDs
// (two with a remote-access VPN policy, one without) and the cloud-delivered FMC behind the gateway.
import type { SeededRandom } from '../random.js';
import type { DeviceRecord, InterfaceRecord } from './model.js';

const DAY = 86_400_000;
export const FMC_DOMAIN_UID = 'e276abec-e0f2-11e3-8169-6d9ed49b625f';
const FMC_HOST = 'acme-msp.app.us.cdo.cisco.com';

export const DEVICE_NAMES = {
  asaHq: 'asa-hq-01',
  asaBranch: 'asa-branch-02',
  asaDc: 'asa-dc-03',
  ftdEdge1: 'ftd-edge-01',
  ftdEdge2: 'ftd-edge-02',
  ftdLab: 'ftd-lab-03',
  cdFmc: 'cdfmc-acme',
} as const;

/** Documented upgrade outcomes: these devices fail (or fail to clean up) in every Secure Client upgrade. */
const UPGRADE_FAULTS: Record<string, DeviceRecord['upgradeFault']> = {
  [DEVICE_NAMES.asaBranch]: { status: 'FAILED', errorMsg: 'No CLI result received for device' },
  [DEVICE_NAMES.asaDc]: {
    status: 'CLEANUP_FAILED',
    errorMsg: 'Old image could not be deleted from disk0: file in use',
  },
  [DEVICE_NAMES.ftdEdge2]: { status: 'FAILED', errorMsg: 'Deployment to the device failed on the FMC' },
};

interface AsaPlan {
  name: string;
  softwareVersion: string;
  site: string;
  ha: boolean;
  address: string;
}

const ASAS: AsaPlan[] = [
  {
    name: DEVICE_NAMES.asaHq,
    softwareVersion: '9.20.2',
    site: 'hq',
    ha: false,
    address: '198.51.100.10:443',
  },
  {
    name: DEVICE_NAMES.asaBranch,
    softwareVersion: '9.14.4',
    site: 'branch',
    ha: false,
    address: '198.51.100.20:443',
  },
  { name: DEVICE_NAMES.asaDc, softwareVersion: '9.18.4', site: 'dc', ha: true, address: '198.51.100.30:443' },
];

interface FtdPlan {
  name: string;
  softwareVersion: string;
  raVpn: boolean;
  model: string;
}

const FTDS: FtdPlan[] = [
  {
    name: DEVICE_NAMES.ftdEdge1,
    softwareVersion: '7.4.1',
    raVpn: true,
    model: 'Cisco Firepower 2110 Threat Defense',
  },
  {
    name: DEVICE_NAMES.ftdEdge2,
    softwareVersion: '7.2.5',
    raVpn: true,
    model: 'Cisco Firepower 1120 Threat Defense',
  },
  {
    name: DEVICE_NAMES.ftdLab,
    softwareVersion: '7.4.1',
    raVpn: false,
    model: 'Cisco Secure Firewall Threat Defense Virtual',
  },
];

function serial(rng: SeededRandom, prefix: string): string {
  return `${prefix}${rng.int(2000, 2599)}${rng.hex(4).toUpperCase()}`;
}

export interface SeededInventory {
  devices: DeviceRecord[];
  interfaces: InterfaceRecord[];
}

export function seedInventory(rng: SeededRandom, tenantUid: string, startTime: number): SeededInventory {
  const devices: DeviceRecord[] = [];
  const interfaces: InterfaceRecord[] = [];
  const iso = (t: number) => new Date(t).toISOString();

  const cdFmcUid = rng.uuid();
  for (const asa of ASAS) {
    const uid = rng.uuid();
    const asaFault = UPGRADE_FAULTS[asa.name];
    devices.push({
      tenantUid,
      kind: 'ASA',
      ...(asaFault === undefined ? {} : { upgradeFault: asaFault }),
      device: {
        uid,
        name: asa.name,
        deviceType: 'ASA',
        address: asa.address,
        connectivityState: 'ONLINE',
        configState: 'SYNCED',
        conflictDetectionState: 'NO_CONFLICTS',
        connectorType: 'SDC',
        connectorUid: rng.uuid(),
        softwareVersion: asa.softwareVersion,
        asdmVersion: `7.${asa.softwareVersion.split('.')[1] ?? '20'}(1)`,
        serial: serial(rng, 'JAD'),
        chassisSerial: serial(rng, 'JMX'),
        modelNumber: 'ASA5516',
        hardwareModel: 'Cisco ASA5516-X',
        contextMode: 'SINGLE_CONTEXT',
        firewallMode: 'routed',
        asaFailoverMode: asa.ha ? 'ACTIVE_STANDBY' : 'OFF',
        ...(asa.ha
          ? {
              asaFailoverState: 'Primary - Active',
              asaFailoverMate: {
                serial: serial(rng, 'JAD'),
                chassisSerial: serial(rng, 'JMX'),
                failoverState: 'Secondary - Standby Ready',
                softwareVersion: asa.softwareVersion,
              },
            }
          : {}),
        redundancyMode: asa.ha ? 'HA' : 'STANDALONE',
        licenseStatus: 'LICENSED',
        complianceStatus: 'IN_COMPLIANCE',
        asaLicenseEntitlements: { 'AnyConnect Premium Peers': '250', Encryption: 'Strong' },
        deviceRole: 'ASA_RA_VPN_HEADEND',
        deviceRoles: ['ASA_RA_VPN_HEADEND'],
        labels: { groupedLabels: { site: [asa.site] }, ungroupedLabels: ['production'] },
        certificateExpiryDate: iso(startTime + rng.int(200, 700) * DAY),
        raVpnCertificateExpiryDate: iso(startTime + rng.int(30, 400) * DAY),
        optedInToAsaHealthMetrics: true,
        state: 'DONE',
        notes: `ASA at the ${asa.site} site`,
      },
    });
    interfaces.push(...seedAsaInterfaces(rng, uid, asa.name));
  }

  for (const ftd of FTDS) {
    const uid = rng.uuid();
    const recordUid = rng.uuid();
    const policyUid = ftd.raVpn ? rng.uuid() : undefined;
    const accessPolicyUid = rng.uuid();
    const ftdFault = UPGRADE_FAULTS[ftd.name];
    devices.push({
      tenantUid,
      kind: 'FTD',
      ...(ftdFault === undefined ? {} : { upgradeFault: ftdFault }),
      ...(policyUid === undefined ? {} : { raVpnPolicyUid: policyUid }),
      device: {
        uid,
        name: ftd.name,
        deviceType: 'CDFMC_MANAGED_FTD',
        address: `${ftd.name}.acme.example:443`,
        connectivityState: 'ONLINE',
        configState: 'SYNCED',
        conflictDetectionState: 'NO_CONFLICTS',
        connectorType: 'CDG',
        softwareVersion: ftd.softwareVersion,
        snortVersion: '3.1.53.100-56',
        serial: serial(rng, 'JAD'),
        hardwareModel: ftd.model,
        ftdLicenses: ['BASE', 'THREAT', 'MALWARE', 'URLFilter'],
        ftdPerformanceTier: ftd.model.includes('Virtual') ? 'FTDv30' : undefined,
        licenseStatus: 'LICENSED',
        complianceStatus: 'IN_COMPLIANCE',
        redundancyMode: 'STANDALONE',
        cdFmcInfo: {
          uid: cdFmcUid,
          link: `https://${FMC_HOST}/api/rest/v1/inventory/managers/${cdFmcUid}`,
        },
        deviceRecordOnFmc: {
          uid: recordUid,
          link: `https://${FMC_HOST}/api/fmc_config/v1/domain/${FMC_DOMAIN_UID}/devices/devicerecords/${recordUid}`,
        },
        uidOnFmc: recordUid,
        fmcAccessPolicy: {
          uid: accessPolicyUid,
          link: `https://${FMC_HOST}/api/fmc_config/v1/domain/${FMC_DOMAIN_UID}/policy/accesspolicies/${accessPolicyUid}`,
        },
        ...(policyUid === undefined
          ? { deviceRoles: [] }
          : {
              raVpnPolicy: {
                uid: policyUid,
                link: `https://${FMC_HOST}/api/fmc_config/v1/domain/${FMC_DOMAIN_UID}/policy/ravpns/${policyUid}`,
              },
              deviceRole: 'FTD_RA_VPN_HEADEND',
              deviceRoles: ['FTD_RA_VPN_HEADEND'],
              raVpnCertificateExpiryDate: iso(startTime + rng.int(30, 400) * DAY),
            }),
        labels: { groupedLabels: { site: ['edge'] }, ungroupedLabels: ftd.raVpn ? ['vpn'] : ['lab'] },
        state: 'DONE',
      },
    });
  }

  devices.push({
    tenantUid,
    kind: 'CDFMC',
    device: {
      uid: cdFmcUid,
      name: DEVICE_NAMES.cdFmc,
      deviceType: 'CDFMC',
      address: `${FMC_HOST}:443`,
      connectivityState: 'ONLINE',
      configState: 'SYNCED',
      softwareVersion: '7.6.0',
      fmcDomainUid: FMC_DOMAIN_UID,
      geoDbVersion: '2025-05-12-101',
      vdbVersion: 'build 392 ( 2025-05-20 )',
      sruVersion: '2025-05-27-001-vrt',
      dedicatedCdFmcInstance: false,
      labels: null,
      state: 'DONE',
    },
  });
  return { devices, interfaces };
}

/** Builds one ASA's interfaces; `layout` varies per device so the three ASAs are not identical. */
function seedAsaInterfaces(rng: SeededRandom, deviceUid: string, deviceName: string): InterfaceRecord[] {
  const out: InterfaceRecord[] = [];
  const physical = new Map<string, InterfaceRecord>();
  const add = (record: InterfaceRecord): InterfaceRecord => {
    out.push(record);
    return record;
  };

  for (let port = 1; port <= 8; port += 1) {
    const hw = `GigabitEthernet1/${port}`;
    physical.set(hw, add(physicalInterface(rng, deviceUid, hw, false)));
  }
  physical.set('Management1/1', add(physicalInterface(rng, deviceUid, 'Management1/1', true)));
  const port = (hw: string): InterfaceRecord => {
    const p = physical.get(hw);
    if (p === undefined) throw new Error(`seed refers to unknown port ${hw}`);
    return p;
  };
  const name = (hw: string, n: string, securityLevel: number, ip?: string) => {
    Object.assign(port(hw), addressing(n, securityLevel, ip));
  };

  const etherChannel = (id: number, members: string[], n: string, securityLevel: number, ip: string) => {
    const uid = rng.uuid();
    for (const m of members) port(m).etherChannelGroupUid = uid;
    return add({
      uid,
      deviceUid,
      interfaceType: 'ETHER_CHANNEL_INTERFACE',
      hardwareName: `Port-channel${id}`,
      etherChannelId: id,
      lacpMode: 'ACTIVE',
      memberInterfaces: members.map((m) => port(m).uid),
      enabled: true,
      mtu: 1500,
      mode: 'ROUTED',
      macAddress: rng.macAddress(),
      managementOnly: false,
      managementInterface: false,
      monitorInterface: true,
      ...addressing(n, securityLevel, ip),
    });
  };
  const sub = (parent: InterfaceRecord, id: number, vlan: number, n: string, ip: string) =>
    add({
      uid: rng.uuid(),
      deviceUid,
      interfaceType: 'SUB_INTERFACE',
      hardwareName: `${parent.hardwareName}.${id}`,
      parentInterfaceUid: parent.uid,
      subInterfaceId: id,
      vlanPrimaryId: vlan,
      vlanSecondaryIds: [],
      enabled: true,
      mtu: 1500,
      managementOnly: false,
      monitorInterface: true,
      ...addressing(n, 60, ip),
    });
  const vlan = (id: number, n: string, ip: string) =>
    add({
      uid: rng.uuid(),
      deviceUid,
      interfaceType: 'VLAN_INTERFACE',
      hardwareName: `Vlan${id}`,
      vlanId: id,
      memberInterfaces: [],
      enabled: true,
      mtu: 1500,
      managementOnly: false,
      monitorInterface: false,
      ...addressing(n, 40, ip),
    });
  const tunnel = (id: number, n: string, ip: string) =>
    add({
      uid: rng.uuid(),
      deviceUid,
      interfaceType: 'VIRTUAL_TUNNEL_INTERFACE',
      hardwareName: `Tunnel${id}`,
      enabled: true,
      mtu: 1500,
      managementOnly: false,
      monitorInterface: false,
      ...addressing(n, 0, ip),
    });

  Object.assign(port('Management1/1'), addressing('management', 0, '192.168.45.1'));
  if (deviceName === DEVICE_NAMES.asaHq) {
    name('GigabitEthernet1/1', 'outside', 0, '203.0.113.2');
    name('GigabitEthernet1/2', 'inside', 100, '10.1.0.1');
    name('GigabitEthernet1/3', 'dmz', 50, '172.16.0.1');
    const uplink = etherChannel(1, ['GigabitEthernet1/4', 'GigabitEthernet1/5'], 'uplink', 100, '10.2.0.1');
    sub(port('GigabitEthernet1/2'), 100, 100, 'users', '10.1.100.1');
    sub(port('GigabitEthernet1/2'), 200, 200, 'voice', '10.1.200.1');
    sub(uplink, 300, 300, 'servers', '10.3.0.1');
    vlan(10, 'guest', '10.10.0.1');
    vlan(20, 'iot', '10.20.0.1');
    tunnel(1, 'vti-aws', '169.254.10.1');
    tunnel(2, 'vti-azure', '169.254.20.1');
  } else if (deviceName === DEVICE_NAMES.asaBranch) {
    name('GigabitEthernet1/1', 'outside', 0, '203.0.113.18');
    name('GigabitEthernet1/2', 'inside', 100, '10.50.0.1');
    sub(port('GigabitEthernet1/2'), 10, 10, 'staff', '10.50.10.1');
    vlan(30, 'printers', '10.50.30.1');
    tunnel(1, 'vti-hq', '169.254.30.1');
  } else {
    name('GigabitEthernet1/1', 'outside', 0, '203.0.113.34');
    etherChannel(1, ['GigabitEthernet1/2', 'GigabitEthernet1/3'], 'inside', 100, '10.100.0.1');
    const dmz = etherChannel(2, ['GigabitEthernet1/4', 'GigabitEthernet1/5'], 'dmz', 50, '172.20.0.1');
    sub(dmz, 400, 400, 'web', '172.20.40.1');
    sub(dmz, 401, 401, 'app', '172.20.41.1');
    vlan(100, 'storage', '10.200.0.1');
    tunnel(1, 'vti-dr', '169.254.40.1');
  }
  return out;
}

function physicalInterface(
  rng: SeededRandom,
  deviceUid: string,
  hardwareName: string,
  management: boolean,
): InterfaceRecord {
  const mac = rng.macAddress();
  const up = management || rng.next() < 0.75;
  return {
    uid: rng.uuid(),
    deviceUid,
    interfaceType: 'PHYSICAL_INTERFACE',
    hardwareName,
    enabled: up,
    mtu: 1500,
    mode: 'ROUTED',
    duplexType: 'AUTO',
    speedType: 'AUTO',
    macAddress: mac,
    managementOnly: management,
    managementInterface: management,
    monitorInterface: false,
    runtimeData: {
      linkState: up ? 'UP' : 'DOWN',
      linkEnabled: up,
      macAddress: mac,
      mtu: 1500,
      duplexType: 'FULL',
      speedType: management ? 'HUNDRED' : 'THOUSAND',
    },
  };
}

function addressing(name: string, securityLevel: number, ip?: string): Partial<InterfaceRecord> {
  return {
    name,
    securityLevel,
    ...(ip === undefined
      ? {}
      : { ipv4: { ipType: 'STATIC' as const, ipAddress: { ipAddress: ip, netmask: '255.255.255.0' } } }),
  };
}
