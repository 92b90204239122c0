import { describe, expect, it } from 'vitest';
import type { ModalField, RawArgs } from '../../src/catalogue/operation.js';
import { renderText } from '../../src/render/text.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();

async function modalFields(text: string): Promise<readonly ModalField[]> {
  const { op, raw, modal } = catalogue.parse(text);
  expect(modal).toBe(true);
  const fields = op.modal?.fields;
  if (typeof fields !== 'function') throw new Error(`${op.id} has no fitted form`);
  return fields(h.context(), raw);
}

function uidOf(deviceName: string, hardwareName: string): string {
  const deviceUid = h.sim.deviceUid(deviceName);
  const found = [...h.sim.state.interfaces.values()].find(
    (i) => i.deviceUid === deviceUid && i.hardwareName === hardwareName,
  );
  if (!found) throw new Error(`no ${hardwareName} on ${deviceName}`);
  return found.uid;
}

describe('interfaces: reads', () => {
  it('lists every kind of interface of an ASA', async () => {
    h.golden('interfaces', await h.run('interfaces asa-hq-01'));
  });

  it('lists one kind, filtered by a name query', async () => {
    const outcome = await h.run('interfaces asa-hq-01 subinterface voice');
    h.golden('interfaces.subinterface-query', outcome);
    expect(renderText(outcome.view)).toContain('GigabitEthernet1/2.200');
    expect(renderText(outcome.view)).not.toContain('GigabitEthernet1/2.100');
  });

  it('finds interfaces by hardware name as well as by name', async () => {
    const text = renderText((await h.run('interfaces asa-hq-01 Ethernet1/2')).view);
    expect(text).toContain('1–3 of 3');
    expect(text).toContain('GigabitEthernet1/2.200');
  });

  it('shows a physical interface with its subinterfaces', async () => {
    h.golden('interfaces.show', await h.run('interfaces show asa-hq-01 inside'));
  });

  it('shows an EtherChannel with its members named, found by UUID', async () => {
    const uid = uidOf('asa-hq-01', 'Port-channel1');
    const outcome = await h.run(`interfaces show asa-hq-01 ${uid}`);
    h.golden('interfaces.show.etherchannel', outcome);
    expect(renderText(outcome.view)).toContain('Members:         GigabitEthernet1/4, GigabitEthernet1/5');
  });

  it('shows VLAN, subinterface and virtual tunnel interfaces by their own operation', async () => {
    for (const name of ['guest', 'users', 'vti-aws']) {
      const outcome = await h.run(`interfaces show asa-hq-01 ${name}`);
      expect(renderText(outcome.view)).toContain(`${name} (`);
    }
    const ops = h.sim.requestLog.list().map((e) => e.operationId);
    expect(ops).toEqual(
      expect.arrayContaining(['getAsaVlanInterface', 'getAsaSubInterface', 'getAsaVirtualTunnelInterface']),
    );
  });
});

describe('interfaces: forms', () => {
  it('offers only free physical ports as EtherChannel members', async () => {
    const fields = await modalFields('interfaces create etherchannel asa-hq-01');
    const members = fields.find((f) => f.name === 'members');
    expect(members?.options?.map((o) => o.label)).toEqual([
      'GigabitEthernet1/6',
      'GigabitEthernet1/7',
      'GigabitEthernet1/8',
    ]);
  });

  it('fits the edit form to the interface: an EtherChannel gets LACP and members, filled in', async () => {
    const channel = await modalFields('interfaces edit asa-hq-01 Port-channel1');
    expect(channel.map((f) => f.name)).toEqual([
      'name',
      'ipv4',
      'security-level',
      'mtu',
      'description',
      'enabled',
      'lacp-mode',
      'members',
      // Declared on every form that changes something; shown as the policy says (catalogue/forms.ts).
      'ticket',
    ]);
    expect(channel.find((f) => f.name === 'ipv4')?.initial).toBe('10.2.0.1/24');
    const physical = await modalFields('interfaces edit asa-hq-01 inside');
    expect(physical.map((f) => f.name)).not.toContain('members');
  });

  it('preselects the parent a subinterface command names', async () => {
    const fields = await modalFields('interfaces create subinterface asa-hq-01 inside');
    expect(fields.find((f) => f.name === 'parent')?.initial).toBe(uidOf('asa-hq-01', 'GigabitEthernet1/2'));
  });

  it('refuses to open an edit form for a virtual tunnel interface', async () => {
    await expect(modalFields('interfaces edit asa-hq-01 vti-aws')).rejects.toThrow(
      'vti-aws (Tunnel1) is a virtual tunnel interface; SCC does not change those.',
    );
  });
});

describe('interfaces: from the text, without a form', () => {
  const posts = () => h.sim.requestLog.list().filter((e) => e.method === 'POST' || e.method === 'PATCH');

  it('creates a VLAN interface from flags alone', async () => {
    const text =
      'interfaces create vlan asa-hq-01 --vlan-id 30 --name visitors --ipv4 10.30.0.1/24 --security-level 20 --description "Guest Wi-Fi"';
    expect(catalogue.parse(text).modal).toBe(false);
    const outcome = await h.run(text);
    h.golden('interfaces.create.vlan.text', outcome);
    expect(renderText(outcome.view)).toContain('10.30.0.1/24');
  });

  it('creates an EtherChannel from members named with commas', async () => {
    const outcome = await h.run(
      'interfaces create etherchannel asa-hq-01 --members GigabitEthernet1/6,GigabitEthernet1/7 --lacp-mode passive --etherchannel-id 5 --name backup',
    );
    const created = [...h.sim.state.interfaces.values()].find((i) => i.name === 'backup');
    expect(created?.memberInterfaces?.sort()).toEqual(
      [uidOf('asa-hq-01', 'GigabitEthernet1/6'), uidOf('asa-hq-01', 'GigabitEthernet1/7')].sort(),
    );
    expect(created?.lacpMode).toBe('PASSIVE');
    expect(renderText(outcome.view)).toContain('Port-channel5');
  });

  it('creates a subinterface on its parent named in the command', async () => {
    const outcome = await h.run(
      'interfaces create subinterface asa-branch-02 inside --subinterface-id 31 --vlan 31 --name scanners',
    );
    expect(renderText(outcome.view)).toMatch(/scanners/);
  });

  it('edits only the settings given, leaving the others as they are', async () => {
    const uid = uidOf('asa-hq-01', 'GigabitEthernet1/2');
    const before = structuredClone(h.sim.state.interfaces.get(uid));
    const outcome = await h.run('interfaces edit asa-hq-01 inside --mtu 9000');
    h.golden('interfaces.edit.text', outcome);
    expect(renderText(outcome.view)).toContain('MTU: 1500 → 9000');
    const after = h.sim.state.interfaces.get(uid);
    expect(after?.mtu).toBe(9000);
    expect(after).toMatchObject({
      name: before?.name,
      ipv4: before?.ipv4,
      securityLevel: before?.securityLevel,
      enabled: before?.enabled,
    });
  });

  it('refuses an edit that names no setting, and EtherChannel settings on another kind', async () => {
    await expect(h.run('interfaces edit asa-hq-01 inside')).rejects.toThrow(
      /Give at least one setting to change: --name, --ipv4, --security-level, --mtu, --description, --enabled, --lacp-mode, --members\./,
    );
    await expect(h.run('interfaces edit asa-hq-01 inside --lacp-mode active')).rejects.toThrow(
      '--lacp-mode apply to EtherChannels only; inside (GigabitEthernet1/2) is a physical interface.',
    );
    expect(posts()).toEqual([]);
  });

  it('gives missing and bad values the usage line, before SCC sees anything', async () => {
    const missing = h.run('interfaces create vlan asa-hq-01 --name guest');
    await expect(missing).rejects.toThrow('`vlan-id` is required.');
    await expect(missing).rejects.toMatchObject({
      usage: expect.stringMatching(/^\/fw interfaces create vlan <device> --vlan-id … \[--name …\]/),
    });
    await expect(h.run('interfaces create vlan asa-hq-01 --vlan-id 30 --mtu 10000')).rejects.toThrow(
      '`mtu` must be a whole number from 64 to 9198.',
    );
    await expect(h.run('interfaces create etherchannel asa-hq-01 --name x')).rejects.toThrow(
      '`members` needs at least one.',
    );
    expect(posts()).toEqual([]);
  });
});

describe('interfaces: changes', () => {
  const form = (raw: RawArgs) => ({ raw });

  it('creates an EtherChannel from the ports picked in the form', async () => {
    const members = [uidOf('asa-hq-01', 'GigabitEthernet1/6'), uidOf('asa-hq-01', 'GigabitEthernet1/7')];
    const outcome = await h.run(
      'interfaces create etherchannel asa-hq-01',
      form({
        members,
        name: 'backup',
        ipv4: '10.9.0.1/24',
        'security-level': '80',
        mtu: '9000',
        'lacp-mode': 'active',
      }),
    );
    h.golden('interfaces.create.etherchannel', outcome);
    expect(outcome.view.visibility).toBe('in_channel');
  });

  it('creates a subinterface on the parent given by name', async () => {
    const outcome = await h.run(
      'interfaces create subinterface asa-branch-02 inside',
      form({ 'subinterface-id': '20', vlan: '20', name: 'cameras', ipv4: '10.50.20.1 255.255.255.0' }),
    );
    h.golden('interfaces.create.subinterface', outcome);
  });

  it('creates a VLAN interface', async () => {
    const outcome = await h.run(
      'interfaces create vlan asa-branch-02',
      form({ 'vlan-id': '40', name: 'voip', ipv4: 'dhcp' }),
    );
    h.golden('interfaces.create.vlan', outcome);
  });

  it('checks ranges from the reference before SCC sees them', async () => {
    await expect(h.run('interfaces create vlan asa-branch-02', form({ 'vlan-id': '4071' }))).rejects.toThrow(
      '`vlan-id` must be a whole number from 1 to 4070.',
    );
    await expect(
      h.run(
        'interfaces create vlan asa-branch-02',
        form({ 'vlan-id': '40', mtu: '63', 'security-level': '101' }),
      ),
    ).rejects.toThrow(
      '`security-level` must be a whole number from 0 to 100. `mtu` must be a whole number from 64 to 9198.',
    );
    await expect(
      h.run('interfaces create vlan asa-branch-02', form({ 'vlan-id': '40', ipv4: '10.1.1.1/33' })),
    ).rejects.toThrow(
      '`ipv4` must be an address with its prefix (10.1.0.1/24), an address and a netmask, or dhcp.',
    );
    expect(h.sim.requestLog.list().filter((e) => e.method === 'POST')).toEqual([]);
  });

  it('sends only what changed and says what it was before', async () => {
    const outcome = await h.run(
      'interfaces edit asa-hq-01 inside',
      form({ mtu: '9000', name: 'inside', enabled: true }),
    );
    h.golden('interfaces.edit', outcome);
    expect(renderText(outcome.view)).toContain('MTU: 1500 → 9000');
  });

  it('says so when a form changes nothing', async () => {
    await expect(h.run('interfaces edit asa-hq-01 inside', form({ mtu: '1500' }))).rejects.toThrow(
      'Nothing to change: inside (GigabitEthernet1/2) already has these settings.',
    );
  });

  it('passes SCC’s refusal on as a sentence (a name already in use)', async () => {
    await expect(h.run('interfaces edit asa-hq-01 dmz', form({ name: 'inside' }))).rejects.toThrow(
      /^Could not change the interface\. SCC refused the request \(400 INVALID_INPUT\)/,
    );
  });

  it('describes a deletion target by UUID, for the approval card', async () => {
    const { op, raw } = catalogue.parse('interfaces delete hq Vlan20');
    const target = await op.target?.resolve(h.context(), raw);
    expect(op.target?.describe(target?.facts, Date.now()).action).toBe(
      'delete the VLAN interface `iot (Vlan20)` on `asa-hq-01`',
    );
    expect(target?.raw).toEqual({
      device: h.sim.deviceUid('asa-hq-01'),
      interface: uidOf('asa-hq-01', 'Vlan20'),
    });
  });

  it('deletes a VLAN interface, also when given UUIDs (as an approval replays it)', async () => {
    const raw = { device: h.sim.deviceUid('asa-hq-01'), interface: uidOf('asa-hq-01', 'Vlan20') };
    const { op } = catalogue.parse('interfaces delete x y');
    const outcome = await op.execute(h.context(), raw);
    h.golden('interfaces.delete', outcome);
  });

  it('deletes EtherChannels and subinterfaces by their own operations', async () => {
    await h.run('interfaces delete asa-hq-01 servers');
    await h.run('interfaces delete asa-hq-01 Port-channel1');
    const ops = h.sim.requestLog.list().map((e) => e.operationId);
    expect(ops).toEqual(expect.arrayContaining(['deleteAsaSubInterface', 'deleteAsaEtherChannelInterface']));
  });

  it('refuses to delete physical interfaces', async () => {
    await expect(h.run('interfaces delete asa-hq-01 inside')).rejects.toThrow(
      'inside (GigabitEthernet1/2) is a physical interface; SCC deletes only EtherChannel, VLAN and subinterfaces.',
    );
  });
});
