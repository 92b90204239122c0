// Seeded MSP portal: the portal tenant (home of the demo tokens), the tenants it manages across
// regions, tenants its super-admin is associated with but that are not in the portal yet, and one
// tenant only reachable with its own API token. Names are fixed; UIDs and details vary with the seed.
import type { SeededRandom } from '../random.js';
import type {
  CdFmcType,
  ComplianceStatus,
  Region,
  TenantPayType,
  TenantRecord,
  TenantUser,
  UserRole,
} from './model.js';

const DAY = 86_400_000;

/** The demo tokens: well known, documented, valid for every seed. */
export const DEMO_TOKENS = {
  superAdmin: 'sim-super-admin',
  admin: 'sim-admin',
  readOnly: 'sim-read-only',
} as const;

export const PORTAL_NAME = 'acme-msp';

interface TenantPlan {
  name: string;
  displayName: string;
  region: Region;
  inPortal: boolean;
  associated: boolean;
  payType: TenantPayType;
  cdFmc: CdFmcType;
  compliance: ComplianceStatus;
  mcd: boolean;
}

const MANAGED: TenantPlan[] = [
  plan('northwind-us', 'Northwind Traders (US)', 'US', 'PAYING', 'SHARED', 'IN_COMPLIANCE', true),
  plan('contoso-eu', 'Contoso Europe', 'EU', 'PAYING', 'DEDICATED', 'IN_COMPLIANCE', false),
  plan('globex-apj', 'Globex Asia Pacific', 'APJ', 'TRIAL', 'UNPROVISIONED', 'UNKNOWN', false),
  plan('initech-aus', 'Initech Australia', 'AUS', 'PARTNER', 'UNPROVISIONED', 'OUT_OF_COMPLIANCE', false),
  // "fail" in the name: every provisioning on this tenant (cdFMC, Multicloud Defense) fails.
  plan('failing-labs-in', 'Failing Labs India', 'IN', 'DEMO', 'UNPROVISIONED', 'UNKNOWN', false),
  plan('hooli-uae', 'Hooli Middle East', 'UAE', 'PAYING', 'SHARED', 'IN_COMPLIANCE', false),
];

const ASSOCIATED_NOT_IN_PORTAL: TenantPlan[] = [
  {
    ...plan('stark-us', 'Stark Industries', 'US', 'PAYING', 'UNPROVISIONED', 'IN_COMPLIANCE', false),
    inPortal: false,
  },
  {
    ...plan('wayne-eu', 'Wayne Enterprises', 'EU', 'TRIAL', 'UNPROVISIONED', 'UNKNOWN', false),
    inPortal: false,
  },
];

const UNASSOCIATED: TenantPlan[] = [
  {
    ...plan('tyrell-apj', 'Tyrell Corporation', 'APJ', 'PAYING', 'SHARED', 'IN_COMPLIANCE', false),
    inPortal: false,
    associated: false,
  },
];

function plan(
  name: string,
  displayName: string,
  region: Region,
  payType: TenantPayType,
  cdFmc: CdFmcType,
  compliance: ComplianceStatus,
  mcd: boolean,
): TenantPlan {
  return { name, displayName, region, inPortal: true, associated: true, payType, cdFmc, compliance, mcd };
}

const FIRST_NAMES = ['Alice', 'Bob', 'Carol', 'Dmitri', 'Eun-ji', 'Farah', 'Giulia', 'Hiro', 'Ines', 'Jonas'];
const LAST_NAMES = ['Nguyen', 'Okafor', 'Schmidt', 'Tanaka', 'Silva', 'Kowalski', 'Haddad', 'Larsen'];
const HUMAN_ROLES: UserRole[] = ['ROLE_ADMIN', 'ROLE_READ_ONLY', 'ROLE_EDIT_ONLY', 'ROLE_DEPLOY_ONLY'];

export const PORTAL_USERS = {
  superAdmin: 'super.admin@acme-msp.example',
  admin: 'ops.admin@acme-msp.example',
  readOnly: 'auditor@acme-msp.example',
} as const;

function domainOf(name: string): string {
  return `${name.split('-')[0] ?? name}.example`;
}

function seedUsers(
  rng: SeededRandom,
  tenantName: string,
  startTime: number,
  withSuperAdmin: boolean,
): TenantUser[] {
  const users: TenantUser[] = [];
  const humans = rng.int(2, 4);
  const taken = new Set<string>();
  for (let i = 0; i < humans; i += 1) {
    let first = rng.pick(FIRST_NAMES);
    while (taken.has(first)) first = rng.pick(FIRST_NAMES);
    taken.add(first);
    const last = rng.pick(LAST_NAMES);
    users.push({
      uid: rng.uuid(),
      username: `${first.toLowerCase()}.${last.toLowerCase()}@${domainOf(tenantName)}`,
      firstName: first,
      lastName: last,
      role: i === 0 ? 'ROLE_SUPER_ADMIN' : rng.pick(HUMAN_ROLES),
      apiOnly: false,
      lastSuccessfulLogin: startTime - rng.int(1, 30 * 24) * 3_600_000,
    });
  }
  users.push({ uid: rng.uuid(), username: `${tenantName}-automation`, role: 'ROLE_ADMIN', apiOnly: true });
  if (rng.next() < 0.5) {
    users.push({
      uid: rng.uuid(),
      username: `${tenantName}-reporting`,
      role: 'ROLE_READ_ONLY',
      apiOnly: true,
    });
  }
  if (withSuperAdmin) {
    users.push({
      uid: rng.uuid(),
      username: PORTAL_USERS.superAdmin,
      firstName: 'Super',
      lastName: 'Admin',
      role: 'ROLE_SUPER_ADMIN',
      apiOnly: false,
      lastSuccessfulLogin: startTime - DAY,
    });
  }
  return users;
}

function tenantFrom(rng: SeededRandom, p: TenantPlan, startTime: number): TenantRecord {
  return {
    uid: rng.uuid(),
    name: p.name,
    displayName: p.displayName,
    region: p.region,
    isPortal: false,
    inPortal: p.inPortal,
    associated: p.associated,
    cdFmcType: p.cdFmc,
    complianceStatus: p.compliance,
    tenantPayType: p.payType,
    deviceCount: rng.int(0, 40),
    sccOrganizationUid: rng.uuid(),
    virtualAccounts:
      p.payType === 'PAYING'
        ? [
            {
              uid: rng.uuid(),
              name: `${p.displayName} VA`,
              smartAccountUid: rng.uuid(),
              complianceStatus: p.compliance,
            },
          ]
        : [],
    mcdEnabled: p.mcd,
    users: seedUsers(rng, p.name, startTime, p.associated),
  };
}

/**
 * A tenant of the MSP portal made after the seed (the admin route `POST /_sim/tenants`): paying, with the
 * seed's kind of people and API-only users, the portal's super-admin among them.
 */
export function managedTenant(
  rng: SeededRandom,
  tenant: { name: string; displayName: string; region: Region },
  startTime: number,
): TenantRecord {
  return tenantFrom(
    rng,
    plan(tenant.name, tenant.displayName, tenant.region, 'PAYING', 'UNPROVISIONED', 'IN_COMPLIANCE', false),
    startTime,
  );
}

export function seedTenants(rng: SeededRandom, startTime: number): TenantRecord[] {
  const portal: TenantRecord = {
    uid: rng.uuid(),
    name: PORTAL_NAME,
    displayName: 'Acme Managed Security (MSP portal)',
    region: 'US',
    isPortal: true,
    inPortal: false,
    associated: true,
    cdFmcType: 'SHARED',
    complianceStatus: 'IN_COMPLIANCE',
    tenantPayType: 'PARTNER',
    deviceCount: 7,
    sccOrganizationUid: rng.uuid(),
    virtualAccounts: [],
    mcdEnabled: false,
    users: [
      {
        uid: rng.uuid(),
        username: PORTAL_USERS.superAdmin,
        firstName: 'Super',
        lastName: 'Admin',
        role: 'ROLE_SUPER_ADMIN',
        apiOnly: false,
        lastSuccessfulLogin: startTime - DAY,
      },
      {
        uid: rng.uuid(),
        username: PORTAL_USERS.admin,
        firstName: 'Ops',
        lastName: 'Admin',
        role: 'ROLE_ADMIN',
        apiOnly: false,
      },
      {
        uid: rng.uuid(),
        username: PORTAL_USERS.readOnly,
        firstName: 'Audit',
        lastName: 'Reader',
        role: 'ROLE_READ_ONLY',
        apiOnly: false,
      },
    ],
  };
  const others = [...MANAGED, ...ASSOCIATED_NOT_IN_PORTAL, ...UNASSOCIATED].map((p) =>
    tenantFrom(rng, p, startTime),
  );
  return [portal, ...others];
}
