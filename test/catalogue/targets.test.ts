// How a governed call's target is compared with a fresh read (every difference an approver would care
// about is named, and nothing else), and that every governed or audited operation declares its target.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalogue } from '../../src/catalogue/index.js';
import {
  compareInterfaces,
  describeDeletion,
  type InterfaceFacts,
} from '../../src/catalogue/interfaceTarget.js';
import { defineOperation } from '../../src/catalogue/operation.js';
import { compareTenants, type TenantFacts } from '../../src/catalogue/tenantTarget.js';

const vlan: InterfaceFacts = {
  device: { uid: 'd1', name: 'asa-hq-01' },
  uid: 'i1',
  kind: 'vlan',
  name: 'iot',
  hardwareName: 'Vlan20',
  vlanId: 20,
  subInterfaceId: null,
  members: [],
  parent: null,
  ipv4: '10.20.0.1/24',
  ipv6: [],
  subinterfaces: [],
};

const tenant: TenantFacts = { uid: 't1', name: 'globex-apj', displayName: 'Globex', deviceCount: 32 };

describe('targets: comparing what was approved with a fresh read', () => {
  it('finds nothing when nothing changed', () => {
    expect(compareInterfaces(vlan, structuredClone(vlan))).toEqual([]);
    expect(compareTenants(tenant, { ...tenant })).toEqual([]);
  });

  it('names each changed fact of an interface, members and parents by identity', () => {
    const after: InterfaceFacts = {
      ...vlan,
      vlanId: 21,
      members: [{ uid: 'm7', name: 'GigabitEthernet1/7' }],
      ipv4: null,
      subinterfaces: ['x.1'],
    };

    expect(compareInterfaces(vlan, after)).toEqual([
      'VLAN id changed from 20 to 21',
      'members changed from none to GigabitEthernet1/7',
      'IPv4 address changed from 10.20.0.1/24 to none',
      'subinterfaces on it changed from none to x.1',
    ]);
    // The same member under another display name is the same member.
    const renamed = { ...after, members: [{ uid: 'M7', name: 'Gi1/7' }] };
    expect(compareInterfaces(after, renamed)).toEqual([]);
  });

  it('counts a tenant’s devices as part of what was approved', () => {
    expect(compareTenants(tenant, { ...tenant, deviceCount: 33 })).toEqual([
      'device count changed from 32 to 33',
    ]);
  });

  it('describes a deletion with what goes with it', () => {
    const channel: InterfaceFacts = {
      ...vlan,
      kind: 'etherchannel',
      name: 'inside',
      hardwareName: 'Port-channel1',
      vlanId: null,
      members: [{ uid: 'm1', name: 'GigabitEthernet1/1' }],
      subinterfaces: ['Port-channel1.10'],
    };
    const description = describeDeletion(channel);

    expect(description.action).toBe('delete the EtherChannel `inside (Port-channel1)` on `asa-hq-01`');
    expect(description.line).toBe('EtherChannel inside (Port-channel1) on asa-hq-01');
    expect(description.warnings).toEqual([
      ':warning: Its subinterfaces depend on it: Port-channel1.10.',
      ':warning: Its member ports are freed from the EtherChannel: GigabitEthernet1/1.',
    ]);
  });
});

describe('declarations: governance next to run()', () => {
  const operations = createCatalogue().operations;

  const op = (id: string) => operations.find((candidate) => candidate.id === id);

  it('governs every operation that reveals a secret, and leaves governed ones to operators or admins', () => {
    const ungovernedSecrets = operations.filter((o) => o.revealsSecret && o.approval === 'never');
    expect(ungovernedSecrets.map((o) => o.id)).toEqual([]);
    const governedForViewers = operations.filter((o) => o.approval !== 'never' && o.role !== 'operator');
    // Ending a device's hold early is an admin's (deviceHolds.ts): the one governed call not an operator's.
    expect(governedForViewers.map((o) => `${o.id}:${o.role}`)).toEqual(['holds.release:admin']);
    // The declarations say more than deletes: a token and an FMC request wait for a second person by default.
    expect(op('interfaces.delete')?.approval).toBe('always');
    expect(op('tenants.token')?.approval).toEqual({ default: 'four-eyes' });
    expect(op('gateway.run')?.approval).toEqual({ default: 'four-eyes' });
  });

  it('names the ASAs of every call that changes one (device holds apply to them), and only a deploy, an access request and an upgrade hold their own', () => {
    expect(
      operations
        .filter((o) => o.changes)
        .map((o) => o.id)
        .sort(),
    ).toEqual([
      'access.extend',
      'access.request',
      'access.revoke',
      'deploy',
      'discard',
      'interfaces.create.etherchannel',
      'interfaces.create.subinterface',
      'interfaces.create.vlan',
      'interfaces.delete',
      'interfaces.edit',
      'rules.disable',
      'rules.remove',
      'upgrade',
    ]);
    expect(operations.filter((o) => o.changes?.hold).map((o) => `${o.id}:${o.changes?.hold?.kind}`)).toEqual([
      'deploy:deploy',
      'access.request:access',
      'upgrade:upgrade',
    ]);
  });

  it('declares a target for every operation that can be governed or is audited', () => {
    const missing = operations
      .filter((op) => (op.approval !== 'never' || op.auditEveryCall) && !op.target)
      .map((op) => op.id);
    expect(missing).toEqual([]);
  });

  it('refuses to define a governed operation without a target', () => {
    expect(() =>
      defineOperation({
        id: 'x.delete',
        words: ['x', 'delete'],
        area: 'tenants',
        failure: 'Could not x delete',
        summary: 'Delete x',
        params: [],
        args: z.object({}),
        role: 'operator',
        approval: 'always',
        scc: [],
        run: async () => undefined,
        render: () => ({ summary: '', blocks: [], visibility: 'ephemeral' }),
      }),
    ).toThrow('a governed or audited operation must declare its target');
  });

  it('lets a button reach only what the declaration allows', () => {
    const reachable = (entry: string) =>
      operations.filter((op) => op.entries.has(entry as never)).map((op) => op.id);

    expect(reachable('reveal').filter((id) => !op(id)?.revealsSecret)).toEqual([]);
    expect(reachable('reveal')).toContain('tenants.token');
    expect(reachable('share').every((id) => op(id)?.readsOnly)).toBe(true);
    expect(reachable('share')).not.toContain('gateway.run');
    expect(reachable('page').every((id) => op(id)?.params.some((p) => p.name === 'offset'))).toBe(true);
  });
});
