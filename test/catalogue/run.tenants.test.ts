import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/model/errors.js';
import { renderText } from '../../src/render/text.js';
import { createSccClient } from '../../src/scc/client.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();

function apiUserOf(tenantName: string): string {
  const tenant = h.sim.state.tenants.get(h.sim.tenantUid(tenantName));
  const user = tenant?.users.find((u) => u.apiOnly);
  if (!user) throw new Error(`the seed has no API-only user in ${tenantName}`);
  return user.uid;
}

describe('tenants: reads', () => {
  it('lists the portal tenants, sorted by name, with a share button', async () => {
    const outcome = await h.run('tenants list');
    h.golden('tenants.list', outcome);
    expect(outcome.view.visibility).toBe('ephemeral');
    expect(outcome.track).toEqual([]);
  });

  it('searches names without a colon and passes Lucene with one', async () => {
    const byName = await h.run('tenants list contoso');
    expect(renderText(byName.view)).toContain('contoso-eu');
    expect(renderText(byName.view)).not.toContain('northwind-us');
    const lucene = await h.run('tenants list region:APJ');
    expect(renderText(lucene.view)).toContain('globex-apj');
    expect(renderText(lucene.view)).not.toContain('contoso-eu');
  });

  it('shows one tenant found by display name', async () => {
    h.golden('tenants.show', await h.run('tenants show "Contoso Europe"'));
  });

  it('lists the people of a tenant', async () => {
    h.golden('tenants.users', await h.run('tenants users northwind'));
  });
});

describe('tenants: changes', () => {
  it('creates a tenant: an announcement in the channel and a transaction to follow', async () => {
    const outcome = await h.run('tenants create acme-eu --display-name "Acme Europe"');
    h.golden('tenants.create', outcome);
    expect(outcome.view.visibility).toBe('in_channel');
    expect(outcome.track).toEqual([
      { kind: 'transaction', transactionUid: expect.any(String), label: 'create tenant acme-eu' },
    ]);
  });

  it('refuses a tenant name outside the pattern before calling SCC', async () => {
    await expect(h.run('tenants create "acme eu"')).rejects.toThrow(
      '`name` may hold only letters, digits, - and _, at most 50 of them.',
    );
    expect(h.sim.requestLog.list()).toEqual([]);
  });

  it('adds a tenant by the API token typed into the form', async () => {
    const token = h.sim.mintTenantToken(h.sim.tenantUid('tyrell-apj'));
    const outcome = await h.run('tenants add', { raw: { 'api-token': token } });
    h.golden('tenants.add', outcome);
    expect(JSON.stringify(outcome)).not.toContain(token);
    expect(outcome.track).toEqual([]);
  });

  it('adds an associated tenant by UUID and follows its transaction', async () => {
    const uid = h.sim.tenantUid('stark-us');
    const outcome = await h.run(`tenants add ${uid}`);
    h.golden('tenants.add.existing', outcome);
    expect(outcome.track).toEqual([
      { kind: 'transaction', transactionUid: expect.any(String), label: `add tenant ${uid}` },
    ]);
  });

  it('refuses both a UUID and a token, and neither', async () => {
    const uid = h.sim.tenantUid('stark-us');
    await expect(h.run(`tenants add ${uid}`, { raw: { 'api-token': 'x' } })).rejects.toThrow(
      'Give either a tenant UUID or, in the form, an API token.',
    );
  });

  it('describes the tenant a removal would act on, pinned to its UUID', async () => {
    const { op, raw } = catalogue.parse('tenants remove initech');
    const target = await op.target?.resolve(h.context(), raw);
    expect(target?.raw).toEqual({ tenant: h.sim.tenantUid('initech-aus') });
    expect(op.target?.describe(target?.facts, Date.now())).toEqual({
      action: 'remove tenant `initech-aus` from the MSP portal',
      line: 'tenant initech-aus',
      fields: [
        { label: 'Tenant', value: 'initech-aus' },
        { label: 'Display name', value: 'Initech Australia' },
        { label: 'Devices in tenant', value: expect.any(String) },
      ],
      warnings: expect.any(Array),
    });
  });

  it('says on the card that removing revokes the tenant from the portal and does not delete it', async () => {
    const { op, raw } = catalogue.parse('tenants remove initech');
    const target = await op.target?.resolve(h.context(), raw);
    const warnings = op.target?.describe(target?.facts, Date.now()).warnings ?? [];
    expect(warnings[0]).toContain('removes the tenant from the MSP portal; it does not delete the tenant');
  });

  it('removes a tenant by revoking it: one revoke call, a transaction to follow, gone once SCC is done', async () => {
    const outcome = await h.run('tenants remove initech');
    h.golden('tenants.remove', outcome);
    expect(outcome.track).toEqual([
      {
        kind: 'transaction',
        transactionUid: expect.any(String),
        label: 'remove tenant initech-aus from the MSP portal',
      },
    ]);
    expect(h.sim.requestLog.list({ operationId: 'revokeTenantFromMspPortal' })).toHaveLength(1);
    expect(h.sim.requestLog.list({ operationId: 'removeTenantFromMspPortal' })).toHaveLength(0);
    // Still in the portal while SCC works on it; gone once the transaction is done.
    expect(renderText((await h.run('tenants show initech')).view)).toContain('initech-aus');
    h.sim.clock.advance(60_000);
    await expect(h.run('tenants show initech')).rejects.toThrow(UserError);
  });

  it('uses the deprecated removal where the profile says its SCC has no revoke', async () => {
    const scc = createSccClient({
      baseUrl: h.sim.url,
      token: 'sim-super-admin',
      retry: { maxAttempts: 1 },
      lacks: ['revokeTenantFromMspPortal'],
    });
    try {
      const ctx = { ...h.context(), scc, log: pino({ level: 'silent' }) };
      const { op, raw } = catalogue.parse('tenants remove initech');
      const outcome = await op.execute(ctx, raw);
      h.golden('tenants.remove.legacy', outcome);
      expect(outcome.track).toEqual([]);
      expect(h.sim.requestLog.list({ operationId: 'removeTenantFromMspPortal' })).toHaveLength(1);
      expect(h.sim.requestLog.list({ operationId: 'revokeTenantFromMspPortal' })).toHaveLength(0);
      await expect(h.run('tenants show initech')).rejects.toThrow(UserError);
    } finally {
      await scc.close();
    }
  });

  it('adds users from the form, one per line, with one role', async () => {
    const outcome = await h.run('tenants users add northwind', {
      raw: { username: 'ana@northwind.example\nraj@northwind.example', role: 'admin' },
    });
    h.golden('tenants.users.add', outcome);
    expect(outcome.track).toHaveLength(1);
  });

  it('asks people for e-mail addresses unless the users are API-only', async () => {
    await expect(
      h.run('tenants users add northwind', { raw: { username: 'robot', role: 'admin' } }),
    ).rejects.toThrow('people sign in with an e-mail address: robot is not one (or tick API-only).');
    const outcome = await h.run('tenants users add northwind robot --api-only --role admin');
    expect(outcome.track).toHaveLength(1);
  });

  it('refuses more than 50 users at once', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `u${i}@x.example`).join('\n');
    await expect(h.run('tenants users add northwind', { raw: { username: many } })).rejects.toThrow(
      '`username` takes at most 50 users.',
    );
  });

  it('removes users and follows the transaction', async () => {
    const outcome = await h.run('tenants users remove northwind farah.nguyen@northwind.example');
    h.golden('tenants.users.remove', outcome);
    expect(outcome.track[0]?.label).toBe('remove 1 user from northwind-us');
  });

  it('generates a token: the channel hears that it happened, only the requester sees it', async () => {
    const apiUser = apiUserOf('contoso-eu');
    const outcome = await h.run(`tenants token contoso ${apiUser}`);
    h.golden('tenants.token', outcome);
    const secret = outcome.secretView;
    if (!secret) throw new Error('no secret view');
    h.golden('tenants.token.secret', secret);
    const token = secret.blocks.find((b) => b.kind === 'code');
    expect(token?.kind === 'code' && token.text.length).toBeGreaterThan(20);
    expect(JSON.stringify(outcome.view)).not.toContain(token?.kind === 'code' ? token.text : '?');
    expect(secret.visibility).toBe('ephemeral');
  });

  it('enables Multicloud Defense, and says the call is deprecated', async () => {
    const outcome = await h.run('tenants mcd enable contoso');
    h.golden('tenants.mcd.enable', outcome);
    expect(renderText(outcome.view)).toContain('Cisco has deprecated this call');
    expect(catalogue.operations.find((op) => op.id === 'tenants.mcd.enable')?.summary).toContain(
      'deprecated by Cisco',
    );
  });

  it('says adding a tenant by UUID is deprecated, and what to use instead', async () => {
    const outcome = await h.run(`tenants add ${h.sim.tenantUid('stark-us')}`);
    expect(renderText(outcome.view)).toContain('add it with its API token instead: `/fw tenants add`');
    expect(catalogue.operations.find((op) => op.id === 'tenants.add')?.summary).toContain(
      'Cisco deprecated adding by UUID',
    );
  });

  it('provisions cdFMC and asks to follow both legs', async () => {
    const outcome = await h.run('tenants cdfmc provision globex --dedicated');
    h.golden('tenants.cdfmc.provision', outcome);
    expect(outcome.track).toEqual([
      {
        kind: 'cdfmc',
        transactionUid: expect.any(String),
        tenantUid: h.sim.tenantUid('globex-apj'),
        tenantName: 'globex-apj',
        label: 'provision cdFMC for globex-apj',
      },
    ]);
  });
});

describe('tenants: API-only users', () => {
  it('lists the API-only users of a tenant with their UUIDs, and no people', async () => {
    const outcome = await h.run('tenants users contoso-eu --api-only');
    h.golden('tenants.users.api-only', outcome);
    const text = renderText(outcome.view);
    expect(text).toContain('contoso-eu-automation');
    expect(text).toContain(apiUserOf('contoso-eu'));
    expect(text).not.toContain('super.admin@acme-msp.example');
    expect(h.sim.requestLog.list({ operationId: 'getApiOnlyUsersInMspManagedTenant' })).toHaveLength(1);
    expect(h.sim.requestLog.list({ operationId: 'getHumanUsersInMspManagedTenant' })).toHaveLength(0);
  });

  it('resolves the API user of a token by name and binds the approval to its UUID', async () => {
    const { op, raw } = catalogue.parse('tenants token contoso automation');
    const target = await op.target?.resolve(h.context(), raw);
    const uid = apiUserOf('contoso-eu');
    expect(target?.raw).toEqual({ tenant: h.sim.tenantUid('contoso-eu'), 'api-user': uid });
    const card = op.target?.describe(target?.facts, Date.now());
    expect(card?.action).toBe(
      'generate a new API token for API-only user `contoso-eu-automation` of tenant `contoso-eu`',
    );
    expect(card?.fields).toContainEqual({ label: 'API-only user', value: `contoso-eu-automation (${uid})` });
  });

  it('generates a token for an API user given by name, naming it in the channel', async () => {
    const outcome = await h.run('tenants token contoso contoso-eu-automation');
    expect(renderText(outcome.view)).toContain(
      `API-only user contoso-eu-automation (\`${apiUserOf('contoso-eu')}\`)`,
    );
    expect(h.sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(1);
  });

  it('offers the choices when a name matches several API-only users', async () => {
    const error = await h.run('tenants token contoso-eu contoso-eu-').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toBe(
      '“contoso-eu-” matches 2 API-only users of contoso-eu: contoso-eu-automation, contoso-eu-reporting. Which one?',
    );
    expect(h.sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
  });

  it('says so when the tenant has no API-only user of that name or UUID', async () => {
    await expect(h.run('tenants token contoso-eu robot')).rejects.toThrow(
      'Tenant contoso-eu has no API-only user named “robot” (searched 2 API-only users by name; `/fw tenants users contoso-eu --api-only` lists them).',
    );
    const person = h.sim.state.tenants.get(h.sim.tenantUid('contoso-eu'))?.users.find((u) => !u.apiOnly);
    await expect(h.run(`tenants token contoso-eu ${person?.uid}`)).rejects.toThrow(
      `Tenant contoso-eu has no API-only user with the UUID ${person?.uid}.`,
    );
    expect(h.sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
  });

  it('stops a token call whose API-only user was removed after the card was posted', async () => {
    const { op, raw } = catalogue.parse('tenants token contoso automation');
    const target = await op.target?.resolve(h.context(), raw);
    const tenant = h.sim.state.tenants.get(h.sim.tenantUid('contoso-eu'));
    if (tenant) tenant.users = tenant.users.filter((u) => u.username !== 'contoso-eu-automation');
    expect(await op.target?.reread(h.context(), target?.facts)).toEqual({
      found: false,
      reason: 'API-only user contoso-eu-automation is no longer in tenant contoso-eu',
    });
  });

  it('adds API-only users and asks the tracker to name them with their UUIDs once SCC is done', async () => {
    const outcome = await h.run('tenants users add northwind ci-robot deploy-robot --api-only');
    h.golden('tenants.users.add.api-only', outcome);
    expect(outcome.track).toEqual([
      {
        kind: 'transaction',
        transactionUid: expect.any(String),
        label: 'add 2 users to northwind-us',
        afterDone: {
          kind: 'apiUsers',
          tenantUid: h.sim.tenantUid('northwind-us'),
          tenantName: 'northwind-us',
          usernames: ['ci-robot', 'deploy-robot'],
        },
      },
    ]);
  });
});
