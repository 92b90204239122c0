// Users of MSP-managed tenants: list the human users and, separately, the API-only ones (the only way
// to learn the UID a token is generated for), add or remove up to 50 at a time (asynchronous,
// with a transaction), and generate API tokens for API-only users (400 for anyone else). Users added or
// removed are in the tenant's audit log, by the caller.

import * as Input from '../../scc/generated/inputs.js';
import type * as Model from '../../scc/generated/models.js';
import { mintToken, requireWrite } from '../auth.js';
import { type ErrorDetails, invalidInput, notFound } from '../errors.js';
import type { Handler, OperationHandlers } from '../http/context.js';
import { describe, requireBody, uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { recordAudit } from '../state/changeLog.js';
import { managedTenant, userDto } from './mspCommon.js';
import { accepted, startTransaction } from './transactions.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const userFields: FieldTable<Model.User> = {
  uid: { kind: 'string', get: (u) => u.uid },
  name: { kind: 'string', get: (u) => u.name },
  emailAddress: { kind: 'string', get: (u) => u.emailAddress },
  firstName: { kind: 'string', get: (u) => u.firstName },
  lastName: { kind: 'string', get: (u) => u.lastName },
  roles: { kind: 'string', get: (u) => u.roles ?? [] },
  lastSuccessfulLogin: { kind: 'date', get: (u) => u.lastSuccessfulLogin },
};

export const getHumanUsersInMspManagedTenant: Handler = (ctx) => {
  const tenant = managedTenant(ctx);
  const users = tenant.users.filter((u) => !u.apiOnly).map(userDto);
  return { status: 200, body: listPage(ctx.query, users, { fields: userFields, search: true }) };
};

export const getApiOnlyUsersInMspManagedTenant: Handler = (ctx) => {
  const tenant = managedTenant(ctx);
  const users = tenant.users.filter((u) => u.apiOnly).map(userDto);
  // The reference declares `q` but no `sort` for this list.
  return { status: 200, body: listPage(ctx.query, users, { fields: userFields, search: true }) };
};

export const addUsersToTenantInMspPortal: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const tenant = managedTenant(ctx);
  const input = requireBody(ctx, Input.MspAddUsersToTenantInput);
  const details: ErrorDetails = {};
  const seen = new Set<string>();
  input.users.forEach((user, i) => {
    if (!user.apiOnlyUser && !EMAIL.test(user.username)) {
      details[`users.${i}.username`] = {
        message: 'must be an e-mail address for a user that is not API-only',
      };
    }
    if (user.apiOnlyUser && (user.firstName !== undefined || user.lastName !== undefined)) {
      details[`users.${i}.firstName`] = { message: 'must not be given for an API-only user' };
    }
    if (seen.has(user.username.toLowerCase()))
      details[`users.${i}.username`] = { message: 'duplicate username' };
    seen.add(user.username.toLowerCase());
  });
  if (Object.keys(details).length > 0) throw invalidInput(`Invalid users: ${describe(details)}`, details);

  const { state } = ctx;
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_ADD_USERS_TO_TENANT',
    entityUid: tenant.uid,
    entityUrl: `${ctx.sim.baseUrl}/v1/msp/tenants/${tenant.uid}`,
    details: { userCount: String(input.users.length) },
    pendingMs: 1_000,
    runningMs: state.rng.int(3_000, 8_000),
    finish: () => {
      const existing = input.users.filter((u) =>
        tenant.users.some((t) => t.username.toLowerCase() === u.username.toLowerCase()),
      );
      if (existing.length > 0) {
        return {
          ok: false,
          errorMessage: `${existing.length === 1 ? '1 user already exists' : `${existing.length} users already exist`} in tenant ${tenant.name}; no user was added`,
          errorDetails: Object.fromEntries(existing.map((u) => [u.username, 'already exists'])),
        };
      }
      for (const u of input.users) {
        recordAudit(state, {
          tenantUid: tenant.uid,
          eventType: 'USER_ADDED_TO_TENANT',
          username: u.username,
          roles: [u.role],
          at: ctx.sim.clock.now(),
          description: `${ctx.principal.username} added ${u.username} to tenant ${tenant.name} with role ${u.role}`,
        });
        tenant.users.push({
          uid: state.rng.uuid(),
          username: u.username,
          ...(u.firstName === undefined ? {} : { firstName: u.firstName }),
          ...(u.lastName === undefined ? {} : { lastName: u.lastName }),
          role: u.role,
          apiOnly: u.apiOnlyUser ?? false,
        });
      }
      return { ok: true };
    },
  });
  return accepted(ctx.sim, tx);
};

export const deleteUsersFromTenantInMspPortal: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const tenant = managedTenant(ctx);
  const input = requireBody(ctx, Input.MspDeleteUsersFromTenantInput);
  const tx = startTransaction(ctx.sim, {
    tenantUid: ctx.principal.tenant.uid,
    type: 'MSP_DELETE_USERS_FROM_TENANT',
    entityUid: tenant.uid,
    entityUrl: `${ctx.sim.baseUrl}/v1/msp/tenants/${tenant.uid}`,
    details: { userCount: String(input.usernames.length) },
    pendingMs: 1_000,
    runningMs: ctx.state.rng.int(3_000, 6_000),
    finish: () => {
      const wanted = new Set(input.usernames.map((u) => u.toLowerCase()));
      const unknown = input.usernames.filter(
        (name) => !tenant.users.some((u) => u.username.toLowerCase() === name.toLowerCase()),
      );
      if (unknown.length > 0) {
        return {
          ok: false,
          errorMessage: `${unknown.length === 1 ? '1 user is' : `${unknown.length} users are`} not in tenant ${tenant.name}; no user was removed`,
          errorDetails: Object.fromEntries(unknown.map((u) => [u, 'not found'])),
        };
      }
      for (const u of tenant.users.filter((x) => wanted.has(x.username.toLowerCase()))) {
        recordAudit(ctx.state, {
          tenantUid: tenant.uid,
          eventType: 'USER_REMOVED_FROM_TENANT',
          username: u.username,
          roles: [u.role],
          at: ctx.sim.clock.now(),
          description: `${ctx.principal.username} removed ${u.username} from tenant ${tenant.name}`,
        });
      }
      tenant.users = tenant.users.filter((u) => !wanted.has(u.username.toLowerCase()));
      return { ok: true };
    },
  });
  return accepted(ctx.sim, tx);
};

export const generateApiTokenForUserInTenant: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const tenant = managedTenant(ctx);
  const userUid = uuidParam(ctx, 'apiUserUid');
  const user = tenant.users.find((u) => u.uid === userUid);
  if (user === undefined)
    throw notFound(`User ${userUid} is not in tenant ${tenant.name}`, { apiUserUid: { value: userUid } });
  if (!user.apiOnly) {
    throw invalidInput(
      `User ${user.username} is not an API-only user; tokens can only be generated for API-only users`,
      {
        apiUserUid: { value: userUid, apiOnlyUser: false },
      },
    );
  }
  // A new token revokes the user's previous one, as in SCC.
  for (const [token, record] of ctx.state.tokens) {
    if (record.userUid === user.uid) ctx.state.tokens.delete(token);
  }
  const record = mintToken(ctx.state, {
    tenantUid: tenant.uid,
    username: user.username,
    role: user.role,
    source: 'generated',
    userUid: user.uid,
  });
  return { status: 201, body: { apiToken: record.token } satisfies Model.ApiTokenInfo };
};

/** The users of a managed tenant: this file's handlers, which the table (operations.ts) spreads. */
export const tenantUserHandlers = {
  getHumanUsersInMspManagedTenant,
  addUsersToTenantInMspPortal,
  deleteUsersFromTenantInMspPortal,
  generateApiTokenForUserInTenant,
} satisfies Partial<OperationHandlers>;
