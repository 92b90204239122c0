// The MSP's upgrade day against the simulator: devices across tenants, one device's packages, the versions
// every selected tenant offers (an asynchronous calculation, followed while simulated time is driven), one
// upgrade across tenants, its runs, and the limits fwbot enforces before SCC is called.
import { describe, expect, it } from 'vitest';
import type { SccReader } from '../../src/catalogue/resolve.js';
import { renderText } from '../../src/render/text.js';
import { mspWorld } from '../../src/simulator/state/mspWorld.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();

/** Moves simulated time on while `work` waits for SCC. */
const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });

function mspRunNamed(name: string): string {
  const found = [...mspWorld(h.sim.state).runs.values()].find((r) => r.name === name);
  if (!found) throw new Error(`no MSP run ${name}`);
  return found.uid;
}

describe('msp: devices across tenants', () => {
  it('lists every managed tenant’s devices with tenant, type, version and state', async () => {
    const outcome = await h.run('msp devices');
    h.golden('msp.devices', outcome);
    const text = renderText(outcome.view);
    expect(text).toContain('globex-apj');
    expect(text).toContain('UNREACHABLE');
    // stark-us is associated with the portal's users but not in the portal.
    expect(text).not.toContain('stark-asa-01');
  });

  it('searches by any field SCC knows, e.g. the tenant', async () => {
    const text = renderText((await h.run('msp devices managedTenantName:hooli-uae')).view);
    expect(text).toContain('hooli-asa-01');
    expect(text).not.toContain('nw-asa-hq');
  });
});

describe('msp: Secure Client packages on one managed device', () => {
  it('lists the packages SCC has for an ASA of a managed tenant, found by name', async () => {
    const outcome = await h.run('msp vpn packages nw-asa-hq');
    h.golden('msp.vpn.packages', outcome);
    const text = renderText(outcome.view);
    expect(text).toContain('Secure Client packages on nw-asa-hq (northwind-us): 1–2 of 2');
    expect(text).toContain('cisco-secure-client-macos-5.0.05040-webdeploy-k9.pkg');
    const calls = h.sim.requestLog.list({ operationId: 'getMspDeviceSecureClientPackages' });
    expect(calls.map((call) => call.path)).toEqual([
      `/v1/msp/inventory/devices/${h.sim.deviceUid('nw-asa-hq')}/packages`,
    ]);
  });

  it('takes a UUID too, and pages an FTD’s packages like the others', async () => {
    const uid = h.sim.deviceUid('nw-ftd-edge');
    const text = renderText((await h.run(`msp vpn packages ${uid}`)).view);
    expect(text).toContain('Secure Client packages on nw-ftd-edge (northwind-us): 1–1 of 1');
    const empty = renderText((await h.run('msp vpn packages hooli-ftd-01')).view);
    expect(empty).toContain('An FTD lists the packages of its remote-access VPN policy');
  });

  it('refuses a query, a device outside the portal, and a device without Secure Client, before asking', async () => {
    await expect(h.run('msp vpn packages deviceType:ASA')).rejects.toThrow(
      '`msp vpn packages` takes one device, by name or UUID, not a query (`deviceType:ASA`).',
    );
    await expect(h.run('msp vpn packages stark-asa-01')).rejects.toThrow(
      'No device named “stark-asa-01” in the tenants of the MSP portal',
    );
    const record = [...h.sim.state.devices.values()].find((d) => d.device.name === 'nw-ftd-edge');
    if (!record) throw new Error('no nw-ftd-edge in the seed');
    record.device.deviceType = 'CDFMC';
    await expect(h.run('msp vpn packages nw-ftd-edge')).rejects.toThrow(
      'nw-ftd-edge (northwind-us) is CDFMC: only ASAs and FTDs have Secure Client packages.',
    );
    expect(h.sim.requestLog.list({ operationId: 'getMspDeviceSecureClientPackages' })).toHaveLength(0);
  });
});

describe('msp: compatible versions', () => {
  it('follows the calculation and shows the versions every tenant offers', async () => {
    const outcome = await driving(h.run('msp vpn versions nw-asa-hq globex-asa-01'));
    h.golden('msp.vpn.versions', outcome);
    const text = renderText(outcome.view);
    expect(text).toContain('5.1.8.105');
    // globex-apj does not offer 5.1.15.287 yet: the intersection leaves it out.
    expect(text).not.toContain('5.1.15.287');
    const ops = h.sim.requestLog.list().map((e) => e.operationId);
    expect(ops.filter((id) => id === 'calculateMspCompatibleSecureClientVersions')).toHaveLength(1);
    expect(ops).toContain('getMspCompatibleSecureClientVersions');
  });

  it('selects the ASAs a query matches, across its tenant', async () => {
    const outcome = await driving(h.run('msp vpn versions managedTenantName:northwind-us'));
    const text = renderText(outcome.view);
    expect(text).toContain('northwind-us: nw-asa-hq, nw-asa-branch');
    expect(text).not.toContain('nw-ftd-edge');
  });

  it('refuses devices SCC would refuse, each named with its tenant and reason, before calling', async () => {
    await expect(
      h.run('msp vpn versions globex-asa-02 initech-asa-01 initech-asa-02 nw-asa-hq'),
    ).rejects.toThrow(
      'SCC would refuse these devices: globex-asa-02 (globex-apj) is UNREACHABLE, not ONLINE; ' +
        'initech-asa-01 (initech-aus) is NOT_SYNCED, not SYNCED (deploy or discard its staged changes first); ' +
        'initech-asa-02 (initech-aus) lacks the ASA_RA_VPN_HEADEND role (no remote-access VPN). ' +
        'Leave them out, or fix them first.',
    );
    await expect(h.run('msp vpn versions nw-ftd-edge')).rejects.toThrow(
      'nw-ftd-edge (northwind-us) is CDFMC_MANAGED_FTD, not an ASA',
    );
    expect(h.sim.requestLog.list({ operationId: 'calculateMspCompatibleSecureClientVersions' })).toHaveLength(
      0,
    );
  });

  it('refuses a device selected twice (by name and by UUID)', async () => {
    const uid = h.sim.deviceUid('nw-asa-hq');
    await expect(h.run(`msp vpn versions nw-asa-hq ${uid}`)).rejects.toThrow(
      `nw-asa-hq (northwind-us) is selected by “nw-asa-hq” and by “${uid}”: SCC takes each device once.`,
    );
  });

  it('refuses a device outside the portal and a name that matches nothing', async () => {
    await expect(h.run('msp vpn versions stark-asa-01')).rejects.toThrow(
      'No device named “stark-asa-01” in the tenants of the MSP portal',
    );
  });

  it('refuses more than 50 devices, whether typed or selected by a query', async () => {
    const words = Array.from({ length: 51 }, (_, i) => `asa-${i}`).join(' ');
    expect(() =>
      catalogue.get('msp.vpn.versions')?.validate(catalogue.parse(`msp vpn versions ${words}`).raw),
    ).not.toThrow();
    expect(
      catalogue.get('msp.vpn.versions')?.validate(catalogue.parse(`msp vpn versions ${words}`).raw),
    ).not.toEqual([]);
    // Imported once the registry has loaded (the catalogue's modules load in the registry's order).
    const { MAX_MSP_DEVICES, selectMspDevices } = await import('../../src/catalogue/mspSelection.js');
    const { UserError } = await import('../../src/model/errors.js');
    const many = Array.from({ length: MAX_MSP_DEVICES + 1 }, (_, i) => ({
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `asa-${i}`,
      deviceType: 'ASA',
      managedTenantName: 'big-customer',
    }));
    const scc = {
      paginate: async function* () {
        yield* many;
      },
      call: async () => {
        throw new Error('not called');
      },
    } as unknown as SccReader;
    const refused = selectMspDevices(scc, ['deviceType:ASA']);
    await expect(refused).rejects.toBeInstanceOf(UserError);
    await expect(refused).rejects.toThrow(
      'That selects 51 devices; SCC takes at most 50 devices per request (and per managed tenant).',
    );
  });
});

describe('msp: upgrade across tenants', () => {
  it('is governed four-eyes by default, and its card lists tenants with their device counts', async () => {
    const op = catalogue.get('msp.vpn.upgrade');
    expect(op?.approval).toEqual({ default: 'four-eyes' });
    const { raw } = catalogue.parse(
      'msp vpn upgrade nw-asa-hq nw-asa-branch globex-asa-01 --version 5.1.8.105',
    );
    const resolved = await op?.target?.resolve(h.context(), raw);
    const card = op?.target?.describe(resolved?.facts, Date.now());
    expect(card?.action).toBe('upgrade Secure Client to `5.1.8.105` on 3 devices in 2 tenants');
    expect(card?.fields[0]).toEqual({
      label: 'Tenants',
      // One line: a field value is shown as typed, so a line break would read `\n`.
      value: 'northwind-us: 2 (nw-asa-hq, nw-asa-branch); globex-apj: 1 (globex-asa-01)',
    });
    // The stored command is bound to the UUIDs.
    expect(resolved?.raw.device).toEqual([
      h.sim.deviceUid('nw-asa-hq'),
      h.sim.deviceUid('nw-asa-branch'),
      h.sim.deviceUid('globex-asa-01'),
    ]);
  });

  it('sends one upgrade with the devices by UUID and follows its run', async () => {
    const outcome = await h.run('msp vpn upgrade nw-asa-hq globex-asa-01 --version 5.1.8.105 --name june');
    h.golden('msp.vpn.upgrade', outcome);
    expect(outcome.track).toMatchObject([
      { kind: 'mspUpgradeRun', label: 'upgrade Secure Client to 5.1.8.105 on 2 devices in 2 tenants' },
    ]);
    const calls = h.sim.requestLog.list({ operationId: 'upgradeMspManagedAsaSecureClientPackages' });
    expect(calls).toHaveLength(1);
  });
});

describe('msp: upgrade runs', () => {
  it('lists runs across tenants, newest first', async () => {
    h.golden('msp.vpn.runs', await h.run('msp vpn runs'));
  });

  it('shows one run tenant by tenant and device by device', async () => {
    const outcome = await h.run(`msp vpn run ${mspRunNamed('msp-apac-rollout')}`);
    h.golden('msp.vpn.run', outcome);
    expect(renderText(outcome.view)).toContain('Failing Labs India');
  });

  it('shows the values runs can be searched by', async () => {
    h.golden('msp.vpn.run-fields', await h.run('msp vpn run-fields'));
  });
});
