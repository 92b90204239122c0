// How an approved target is compared with a fresh read: every difference an approver would care about
// is named, and nothing else.
import { describe, expect, it } from 'vitest';
import { auditOperation } from '../../src/approvals/auditOperation.js';
import { VPN_UPGRADE_OPERATION } from '../../src/approvals/settings.js';
import { describeChanges, fingerprint, type TargetSnapshot } from '../../src/approvals/snapshot.js';
import { TARGET_OPERATIONS } from '../../src/approvals/targetReader.js';
import { createCatalogue } from '../../src/catalogue/index.js';

const vlan: TargetSnapshot = {
  kind: 'interface',
  device: { uid: 'd1', name: 'asa-hq-01' },
  interface: {
    uid: 'i1',
    type: 'VLAN_INTERFACE',
    name: 'iot',
    hardwareName: 'Vlan20',
    vlanId: 20,
    subInterfaceId: null,
    members: [],
    parent: null,
    ipv4: '10.20.0.1/24',
    ipv6: [],
    subinterfaces: [],
  },
};

const tenant: TargetSnapshot = {
  kind: 'tenant',
  tenant: { uid: 't1', name: 'globex-apj', displayName: 'Globex', deviceCount: 32 },
};

describe('approvals: comparing the approved target with a fresh read', () => {
  it('finds nothing when nothing changed, and gives equal targets equal fingerprints', () => {
    const copy = structuredClone(vlan);

    expect(describeChanges(vlan, copy)).toEqual([]);
    expect(fingerprint(copy)).toBe(fingerprint(vlan));
  });

  it('names each changed fact of an interface', () => {
    if (vlan.kind !== 'interface') throw new Error('fixture');
    const after: TargetSnapshot = {
      ...vlan,
      interface: {
        ...vlan.interface,
        vlanId: 21,
        members: ['GigabitEthernet1/7'],
        ipv4: null,
        subinterfaces: ['x.1'],
      },
    };

    expect(describeChanges(vlan, after)).toEqual([
      'VLAN id changed from 20 to 21',
      'members changed from none to GigabitEthernet1/7',
      'IPv4 address changed from 10.20.0.1/24 to none',
      'subinterfaces on it changed from none to x.1',
    ]);
    expect(fingerprint(after)).not.toBe(fingerprint(vlan));
  });

  it('counts a tenant’s devices as part of what was approved', () => {
    if (tenant.kind !== 'tenant') throw new Error('fixture');
    const after: TargetSnapshot = { ...tenant, tenant: { ...tenant.tenant, deviceCount: 33 } };

    expect(describeChanges(tenant, after)).toEqual(['device count changed from 32 to 33']);
  });

  it('says which users are no longer there', () => {
    const before: TargetSnapshot = {
      kind: 'tenantUsers',
      tenant: { uid: 't1', name: 'contoso-eu', displayName: 'Contoso', deviceCount: 2 },
      usernames: ['ana@contoso.example', 'hiro@contoso.example'],
    };
    const after: TargetSnapshot = { ...before, usernames: ['hiro@contoso.example'] };

    expect(describeChanges(before, after)).toEqual(['no longer in the tenant: ana@contoso.example']);
  });

  it('treats a different kind of target as a change of everything', () => {
    expect(describeChanges(vlan, tenant)).toEqual([
      'the target is now tenant globex-apj, not VLAN interface iot (Vlan20) on asa-hq-01',
    ]);
  });
});

describe('approvals: coverage of the catalogue', () => {
  it('can read the target of every operation that may need approval', () => {
    const gated = createCatalogue({ extra: [auditOperation] })
      .operations.filter((op) => op.destructive || op.id === VPN_UPGRADE_OPERATION)
      .map((op) => op.id);

    expect(gated.length).toBeGreaterThanOrEqual(4);
    expect(gated.filter((id) => !TARGET_OPERATIONS.includes(id))).toEqual([]);
  });
});
