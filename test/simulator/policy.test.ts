// The simulated ASAs' access policy: parsed from the running configuration text (objects, nested groups,
// access lists with remarks, inactive lines and log settings, bindings, routes, object NAT), the seeded
// shadowed and duplicate rules found as an ASA would, and the lookups cut over HTTP (access rules and
// groups, objects and their usages, global search) scoped to the caller's tenant; the admin route that
// adds or removes access-list lines moves the indices and is recorded in the change log.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { stableUid } from '../../src/simulator/random.js';
import { configOnCloud, configOnDevice } from '../../src/simulator/state/asaConfig.js';
import { parsePolicy, policyOf } from '../../src/simulator/state/asaPolicy.js';
import { analyseAccessList } from '../../src/simulator/state/asaRuleIssues.js';
import { seedState } from '../../src/simulator/state/seed.js';
import { eventsOf, items, obj, simulator, str } from './support.js';

const RULES = '/v1/policies/asa/accessrules';
const GROUPS = '/v1/policies/asa/accessgroups';

describe('ASA policy model', () => {
  const state = seedState('default', 0);
  const device = (name: string) => {
    for (const d of state.devices.values()) if (d.device.name === name) return d;
    throw new Error(`no ${name}`);
  };
  const hq = device('asa-hq-01');
  const policy = policyOf(state, hq.device.uid);

  it('is printed in the running configuration, the same in both copies, each line where policyOf says', () => {
    const text = configOnDevice(state, hq);
    expect(configOnCloud(state, hq)).toBe(text);
    const lines = text.split('\n');
    const entries = [...policy.accessLists.values()].flat();
    expect(entries.length).toBeGreaterThan(10);
    for (const e of entries) expect(lines[e.configLine - 1]).toBe(e.text);
    for (const o of [...policy.objects, ...policy.objectGroups])
      expect(lines[o.configLine - 1]).toMatch(new RegExp(`^object(-group)? (network|service) ${o.name}\\b`));
    for (const b of policy.accessGroups) expect(lines[b.configLine - 1]).toBe(b.text);
    // After the interfaces, NAT after `arp timeout`, and the policy's route in place of the default one.
    expect(text.indexOf('access-list outside_access_in')).toBeGreaterThan(text.lastIndexOf('\ninterface '));
    expect(text).toContain(
      'arp timeout 14400\nobject network WEB-01\n nat (dmz,outside) static 203.0.113.10\n',
    );
    expect(text.match(/^route outside 0\.0\.0\.0 0\.0\.0\.0 203\.0\.113\.1 1$/gm)).toHaveLength(1);
  });

  it('parses the design values of asa-hq-01: objects, groups expanded, bindings, route, static NAT', () => {
    const web = policy.objects.find((o) => o.name === 'WEB-01');
    expect(web?.networks).toEqual([{ address: '172.16.0.10', prefix: 32, family: 4 }]);
    expect(policy.objects.find((o) => o.name === 'HQ-USERS')?.networks).toEqual([
      { address: '10.1.100.0', prefix: 24, family: 4 },
    ]);
    expect(policy.objects.find((o) => o.name === 'HTTPS')).toMatchObject({
      type: 'service',
      protocol: 'tcp',
      ports: [{ low: 443, high: 443 }],
    });
    expect(policy.objectGroups.find((g) => g.name === 'DMZ-SERVERS')).toMatchObject({
      references: ['WEB-01', 'APP-01'],
      networks: [
        { address: '172.16.0.10', prefix: 32, family: 4 },
        { address: '172.16.0.20', prefix: 32, family: 4 },
      ],
    });
    expect(policy.objectGroups.find((g) => g.name === 'WEB-PORTS')).toMatchObject({
      protocol: 'tcp',
      ports: [
        { low: 80, high: 80 },
        { low: 443, high: 443 },
      ],
    });
    expect(policy.accessGroups.map((b) => `${b.acl} ${b.direction} ${b.interface}`)).toEqual([
      'outside_access_in in outside',
      'inside_access_in in inside',
      'inside_access_in in users',
      'dmz_access_in in dmz',
    ]);
    expect(policy.routes).toMatchObject([{ interface: 'outside', gateway: '203.0.113.1', metric: 1 }]);
    expect(policy.nats).toMatchObject([
      {
        objectName: 'WEB-01',
        realInterface: 'dmz',
        mappedInterface: 'outside',
        mapped: [{ address: '203.0.113.10', prefix: 32, family: 4 }],
      },
    ]);
    const outside = policy.accessLists.get('outside_access_in') ?? [];
    expect(outside[0]).toMatchObject({ kind: 'remark', line: 1 });
    expect(outside[1]).toMatchObject({
      kind: 'rule',
      line: 2,
      action: 'permit',
      protocol: 'tcp',
      source: { written: 'any' },
      destination: { written: 'object WEB-01', objectName: 'WEB-01' },
      destinationPorts: { written: 'eq https', ports: [{ low: 443, high: 443 }] },
    });
    const dmz = policy.accessLists.get('dmz_access_in') ?? [];
    expect(dmz.find((e) => e.inactive)?.text).toContain('inactive');
    expect(dmz.at(-1)?.log).toEqual({ level: 'informational', interval: 300 });
  });

  it('expands nested object-groups (asa-dc-03) and stops on a cycle', () => {
    const dc = policyOf(state, device('asa-dc-03').device.uid);
    expect(dc.objectGroups.find((g) => g.name === 'DC-TIERS')?.networks).toEqual([
      { address: '172.20.40.10', prefix: 32, family: 4 },
      { address: '172.20.41.0', prefix: 24, family: 4 },
    ]);
    const cyclic = parsePolicy(
      'x',
      [
        'object-group network A',
        ' group-object B',
        ' network-object host 10.0.0.1',
        'object-group network B',
        ' group-object A',
      ].join('\n'),
    );
    expect(cyclic.objectGroups.find((g) => g.name === 'B')?.networks).toEqual([
      { address: '10.0.0.1', prefix: 32, family: 4 },
    ]);
  });

  it('flags the seeded shadowed and duplicate rules with what causes them, and nothing else', () => {
    const outside = policy.accessLists.get('outside_access_in') ?? [];
    const shadowed = outside.find((e) => e.text.includes('198.51.100.66'));
    expect([...analyseAccessList(outside)]).toEqual([
      [
        shadowed?.uid,
        {
          issueType: 'SHADOWED',
          causes: [
            {
              causingRule: 'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
              causingRuleIdx: 2,
              causeTypes: ['SHADOWED_BY_NETWORK_ADDRESS', 'SHADOWED_BY_ACTION'],
            },
          ],
        },
      ],
    ]);
    const inside = policy.accessLists.get('inside_access_in') ?? [];
    expect([...analyseAccessList(inside).values()]).toEqual([
      {
        issueType: 'DUPLICATE',
        causes: [
          {
            causingRule: 'access-list inside_access_in extended permit ip object HQ-USERS any',
            causingRuleIdx: 1,
            causeTypes: [],
          },
        ],
      },
    ]);
    expect(analyseAccessList(policy.accessLists.get('dmz_access_in') ?? []).size).toBe(0);
  });

  it('finds shadowing by port and ignores inactive lines', () => {
    const lines = [
      'access-list T extended permit tcp any any range 1 1024',
      'access-list T extended deny tcp any any eq 22',
      'access-list T extended deny ip any any inactive',
      'access-list T extended permit udp any any eq 53',
      'access-list T extended deny udp any interface outside eq 53',
    ];
    const t = parsePolicy('x', lines.join('\n')).accessLists.get('T') ?? [];
    const issues = analyseAccessList(t);
    expect(issues.get(t[1]?.uid ?? '')?.causes[0]?.causeTypes).toEqual([
      'SHADOWED_BY_PORT',
      'SHADOWED_BY_ACTION',
    ]);
    expect(issues.has(t[3]?.uid ?? '')).toBe(false);
    expect(issues.size).toBe(1);
  });

  it('gives every ASA of the world at least a default route and an applied outside access list', () => {
    for (const d of state.devices.values()) {
      if (d.kind !== 'ASA') continue;
      const p = policyOf(state, d.device.uid);
      expect(
        p.routes.some((r) => r.network.prefix === 0),
        d.device.name,
      ).toBe(true);
      expect(
        p.accessGroups.some((b) => b.interface === 'outside'),
        d.device.name,
      ).toBe(true);
    }
  });

  it('derives UIDs from the device and the text, not from the world RNG', () => {
    const entry = policy.accessLists.get('outside_access_in')?.[1];
    expect(entry?.uid).toBe(
      stableUid(hq.device.uid, 'access-list', 'outside_access_in', entry?.text ?? '', '1'),
    );
    expect(entry?.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Minting ids from the world's RNG changes nothing of the policy's, and parsing draws none.
    state.rng.uuid();
    const position = state.rng.position;
    const fresh = parsePolicy(hq.device.uid, configOnDevice(state, hq));
    expect(fresh.accessLists.get('outside_access_in')?.[1]?.uid).toBe(entry?.uid);
    expect(state.rng.position).toBe(position);
  });
});

describe('simulator: access rules, groups, objects and search over HTTP', () => {
  let sim: SimulatorHandle;
  let api: Awaited<ReturnType<typeof simulator>>['api'];
  let hq: string;

  beforeEach(async () => {
    ({ sim, api } = await simulator());
    hq = sim.deviceUid('asa-hq-01');
  });
  afterEach(async () => {
    await sim.stop();
  });

  const rulesOf = async (q: string) => items(await api('GET', RULES, { query: { q, limit: 200 } }));

  it('lists the rules of asa-hq-01 in order with their configuration text, line and issues', async () => {
    const rules = await rulesOf(`entityUid:${hq}`);
    const outside = rules.filter((r) =>
      str(r.ruleConfigurationText).startsWith('access-list outside_access_in'),
    );
    expect(outside.map((r) => r.index)).toEqual([2, 3, 4, 5]);
    expect(outside[0]).toMatchObject({
      entityUid: hq,
      ruleAction: 'PERMIT',
      ruleType: 'L3',
      isActiveRule: true,
      remark: 'Published web server WEB-01 (static NAT 203.0.113.10)',
      protocol: { name: 'tcp', elements: ['tcp'] },
      sourceNetwork: { name: 'any' },
      destinationNetwork: { name: 'WEB-01', type: 'NETWORK_OBJECT', elements: ['172.16.0.10'] },
      destinationPort: { name: 'eq https', elements: ['443'] },
      issues: [],
    });
    const config = str(
      obj(await api('GET', `/v1/inventory/devices/asas/${hq}/configs`)).configOnDevice,
    ).split('\n');
    for (const r of rules)
      expect(config[Number(r.ruleConfigurationLineNumber) - 1]).toBe(r.ruleConfigurationText);
    expect(outside[2]).toMatchObject({
      ruleAction: 'DENY',
      logSettings: { level: 'informational', interval: 300 },
      issues: [{ issueType: 'SHADOWED', causes: [{ causingRuleIdx: 2 }] }],
    });
    const fetched = obj(await api('GET', `${RULES}/${str(outside[0]?.uid)}`));
    expect(fetched).toEqual(outside[0]);
  });

  it('filters rules by action, activity and text (wildcards), pages them and answers 404 / 400', async () => {
    const denies = await rulesOf(`entityUid:${hq} AND ruleAction:DENY`);
    expect(denies.length).toBe(3);
    const inactive = await rulesOf('isActiveRule:false');
    expect(inactive.map((r) => r.ruleConfigurationText)).toEqual([
      'access-list dmz_access_in extended permit object HTTPS object-group DMZ-SERVERS any inactive',
    ]);
    const web = await rulesOf('ruleConfigurationText:*WEB-01*');
    expect(web.length).toBe(3);
    const page = obj(await api('GET', RULES, { query: { q: `entityUid:${hq}`, limit: 2, offset: 1 } }));
    expect(page).toMatchObject({ count: 11, limit: 2, offset: 1 });
    expect((await api('GET', `${RULES}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await api('GET', RULES, { query: { q: 'bogus:x' } })).status).toBe(400);
  });

  it('lists one access group per applied list, with its interfaces and directions', async () => {
    const groups = items(await api('GET', GROUPS, { query: { q: `entityUid:${hq}` } }));
    expect(groups.map((g) => g.name)).toEqual(['outside_access_in', 'inside_access_in', 'dmz_access_in']);
    expect(groups[1]).toMatchObject({
      entityUid: hq,
      isShared: false,
      resources: [
        { interface: { interfaceName: 'inside', direction: 'INBOUND' } },
        { interface: { interfaceName: 'users', direction: 'INBOUND' } },
      ],
    });
    const rules = await rulesOf(`accessGroupUid:${str(groups[1]?.uid)}`);
    expect(rules.every((r) => str(r.ruleConfigurationText).startsWith('access-list inside_access_in'))).toBe(
      true,
    );
    expect(obj(await api('GET', `${GROUPS}/${str(groups[0]?.uid)}`))).toEqual(groups[0]);
    expect((await api('GET', `${GROUPS}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('lists objects across the tenant, searched by name and content only', async () => {
    const web = items(await api('GET', '/v1/objects', { query: { q: 'name:WEB-01' } }));
    expect(web).toMatchObject([
      {
        name: 'WEB-01',
        description: 'Public web server',
        value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '172.16.0.10' } },
        targetIds: [hq],
      },
    ]);
    const byContent = items(await api('GET', '/v1/objects', { query: { q: 'content:172.20.*' } }));
    expect(byContent.map((o) => o.name).sort()).toEqual(['DC-APP', 'DC-APP-TIER', 'DC-TIERS', 'DC-WEB']);
    const refused = await api('GET', '/v1/objects', { query: { q: 'description:web' } });
    expect(refused.status).toBe(400);
    expect(str(obj(refused).errorMsg ?? obj(refused).message ?? refused.text)).toContain('description');
  });

  it('shows an object with its elements and targets, and where it is used (nested groups included)', async () => {
    const [web] = items(await api('GET', '/v1/objects', { query: { q: 'name:WEB-01' } }));
    const uid = str(web?.uid);
    const object = obj(await api('GET', `/v1/objects/${uid}`));
    expect(object).toMatchObject({
      uid,
      name: 'WEB-01',
      elements: ['172.16.0.10'],
      targets: [{ id: hq, displayName: 'asa-hq-01', type: 'ASA' }],
    });
    const usages = (await api('GET', `/v1/objects/${uid}/usage`)).body as Record<string, unknown>[];
    const names = usages.map((u) => u.name);
    expect(usages).toContainEqual(
      expect.objectContaining({ name: 'DMZ-SERVERS', objectType: 'NETWORK_GROUP' }),
    );
    expect(names).toContain('access-list outside_access_in extended permit tcp any object WEB-01 eq https');
    // Through DMZ-SERVERS: the dmz list's rules that name the group.
    expect(names).toContain(
      'access-list dmz_access_in extended permit tcp object-group DMZ-SERVERS object APP-01 object-group WEB-PORTS',
    );
    expect(names).toContain('object network WEB-01 nat (dmz,outside) static 203.0.113.10');
    const rule = usages.find((u) => str(u.name).includes('eq www'));
    expect((await api('GET', `${RULES}/${str(rule?.uid)}`)).status).toBe(200);

    const [app] = items(await api('GET', '/v1/objects', { query: { q: 'name:DC-APP' } }));
    const nested = (await api('GET', `/v1/objects/${str(app?.uid)}/usage`)).body as Record<string, unknown>[];
    expect(nested.map((u) => u.name)).toEqual(expect.arrayContaining(['DC-APP-TIER', 'DC-TIERS']));
    expect((await api('GET', '/v1/objects/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('searches devices (with the ASA configuration lines that match), objects and policies', async () => {
    const found = obj(await api('GET', '/v1/search', { query: { q: 'WEB-01' } }));
    const devices = (found.inventory as { devices: Record<string, unknown>[] }).devices;
    expect(devices.map((d) => d.name)).toEqual(['asa-hq-01']);
    expect(devices[0]?.matchingConfigurations).toContain('object network WEB-01');
    expect(devices[0]?.matchingConfigurations).toContain(
      'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
    );
    expect((found.objects as Record<string, unknown>[]).map((o) => o.name)).toEqual(['WEB-01']);
    expect(found.cdFmcResult).toEqual({ devices: [], objects: [], policies: [] });
    const policies = obj(await api('GET', '/v1/search', { query: { q: 'inside_access' } })).policies;
    expect(policies).toEqual([expect.objectContaining({ name: 'inside_access_in' })]);
    const byName = obj(await api('GET', '/v1/search', { query: { q: 'ftd-edge' } }));
    expect((byName.inventory as { devices: { type: string }[] }).devices.map((d) => d.type)).toEqual([
      'CDFMC_MANAGED_FTD',
      'CDFMC_MANAGED_FTD',
    ]);
    expect((await api('GET', '/v1/search', { query: { q: '  ' } })).status).toBe(400);
    expect((await api('GET', '/v1/search')).status).toBe(400);
  });

  it("shows a tenant's token only its own tenant's ASAs", async () => {
    const token = sim.mintTenantToken(sim.tenantUid('northwind-us'));
    const rules = items(await api('GET', RULES, { token, query: { limit: 200 } }));
    const mine = new Set([sim.deviceUid('nw-asa-hq'), sim.deviceUid('nw-asa-branch')]);
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.every((r) => mine.has(str(r.entityUid)))).toBe(true);
    const [someHqRule] = await rulesOf(`entityUid:${hq}`);
    expect((await api('GET', `${RULES}/${str(someHqRule?.uid)}`, { token })).status).toBe(404);
    const search = obj(await api('GET', '/v1/search', { token, query: { q: 'WEB-01' } }));
    expect((search.inventory as { devices: unknown[] }).devices).toEqual([]);
    expect(items(await api('GET', '/v1/objects', { token, query: { q: 'name:WEB-01' } }))).toEqual([]);
  });

  it('adds a line above another through the admin route: indices move, the change log records it', async () => {
    const added = await api('POST', '/_sim/devices/asa-hq-01/access-list', {
      body: {
        text: 'access-list outside_access_in line 1 extended deny tcp host 198.51.100.7 object WEB-01 eq https',
        username: 'fw.admin@acme.example',
      },
    });
    expect(added.status).toBe(200);
    expect(obj(added).command).toBe(
      'access-list outside_access_in line 1 extended deny tcp host 198.51.100.7 object WEB-01 eq https',
    );
    const outside = (await rulesOf(`entityUid:${hq}`)).filter((r) =>
      str(r.ruleConfigurationText).startsWith('access-list outside_access_in'),
    );
    expect(outside.map((r) => r.index)).toEqual([1, 3, 4, 5, 6]);
    expect(outside[0]).toMatchObject({ ruleAction: 'DENY', sourceNetwork: { name: 'host 198.51.100.7' } });
    // The remark now sits above the permit at line 3; the shadowed deny names it by its new index.
    expect(outside[1]).toMatchObject({ remark: 'Published web server WEB-01 (static NAT 203.0.113.10)' });
    expect(outside[3]).toMatchObject({ issues: [{ causes: [{ causingRuleIdx: 3 }] }] });
    expect(sim.state.devices.get(hq)?.device.configState).toBe('SYNCED');

    const [log] = items(await api('GET', '/v1/changelogs', { query: { q: `entityUid:${hq}` } }));
    const [event] = eventsOf(log);
    expect(event).toMatchObject({
      action: 'UPDATE',
      username: 'fw.admin@acme.example',
      commands:
        'access-list outside_access_in line 1 extended deny tcp host 198.51.100.7 object WEB-01 eq https',
    });
    expect(event?.diff).toContain(
      '\n+access-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https\n',
    );

    const removed = await api('DELETE', '/_sim/devices/asa-hq-01/access-list', {
      body: { acl: 'outside_access_in', line: 1 },
    });
    expect(obj(removed).command).toBe(
      'no access-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https',
    );
    const after = (await rulesOf(`entityUid:${hq}`)).filter((r) =>
      str(r.ruleConfigurationText).startsWith('access-list outside_access_in'),
    );
    expect(after.map((r) => r.index)).toEqual([2, 3, 4, 5]);
  });

  it('refuses bad access-list lines with a sentence', async () => {
    const add = (body: unknown) => api('POST', '/_sim/devices/asa-hq-01/access-list', { body });
    const unknown = await add({
      acl: 'outside_access_in',
      text: 'extended permit tcp any object NOPE eq 22',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('specified object (NOPE) does not exist');
    expect((await add({ acl: 'outside_access_in', text: 'conf t' })).status).toBe(400);
    expect((await add({ acl: 'outside_access_in', text: 'extended permit ip any any\nconf t' })).status).toBe(
      400,
    );
    expect(
      (await add({ acl: 'outside_access_in', line: 99, text: 'extended permit ip any any' })).status,
    ).toBe(400);
    expect((await add({ text: 'extended permit ip any any' })).status).toBe(400);
    expect(
      (await api('POST', '/_sim/devices/ftd-edge-01/access-list', { body: { acl: 'a', text: 'remark x' } }))
        .status,
    ).toBe(400);
    const missing = await api('DELETE', '/_sim/devices/asa-hq-01/access-list', {
      body: { acl: 'outside_access_in', line: 40 },
    });
    expect(missing.status).toBe(404);
  });
});
