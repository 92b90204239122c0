// Users of the MSP portal's tenants: list, add (up to 50, one role, API-only or people), remove, and
// API tokens for API-only users (shown once, privately).
import { z } from 'zod';
import { announcement } from '../render/announce.js';
import { code, humanEnum } from '../render/format.js';
import { pageInfo } from '../render/list.js';
import { renderApiToken, renderUserList, tenantLabel } from '../render/tenants.js';
import { UserRoleValues } from '../scc/generated/inputs.js';
import { choice, flag, list, text, uuid } from './args.js';
import { listArgs, OFFSET, pageQuery, queryParam, TENANT, transactionTrack } from './common.js';
import { defineOperation } from './operation.js';
import { resolveTenant } from './resolve.js';

/** SCC takes at most 50 users per call, to add or to remove. */
export const MAX_USERS = 50;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
/** SCC's roles as people write them: `ROLE_READ_ONLY` → `read-only` (the argument accepts both). */
const ROLE_WORDS = UserRoleValues.map((role) => role.slice('ROLE_'.length).toLowerCase().replace(/_/g, '-'));

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
  summary: 'List the people who use a tenant',
  params: [TENANT, queryParam('user'), OFFSET],
  args: z.object({ tenant: text(), ...listArgs }),
  role: 'viewer',
  destructive: false,
  scc: ['getHumanUsersInMspManagedTenant'],
  examples: ['tenants users contoso-eu', 'tenants users contoso-eu alice'],
  run: async (ctx, args) => {
    const tenant = await resolveTenant(ctx.scc, args.tenant);
    const { data } = await ctx.scc.call('getHumanUsersInMspManagedTenant', {
      path: { tenantUid: tenant.uid },
      query: pageQuery(args),
    });
    return { tenant, data };
  },
  render: ({ tenant, data }, args, meta) =>
    renderUserList(tenant, data.items ?? [], pageInfo(data, pageQuery(args)), args.query, meta),
});

export const tenantsUsersAdd = defineOperation({
  id: 'tenants.users.add',
  words: ['tenants', 'users', 'add'],
  area: 'tenants',
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
  destructive: false,
  scc: ['addUsersToTenantInMspPortal'],
  examples: ['tenants users add contoso-eu', 'tenants users add contoso-eu ana@contoso.example --role admin'],
  modal: {
    title: 'Add users to a tenant',
    submit: 'Add users',
    when: 'always',
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
  run: async (ctx, args) => {
    const tenant = await resolveTenant(ctx.scc, args.tenant);
    const role = args.role ?? 'ROLE_READ_ONLY';
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
        sentence: `add ${count(args.username.length, 'user')} to tenant ${tenantLabel(tenant)} as ${humanEnum(role)}`,
        tense: 'asked',
        transaction,
        details: [
          ['Users', args.username.join(', ')],
          ['API-only', args['api-only']],
        ],
      },
      meta,
    ),
  track: ({ tenant, transaction }, args) =>
    transactionTrack(transaction, `add ${count(args.username.length, 'user')} to ${tenant.name}`),
});

export const tenantsUsersRemove = defineOperation({
  id: 'tenants.users.remove',
  words: ['tenants', 'users', 'remove'],
  area: 'tenants',
  summary: 'Remove users from a tenant (up to 50 at a time)',
  params: [TENANT, USERNAMES],
  args: z.object({ tenant: text(), username: list({ min: 1, max: MAX_USERS, what: 'users' }) }),
  role: 'operator',
  destructive: true,
  scc: ['deleteUsersFromTenantInMspPortal'],
  examples: ['tenants users remove contoso-eu ana@contoso.example'],
  target: async (ctx, args) => {
    const tenant = await resolveTenant(ctx.scc, args.tenant);
    return {
      summary: `Remove ${count(args.username.length, 'user')} from tenant ${tenantLabel(tenant)}`,
      fields: [
        { label: 'Tenant', value: `${tenant.name} (${tenant.uid})` },
        { label: 'Users', value: args.username.join(', ') },
      ],
      raw: { tenant: tenant.uid, username: args.username },
    };
  },
  run: async (ctx, args) => {
    const tenant = await resolveTenant(ctx.scc, args.tenant);
    const { data } = await ctx.scc.call('deleteUsersFromTenantInMspPortal', {
      path: { tenantUid: tenant.uid },
      body: { usernames: args.username },
    });
    return { tenant, transaction: data };
  },
  render: ({ tenant, transaction }, args, meta) =>
    announcement(
      {
        sentence: `remove ${count(args.username.length, 'user')} from tenant ${tenantLabel(tenant)}`,
        tense: 'asked',
        transaction,
        details: [['Users', args.username.join(', ')]],
      },
      meta,
    ),
  track: ({ tenant, transaction }, args) =>
    transactionTrack(transaction, `remove ${count(args.username.length, 'user')} from ${tenant.name}`),
});

export const tenantsToken = defineOperation({
  id: 'tenants.token',
  words: ['tenants', 'token'],
  area: 'tenants',
  summary: 'Generate an API token for an API-only user of a tenant (shown once, only to you)',
  params: [TENANT, { name: 'api-user', kind: 'uuid', description: 'UUID of the API-only user' }],
  args: z.object({ tenant: text(), 'api-user': uuid() }),
  role: 'operator',
  destructive: false,
  scc: ['generateApiTokenForUserInTenant'],
  examples: ['tenants token contoso-eu 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  run: async (ctx, args) => {
    const tenant = await resolveTenant(ctx.scc, args.tenant);
    const { data } = await ctx.scc.call('generateApiTokenForUserInTenant', {
      path: { tenantUid: tenant.uid, apiUserUid: args['api-user'] },
    });
    return { tenant, token: data };
  },
  // The channel learns that a token was made, never the token: that goes to the secret view only.
  render: ({ tenant }, args, meta) =>
    announcement(
      {
        sentence: `generated a new API token for API-only user ${code(args['api-user'])} of tenant ${tenantLabel(tenant)}`,
        tense: 'done',
        next: `The token was shown once, privately, to <@${meta.actor.userId}>. fwbot keeps no copy.`,
      },
      meta,
    ),
  secret: ({ tenant, token }, args) => renderApiToken(tenant, args['api-user'], token),
});

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
