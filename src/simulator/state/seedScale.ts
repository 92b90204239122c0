// A large MSP world for benchmarks: the seeded world plus `tenants` more managed tenants (bench-001 …)
// sharing `devices` devices round-robin (ASAs, one in ten an HA pair, and cdFMC-managed FTDs; every one
// ONLINE, SYNCED, an RA VPN headend on recent software, with certificates months away). Devices carry no
// interfaces until a change needs some (asaConfig.ensureAsaInterfaces), so 10 000 of them stay cheap.
// Draws from its own PRNG, so the rest of the seeded world is the same as without it.
import { SeededRandom, stableUid } from '../random.js';
import type { DeviceRecord, Region, SimState, TenantRecord } from './model.js';

export interface WorldScale {
  tenants: number;
  devices: number;
}

export const MAX_SCALE: WorldScale = { tenants: 1_000, devices: 50_000 };

const DAY = 86_400_000;
const REGIONS: Region[] = ['US', 'EU', 'APJ', 'AUS', 'IN', 'UAE'];
const ASA_VERSIONS = ['9.18.4', '9.20.2', '9.20.3'];
const FTD_VERSIONS = ['7.4.1', '7.4.2'];

export function seedScale(state: SimState, scale: WorldScale): void {
  const rng = new SeededRandom(`scale:${state.seed}`);
  const iso = (t: number) => new Date(t).toISOString();
  const tenants: TenantRecord[] = [];
  const width = String(scale.tenants).length < 3 ? 3 : String(scale.tenants).length;
  for (let t = 1; t <= scale.tenants; t += 1) {
    const name = `bench-${String(t).padStart(width, '0')}`;
    const tenant: TenantRecord = {
      uid: rng.uuid(),
      name,
      displayName: `Bench customer ${t}`,
      region: REGIONS[(t - 1) % REGIONS.length] ?? 'US',
      isPortal: false,
      inPortal: true,
      associated: true,
      cdFmcType: 'SHARED',
      complianceStatus: 'IN_COMPLIANCE',
      tenantPayType: 'PAYING',
      deviceCount: 0,
      sccOrganizationUid: rng.uuid(),
      virtualAccounts: [],
      mcdEnabled: false,
      users: [
        {
          uid: rng.uuid(),
          username: `admin@${name}.example`,
          firstName: 'Bench',
          lastName: 'Admin',
          role: 'ROLE_SUPER_ADMIN',
          apiOnly: false,
        },
        { uid: rng.uuid(), username: `${name}-automation`, role: 'ROLE_ADMIN', apiOnly: true },
      ],
    };
    tenants.push(tenant);
    state.tenants.set(tenant.uid, tenant);
  }
  const perTenant = new Map<string, number>();
  for (let i = 0; i < scale.devices; i += 1) {
    const tenant = tenants[i % tenants.length];
    if (tenant === undefined) break;
    const n = (perTenant.get(tenant.uid) ?? 0) + 1;
    perTenant.set(tenant.uid, n);
    tenant.deviceCount = n;
    const asa = rng.next() < 0.8;
    const ha = asa && rng.next() < 0.1;
    const uid = rng.uuid();
    const name = `${tenant.name}-${asa ? 'asa' : 'ftd'}-${String(n).padStart(4, '0')}`;
    const softwareVersion = asa ? rng.pick(ASA_VERSIONS) : rng.pick(FTD_VERSIONS);
    const record: DeviceRecord = {
      tenantUid: tenant.uid,
      kind: asa ? 'ASA' : 'FTD',
      ...(asa ? {} : { raVpnPolicyUid: rng.uuid() }),
      device: {
        uid,
        name,
        deviceType: asa ? 'ASA' : 'CDFMC_MANAGED_FTD',
        address: `${name}.example:443`,
        connectivityState: 'ONLINE',
        configState: 'SYNCED',
        conflictDetectionState: 'NO_CONFLICTS',
        connectorType: asa ? 'SDC' : 'CDG',
        // One connector per tenant for its ASAs, as a site's SDC serves every ASA there (no draw from rng,
        // so the rest of the world keeps its UIDs).
        ...(asa ? { connectorUid: stableUid('sdc', tenant.uid) } : {}),
        softwareVersion,
        serial: `JAD${rng.int(2000, 2599)}${rng.hex(4).toUpperCase()}`,
        redundancyMode: ha ? 'HA' : 'STANDALONE',
        ...(asa
          ? {
              modelNumber: 'ASA5516',
              hardwareModel: 'Cisco ASA5516-X',
              contextMode: 'SINGLE_CONTEXT',
              firewallMode: 'routed',
              asaFailoverMode: ha ? 'ACTIVE_STANDBY' : 'OFF',
              ...(ha
                ? {
                    asaFailoverState: 'Primary - Active',
                    asaFailoverMate: {
                      serial: `JAD${rng.int(2000, 2599)}${rng.hex(4).toUpperCase()}`,
                      failoverState: 'Secondary - Standby Ready',
                      softwareVersion,
                    },
                  }
                : {}),
            }
          : { hardwareModel: 'Cisco Firepower 1120 Threat Defense' }),
        deviceRoles: [asa ? 'ASA_RA_VPN_HEADEND' : 'FTD_RA_VPN_HEADEND'],
        certificateExpiryDate: iso(state.startTime + rng.int(60, 700) * DAY),
        raVpnCertificateExpiryDate: iso(state.startTime + rng.int(45, 400) * DAY),
        labels: { groupedLabels: { customer: [tenant.name] }, ungroupedLabels: ['bench'] },
        state: 'DONE',
      },
    };
    state.devices.set(uid, record);
  }
}
