import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/catalogue/errors.js';
import { renderText } from '../../src/render/text.js';
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
      'name: may hold only letters, digits, - and _, at most 50 of them.',
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
      'give either a tenant UUID or, in the form, an API token.',
    );
  });

  it('describes the tenant a removal would act on, pinned to its UUID', async () => {
    const { op, raw } = catalogue.parse('tenants remove initech');
    const target = await op.target?.resolve(h.context(), raw);
    expect(target?.raw).toEqual({ tenant: h.sim.tenantUid('initech-aus') });
    expect(op.target?.describe(target?.facts)).toEqual({
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

  it('removes a tenant from the portal', async () => {
    const outcome = await h.run('tenants remove initech');
    h.golden('tenants.remove', outcome);
    await expect(h.run('tenants show initech')).rejects.toThrow(UserError);
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
      'username: takes at most 50 users.',
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

  it('enables Multicloud Defense', async () => {
    h.golden('tenants.mcd.enable', await h.run('tenants mcd enable contoso'));
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
