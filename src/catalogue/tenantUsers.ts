// Users of the MSP portal's tenants: list (people, or API-only users with their UUIDs), add (up to 50,
// one role, API-only or people; added API-only users are named with their UUIDs once SCC made them),
// remove, and API tokens for API-only users, named or by UUID (shown once, privately).
import { z } from 'zod';
import { announcement } from '../render/announce.js';
import { code, counted, humanEnum } from '../render/format.js';
import { pageInfo } from '../render/list.js';
import { userMention } from '../render/mrkdwn.js';
import {
  apiUserLabel,
  renderApiToken,
  renderApiUserList,
  renderUserList,
  tenantLabel,
} from '../render/tenants.js';
import { untrusted } from '../render/untrusted.js';
import { UserRoleValues } from '../scc/generated/inputs.js';
import { exactLucene } from '../scc/lucene.js';
import { choice, flag, list, text } from './args.js';
import { listArgs, OFFSET, pageQuery, queryParam, TENANT, transactionTrack } from './common.js';
import {
  defineOperation,
  type Operation,
  type OperationContext,
  type TargetRead,
  type TrackRequest,
} from './operation.js';
import { listApiOnlyUsers, resolveApiUser, resolveTenant } from './resolve.js';
import { compareTenants, rereadTenant, resolveTenantFacts, TenantFacts } from './tenantTarget.js';

/** SCC takes at most 50 users per call, to add or to remove. */
export const MAX_USERS = 50;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
/** SCC's roles as people write them: `ROLE_READ_ONLY` → `read-only` (the argument accepts both). */
const ROLE_WORDS = UserRoleValues.map((role) => role.slice('ROLE_'.length).toLowerCase().replace(/_/g, '-'));

const AddFacts = z.object({
  tenant: TenantFacts,
  usernames: z.array(z.string()),
  role: z.enum(UserRoleValues),
  apiOnly: z.boolean(),
});

const UsersFacts = z.object({ tenant: TenantFacts, usernames: z.array(z.string()) });
type UsersFacts = z.infer<typeof UsersFacts>;

const USERNAMES: { name: string; kind: 'word'; variadic: true; description: string } = {
  name: 'username',
  kind: 'word',
  variadic: true,
  description: 'usernames (e-mail addresses for people), up to 50',
};

export const tenantsUsers = defineOperation({
  id: 'tenants.users',
  words: ['tenants', 'users'],
  area: 'tenants',
  failure: 'Could not list the users of the tenant',
  summary: 'List the people who use a tenant, or (--api-only) its API-only users with their UUIDs',
  params: [
    TENANT,
    queryParam('user'),
    {
      name: 'api-only',
      kind: 'word',
      flag: true,
      boolean: true,
      description: 'list the API-only users (for automation) and their UUIDs instead of people',
    },
    OFFSET,
  ],
  args: z.object({ tenant: text(), ...listArgs, 'api-only': flag() }),
  role: 'viewer',
  tenancy: { tenantArg: 'tenant' },
  approval: 'never',
  scc: ['getHumanUsersInMspManagedTenant', 'getApiOnlyUsersInMspManagedTenant'],
  examples: [
    'tenants users contoso-eu',
    'tenants users contoso-eu alice',
    'tenants users contoso-eu --api-only',
  ],
  run: async (ctx, args) => {
    const tenant = await resolveTenant(ctx.scc, args.tenant);
    // SCC lists people and API-only users apart; the portal's own user list shows people only.
    const list = args['api-only'] ? 'getApiOnlyUsersInMspManagedTenant' : 'getHumanUsersInMspManagedTenant';
    const { data } = await ctx.scc.call(list, { path: { tenantUid: tenant.uid }, query: pageQuery(args) });
    return { tenant, data };
  },
  render: ({ tenant, data }, args, meta) =>
    (args['api-only'] ? renderApiUserList : renderUserList)(
      tenant,
      data.items ?? [],
      pageInfo(data, pageQuery(args)),
      args.query,
      meta,
    ),
});

export const tenantsUsersAdd = defineOperation({
  id: 'tenants.users.add',
  words: ['tenants', 'users', 'add'],
  area: 'tenants',
  failure: 'Could not add the users to the tenant',
  summary: 'Add users to a tenant, all with one role (up to 50 at a time)',
  params: [
    TENANT,
    { ...USERNAMES, optional: true },
    {
      name: 'role',
      kind: 'word',
      flag: true,
      optional: true,
      choices: ROLE_WORDS,
      description: 'their role (default read-only)',
    },
    {
      name: 'api-only',
      kind: 'word',
      flag: true,
      boolean: true,
      description: 'API-only users (for automation)',
    },
  ],
  args: z
    .object({
      tenant: text(),
      username: list({ min: 1, max: MAX_USERS, what: 'users' }),
      role: choice(UserRoleValues, { prefix: 'ROLE_', optional: true }),
      'api-only': flag(),
    })
    .superRefine((args, ctx) => {
      if (args['api-only']) return;
      const notEmail = args.username.filter((name) => !EMAIL.test(name));
      if (notEmail.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['username'],
          message: `people sign in with an e-mail address: ${notEmail.join(', ')} is not one (or tick API-only).`,
        });
      }
    }),
  role: 'operator',
  tenancy: { tenantArg: 'tenant' },
  // Access to a customer's tenant is granted by it: a super-admin added there can take the tenant over.
  approval: { default: 'four-eyes' },
  scc: ['addUsersToTenantInMspPortal', 'getMspManagedTenant'],
  examples: ['tenants users add contoso-eu', 'tenants users add contoso-eu ana@contoso.example --role admin'],
  modal: {
    title: 'Add users to a tenant',
    submit: 'Add users',
    when: 'incomplete',
    fields: [
      { name: 'tenant', label: 'Tenant', input: 'tenant' },
      {
        name: 'username',
        label: 'Users',
        input: 'multiline',
        hint: 'One per line, up to 50. People: their e-mail address. API-only users: any name.',
      },
      {
        name: 'role',
        label: 'Role',
        input: 'select',
        // Values as people type them, so a role given in the command preselects its option.
        options: ROLE_WORDS.map((word) => ({ label: word.replace(/-/g, ' '), value: word })),
        initial: 'read-only',
      },
      { name: 'api-only', label: 'API-only users (for automation)', input: 'checkbox', optional: true },
    ],
  },
  target: {
    facts: AddFacts,
    resolve: async (ctx, args) => {
      const tenant = await resolveTenantFacts(ctx, args.tenant);
      const role = args.role ?? 'ROLE_READ_ONLY';
      return {
        facts: { tenant, usernames: args.username, role, apiOnly: args['api-only'] },
        raw: { ...rawUsers(args, tenant.uid), role, 'api-only': args['api-only'] },
      };
    },
    reread: async (ctx, facts) => {
      const read = await rereadTenant(ctx.scc, facts.tenant);
      return read.found ? { found: true, facts: { ...facts, tenant: read.facts } } : read;
    },
    compare: (before, after) => compareTenants(before.tenant, after.tenant),
    describe: ({ tenant, usernames, role, apiOnly }) => ({
      action: `add ${counted(usernames.length, 'user')} to tenant ${code(tenant.name)} as ${humanEnum(role)}`,
      line: `${counted(usernames.length, 'user')} of tenant ${untrusted(tenant.name)} as ${humanEnum(role)}`,
      fields: [
        { label: 'Tenant', value: `${tenant.name} (${tenant.uid})` },
        { label: 'Users', value: usernames.join(', ') },
        { label: 'Role', value: humanEnum(role) },
        { label: 'API-only', value: apiOnly ? 'yes' : 'no' },
      ],
      warnings:
        role === 'ROLE_SUPER_ADMIN' || role === 'ROLE_ADMIN'
          ? [
              `:warning: As ${humanEnum(role)} they can change every device and every user of this customer's tenant.`,
            ]
          : [],
    }),
  },
  run: async (ctx, args, { tenant, role }) => {
    const users = args.username.map((username) => ({ username, role, apiOnlyUser: args['api-only'] }));
    const { data } = await ctx.scc.call('addUsersToTenantInMspPortal', {
      path: { tenantUid: tenant.uid },
      body: { users },
    });
    return { tenant, role, transaction: data };
  },
  render: ({ tenant, role, transaction }, args, meta) =>
    announcement(
      {
        sentence: `add ${counted(args.username.length, 'user')} to tenant ${tenantLabel(tenant)} as ${humanEnum(role)}`,
        tense: 'asked',
        transaction,
        details: [
          ['Users', args.username.join(', ')],
          ['API-only', args['api-only']],
        ],
        ...(args['api-only']
          ? {
              next: 'fwbot follows the transaction and, when SCC is done, names each new API-only user here with its UUID.',
            }
          : {}),
      },
      meta,
    ),
  track: ({ tenant, transaction }, args) => {
    const label = `add ${counted(args.username.length, 'user')} to ${tenant.name}`;
    return args['api-only']
      ? apiUsersTrack(transaction.transactionUid, tenant, args.username, label)
      : transactionTrack(transaction, label);
  },
});

export const tenantsUsersRemove = defineOperation({
  id: 'tenants.users.remove',
  words: ['tenants', 'users', 'remove'],
  area: 'tenants',
  failure: 'Could not remove the users from the tenant',
  summary: 'Remove users from a tenant (up to 50 at a time)',
  params: [TENANT, USERNAMES],
  args: z.object({ tenant: text(), username: list({ min: 1, max: MAX_USERS, what: 'users' }) }),
  role: 'operator',
  tenancy: { tenantArg: 'tenant' },
  approval: 'always',
  scc: [
    'deleteUsersFromTenantInMspPortal',
    'getMspManagedTenant',
    'getHumanUsersInMspManagedTenant',
    'getApiOnlyUsersInMspManagedTenant',
  ],
  examples: ['tenants users remove contoso-eu ana@contoso.example'],
  target: {
    facts: UsersFacts,
    resolve: async (ctx, args) => {
      const tenant = await resolveTenantFacts(ctx, args.tenant);
      return { facts: { tenant, usernames: args.username }, raw: rawUsers(args, tenant.uid) };
    },
    reread: rereadUsersTenant,
    compare: (before, after) => compareTenants(before.tenant, after.tenant),
    // The tenant stays, so its re-read cannot tell: after a crash while the removal was being sent, the
    // tenant's users say whether it took effect (none of the names is listed any more).
    interrupted: async (ctx, { tenant, usernames }) => {
      const left = await usersNamed(ctx, tenant.uid, usernames);
      if (left.length > 0) return undefined;
      const text = `:white_check_mark: Done: the removal sent before fwbot restarted took effect; none of ${usernames.map(code).join(', ')} is a user of tenant ${code(tenant.name)} any more.`;
      return {
        view: {
          summary: `remove ${counted(usernames.length, 'user')} from ${tenant.name}: done before fwbot restarted`,
          blocks: [{ kind: 'text', text }],
          visibility: 'in_channel',
        },
        track: [],
      };
    },
    describe: ({ tenant, usernames }) => ({
      action: `remove ${counted(usernames.length, 'user')} from tenant ${code(tenant.name)}`,
      line: `${usernames.map(untrusted).join(', ')} in tenant ${untrusted(tenant.name)}`,
      fields: [
        { label: 'Tenant', value: tenant.name },
        { label: 'Usernames', value: usernames.join(', ') },
      ],
      warnings: [],
    }),
  },
  run: async (ctx, args, { tenant }) => {
    const { data } = await ctx.scc.call('deleteUsersFromTenantInMspPortal', {
      path: { tenantUid: tenant.uid },
      body: { usernames: args.username },
    });
    return { tenant, transaction: data };
  },
  render: ({ tenant, transaction }, args, meta) =>
    announcement(
      {
        sentence: `remove ${counted(args.username.length, 'user')} from tenant ${tenantLabel(tenant)}`,
        tense: 'asked',
        transaction,
        details: [['Users', args.username.join(', ')]],
      },
      meta,
    ),
  track: ({ tenant, transaction }, args) =>
    transactionTrack(transaction, `remove ${counted(args.username.length, 'user')} from ${tenant.name}`),
});

const TokenFacts = z.object({
  tenant: TenantFacts,
  /** The API-only user's UUID. */
  apiUser: z.string(),
  /** Its name, as SCC lists it (absent in approvals asked for before names were resolved). */
  apiUserName: z.string().optional(),
});
type TokenFacts = z.infer<typeof TokenFacts>;

export const tenantsToken = defineOperation({
  id: 'tenants.token',
  words: ['tenants', 'token'],
  area: 'tenants',
  failure: 'Could not generate an API token',
  summary: 'Generate an API token for an API-only user of a tenant (shown once, only to you)',
  params: [
    TENANT,
    {
      name: 'api-user',
      kind: 'word',
      description: 'name or UUID of the API-only user (`tenants users <tenant> --api-only` lists them)',
    },
  ],
  args: z.object({ tenant: text(), 'api-user': text() }),
  role: 'operator',
  tenancy: { tenantArg: 'tenant' },
  // It mints a credential with the API user's roles and revokes the previous one.
  approval: { default: 'four-eyes' },
  scc: ['generateApiTokenForUserInTenant', 'getMspManagedTenant', 'getApiOnlyUsersInMspManagedTenant'],
  examples: [
    'tenants token contoso-eu contoso-eu-automation',
    'tenants token contoso-eu 3fa85f64-5717-4562-b3fc-2c963f66afa6',
  ],
  target: {
    facts: TokenFacts,
    resolve: async (ctx, args) => {
      const tenant = await resolveTenantFacts(ctx, args.tenant);
      const apiUser = await resolveApiUser(ctx.scc, tenant, args['api-user']);
      return {
        facts: { tenant, apiUser: apiUser.uid, apiUserName: apiUser.name },
        raw: { tenant: tenant.uid, 'api-user': apiUser.uid },
      };
    },
    reread: rereadTokenTarget,
    compare: (before, after) => [
      ...compareTenants(before.tenant, after.tenant),
      ...(before.apiUserName !== undefined && before.apiUserName !== after.apiUserName
        ? [`the API-only user's name changed from ${before.apiUserName} to ${after.apiUserName ?? 'none'}`]
        : []),
    ],
    describe: ({ tenant, apiUser, apiUserName }) => ({
      action: `generate a new API token for API-only user ${code(apiUserName ?? apiUser)} of tenant ${code(tenant.name)}`,
      line: `API-only user ${untrusted(apiUserName ? `${apiUserName} (${apiUser})` : apiUser)} of tenant ${untrusted(tenant.name)}`,
      fields: [
        { label: 'Tenant', value: `${tenant.name} (${tenant.uid})` },
        { label: 'API-only user', value: apiUserName ? `${apiUserName} (${apiUser})` : apiUser },
      ],
      warnings: [
        ':warning: The new token carries the API user’s roles, and the token it had before stops working.',
      ],
    }),
  },
  run: async (ctx, _args, { tenant, apiUser, apiUserName }) => {
    const { data } = await ctx.scc.call('generateApiTokenForUserInTenant', {
      path: { tenantUid: tenant.uid, apiUserUid: apiUser },
    });
    return { tenant, apiUser: { uid: apiUser, name: apiUserName }, token: data };
  },
  // The channel learns that a token was made, never the token: that goes to the secret view only.
  render: ({ tenant, apiUser }, _args, meta) =>
    announcement(
      {
        sentence: `generated a new API token for API-only user ${apiUserLabel(apiUser)} of tenant ${tenantLabel(tenant)}`,
        tense: 'done',
        next: `The token was shown once, privately, to ${userMention(meta.actor.userId)}. fwbot keeps no copy.`,
      },
      meta,
    ),
  secret: ({ tenant, apiUser, token }) => renderApiToken(tenant, apiUser, token),
});

/** The tenant and its API-only user read again by UUID: a user deleted meanwhile stops the call. */
async function rereadTokenTarget(
  ctx: { scc: Parameters<typeof rereadTenant>[0] },
  facts: TokenFacts,
): Promise<TargetRead<TokenFacts>> {
  const read = await rereadTenant(ctx.scc, facts.tenant);
  if (!read.found) return read;
  const users = await listApiOnlyUsers(ctx.scc, facts.tenant.uid);
  const user = users.find((u) => u.uid === facts.apiUser);
  if (!user) {
    const who = facts.apiUserName ?? facts.apiUser;
    return { found: false, reason: `API-only user ${who} is no longer in tenant ${facts.tenant.name}` };
  }
  return {
    found: true,
    facts: {
      tenant: read.facts,
      apiUser: user.uid,
      apiUserName: facts.apiUserName === undefined ? undefined : user.name,
    },
  };
}

/**
 * Following an add of API-only users: the transaction, then one read of the tenant's API-only users, so
 * the outcome names each new user with the UUID SCC gave it (none when SCC sent no transaction UID).
 */
function apiUsersTrack(
  transactionUid: string | null | undefined,
  tenant: TenantFacts,
  usernames: string[],
  label: string,
): TrackRequest[] {
  if (!transactionUid) return [];
  const afterDone = { kind: 'apiUsers' as const, tenantUid: tenant.uid, tenantName: tenant.name, usernames };
  return [{ kind: 'transaction', transactionUid, label, afterDone }];
}

/** The raw arguments bound to the tenant's UUID, so an approved call acts on what the approver saw. */
/** Which of these usernames the tenant still has, human or API-only (names compared without regard to case). */
async function usersNamed(
  ctx: OperationContext,
  tenantUid: string,
  usernames: readonly string[],
): Promise<string[]> {
  // SCC removes at most 50 users at a time, so one page of up to 200 of each list holds every name asked for.
  const query = { q: usernames.map((name) => exactLucene('name', name)).join(' OR '), limit: 200 };
  const path = { tenantUid };
  const [humans, apiOnly] = await Promise.all([
    ctx.scc.call('getHumanUsersInMspManagedTenant', { path, query }),
    ctx.scc.call('getApiOnlyUsersInMspManagedTenant', { path, query }),
  ]);
  const listed = new Set(
    [...(humans.data.items ?? []), ...(apiOnly.data.items ?? [])].map((u) => (u.name ?? '').toLowerCase()),
  );
  return usernames.filter((name) => listed.has(name.toLowerCase()));
}

function rawUsers(args: { username: string[] }, tenantUid: string) {
  return { tenant: tenantUid, username: args.username };
}

async function rereadUsersTenant(
  ctx: { scc: Parameters<typeof rereadTenant>[0] },
  facts: UsersFacts,
): Promise<TargetRead<UsersFacts>> {
  const read = await rereadTenant(ctx.scc, facts.tenant);
  return read.found ? { found: true, facts: { ...facts, tenant: read.facts } } : read;
}

/** Tenants' users and API tokens: this area's operations, in the order help and the command table list them (index.ts). */
export const TENANT_USER_OPERATIONS: readonly Operation[] = [
  tenantsUsers,
  tenantsUsersAdd,
  tenantsUsersRemove,
  tenantsToken,
];
