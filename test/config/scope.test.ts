// A channel's scope read from the bindings alone (what is told without a request: alert posts), and the
// one rule for the profile that acts inside a customer channel's tenant.
import { describe, expect, it } from 'vitest';
import type { ChannelBinding } from '../../src/config/profilesFileSchema.js';
import { channelScopes, scopeTenantIn, tenantProfileOf } from '../../src/config/scope.js';

const customer: ChannelBinding = { profile: 'msp', tenant: 'contoso-eu', tenantProfile: 'contoso' };

describe('channelScopes', () => {
  const scopeOf = channelScopes({
    channelBindings: new Map<string, ChannelBinding>([
      ['C0MSPOPS01', { profile: 'msp' }],
      ['C0SHARED01', { profile: 'msp' }],
    ]),
    workspaces: new Map([
      [
        'T0CUSTOMR1',
        {
          channels: new Map<string, ChannelBinding>([
            ['C0CUSTCH01', customer],
            // A Slack Connect channel keeps its id in both workspaces: bound there as a customer channel.
            ['C0SHARED01', customer],
          ]),
        },
      ],
    ]),
  });

  it('reads the home workspace’s bindings, then each workspace’s', () => {
    expect(scopeOf('C0MSPOPS01')).toEqual({ profile: 'msp', bindingKey: 'channels.C0MSPOPS01' });
    expect(scopeOf('C0CUSTCH01')).toEqual({
      profile: 'msp',
      tenant: 'contoso-eu',
      tenantProfile: 'contoso',
      bindingKey: 'workspaces.T0CUSTOMR1.channels.C0CUSTCH01',
    });
    expect(scopeOf('C0UNBOUND1')).toBeUndefined();
  });

  it('takes the strictest binding of a channel bound in several workspaces: the customer channel', () => {
    expect(scopeOf('C0SHARED01')).toMatchObject({ tenant: 'contoso-eu', tenantProfile: 'contoso' });
  });

  it('counts the binding of the workspace a channel was subscribed in (workspaces.<team>.tenant)', () => {
    const withWorkspace = channelScopes({
      channelBindings: new Map<string, ChannelBinding>([['C0MSPOPS01', { profile: 'msp' }]]),
      workspaces: new Map([
        ['T0CUSTOMR1', { channels: new Map<string, ChannelBinding>(), binding: customer }],
        ['E0FABRIKAM', { channels: new Map<string, ChannelBinding>(), binding: { profile: 'fabrikam' } }],
      ]),
    });
    expect(withWorkspace('C0CUSTCH02', { teamId: 'T0CUSTOMR1' })).toEqual({
      profile: 'msp',
      tenant: 'contoso-eu',
      tenantProfile: 'contoso',
      bindingKey: 'workspaces.T0CUSTOMR1',
    });
    // An org-wide install's workspace without its own entry: the organization's.
    expect(withWorkspace('C0FABCH001', { teamId: 'T0FABTEAM1', enterpriseId: 'E0FABRIKAM' })).toMatchObject({
      profile: 'fabrikam',
      bindingKey: 'workspaces.E0FABRIKAM',
    });
    // The home workspace's (no team), or a channel bound by id: as before.
    expect(withWorkspace('C0CUSTCH02')).toBeUndefined();
    expect(withWorkspace('C0MSPOPS01')).toEqual({ profile: 'msp', bindingKey: 'channels.C0MSPOPS01' });
    // A channel shared into the customer's workspace and subscribed there: the strictest binding wins.
    expect(withWorkspace('C0MSPOPS01', { teamId: 'T0CUSTOMR1' })).toMatchObject({ tenant: 'contoso-eu' });
  });
});

describe('tenantProfileOf', () => {
  const scope = { profile: 'msp', tenant: 'Contoso_EU', bindingKey: 'channels.C0CONTOSO1' };
  it('is tenant_profile, else a profile named as the tenant (case aside) other than the MSP’s, else none', () => {
    expect(tenantProfileOf({ ...scope, tenantProfile: 'cust' }, ['msp', 'cust'])).toBe('cust');
    expect(tenantProfileOf(scope, ['msp', 'contoso_eu'])).toBe('contoso_eu');
    expect(tenantProfileOf(scope, ['msp', 'fabrikam'])).toBeUndefined();
    // Names differing in `-` or `_` are other tenants (SCC keeps names unique ignoring case only).
    expect(tenantProfileOf(scope, ['msp', 'contoso-eu', 'contosoeu'])).toBeUndefined();
    expect(tenantProfileOf({ profile: 'msp', bindingKey: 'channels.C0MSPOPS01' }, ['msp'])).toBeUndefined();
  });
});

describe('scopeTenantIn', () => {
  const tenants = [
    { uid: 'a1b2c3d4-0000-4000-8000-000000000001', name: 'northwind-us' },
    { uid: 'a1b2c3d4-0000-4000-8000-000000000002', name: 'northwind_us' },
  ];
  const scope = (tenant: string) => ({ profile: 'msp', tenant, bindingKey: 'channels.C0NORTHWND1' });

  it('finds the bound tenant by its name (case aside) or UUID, never one differing in - or _', () => {
    expect(scopeTenantIn(scope('Northwind-US'), tenants)?.uid).toBe(tenants[0]?.uid);
    expect(scopeTenantIn(scope('northwind_us'), tenants)?.uid).toBe(tenants[1]?.uid);
    expect(scopeTenantIn(scope('A1B2C3D4-0000-4000-8000-000000000002'), tenants)?.name).toBe('northwind_us');
    expect(scopeTenantIn(scope('northwindus'), tenants)).toBeUndefined();
    expect(scopeTenantIn({ profile: 'msp', bindingKey: 'channels.C0MSPOPS01' }, tenants)).toBeUndefined();
  });
});
