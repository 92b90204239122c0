// A small catalogue for grammar tests: the shapes of the real one (optional keyword, variadic, query,
// json, flags, a modal) without SCC behind it.
import { z } from 'zod';
import { flag, int, list, optionalText, text } from '../../src/catalogue/args.js';
import { defineHelpOperation } from '../../src/catalogue/help.js';
import { defineOperation, type Operation } from '../../src/catalogue/operation.js';

const echo = {
  run: async () => 'ok',
  render: () => ({ summary: 'ok', blocks: [], visibility: 'ephemeral' as const }),
};

export const fixtureOperations: Operation[] = [
  defineOperation({
    id: 'tenants.list',
    words: ['tenants', 'list'],
    area: 'tenants',
    summary: 'List tenants',
    params: [
      { name: 'query', kind: 'query', optional: true, description: 'search' },
      { name: 'offset', kind: 'int', flag: true, optional: true, hidden: true, description: 'skip' },
    ],
    args: z.object({ query: optionalText(), offset: optionalText() }),
    role: 'viewer',
    approval: 'never',
    scc: ['getMspManagedTenants'],
    ...echo,
  }),
  defineOperation({
    id: 'tenants.create',
    words: ['tenants', 'create'],
    area: 'tenants',
    summary: 'Create a tenant',
    params: [
      { name: 'name', kind: 'word', optional: true, description: 'tenant name' },
      { name: 'display-name', kind: 'word', flag: true, optional: true, description: 'display name' },
      { name: 'trial', kind: 'word', flag: true, boolean: true, description: 'a trial' },
    ],
    args: z.object({ name: text(), 'display-name': optionalText(), trial: flag() }),
    role: 'operator',
    approval: 'never',
    scc: ['createTenant'],
    modal: {
      title: 'Create',
      submit: 'Create',
      when: 'empty',
      fields: [{ name: 'name', label: 'Name', input: 'text' }],
    },
    ...echo,
  }),
  defineOperation({
    id: 'tenants.users',
    words: ['tenants', 'users'],
    area: 'tenants',
    summary: 'List users',
    params: [
      { name: 'tenant', kind: 'tenant', description: 'tenant name or UUID' },
      { name: 'query', kind: 'query', optional: true, description: 'search' },
    ],
    args: z.object({ tenant: text(), query: optionalText() }),
    role: 'viewer',
    approval: 'never',
    scc: ['getHumanUsersInMspManagedTenant'],
    ...echo,
  }),
  defineOperation({
    id: 'tenants.users.remove',
    words: ['tenants', 'users', 'remove'],
    area: 'tenants',
    summary: 'Remove users',
    params: [
      { name: 'tenant', kind: 'tenant', description: 'tenant name or UUID' },
      { name: 'username', kind: 'word', variadic: true, description: 'usernames' },
    ],
    args: z.object({ tenant: text(), username: list({ min: 1 }) }),
    role: 'operator',
    approval: 'always',
    scc: ['deleteUsersFromTenantInMspPortal'],
    target: {
      facts: z.object({ tenant: z.string() }),
      resolve: async (_ctx, args) => ({ facts: { tenant: args.tenant }, raw: args }),
      reread: async (_ctx, facts) => ({ found: true, facts }),
      compare: () => [],
      describe: ({ tenant }) => ({
        action: `remove users of ${tenant}`,
        line: tenant,
        fields: [],
        warnings: [],
      }),
    },
    ...echo,
  }),
  defineOperation({
    id: 'tenants.users.add',
    words: ['tenants', 'users', 'add'],
    area: 'tenants',
    summary: 'Add users',
    params: [
      { name: 'tenant', kind: 'tenant', description: 'tenant name or UUID' },
      { name: 'username', kind: 'word', variadic: true, optional: true, description: 'usernames' },
    ],
    args: z.object({ tenant: text(), username: list({ min: 1 }) }),
    role: 'operator',
    approval: 'never',
    scc: ['addUsersToTenantInMspPortal'],
    modal: {
      title: 'Add users',
      submit: 'Add',
      when: 'incomplete',
      fields: [
        { name: 'tenant', label: 'Tenant', input: 'tenant' },
        { name: 'username', label: 'Users', input: 'multiline' },
      ],
    },
    ...echo,
  }),
  defineOperation({
    id: 'interfaces',
    words: ['interfaces'],
    area: 'interfaces',
    summary: 'List interfaces',
    params: [
      { name: 'device', kind: 'device', description: 'device name or UUID' },
      {
        name: 'kind',
        kind: 'choice',
        optional: true,
        choices: ['physical', 'etherchannel', 'subinterface', 'vlan', 'vti'],
        description: 'kind',
      },
      { name: 'query', kind: 'query', optional: true, description: 'search' },
    ],
    args: z.object({ device: text(), kind: optionalText(), query: optionalText() }),
    role: 'viewer',
    approval: 'never',
    scc: ['getAsaPhysicalInterfaces'],
    ...echo,
  }),
  defineOperation({
    id: 'interfaces.show',
    words: ['interfaces', 'show'],
    area: 'interfaces',
    summary: 'Show an interface',
    params: [
      { name: 'device', kind: 'device', description: 'device name or UUID' },
      { name: 'interface', kind: 'interface', description: 'interface name or UUID' },
    ],
    args: z.object({ device: text(), interface: text() }),
    role: 'viewer',
    approval: 'never',
    scc: ['getAsaPhysicalInterface'],
    ...echo,
  }),
  defineOperation({
    id: 'gateway.run',
    words: ['gateway', 'run'],
    area: 'gateway',
    summary: 'Send a request',
    params: [
      { name: 'device', kind: 'device', description: 'FMC' },
      {
        name: 'method',
        kind: 'choice',
        choices: ['GET', 'POST', 'PUT', 'DELETE'],
        description: 'HTTP method',
      },
      { name: 'link', kind: 'word', description: 'path' },
      { name: 'body', kind: 'json', optional: true, description: 'JSON body' },
      { name: 'async', kind: 'word', flag: true, boolean: true, description: 'do not wait' },
    ],
    args: z.object({ device: text(), method: text(), link: text(), body: optionalText(), async: flag() }),
    role: 'operator',
    approval: 'never',
    scc: ['executeDeviceCommand'],
    ...echo,
  }),
  defineOperation({
    id: 'vpn.upgrade',
    words: ['vpn', 'upgrade'],
    area: 'vpn',
    summary: 'Upgrade',
    params: [
      { name: 'device', kind: 'device', variadic: true, optional: true, description: 'devices' },
      { name: 'version', kind: 'word', flag: true, optional: true, description: 'version' },
      { name: 'limit', kind: 'int', flag: true, optional: true, description: 'a number' },
    ],
    args: z.object({ device: list({ min: 1 }), version: text(), limit: int(1, 5).optional() }),
    role: 'operator',
    approval: 'never',
    scc: ['triggerSecureClientUpgrade'],
    modal: { title: 'Upgrade', submit: 'Upgrade', when: 'empty', fields: async () => [] },
    ...echo,
  }),
];

const all: Operation[] = [...fixtureOperations];
all.push(defineHelpOperation(() => all));
export const fixtureCatalogue: readonly Operation[] = all;
