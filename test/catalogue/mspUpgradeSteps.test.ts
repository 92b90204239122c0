// Which profile acts inside a managed tenant for an upgrade across tenants (its windows, its configuration,
// its smoke traces), and how the proof says what the portal could not check.
import { describe, expect, it } from 'vitest';
import {
  type MspUpgradeBaseline,
  mspProofView,
  tenantProfileFor,
} from '../../src/catalogue/mspUpgradeSteps.js';

const NORTHWIND = { name: 'northwind-us', uid: '7A0C2F3E-0000-4000-8000-000000000001' };

describe('tenantProfileFor', () => {
  it('a profile named as the tenant, case aside; else one named by its UID; never the portal’s own', () => {
    expect(tenantProfileFor(NORTHWIND, ['msp', 'Northwind-US'], 'msp')).toBe('Northwind-US');
    expect(tenantProfileFor(NORTHWIND, ['msp', NORTHWIND.uid.toLowerCase()], 'msp')).toBe(
      NORTHWIND.uid.toLowerCase(),
    );
    expect(tenantProfileFor(NORTHWIND, ['northwind-us'], 'northwind-us')).toBeUndefined();
  });

  it('a profile named like another tenant is not this one’s', () => {
    expect(tenantProfileFor(NORTHWIND, ['msp', 'northwind_us', 'northwind'], 'msp')).toBeUndefined();
  });
});

describe('mspProofView', () => {
  const baseline: MspUpgradeBaseline = {
    version: '9.20.3',
    devices: [
      {
        uid: 'a',
        name: 'nw-1',
        kind: 'ASA',
        tenant: 'northwind-us',
        tenantUid: 'n',
        tenantProfile: 'northwind-us',
        failover: 'standalone',
        traces: [],
      },
      {
        uid: 'b',
        name: 'gx-1',
        kind: 'ASA',
        tenant: 'globex-apj',
        tenantUid: 'g',
        failover: 'standalone',
        traces: [],
      },
    ],
  };
  const text = (view: ReturnType<typeof mspProofView>) =>
    view.blocks.map((b) => ('text' in b ? String(b.text) : '')).join('\n');

  it('names each device with its tenant, and the tenants whose configuration and traces were not checked', () => {
    const view = mspProofView('upgrade 2 devices in 2 tenants to 9.20.3', baseline, [
      { name: 'nw-1', proven: true, lines: ['✓ runs `9.20.3`'] },
      { name: 'gx-1', proven: false, lines: ['✗ reports `9.18.4`, not `9.20.3`'] },
    ]);
    expect(text(view)).toContain('*nw-1 (northwind-us)*: proven');
    expect(text(view)).toContain('*gx-1 (globex-apj)*: differs');
    expect(text(view)).toContain(
      'so they could not be checked for globex-apj (fwbot has no profile named as that tenant); they were for northwind-us.',
    );
    expect(view.summary).toContain('1 of 2 differ');
  });

  it('says so when every tenant had its own profile', () => {
    const own = { ...baseline, devices: baseline.devices.slice(0, 1) };
    const view = mspProofView('upgrade nw-1 (northwind-us) to 9.20.3', own, [
      { name: 'nw-1', proven: true, lines: [] },
    ]);
    expect(text(view)).toContain('Every tenant here has its own profile in fwbot');
  });
});
