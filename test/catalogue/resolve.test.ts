import { describe, expect, it } from 'vitest';
import {
  resolveDevice,
  resolveDevices,
  resolveInterface,
  resolveTenant,
} from '../../src/catalogue/resolve.js';
import { UserError } from '../../src/model/errors.js';
import { useSimulator } from './harness.js';

const h = useSimulator();
const ASA = { kinds: ['asa'] as const, why: 'interfaces are ASA-only' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function refusal(promise: Promise<unknown>): Promise<UserError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UserError)) throw new Error(`expected a UserError, got ${String(error)}`);
  return error;
}

describe('resolveDevice', () => {
  it('finds a device by its exact name, in any case', async () => {
    const device = await resolveDevice(h.client(), 'ASA-HQ-01');
    expect(device).toMatchObject({ uid: h.sim.deviceUid('asa-hq-01'), name: 'asa-hq-01', kind: 'asa' });
  });

  it('finds a device by UUID', async () => {
    const device = await resolveDevice(h.client(), h.sim.deviceUid('ftd-edge-02'));
    expect(device).toMatchObject({ name: 'ftd-edge-02', kind: 'ftd' });
  });

  it('takes part of a name when it picks out one device', async () => {
    expect((await resolveDevice(h.client(), 'hq')).name).toBe('asa-hq-01');
  });

  it('answers an ambiguous name with the choices', async () => {
    const error = await refusal(resolveDevice(h.client(), 'ftd'));
    expect(error.message).toBe('“ftd” matches 3 devices: ftd-edge-01, ftd-edge-02, ftd-lab-03. Which one?');
    expect(error.choices).toEqual(['ftd-edge-01', 'ftd-edge-02', 'ftd-lab-03']);
  });

  it('counts only devices of the right kind when choosing', async () => {
    expect((await resolveDevice(h.client(), 'edge-01', { kinds: ['ftd'], why: 'x' })).name).toBe(
      'ftd-edge-01',
    );
    const error = await refusal(resolveDevice(h.client(), 'a', ASA));
    expect(error.choices).toEqual(['asa-hq-01', 'asa-branch-02', 'asa-dc-03']);
  });

  it('refuses a device of the wrong kind in a sentence', async () => {
    expect((await refusal(resolveDevice(h.client(), 'ftd-edge-01', ASA))).message).toBe(
      'ftd-edge-01 is a threat-defense device (FTD); interfaces are ASA-only.',
    );
    expect((await refusal(resolveDevice(h.client(), h.sim.deviceUid('cdfmc-acme'), ASA))).message).toBe(
      'cdfmc-acme is a Firewall Management Center; interfaces are ASA-only.',
    );
  });

  it('says what it searched when nothing matches', async () => {
    expect((await refusal(resolveDevice(h.client(), 'nope'))).message).toBe(
      'No device named “nope” in the inventory (searched device names containing it).',
    );
    expect((await refusal(resolveDevice(h.client(), UNKNOWN))).message).toBe(
      `No device in the inventory has the UUID ${UNKNOWN}.`,
    );
  });

  it('refuses the same device named twice in a list', async () => {
    const error = await refusal(resolveDevices(h.client(), ['asa-hq-01', h.sim.deviceUid('asa-hq-01')]));
    expect(error.message).toBe('asa-hq-01 is named twice.');
  });

  it('searches names with characters Lucene would read as syntax', async () => {
    expect((await refusal(resolveDevice(h.client(), 'asa (hq)'))).message).toContain(
      'No device named “asa (hq)”',
    );
  });
});

describe('resolveTenant', () => {
  it('finds a tenant by name, display name or UUID', async () => {
    const uid = h.sim.tenantUid('contoso-eu');
    expect((await resolveTenant(h.client(), 'contoso-eu')).uid).toBe(uid);
    expect((await resolveTenant(h.client(), 'contoso europe')).uid).toBe(uid);
    expect((await resolveTenant(h.client(), uid)).name).toBe('contoso-eu');
  });

  it('answers an ambiguous name with the choices', async () => {
    const error = await refusal(resolveTenant(h.client(), 'in'));
    expect(error.choices).toEqual(['northwind-us', 'initech-aus', 'failing-labs-in']);
  });

  it('says what it searched when nothing matches', async () => {
    expect((await refusal(resolveTenant(h.client(), 'umbrella'))).message).toBe(
      'No tenant named “umbrella” in the MSP portal (searched 6 tenants by name and display name).',
    );
    expect((await refusal(resolveTenant(h.client(), UNKNOWN))).message).toBe(
      `No tenant of the MSP portal has the UUID ${UNKNOWN}.`,
    );
  });

  it('does not find tenants that are not in the portal', async () => {
    await expect(resolveTenant(h.client(), 'stark-us')).rejects.toThrow('No tenant named “stark-us”');
  });
});

describe('resolveInterface', () => {
  const asa = async () => resolveDevice(h.client(), 'asa-hq-01');

  it('finds an interface by name, hardware name or UUID, of any kind', async () => {
    const device = await asa();
    expect((await resolveInterface(h.client(), device, 'guest')).label).toBe('guest (Vlan10)');
    const port = await resolveInterface(h.client(), device, 'GigabitEthernet1/2');
    expect(port).toMatchObject({ kind: 'physical', label: 'inside (GigabitEthernet1/2)' });
    expect((await resolveInterface(h.client(), device, port.uid)).label).toBe('inside (GigabitEthernet1/2)');
  });

  it('prefers an exact match to names that contain it', async () => {
    const device = await asa();
    expect((await resolveInterface(h.client(), device, 'GigabitEthernet1/2')).kind).toBe('physical');
  });

  it('answers an ambiguous name with the choices, at most ten', async () => {
    const device = await asa();
    expect((await refusal(resolveInterface(h.client(), device, 'vti'))).choices).toEqual([
      'vti-aws (Tunnel1)',
      'vti-azure (Tunnel2)',
    ]);
    // Eight ports and two subinterfaces on them, plus Port-channel1.300 (hardware name has no "Gigabit").
    const many = await refusal(resolveInterface(h.client(), device, 'Ethernet1'));
    expect(many.message).toMatch(
      /^“Ethernet1” matches 10 interfaces of asa-hq-01: outside \(GigabitEthernet1\/1\), .*\. Which one\?$/,
    );
    const more = await refusal(resolveInterface(h.client(), device, 'e'));
    expect(more.message).toMatch(/ and \d+ more\. Which one\?$/);
    expect(more.choices).toHaveLength(10);
  });

  it('says what it searched when nothing matches, and does not reach into other devices', async () => {
    const device = await asa();
    expect((await refusal(resolveInterface(h.client(), device, 'wan'))).message).toBe(
      'asa-hq-01 has no interface named “wan” (searched 17 interfaces by name and hardware name).',
    );
    const branch = await resolveDevice(h.client(), 'asa-branch-02');
    const elsewhere = await resolveInterface(h.client(), branch, 'inside');
    expect((await refusal(resolveInterface(h.client(), device, elsewhere.uid))).message).toBe(
      `asa-hq-01 has no interface with the UUID ${elsewhere.uid}.`,
    );
  });
});
