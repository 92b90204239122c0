// Each kind through the scan against the simulator, the changes made as SCC's UI or a device's console
// would (the simulator's admin routes, docs/developing/simulator.md): what the desk is handed.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../../src/render/mrkdwn.js';
import { type SimulatorHandle, startSimulator } from '../../../src/simulator/index.js';
import { type ScanWorld, scanWorld, subscription } from './scanSupport.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('the alert scan, kind by kind', () => {
  let sim: SimulatorHandle;
  let world: ScanWorld | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });
  afterAll(async () => {
    await sim.stop();
  });

  const admin = async (method: string, path: string, body: unknown = {}) => {
    const response = await fetch(`${sim.url}/_sim/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const told = (w: ScanWorld) => w.delivered.map((e) => `${e.kind} ${e.phase} ${stripSentinels(e.headline)}`);
  const subscribed = async (kinds: Parameters<typeof subscription>[1]) => {
    world = await scanWorld(sim);
    await world.subscriptions.subscribe(subscription('C0NETOPS', kinds));
    await world.scanAfter(0); // the baseline
    return world;
  };

  it('conflict: a change on the device’s console, with what the change log says and the buttons to act', async () => {
    const w = await subscribed(['conflict']);
    await admin('POST', 'devices/asa-hq-01/out-of-band', { username: 'console@branch.example' });
    await w.scanAfter(MINUTE);
    expect(told(w)).toEqual(['conflict open asa-hq-01 was changed outside SCC (conflict detected)']);
    const [event] = w.delivered;
    const details = (event?.details ?? []).map(stripSentinels);
    expect(details[0]).toBe('What SCC’s change log says changed:');
    expect(details.join('\n')).toContain('console@branch.example');
    const uid = sim.deviceUid('asa-hq-01');
    expect(event?.actions.map((a) => a.command)).toEqual([
      `changelog ${uid}`,
      `changes ${uid}`,
      `discard ${uid}`,
    ]);
  });

  it('connectivity: a stopped connector is one incident naming the devices behind it, closed when it starts again', async () => {
    const w = await subscribed(['connectivity']);
    const stopped = await admin('POST', 'connectors/sdc-branch/status', { status: 'INACTIVE' });
    expect(stopped.devices).toEqual(['asa-branch-02']);
    await w.scanAfter(MINUTE);
    expect(told(w)).toEqual(['connectivity open Connector sdc-branch is down: 1 device behind it offline']);
    const [event] = w.delivered;
    expect(event?.subject).toMatchObject({ type: 'connector', name: 'sdc-branch' });
    expect((event?.details ?? []).map(stripSentinels).join('\n')).toContain(
      'Behind it, offline: asa-branch-02.',
    );
    w.delivered.length = 0;
    await admin('POST', 'connectors/sdc-branch/status', { status: 'ACTIVE' });
    await w.scanAfter(MINUTE);
    // The device is back with its connector: only the connector's incident closes, the device had none.
    expect(told(w)).toEqual(['connectivity close Connector sdc-branch is back']);
  });

  it('staged: changes left undeployed past the set time, with who staged them', async () => {
    const w = await subscribed(['staged']);
    await admin('POST', 'devices/asa-dc-03/stage', { username: 'dave@example.com' });
    await w.scanAfter(5 * MINUTE);
    expect(w.delivered).toEqual([]);
    await w.scanAfter(4 * HOUR);
    expect(told(w)).toEqual(['staged open asa-dc-03 has changes staged and not deployed for 4 hours']);
    expect(stripSentinels(w.delivered[0]?.details[0] ?? '')).toBe(
      'Staged by dave@example.com (SCC’s change log):',
    );
  });

  it('ha: a failover is told once, a failed unit opens an incident that closes on recovery', async () => {
    const w = await subscribed(['ha']);
    const asa = [...sim.state.devices.values()].find((d) => d.device.asaFailoverMode === 'ACTIVE_STANDBY');
    if (!asa) throw new Error('the seed has an HA pair');
    const name = asa.device.name;
    await admin('POST', `devices/${name}/failover`, { action: 'switch' });
    await w.scanAfter(30 * SECOND);
    await admin('POST', `devices/${name}/failover`, { action: 'fail-standby' });
    await w.scanAfter(30 * SECOND);
    await admin('POST', `devices/${name}/failover`, { action: 'recover' });
    await w.scanAfter(15 * SECOND);
    expect(told(w)).toEqual([
      `ha notice ${name} failed over: the secondary unit is now active`,
      `ha open ${name}: an HA unit failed`,
      `ha close ${name}: both HA units healthy again`,
    ]);
  });

  it('certificates: each threshold once', async () => {
    const w = await subscribed(['certificates']);
    await admin('POST', 'devices/asa-hq-01/certificates', { raVpnCertificateExpiresInDays: 20 });
    await w.scanAfter(HOUR);
    await w.scanAfter(HOUR);
    sim.clock.advance(14 * 24 * HOUR);
    await w.scanAfter(HOUR);
    expect(told(w).map((line) => line.replace(/ \(\d{4}-\d\d-\d\d\)$/, ''))).toEqual([
      'certificates notice asa-hq-01: the Secure Client certificate expires within 30 days',
      'certificates notice asa-hq-01: the Secure Client certificate expires within 7 days',
    ]);
  });

  it('deployments: a run started in SCC’s UI that fails, with each device’s result', async () => {
    const w = await subscribed(['deployments']);
    await admin('POST', 'devices/asa-dc-03/stage', {});
    await admin('POST', 'deployments', {
      devices: ['asa-dc-03'],
      username: 'ui@example.com',
      failing: ['asa-dc-03'],
    });
    for (let i = 0; i < 10 && w.delivered.length === 0; i += 1) await w.scanAfter(MINUTE);
    expect(told(w)).toEqual([
      expect.stringMatching(/^deployments notice Deployment .* failed \(deployed by ui@example\.com\)$/),
    ]);
    expect(w.delivered[0]?.details.map(stripSentinels)).toContainEqual(
      expect.stringMatching(/^• asa-dc-03: ERROR/),
    );
  });

  it('upgrades: a Secure Client upgrade run started outside fwbot, told when it ends', async () => {
    const w = await subscribed(['upgrades']);
    await admin('POST', 'upgrades', {
      type: 'ASA',
      devices: ['asa-hq-01'],
      version: '5.1.8.105',
      name: 'from the portal',
      username: 'ui@example.com',
      failing: ['asa-hq-01'],
    });
    for (let i = 0; i < 30 && w.delivered.length === 0; i += 1) await w.scanAfter(MINUTE);
    expect(told(w)).toEqual([
      expect.stringMatching(
        /^upgrades notice VPN client upgrade \*from the portal\* to Secure Client 5\.1\.8\.105 .*\(started by ui@example\.com\)$/,
      ),
    ]);
    expect(w.delivered[0]?.details.map(stripSentinels)).toContainEqual(
      expect.stringMatching(/^• asa-hq-01: FAILED/),
    );
  });

  it('upgrades: an ASA software upgrade started outside fwbot, told when it ends, node by node', async () => {
    const w = await subscribed(['upgrades']);
    await admin('POST', 'devices/asa-dc-03/upgrade-fault', {
      kind: 'NODE',
      message: 'The unit did not come back',
    });
    await admin('POST', 'device-upgrades', {
      devices: ['asa-dc-03'],
      softwareVersion: '9.20.3',
      name: 'dc from the UI',
      username: 'ui@example.com',
    });
    await w.scanAfter(MINUTE);
    expect(w.delivered).toEqual([]); // still uploading: nothing to tell yet
    for (let i = 0; i < 30 && w.delivered.length === 0; i += 1) await w.scanAfter(MINUTE);
    expect(told(w)).toEqual(['upgrades notice ASA software upgrade *dc from the UI* failed']);
    const details = w.delivered[0]?.details.map(stripSentinels) ?? [];
    expect(details).toContain('• asa-dc-03-secondary: Running 9.20.3');
    expect(details).toContain('• asa-dc-03-primary: The unit did not come back');
    // Told once: the next scans see it ended already.
    await w.scanAfter(MINUTE);
    expect(w.delivered).toHaveLength(1);
  });

  it('audit: a user added and re-roled in SCC’s UI, each told once', async () => {
    const w = await subscribed(['audit']);
    const portal = [...sim.state.tenants.values()].find((t) => t.isPortal);
    if (!portal) throw new Error('the seed has a portal');
    await admin('POST', `tenants/${portal.uid}/users`, {
      username: 'mallory@example.com',
      role: 'ROLE_ADMIN',
      by: 'boss@example.com',
    });
    await w.scanAfter(MINUTE);
    await admin('PATCH', `tenants/${portal.uid}/users/mallory@example.com`, { role: 'ROLE_SUPER_ADMIN' });
    await w.scanAfter(MINUTE);
    await w.scanAfter(MINUTE);
    expect(told(w)).toEqual([
      'audit notice mallory@example.com was added to the tenant',
      'audit notice mallory@example.com had their role changed',
    ]);
  });
});
