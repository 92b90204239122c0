// ASA interfaces: the checks a real ASA makes (48 EtherChannels, unused physical members, existing
// parents, VLAN ranges and uniqueness, unique names, MTU and security level ranges), what each kind
// allows (physical: read and modify; virtual tunnel: read only), and the shapes of the answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { type CallOptions, items, obj, type RawResponse, simulator, str } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;
let asa: string;

beforeEach(async () => {
  ({ sim, api } = await simulator());
  asa = sim.deviceUid('asa-hq-01');
});
afterEach(async () => {
  await sim.stop();
});

const base = () => `/v1/inventory/devices/asas/${asa}`;
function iface(hardwareName: string, device = 'asa-hq-01'): string {
  const deviceUid = sim.deviceUid(device);
  for (const i of sim.state.interfaces.values())
    if (i.deviceUid === deviceUid && i.hardwareName === hardwareName) return i.uid;
  throw new Error(`no ${hardwareName} on ${device}`);
}
const createChannel = (body: Record<string, unknown>) =>
  api('POST', `${base()}/etherchannelinterfaces`, { body });
const createSub = (parent: string, body: Record<string, unknown>) =>
  api('POST', `${base()}/interfaces/${parent}/subinterfaces`, { body });
const createVlan = (body: Record<string, unknown>) => api('POST', `${base()}/vlaninterfaces`, { body });
const detailKeys = (r: RawResponse) => Object.keys((obj(r).details ?? {}) as object);

function expectRejected(response: RawResponse, field: string): void {
  expect(response.status, response.text).toBe(400);
  expect(obj(response).errorCode).toBe('INVALID_INPUT');
  expect(
    detailKeys(response).some((k) => k.startsWith(field)),
    `details ${detailKeys(response).join(', ')}`,
  ).toBe(true);
}

describe('EtherChannels', () => {
  it('are created (201, AsaInterface) from unused physical ports, which then belong to the channel', async () => {
    const members = [iface('GigabitEthernet1/7'), iface('GigabitEthernet1/8')];
    const response = await createChannel({
      etherChannelId: 5,
      name: 'backup',
      memberInterfaces: members,
      mtu: 9000,
      securityLevel: 70,
    });
    expect(response.status).toBe(201);
    const channel = obj(response);
    expect(channel).toMatchObject({
      interfaceType: 'ETHER_CHANNEL_INTERFACE',
      hardwareName: 'Port-channel5',
      etherChannelId: 5,
      deviceUid: asa,
      memberInterfaces: members,
      name: 'backup',
      mtu: 9000,
      securityLevel: 70,
    });
    const member = obj(await api('GET', `${base()}/physicalinterfaces/${members[0]}`));
    expect(member.etherChannelGroupUid).toBe(channel.uid);
    expect(obj(await api('GET', `${base()}/etherchannelinterfaces/${str(channel.uid)}`)).name).toBe('backup');
  });

  it('are limited to 48 per device', async () => {
    const existing = items(await api('GET', `${base()}/etherchannelinterfaces`)).length;
    for (let i = existing; i < 48; i += 1) expect((await createChannel({})).status).toBe(201);
    expect(
      items(await api('GET', `${base()}/etherchannelinterfaces`, { query: { limit: 200 } })),
    ).toHaveLength(48);
    const refused = await createChannel({});
    expectRejected(refused, 'etherChannelId');
    expect(str(obj(refused).errorMsg)).toContain('48');
  });

  it('need an ID from 1 to 48 that is not taken', async () => {
    expectRejected(await createChannel({ etherChannelId: 0 }), 'etherChannelId');
    expectRejected(await createChannel({ etherChannelId: 49 }), 'etherChannelId');
    expectRejected(await createChannel({ etherChannelId: 1 }), 'etherChannelId');
    expect((await createChannel({ etherChannelId: 48 })).status).toBe(201);
  });

  it.each([
    ['a management port', 'Management1/1'],
    ['a member of another channel', 'GigabitEthernet1/4'],
    ['a named port', 'GigabitEthernet1/1'],
  ])('refuse %s as a member', async (_what, hardwareName) => {
    expectRejected(await createChannel({ memberInterfaces: [iface(hardwareName)] }), 'memberInterfaces');
  });

  it('refuse a port that has subinterfaces, a non-physical interface and an unknown UID as members', async () => {
    expect(
      (await createSub(iface('GigabitEthernet1/6'), { subInterfaceId: 10, vlanPrimaryId: 10 })).status,
    ).toBe(201);
    expectRejected(
      await createChannel({ memberInterfaces: [iface('GigabitEthernet1/6')] }),
      'memberInterfaces',
    );
    expectRejected(await createChannel({ memberInterfaces: [iface('Vlan10')] }), 'memberInterfaces');
    expectRejected(
      await createChannel({ memberInterfaces: ['6e3492c6-083a-4ead-9da9-cd2db32a965d'] }),
      'memberInterfaces',
    );
    expectRejected(await createChannel({ memberInterfaces: ['not-a-uuid'] }), 'memberInterfaces');
  });

  it('free their members when deleted (204), so the ports can join another channel', async () => {
    const members = [iface('GigabitEthernet1/7'), iface('GigabitEthernet1/8')];
    const channel = obj(await createChannel({ etherChannelId: 9, memberInterfaces: members }));
    expectRejected(await createChannel({ memberInterfaces: members }), 'memberInterfaces');
    const deleted = await api('DELETE', `${base()}/etherchannelinterfaces/${str(channel.uid)}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(
      obj(await api('GET', `${base()}/physicalinterfaces/${members[0]}`)).etherChannelGroupUid,
    ).toBeUndefined();
    expect((await api('GET', `${base()}/etherchannelinterfaces/${str(channel.uid)}`)).status).toBe(404);
    expect((await createChannel({ memberInterfaces: members })).status).toBe(201);
  });

  it('cannot be deleted while they have subinterfaces', async () => {
    const response = await api('DELETE', `${base()}/etherchannelinterfaces/${iface('Port-channel1')}`);
    expect(response.status).toBe(400);
    expect(str(obj(response).errorMsg)).toContain('subinterfaces');
  });

  it('move membership on modify: old members are freed, new ones taken', async () => {
    const channel = obj(
      await createChannel({ etherChannelId: 6, memberInterfaces: [iface('GigabitEthernet1/7')] }),
    );
    const modified = await api('PATCH', `${base()}/etherchannelinterfaces/${str(channel.uid)}`, {
      body: { memberInterfaces: [iface('GigabitEthernet1/8')], lacpMode: 'PASSIVE' },
    });
    expect(modified.status).toBe(200);
    expect(obj(modified)).toMatchObject({
      memberInterfaces: [iface('GigabitEthernet1/8')],
      lacpMode: 'PASSIVE',
    });
    expect(
      obj(await api('GET', `${base()}/physicalinterfaces/${iface('GigabitEthernet1/7')}`))
        .etherChannelGroupUid,
    ).toBeUndefined();
    expect(
      obj(await api('GET', `${base()}/physicalinterfaces/${iface('GigabitEthernet1/8')}`))
        .etherChannelGroupUid,
    ).toBe(channel.uid);
  });
});

describe('subinterfaces', () => {
  it('are created on a physical port or an EtherChannel with a hardware name of parent.id', async () => {
    const response = await createSub(iface('Port-channel1'), {
      subInterfaceId: 301,
      vlanPrimaryId: 301,
      name: 'db',
    });
    expect(response.status).toBe(201);
    expect(obj(response)).toMatchObject({
      interfaceType: 'SUB_INTERFACE',
      hardwareName: 'Port-channel1.301',
      parentInterfaceUid: iface('Port-channel1'),
      vlanPrimaryId: 301,
      securityLevel: 0,
    });
    const children = items(await api('GET', `${base()}/interfaces/${iface('Port-channel1')}/subinterfaces`));
    expect(children.map((c) => c.hardwareName)).toEqual(['Port-channel1.300', 'Port-channel1.301']);
  });

  it('need a parent that exists and can have subinterfaces', async () => {
    expectRejected(
      await createSub('6e3492c6-083a-4ead-9da9-cd2db32a965d', { subInterfaceId: 1, vlanPrimaryId: 1 }),
      'interfaceUid',
    );
    expectRejected(
      await createSub(iface('Tunnel1'), { subInterfaceId: 1, vlanPrimaryId: 1 }),
      'interfaceUid',
    );
    expectRejected(
      await createSub(iface('Management1/1'), { subInterfaceId: 1, vlanPrimaryId: 1 }),
      'interfaceUid',
    );
    expectRejected(
      await createSub(iface('GigabitEthernet1/4'), { subInterfaceId: 1, vlanPrimaryId: 1 }),
      'interfaceUid',
    );
  });

  it('take VLAN IDs from 1 to 4094, unique per parent interface', async () => {
    const inside = iface('GigabitEthernet1/2');
    expectRejected(await createSub(inside, { subInterfaceId: 5, vlanPrimaryId: 0 }), 'vlanPrimaryId');
    expectRejected(await createSub(inside, { subInterfaceId: 5, vlanPrimaryId: 4095 }), 'vlanPrimaryId');
    expectRejected(await createSub(inside, { subInterfaceId: 5 }), 'vlanPrimaryId');
    expectRejected(await createSub(inside, { subInterfaceId: 5, vlanPrimaryId: 100 }), 'vlanPrimaryId');
    expectRejected(
      await createSub(inside, {
        subInterfaceId: 5,
        vlanPrimaryId: 6,
        vlanSecondaryIds: [{ start: 4000, end: 5000 }],
      }),
      'vlanSecondaryIds',
    );
    expect((await createSub(inside, { subInterfaceId: 4094, vlanPrimaryId: 4094 })).status).toBe(201);
    expect(
      (await createSub(iface('GigabitEthernet1/3'), { subInterfaceId: 100, vlanPrimaryId: 100 })).status,
    ).toBe(201);
  });

  it('need a subinterface ID unique per parent', async () => {
    expectRejected(
      await createSub(iface('GigabitEthernet1/2'), { subInterfaceId: 100, vlanPrimaryId: 900 }),
      'subInterfaceId',
    );
    expectRejected(
      await createSub(iface('GigabitEthernet1/2'), { subInterfaceId: 0, vlanPrimaryId: 900 }),
      'subInterfaceId',
    );
  });

  it('are modified (200) and deleted (204)', async () => {
    const uid = iface('GigabitEthernet1/2.100');
    const modified = await api('PATCH', `${base()}/subinterfaces/${uid}`, {
      body: { description: 'staff', enabled: false },
    });
    expect(obj(modified)).toMatchObject({ description: 'staff', enabled: false, vlanPrimaryId: 100 });
    expect((await api('DELETE', `${base()}/subinterfaces/${uid}`)).status).toBe(204);
    expect((await api('GET', `${base()}/subinterfaces/${uid}`)).status).toBe(404);
  });
});

describe('VLAN interfaces', () => {
  it('take VLAN IDs from 1 to 4070, unique per device', async () => {
    expectRejected(await createVlan({ vlanId: 0 }), 'vlanId');
    expectRejected(await createVlan({ vlanId: 4071 }), 'vlanId');
    expectRejected(await createVlan({ vlanId: 10 }), 'vlanId');
    expectRejected(await createVlan({}), 'vlanId');
    const created = await createVlan({ vlanId: 4070, name: 'edge-vlan' });
    expect(created.status).toBe(201);
    expect(obj(created)).toMatchObject({
      interfaceType: 'VLAN_INTERFACE',
      hardwareName: 'Vlan4070',
      vlanId: 4070,
    });
  });

  it('take member ports that are physical and not in an EtherChannel', async () => {
    expectRejected(
      await createVlan({ vlanId: 50, memberInterfaces: [iface('GigabitEthernet1/4')] }),
      'memberInterfaces',
    );
    expect((await createVlan({ vlanId: 50, memberInterfaces: [iface('GigabitEthernet1/6')] })).status).toBe(
      201,
    );
  });

  it('are modified (200) and deleted (204)', async () => {
    const uid = iface('Vlan20');
    expect(obj(await api('PATCH', `${base()}/vlaninterfaces/${uid}`, { body: { mtu: 1400 } })).mtu).toBe(
      1400,
    );
    expect((await api('DELETE', `${base()}/vlaninterfaces/${uid}`)).status).toBe(204);
    expect((await api('GET', `${base()}/vlaninterfaces/${uid}`)).status).toBe(404);
  });
});

describe('checks common to every interface', () => {
  it('names are unique per device, ignoring case, but may repeat on another device', async () => {
    expectRejected(await createVlan({ vlanId: 60, name: 'inside' }), 'name');
    expectRejected(await createVlan({ vlanId: 60, name: 'INSIDE' }), 'name');
    expectRejected(
      await api('PATCH', `${base()}/physicalinterfaces/${iface('GigabitEthernet1/6')}`, {
        body: { name: 'dmz' },
      }),
      'name',
    );
    const branch = sim.deviceUid('asa-branch-02');
    const elsewhere = await api('POST', `/v1/inventory/devices/asas/${branch}/vlaninterfaces`, {
      body: { vlanId: 60, name: 'uplink' },
    });
    expect(elsewhere.status).toBe(201);
  });

  it('MTU is 64 to 9198', async () => {
    const port = `${base()}/physicalinterfaces/${iface('GigabitEthernet1/6')}`;
    expectRejected(await api('PATCH', port, { body: { mtu: 63 } }), 'mtu');
    expectRejected(await api('PATCH', port, { body: { mtu: 9199 } }), 'mtu');
    expect(obj(await api('PATCH', port, { body: { mtu: 64 } })).mtu).toBe(64);
    expect(obj(await api('PATCH', port, { body: { mtu: 9198 } })).mtu).toBe(9198);
  });

  it('security level is 0 to 100', async () => {
    expectRejected(await createVlan({ vlanId: 61, securityLevel: -1 }), 'securityLevel');
    expectRejected(await createVlan({ vlanId: 61, securityLevel: 101 }), 'securityLevel');
    expect(obj(await createVlan({ vlanId: 61, securityLevel: 100 })).securityLevel).toBe(100);
  });

  it('static IPv4 addresses and netmasks are checked', async () => {
    const port = `${base()}/physicalinterfaces/${iface('GigabitEthernet1/6')}`;
    expectRejected(
      await api('PATCH', port, {
        body: { ipv4: { ipType: 'STATIC', ipAddress: { ipAddress: '10.0.0.300' } } },
      }),
      'ipv4',
    );
    expectRejected(
      await api('PATCH', port, {
        body: { ipv4: { ipType: 'STATIC', ipAddress: { ipAddress: '10.0.0.1', netmask: '255.0.255.0' } } },
      }),
      'ipv4',
    );
    expectRejected(await api('PATCH', port, { body: { ipv4: { ipType: 'STATIC' } } }), 'ipv4');
  });

  it('unknown fields and wrong types are refused with details naming them', async () => {
    expectRejected(await createVlan({ vlanId: 'ten' }), 'vlanId');
    expectRejected(
      await api('PATCH', `${base()}/physicalinterfaces/${iface('GigabitEthernet1/6')}`, {
        body: { speedType: 'WARP' },
      }),
      'speedType',
    );
  });
});

describe('what each kind of interface allows', () => {
  it('physical interfaces are read and modified, never created or deleted (405)', async () => {
    const port = iface('GigabitEthernet1/6');
    const modified = await api('PATCH', `${base()}/physicalinterfaces/${port}`, {
      body: { name: 'spare', description: 'unused', speedType: 'THOUSAND' },
    });
    expect(modified.status).toBe(200);
    expect(obj(modified)).toMatchObject({
      name: 'spare',
      description: 'unused',
      speedType: 'THOUSAND',
      hardwareName: 'GigabitEthernet1/6',
    });
    const post = await api('POST', `${base()}/physicalinterfaces`, { body: {} });
    expect(post.status).toBe(405);
    expect(obj(post).errorCode).toBe('METHOD_NOT_ALLOWED');
    expect(post.headers.allow).toBe('GET');
    expect((await api('DELETE', `${base()}/physicalinterfaces/${port}`)).status).toBe(405);
  });

  it('a member of an EtherChannel cannot be given a name', async () => {
    expectRejected(
      await api('PATCH', `${base()}/physicalinterfaces/${iface('GigabitEthernet1/4')}`, {
        body: { name: 'x' },
      }),
      'name',
    );
  });

  it('virtual tunnel interfaces are read only', async () => {
    const tunnel = iface('Tunnel1');
    const list = items(await api('GET', `${base()}/virtualtunnelinterfaces`));
    expect(list.map((t) => t.hardwareName)).toEqual(['Tunnel1', 'Tunnel2']);
    expect(obj(await api('GET', `${base()}/virtualtunnelinterfaces/${tunnel}`)).interfaceType).toBe(
      'VIRTUAL_TUNNEL_INTERFACE',
    );
    expect((await api('PATCH', `${base()}/virtualtunnelinterfaces/${tunnel}`, { body: {} })).status).toBe(
      405,
    );
    expect((await api('DELETE', `${base()}/virtualtunnelinterfaces/${tunnel}`)).status).toBe(405);
  });

  it('an interface read through the wrong kind is not found', async () => {
    expect((await api('GET', `${base()}/subinterfaces/${iface('Port-channel1')}`)).status).toBe(404);
    expect((await api('DELETE', `${base()}/vlaninterfaces/${iface('GigabitEthernet1/1')}`)).status).toBe(404);
  });

  it('the device must be an ASA of the tenant (404) and its UID well formed (400)', async () => {
    expect(
      (await api('GET', `/v1/inventory/devices/asas/${sim.deviceUid('ftd-edge-01')}/physicalinterfaces`))
        .status,
    ).toBe(404);
    expect((await api('GET', '/v1/inventory/devices/asas/not-a-uuid/physicalinterfaces')).status).toBe(400);
  });

  it('lists eight data ports and a management port per ASA', async () => {
    for (const device of ['asa-hq-01', 'asa-branch-02', 'asa-dc-03']) {
      const ports = items(
        await api('GET', `/v1/inventory/devices/asas/${sim.deviceUid(device)}/physicalinterfaces`),
      );
      expect(ports.map((p) => p.hardwareName)).toEqual([
        ...Array.from({ length: 8 }, (_, i) => `GigabitEthernet1/${i + 1}`),
        'Management1/1',
      ]);
      expect(ports.filter((p) => p.managementInterface)).toHaveLength(1);
    }
  });

  it('changes are refused to read-only users (403)', async () => {
    const response = await api('POST', `${base()}/vlaninterfaces`, {
      token: 'sim-read-only',
      body: { vlanId: 70 },
    });
    expect(response.status).toBe(403);
    expect(obj(response).errorCode).toBe('FORBIDDEN');
  });
});
