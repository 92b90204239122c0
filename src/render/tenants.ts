// Views of the MSP portal: tenant lists and details, users, and the private view of a generated token.
import type { Actor, RenderMeta } from '../catalogue/types.js';
import type { ApiTokenInfo, MspManagedTenantDto, User } from '../scc/generated/models.js';
import { code, fieldBlocks, humanEnum, show, time } from './format.js';
import { listView } from './list.js';
import { userMention } from './mrkdwn.js';
import type { PageInfo } from './paging.js';
import type { View, ViewBlock } from './view.js';

export function tenantLabel(tenant: Pick<MspManagedTenantDto, 'name' | 'displayName'>): string {
  return tenant.displayName && tenant.displayName !== tenant.name
    ? `*${tenant.name}* (${tenant.displayName})`
    : `*${tenant.name}*`;
}

export function renderTenantList(
  tenants: readonly MspManagedTenantDto[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: 'MSP portal tenants',
      page,
      query,
      columns: ['Name', 'Display name', 'Region', 'Devices'],
      rows: tenants.map((t) => [t.name, t.displayName, t.region, t.deviceCount]),
      hint: '`/fw tenants show <tenant>` for details, `/fw tenants users <tenant>` for its users.',
      empty: 'no tenants.',
    },
    meta,
  );
}

export function renderTenant(tenant: MspManagedTenantDto): View {
  const accounts = (tenant.virtualAccounts ?? []).map(
    (va) => `${show(va.name)} (${humanEnum(va.complianceStatus)})`,
  );
  const blocks: ViewBlock[] = [
    { kind: 'header', text: tenant.displayName || tenant.name },
    ...fieldBlocks([
      ['Name', tenant.name],
      ['UUID', tenant.uid],
      ['Region', tenant.region],
      ['Pay type', humanEnum(tenant.tenantPayType)],
      ['cdFMC', humanEnum(tenant.cdFmcType)],
      ['Compliance', humanEnum(tenant.complianceStatus)],
      ['Devices', tenant.deviceCount],
      ['API token valid', tenant.apiTokenValid],
      ['SCC organization', tenant.sccOrganizationUid],
      ['Virtual accounts', accounts],
    ]),
    { kind: 'context', text: `\`/fw tenants users ${tenant.name}\` lists its users.` },
  ];
  return { summary: `Tenant ${tenant.name}`, blocks, visibility: 'ephemeral' };
}

function roles(user: User): string {
  return (user.roles ?? []).map((role) => humanEnum(role)).join(', ');
}

export function renderUserList(
  tenant: MspManagedTenantDto,
  users: readonly User[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: `Users of ${tenant.name}`,
      page,
      query,
      columns: ['User', 'Role', 'Last login'],
      rows: users.map((u) => [u.name ?? u.emailAddress, roles(u), time(u.lastSuccessfulLogin)]),
      hint: 'SCC lists people only; API-only users are not shown.',
      empty: 'no users.',
    },
    meta,
  );
}

/** The token itself: for the requester's eyes only, in a modal, once. */
export function renderApiToken(
  tenant: Pick<MspManagedTenantDto, 'name' | 'displayName'>,
  apiUserUid: string,
  token: ApiTokenInfo,
): View {
  const blocks: ViewBlock[] = [
    { kind: 'header', text: 'New API token' },
    { kind: 'text', text: `For API-only user ${code(apiUserUid)} of tenant ${tenantLabel(tenant)}.` },
    { kind: 'code', text: token.apiToken ?? '(SCC sent no token)' },
    {
      kind: 'context',
      text: 'Copy it now: fwbot shows it this once and keeps no copy. API-only tokens do not expire; treat it as a password.',
    },
  ];
  return { summary: `New API token for ${tenant.name}`, blocks, visibility: 'ephemeral' };
}

/** The channel's announcement of a tenant creation that waits in fwbot's queue (SCC's 30-second limit). */
export function renderTenantCreationQueued(tenantName: string, actor: Actor): View {
  const line = `${userMention(actor.userId)} asked to create tenant *${tenantName}*.`;
  return {
    summary: line.replace(/\*/g, ''),
    blocks: [
      { kind: 'text', text: line },
      {
        kind: 'context',
        text: 'SCC creates at most one tenant every 30 seconds, so the creation is queued; fwbot reports here when it starts and when SCC is done.',
      },
    ],
    visibility: 'in_channel',
  };
}
