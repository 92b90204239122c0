// /fw upgrades versions against the simulator: with the MSP portal's token, the versions each device of the
// managed tenants can move to (ASAs answered at once, FTDs calculated while simulated time is driven),
// grouped by model with each device's tenant; with a tenant's own token, as a customer channel runs it, that
// tenant's devices only; and the refusals before SCC is asked.
import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { driveClock } from '../support/driveClock.js';
import { useSimulator } from './harness.js';

const h = useSimulator();
const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });

describe('upgrades versions', () => {
  it('across tenants: each device’s versions, by model, with its tenant', async () => {
    const outcome = await driving(h.run('upgrades versions nw-asa-hq globex-asa-01 nw-ftd-edge'));
    h.golden('upgrades.versions', outcome);
    const text = renderText(outcome.view);
    expect(text).toContain('Software versions 3 devices in 2 tenants can move to');
    expect(text).toContain('Cisco ASA5516-X');
    expect(text).toContain('Cisco Firepower 1120 Threat Defense');
    expect(text).toMatch(/globex-asa-01\s+│?\s*globex-apj/);
    // A Firepower 1120 stops at 7.4: the 7.6 a 2110 takes is not offered to it.
    expect(text).toContain('7.4.2 (suggested)');
    expect(text).not.toContain('7.6.0');
    const ops = h.sim.requestLog.list().map((e) => e.operationId);
    expect(ops.filter((id) => id === 'getMspAsaCompatibleUpgradeVersions')).toHaveLength(1);
    expect(ops.filter((id) => id === 'calculateMspFtdCompatibleUpgradeVersions')).toHaveLength(1);
    expect(ops).not.toContain('getAsaUpgradeVersions');
  });

  it('a query selects the ASAs and FTDs it matches; a version newly installed changes the answer', async () => {
    const before = renderText(
      (await driving(h.run('upgrades versions managedTenantName:northwind-us'))).view,
    );
    expect(before).toContain('nw-asa-branch');
    expect(before).toContain('nw-ftd-edge');
    const record = [...h.sim.state.devices.values()].find((d) => d.device.name === 'nw-asa-hq');
    if (!record) throw new Error('no nw-asa-hq in the seed');
    record.device.softwareVersion = '9.20.3';
    const after = renderText((await driving(h.run('upgrades versions nw-asa-hq'))).view);
    expect(after).toContain('none newer');
  });

  it('with a tenant’s own token (a customer channel): that tenant’s devices, one read each', async () => {
    const token = h.sim.mintTenantToken(h.sim.tenantUid('northwind-us'));
    const outcome = await h.run('upgrades versions nw-asa-branch nw-ftd-edge', { token });
    h.golden('upgrades.versions.tenant', outcome);
    const text = renderText(outcome.view);
    expect(text).toContain('Software versions 2 devices can move to');
    expect(text).not.toContain('Tenant');
    expect(text).toContain('9.20.3, 9.20.2, 9.19.1, 9.18.4');
    const ops = h.sim.requestLog.list().map((e) => e.operationId);
    expect(ops).toContain('getAsaUpgradeVersions');
    expect(ops).toContain('getCompatibleFtdVersions');
    expect(ops).not.toContain('getMspAsaCompatibleUpgradeVersions');
    // Another tenant's device is not there to be found.
    await expect(h.run('upgrades versions globex-asa-01', { token })).rejects.toThrow(
      'No device named “globex-asa-01” in the inventory',
    );
  });

  it('the portal’s own devices are read as a tenant’s are', async () => {
    const text = renderText((await h.run('upgrades versions asa-branch-02 ftd-lab-03')).view);
    expect(text).toContain('Cisco Secure Firewall Threat Defense Virtual');
    expect(text).toContain('7.6.0');
    expect(text, text).toContain('9.20.3, 9.20.2, 9.19.1, 9.18.4, 9.16.4');
  });

  it('refuses what SCC does not upgrade, and names nothing it cannot find', async () => {
    await expect(h.run('upgrades versions cdfmc-acme')).rejects.toThrow(
      'SCC upgrades the software of ASAs and FTDs only',
    );
    await expect(h.run('upgrades versions no-such-firewall')).rejects.toThrow(
      'No device named “no-such-firewall”',
    );
    expect(h.sim.requestLog.list({ operationId: 'getMspAsaCompatibleUpgradeVersions' })).toHaveLength(0);
  });
});
