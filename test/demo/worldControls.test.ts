// The demo console's `/sim …`: what happens outside fwbot, made to happen in the simulator over its admin
// routes, answered in one line; refused in one line when it cannot be done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorControls } from '../../src/demo/worldControls.js';
import { DEVICE_NAMES, type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';

let sim: SimulatorHandle;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => {
  await sim.stop();
});

const deviceOf = (name: string) => {
  const record = sim.state.devices.get(sim.deviceUid(name));
  if (!record) throw new Error(`no ${name}`);
  return record.device;
};

describe('the demo console’s /sim', () => {
  it('takes a device offline and back, as SCC would report it', async () => {
    const world = simulatorControls(sim.url);
    const offline = await world.run(['offline', DEVICE_NAMES.asaBranch]);
    expect(offline).toContain('UNREACHABLE');
    expect(deviceOf(DEVICE_NAMES.asaBranch).connectivityState).toBe('UNREACHABLE');
    await world.run(['offline', DEVICE_NAMES.asaBranch, 'bad_credentials']);
    expect(deviceOf(DEVICE_NAMES.asaBranch).connectivityState).toBe('BAD_CREDENTIALS');
    await world.run(['online', DEVICE_NAMES.asaBranch]);
    expect(deviceOf(DEVICE_NAMES.asaBranch).connectivityState).toBe('ONLINE');
  });

  it('stops a Secure Device Connector, which takes its devices down, and starts it again', async () => {
    const world = simulatorControls(sim.url);
    deviceOf(DEVICE_NAMES.asaBranch).connectivityState = 'BAD_CREDENTIALS';
    const stopped = await world.run(['connector', 'sdc-branch', 'stop']);
    expect(stopped).toContain(DEVICE_NAMES.asaBranch);
    expect(deviceOf(DEVICE_NAMES.asaBranch).connectivityState).toBe('UNREACHABLE');
    const sdcs = async () => {
      const token = sim.tokens.readOnly;
      const answer = await fetch(`${sim.url}/v1/connectors/sdcs`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await answer.json()) as { items: { name: string; status: string }[] }).items;
    };
    expect((await sdcs()).find((c) => c.name === 'sdc-branch')?.status).toBe('INACTIVE');
    await world.run(['connector', 'sdc-branch', 'start']);
    // Each device gets back what it had before the connector stopped.
    expect(deviceOf(DEVICE_NAMES.asaBranch).connectivityState).toBe('BAD_CREDENTIALS');
    expect((await sdcs()).find((c) => c.name === 'sdc-branch')?.status).toBe('ACTIVE');
    deviceOf(DEVICE_NAMES.asaBranch).connectivityState = 'ONLINE';
    expect(await world.run(['connector', 'sdc-nowhere', 'stop'])).toContain(
      'No Secure Device Connector sdc-nowhere',
    );
    expect(await world.run(['connector', 'sdc-branch'])).toContain('stop or start');
  });

  it('makes a conflict and a certificate about to expire', async () => {
    const world = simulatorControls(sim.url);
    await world.run(['conflict', DEVICE_NAMES.asaHq]);
    expect(deviceOf(DEVICE_NAMES.asaHq).conflictDetectionState).toBe('CONFLICT_DETECTED');
    await world.run(['cert', DEVICE_NAMES.asaHq, '5']);
    const expiry = Date.parse(deviceOf(DEVICE_NAMES.asaHq).certificateExpiryDate ?? '');
    expect(Math.round((expiry - sim.clock.now()) / 86_400_000)).toBe(5);
  });

  it('adds an access-list line above the others, as a change made in SCC’s UI, and removes it', async () => {
    const world = simulatorControls(sim.url);
    const policy = () => sim.state.asaPolicies.get(sim.deviceUid(DEVICE_NAMES.asaHq)) ?? [];
    const deny =
      'access-list outside_access_in line 1 extended deny tcp host 198.51.100.7 object WEB-01 eq https';
    const added = await world.run(['acl', DEVICE_NAMES.asaHq, ...deny.split(' ')]);
    expect(added).toContain('has the line now');
    const lists = policy().filter((line) => line.startsWith('access-list outside_access_in'));
    expect(lists[0]).toBe(
      'access-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https',
    );
    expect(await world.run(['acl', DEVICE_NAMES.asaHq, 'remove', 'outside_access_in', '1'])).toContain(
      'is removed',
    );
    expect(policy().filter((line) => line.startsWith('access-list outside_access_in'))[0]).not.toContain(
      '198.51.100.7',
    );
    expect(await world.run(['acl', DEVICE_NAMES.asaHq, 'permit', 'everything'])).toMatch(/^Which line\?/);
    expect(await world.run(['acl', DEVICE_NAMES.asaHq, 'remove', 'outside_access_in'])).toMatch(
      /^Which line of which list\?/,
    );
  });

  it('refuses in one line what it cannot do, and changes nothing', async () => {
    const world = simulatorControls(sim.url);
    expect(await world.run(['offline', 'no-such-asa'])).toMatch(/^The simulator refused: /);
    expect(await world.run(['offline', '../../_sim/reset'])).toMatch(/^Which device\?/);
    expect(await world.run(['offline', DEVICE_NAMES.asaDc, 'ON_FIRE'])).toMatch(/goes offline as one of/);
    expect(deviceOf(DEVICE_NAMES.asaDc).connectivityState).toBe('ONLINE');
    expect(await world.run(['cert', DEVICE_NAMES.asaDc, 'soon'])).toMatch(/How many days/);
    expect(await world.run(['explode'])).toContain('/sim offline <device>');
  });
});
