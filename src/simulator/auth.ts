// Who is calling: bearer tokens resolve to a user of a tenant with one role. The demo tokens belong to
// the MSP portal; tokens minted for a tenant (or generated for its API-only users) act on that tenant.
// The role rules: read-only users change nothing, MSP operations need the portal, and adding or
// creating or removing tenants needs the portal's super-admin.
import { forbidden, SimError, unauthorized } from './errors.js';
import { seededSignature } from './random.js';
import type { SimState, TenantRecord, TokenRecord, UserRole } from './state/model.js';

export interface Principal {
  readonly token: TokenRecord;
  readonly tenant: TenantRecord;
  readonly role: UserRole;
  readonly username: string;
}

export function authenticate(state: SimState, authorization: string | undefined): Principal {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (match?.[1] === undefined)
    throw unauthorized('Missing or malformed Authorization header (expected "Bearer <API token>")');
  const token = state.tokens.get(match[1]);
  if (token === undefined) throw unauthorized('The API token is invalid, expired or revoked');
  const tenant = state.tenants.get(token.tenantUid);
  if (tenant === undefined) throw unauthorized('The API token belongs to a tenant that no longer exists');
  return { token, tenant, role: token.role, username: token.username };
}

export function requireWrite(principal: Principal): void {
  if (principal.role === 'ROLE_READ_ONLY') {
    throw forbidden(`User ${principal.username} has a read-only role and cannot make changes`);
  }
}

export function requirePortal(principal: Principal): void {
  if (!principal.tenant.isPortal) {
    throw forbidden(`Tenant ${principal.tenant.name} is not an MSP portal`);
  }
}

export function requireSuperAdmin(principal: Principal): void {
  requirePortal(principal);
  if (principal.role !== 'ROLE_SUPER_ADMIN') {
    throw forbidden('Only a super-admin of the MSP portal can perform this operation');
  }
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * Mints a JWT-shaped token (header.payload.signature) carrying `roles` and `parentId` like SCC's; the
 * simulator accepts it by looking it up, the signature only makes it look and vary like the real thing.
 */
export function mintToken(
  state: SimState,
  grant: {
    tenantUid: string;
    username: string;
    role: UserRole;
    source: TokenRecord['source'];
    userUid?: string;
  },
): TokenRecord {
  const tenant = state.tenants.get(grant.tenantUid);
  if (tenant === undefined) throw new SimError(404, 'NOT_FOUND', `Tenant ${grant.tenantUid} does not exist`);
  const header = base64url({ alg: 'HS256', typ: 'JWT' });
  const payload = base64url({
    iss: 'fwbot-scc-simulator',
    sub: grant.username,
    parentId: grant.tenantUid,
    roles: [grant.role],
    jti: state.rng.uuid(),
  });
  const signature = Buffer.from(seededSignature(state.seed, `${header}.${payload}`), 'hex').toString(
    'base64url',
  );
  const record: TokenRecord = {
    token: `${header}.${payload}.${signature}`,
    tenantUid: grant.tenantUid,
    username: grant.username,
    role: grant.role,
    source: grant.source,
    ...(grant.userUid === undefined ? {} : { userUid: grant.userUid }),
  };
  state.tokens.set(record.token, record);
  return record;
}

/** A token acting as an API-only super-admin of the tenant (the cdFMC second leg, add-by-token). */
export function mintTenantToken(state: SimState, tenantUid: string): string {
  const tenant = state.tenants.get(tenantUid);
  if (tenant === undefined) throw new SimError(404, 'NOT_FOUND', `Tenant ${tenantUid} does not exist`);
  return mintToken(state, {
    tenantUid,
    username: `${tenant.name}-simulator-api`,
    role: 'ROLE_SUPER_ADMIN',
    source: 'minted',
  }).token;
}
