// Access rule, access group and object changes through the simulator's HTTP API (scc-openapi-access.yaml):
// each is staged in SCC's copy (reads answer it, the device is NOT_SYNCED and refuses command-line runs),
// the calculation shows the ASA commands, and only a deploy puts them on the device, where packet-tracer
// sees them. Placement shifts later lines; objects in use are not deleted; the object APIs need object
// sharing and take network objects and groups only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PENDING_MS, CLI_RUNNING_MS } from '../../src/simulator/api/cli.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { items, obj, type RawResponse, simulator, str } from './support.js';

const ASAS = '/v1/inventory/devices/asas';
const RULES = '/v1/policies/asa/accessrules';
const GROUPS = '/v1/policies/asa/accessgroups';
// From the partner's network to DC-WEB's published address, on ssh: dropped today by line 2 (the partner deny).
const PARTNER_SSH = 'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.40 22';

describe('simulator: access rule and object changes', () => {
  let sim: SimulatorHandle;
  let api: Awaited<ReturnType<typeof simulator>>['api'];
  let dc: string;

  beforeEach(async () => {
    ({ sim, api } = await simulator());
    dc = sim.deviceUid('asa-dc-03');
  });
  afterEach(async () => {
    await sim.stop();
  });

  const rules = async (acl: string) =>
    items(await api('GET', RULES, { query: { q: `entityUid:${dc}`, limit: 200 } })).filter((r) =>
      str(r.ruleConfigurationText).startsWith(`access-list ${acl} `),
    );
  const group = async (name: string) => {
    const [found] = items(await api('GET', GROUPS, { query: { q: `name:${name} AND entityUid:${dc}` } }));
    return str(found?.uid);
  };
  const objectNamed = async (name: string) => {
    const [found] = items(await api('GET', '/v1/objects', { query: { q: `name:${name}` } }));
    return found ?? {};
  };
  const configState = async () => obj(await api('GET', `/v1/inventory/devices/${dc}`)).configState;
  const configs = async () => obj(await api('GET', `${ASAS}/${dc}/configs`));
  /** Runs one line on the device; the refusal (400) or the device's answer. */
  const cli = async (script: string): Promise<{ refused?: RawResponse; output?: string }> => {
    const started = await api('POST', `${ASAS}/cli/execute`, { body: { deviceUids: [dc], script } });
    if (started.status !== 202) return { refused: started };
    sim.clock.advance(CLI_PENDING_MS + CLI_RUNNING_MS);
    const [result] = items(await api('GET', str(obj(started).entityUrl).slice(sim.url.length)));
    return { output: str(result?.result) };
  };
  const action = (output: string | undefined) => /^Action: (\w+)$/m.exec(output ?? '')?.[1];
  const pendingCommands = async (): Promise<string[]> => {
    const tx = await api('POST', `${ASAS}/${dc}/changes/pending/commands`);
    expect(tx.status).toBe(202);
    sim.clock.advance(5_000);
    const answer = obj(await api('GET', `${ASAS}/${dc}/changes/pending/commands`));
    return answer.configCommands as string[];
  };
  const deploy = async () => {
    const tx = await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [dc] } });
    expect(tx.status).toBe(202);
    sim.clock.advance(120_000);
    const run = obj(await api('GET', `/v1/inventory/devices/deployments/runs/${str(obj(tx).entityUid)}`));
    expect(run.deploymentRunStatus).toBe('DEPLOY_COMPLETED');
  };
  const partnerSshRule = async (index: number) => {
    const partner = await objectNamed('PARTNER-NET');
    const web = await objectNamed('DC-WEB');
    return api('POST', RULES, {
      body: {
        accessGroupUid: await group('outside_access_in'),
        entityUid: dc,
        index,
        ruleAction: 'PERMIT',
        protocol: { name: 'tcp' },
        sourceNetwork: { name: 'PARTNER-NET', uid: partner.uid },
        destinationNetwork: { name: 'DC-WEB', uid: web.uid },
        destinationPort: { name: '22', elements: ['22'] },
        remark: 'CHG1: partner sftp, asked by alice',
      },
    });
  };

  it('creates a rule at an index: later lines shift, the remark takes the line above, nothing reaches the device before a deploy', async () => {
    expect(action((await cli(PARTNER_SSH)).output)).toBe('drop');
    const before = await rules('outside_access_in');
    expect(before.map((r) => r.index)).toEqual([1, 2, 3]);

    const created = await partnerSshRule(2);

    expect(created.status).toBe(201);
    expect(obj(created)).toMatchObject({
      index: 3,
      ruleAction: 'PERMIT',
      remark: 'CHG1: partner sftp, asked by alice',
      ruleConfigurationText:
        'access-list outside_access_in extended permit tcp object PARTNER-NET object DC-WEB eq ssh',
      sourceNetwork: { name: 'PARTNER-NET', type: 'NETWORK_OBJECT', elements: ['198.51.100.0/24'] },
    });
    const after = await rules('outside_access_in');
    expect(after.map((r) => [r.index, r.ruleAction])).toEqual([
      [1, 'PERMIT'],
      [3, 'PERMIT'],
      [4, 'DENY'],
      [5, 'DENY'],
    ]);
    // The deny that was line 2 is now line 4, with the same UID.
    expect(after[2]?.uid).toBe(before[1]?.uid);
    expect(await configState()).toBe('NOT_SYNCED');
    const { configOnDevice, configOnCloud } = await configs();
    expect(str(configOnCloud)).toContain('extended permit tcp object PARTNER-NET object DC-WEB eq ssh');
    expect(str(configOnDevice)).not.toContain('eq ssh');
  });

  it('refuses command-line runs (packet-tracer too) while the change is staged, and the deploy applies it', async () => {
    await partnerSshRule(2);

    const { refused } = await cli(PARTNER_SSH);
    expect(refused?.status).toBe(400);
    expect(obj(refused as RawResponse)).toMatchObject({ errorCode: 'INVALID_INPUT' });
    expect(await pendingCommands()).toEqual([
      'access-list outside_access_in line 2 remark CHG1: partner sftp, asked by alice',
      'access-list outside_access_in line 3 extended permit tcp object PARTNER-NET object DC-WEB eq ssh',
    ]);

    await deploy();

    expect(await configState()).toBe('SYNCED');
    const { output } = await cli(PARTNER_SSH);
    expect(action(output)).toBe('allow');
    expect(output).toContain(
      'access-list outside_access_in extended permit tcp object PARTNER-NET object DC-WEB eq ssh',
    );
  });

  it('carries a time-range (ruleTimeRange): the ASA commands define it, the rule matches until its end, then the deny', async () => {
    const end = sim.clock.now() + 2 * 86_400_000;
    const at = new Date(end);
    const month = at.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
    const absolute = `absolute end ${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')} ${at.getUTCDate()} ${month} ${at.getUTCFullYear()}`;
    const partner = await objectNamed('PARTNER-NET');
    const web = await objectNamed('DC-WEB');
    const body = async (ruleTimeRange: Record<string, unknown>) => ({
      body: {
        accessGroupUid: await group('outside_access_in'),
        entityUid: dc,
        index: 2,
        ruleAction: 'PERMIT',
        protocol: { name: 'tcp' },
        sourceNetwork: { name: 'PARTNER-NET', uid: partner.uid },
        destinationNetwork: { name: 'DC-WEB', uid: web.uid },
        destinationPort: { name: '22' },
        ruleTimeRange,
      },
    });
    // A periodic range, another type, a range the device does not have: refused as SCC would.
    for (const wrong of [
      { name: 'WORKDAYS', type: 'TIME_RANGE', elements: ['periodic weekdays 08:00 to 18:00'] },
      { name: 'X', type: 'NETWORK_OBJECT', elements: [absolute] },
      { name: 'NO-SUCH-RANGE', type: 'TIME_RANGE' },
    ]) {
      const refused = await api('POST', RULES, await body(wrong));
      expect(refused.status, JSON.stringify(wrong)).toBe(400);
    }

    const created = await api(
      'POST',
      RULES,
      await body({ name: 'UNTIL-END', type: 'TIME_RANGE', elements: [absolute] }),
    );
    expect(created.status).toBe(201);
    expect(obj(created)).toMatchObject({
      ruleConfigurationText:
        'access-list outside_access_in extended permit tcp object PARTNER-NET object DC-WEB eq ssh time-range UNTIL-END',
      ruleTimeRange: { name: 'UNTIL-END', type: 'TIME_RANGE', elements: [absolute] },
    });
    expect(await pendingCommands()).toEqual([
      'time-range UNTIL-END',
      ` ${absolute}`,
      'access-list outside_access_in line 2 extended permit tcp object PARTNER-NET object DC-WEB eq ssh time-range UNTIL-END',
    ]);
    await deploy();
    expect(str((await configs()).configOnDevice)).toContain(`time-range UNTIL-END\n ${absolute}`);
    const during = (await cli(PARTNER_SSH)).output;
    expect(action(during)).toBe('allow');
    expect(during).toContain('eq ssh time-range UNTIL-END');

    // Past its end the rule no longer matches: the partner deny decides again.
    sim.clock.advance(end - sim.clock.now());
    const after = (await cli(PARTNER_SSH)).output;
    expect(action(after)).toBe('drop');
    expect(after).toContain('deny ip object PARTNER-NET any');

    // Deleting the rule takes its time-range with it.
    expect((await api('DELETE', `${RULES}/${str(obj(created).uid)}`)).status).toBe(204);
    expect(await pendingCommands()).toEqual([
      'no access-list outside_access_in extended permit tcp object PARTNER-NET object DC-WEB eq ssh time-range UNTIL-END',
      'no time-range UNTIL-END',
    ]);
  });

  it('a rule appended under the partner deny is shadowed: the deploy applies it and the trace still drops', async () => {
    const created = await partnerSshRule(4);
    expect(obj(created).index).toBe(5);
    const shadowed = (await rules('outside_access_in')).find((r) => r.index === 5);
    expect(shadowed?.issues).toMatchObject([{ issueType: 'SHADOWED' }]);
    const issues = (shadowed?.issues ?? []) as { causes: { causingRuleIdx: number }[] }[];
    const causes = issues[0]?.causes ?? [];
    expect(causes.map((c) => c.causingRuleIdx)).toEqual([2, 3]);
    await deploy();
    expect(action((await cli(PARTNER_SSH)).output)).toBe('drop');
  });

  it('disables a rule (isActiveRule false) keeping its UID, and deletes one with its remark', async () => {
    const [https] = await rules('outside_access_in');
    const disabled = await api('PATCH', `${RULES}/${str(https?.uid)}`, {
      body: { uid: https?.uid, isActiveRule: false },
    });
    expect(disabled.status).toBe(200);
    expect(obj(disabled)).toMatchObject({ uid: https?.uid, index: 1, isActiveRule: false });
    expect(str(obj(disabled).ruleConfigurationText)).toMatch(/ eq https inactive$/);
    expect(await pendingCommands()).toEqual([
      'no access-list outside_access_in extended permit tcp any object DC-WEB eq https',
      'access-list outside_access_in line 1 extended permit tcp any object DC-WEB eq https inactive',
    ]);
    expect(obj(await api('GET', `${RULES}/${str(https?.uid)}`)).isActiveRule).toBe(false);

    const created = obj(await partnerSshRule(2));
    expect((await api('DELETE', `${RULES}/${str(created.uid)}`)).status).toBe(204);
    expect((await rules('outside_access_in')).map((r) => r.index)).toEqual([1, 2, 3]);
    expect((await api('GET', `${RULES}/${str(created.uid)}`)).status).toBe(404);
    expect((await api('DELETE', `${RULES}/${str(created.uid)}`)).status).toBe(404);
  });

  it('records the staged change in the change log, and read configuration throws it away', async () => {
    await partnerSshRule(2);
    const [log] = items(await api('GET', '/v1/changelogs', { query: { q: `entityUid:${dc}` } }));
    const events = (log?.events ?? []) as Record<string, unknown>[];
    expect(log?.status).toBe('ACTIVE');
    expect(events.at(-1)).toMatchObject({ action: 'CREATE' });
    expect(str(events.at(-1)?.commands)).toContain(
      'access-list outside_access_in line 3 extended permit tcp object PARTNER-NET object DC-WEB eq ssh',
    );

    const read = await api('POST', `${ASAS}/${dc}/read`);
    expect(read.status).toBe(202);
    sim.clock.advance(10_000);

    expect(await configState()).toBe('SYNCED');
    expect((await rules('outside_access_in')).map((r) => r.index)).toEqual([1, 2, 3]);
    expect(action((await cli(PARTNER_SSH)).output)).toBe('drop');
  });

  it("an access-list line added in SCC's UI is deployed at once, and leaves an API change staged", async () => {
    await partnerSshRule(2);
    const ui = await api('POST', `/_sim/devices/${dc}/access-list`, {
      body: { text: 'access-list outside_access_in line 1 extended permit icmp any any echo-reply' },
    });
    expect(ui.status).toBe(200);
    const { configOnDevice, configOnCloud } = await configs();
    expect(str(configOnDevice)).toContain('outside_access_in extended permit icmp any any echo-reply');
    expect(str(configOnCloud)).toContain('outside_access_in extended permit icmp any any echo-reply');
    expect(await configState()).toBe('NOT_SYNCED');
    expect(await pendingCommands()).toEqual([
      'access-list outside_access_in line 3 remark CHG1: partner sftp, asked by alice',
      'access-list outside_access_in line 4 extended permit tcp object PARTNER-NET object DC-WEB eq ssh',
    ]);
  });

  it('moves a rule with its remark to the index asked for, keeping its UID', async () => {
    const created = obj(await partnerSshRule(4));
    const moved = await api('PATCH', `${RULES}/${str(created.uid)}`, {
      body: { uid: created.uid, index: 1 },
    });
    expect(obj(moved)).toMatchObject({
      uid: created.uid,
      index: 2,
      remark: 'CHG1: partner sftp, asked by alice',
    });
    const texts = (await rules('outside_access_in')).map((r) => [r.index, r.ruleConfigurationText]);
    expect(texts).toEqual([
      [2, 'access-list outside_access_in extended permit tcp object PARTNER-NET object DC-WEB eq ssh'],
      [3, 'access-list outside_access_in extended permit tcp any object DC-WEB eq https'],
      [4, 'access-list outside_access_in extended deny ip object PARTNER-NET any log'],
      [5, 'access-list outside_access_in extended deny ip any any log'],
    ]);
    await deploy();
    expect(action((await cli(PARTNER_SSH)).output)).toBe('allow');
  });

  it('refuses a rule the device would refuse: an unknown object, an index past the end, a group of another device', async () => {
    const outside = await group('outside_access_in');
    const base = { accessGroupUid: outside, entityUid: dc, ruleAction: 'PERMIT', protocol: { name: 'tcp' } };
    const unknown = await api('POST', RULES, {
      body: { ...base, index: 1, sourceNetwork: { name: 'NO-SUCH' }, destinationNetwork: { name: 'any' } },
    });
    expect(unknown.status).toBe(400);
    expect(str(obj(unknown).errorMsg)).toContain('NO-SUCH');
    const past = await api('POST', RULES, { body: { ...base, index: 9 } });
    expect(past.status).toBe(400);
    const other = await api('POST', RULES, {
      body: { ...base, index: 1, entityUid: sim.deviceUid('asa-hq-01') },
    });
    expect(other.status).toBe(400);
    const readOnly = await api('POST', RULES, { body: { ...base, index: 1 }, token: 'sim-read-only' });
    expect(readOnly.status).toBe(403);
    expect(await configState()).toBe('SYNCED');
  });

  it('creates, renames and deletes an access group bound to an interface', async () => {
    const created = await api('POST', GROUPS, {
      body: {
        entityUid: dc,
        name: 'storage_access_in',
        resources: [{ interface: { interfaceName: 'storage', direction: 'INBOUND' } }],
      },
    });
    expect(created.status).toBe(200);
    const uid = str(obj(created).uid);
    expect(obj(created).resources).toEqual([
      { interface: { interfaceName: 'storage', direction: 'INBOUND' } },
    ]);
    const rule = await api('POST', RULES, {
      body: { accessGroupUid: uid, entityUid: dc, index: 1, ruleAction: 'DENY', protocol: { name: 'ip' } },
    });
    expect(obj(rule).ruleConfigurationText).toBe('access-list storage_access_in extended deny ip any any');
    const renamed = await api('PATCH', `${GROUPS}/${uid}`, { body: { name: 'storage_in' } });
    expect(obj(renamed)).toMatchObject({ uid, name: 'storage_in' });
    const taken = await api('POST', GROUPS, {
      body: {
        entityUid: dc,
        name: 'again',
        resources: [{ interface: { interfaceName: 'storage', direction: 'INBOUND' } }],
      },
    });
    expect(taken.status).toBe(400);
    const nowhere = await api('POST', GROUPS, {
      body: {
        entityUid: dc,
        name: 'x_in',
        resources: [{ interface: { interfaceName: 'nowhere', direction: 'INBOUND' } }],
      },
    });
    expect(nowhere.status).toBe(400);
    expect(await pendingCommands()).toEqual([
      'access-list storage_in extended deny ip any any',
      'access-group storage_in in interface storage',
    ]);
    expect((await api('DELETE', `${GROUPS}/${uid}`)).status).toBe(204);
    expect(await configState()).toBe('SYNCED');
    expect((await api('PATCH', `${GROUPS}/${uid}`, { body: { name: 'y' } })).status).toBe(404);
  });

  it('objects: created on a target (staged), reused by UID, not deleted while a rule uses it', async () => {
    const created = await api('POST', '/v1/objects', {
      body: {
        name: 'VENDOR-HOST',
        value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '192.0.2.15' } },
        targetIds: [dc],
      },
    });
    expect(created.status).toBe(201);
    const vendor = obj(created);
    expect(vendor).toMatchObject({ name: 'VENDOR-HOST', elements: ['192.0.2.15'], targets: [{ id: dc }] });
    expect(await configState()).toBe('NOT_SYNCED');
    expect(await pendingCommands()).toEqual(['object network VENDOR-HOST', ' host 192.0.2.15']);

    const rule = await api('POST', RULES, {
      body: {
        accessGroupUid: await group('outside_access_in'),
        entityUid: dc,
        index: 1,
        protocol: { name: 'tcp' },
        sourceNetwork: { name: 'VENDOR-HOST', uid: vendor.uid },
        destinationNetwork: { elements: ['172.20.40.10'] },
        destinationPort: { elements: ['8000-8080'] },
      },
    });
    expect(obj(rule).ruleConfigurationText).toBe(
      'access-list outside_access_in extended permit tcp object VENDOR-HOST host 172.20.40.10 range 8000 8080',
    );
    const inUse = await api('DELETE', `/v1/objects/${str(vendor.uid)}`);
    expect(inUse.status).toBe(400);
    expect(str(obj(inUse).errorMsg)).toContain('is in use');
    const forced = await api('DELETE', `/v1/objects/${str(vendor.uid)}`, { query: { forcedDelete: 'true' } });
    expect(forced.status).toBe(400);

    const modified = await api('PATCH', `/v1/objects/${str(vendor.uid)}`, {
      body: { value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '192.0.2.16' } } },
    });
    expect(obj(modified)).toMatchObject({ uid: vendor.uid, elements: ['192.0.2.16'] });

    expect((await api('DELETE', `${RULES}/${str(obj(rule).uid)}`)).status).toBe(204);
    expect((await api('DELETE', `/v1/objects/${str(vendor.uid)}`)).status).toBe(204);
    expect(await configState()).toBe('SYNCED');
  });

  it('forcedDelete takes an object out of the groups holding it', async () => {
    const member = obj(
      await api('POST', '/v1/objects', {
        body: {
          name: 'LAB-A',
          value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '10.60.0.0/24' } },
          targetIds: [dc],
        },
      }),
    );
    const groupAnswer = await api('POST', '/v1/objects', {
      body: {
        name: 'LABS',
        value: { objectType: 'NETWORK_GROUP', defaultContent: { referencedObjectUids: [member.uid] } },
        targetIds: [dc],
      },
    });
    expect(obj(groupAnswer)).toMatchObject({
      elements: ['10.60.0.0/24'],
      value: { objectType: 'NETWORK_GROUP' },
    });
    expect((await api('DELETE', `/v1/objects/${str(member.uid)}`)).status).toBe(400);
    expect(
      (await api('DELETE', `/v1/objects/${str(member.uid)}`, { query: { forcedDelete: 'true' } })).status,
    ).toBe(204);
    expect(str((await configs()).configOnCloud)).not.toContain('LAB-A');
  });

  it('finds duplicates on a target, lists targets, adds one, and counts issues', async () => {
    const copy = obj(
      await api('POST', '/v1/objects', {
        body: {
          name: 'PARTNERS',
          value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '198.51.100.0/24' } },
          targetIds: [dc],
        },
      }),
    );
    const partner = await objectNamed('PARTNER-NET');
    const duplicates = await api('GET', `/v1/objects/${str(copy.uid)}/duplicates`, {
      query: { targetUid: dc },
    });
    expect(duplicates.body).toEqual([{ targetUid: dc, unifiedObjectUids: [partner.uid] }]);
    const targets = items(
      await api('GET', `/v1/objects/${str(copy.uid)}/targets`, { query: { q: 'targetType:ASA' } }),
    );
    expect(targets).toEqual([{ uid: dc, name: 'asa-dc-03' }]);
    const hq = sim.deviceUid('asa-hq-01');
    expect(
      (await api('POST', `/v1/objects/${str(copy.uid)}/targets`, { body: { targetsUuids: [hq] } })).status,
    ).toBe(200);
    expect(obj(await api('GET', `/v1/objects/${str(copy.uid)}`)).targets).toHaveLength(2);
    expect(obj(await api('GET', `/v1/inventory/devices/${hq}`)).configState).toBe('NOT_SYNCED');

    const unassociated = obj(
      await api('POST', '/v1/objects', {
        body: {
          name: 'SPARE',
          value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '192.0.2.99' } },
        },
      }),
    );
    expect(unassociated.targets).toEqual([]);
    const spares = await api('POST', '/v1/objects', {
      body: {
        name: 'SPARES',
        value: { objectType: 'NETWORK_GROUP', defaultContent: { referencedObjectUids: [unassociated.uid] } },
      },
    });
    expect(obj(spares)).toMatchObject({ targets: [], elements: ['192.0.2.99'] });
    const counts = obj(await api('GET', '/v1/objects/issues-count'));
    expect(counts).toMatchObject({ unAssociated: 2, duplicates: 2 });
    expect(Number(counts.totalObjects)).toBeGreaterThan(10);
    expect(obj(await api('GET', '/v1/objects/issues-count', { query: { q: 'name:SPARE' } }))).toEqual({
      totalObjects: 1,
      duplicates: 0,
      unAssociated: 1,
      unUseds: 0,
    });
  });

  it('takes network objects and groups only, and only while object sharing is on', async () => {
    const service = await api('POST', '/v1/objects', {
      body: { name: 'SSH', value: { objectType: 'SERVICE_OBJECT', defaultContent: { protocol: 'TCP' } } },
    });
    expect(service.status).toBe(400);
    expect(str(obj(service).errorMsg)).toContain('network objects and groups only');

    await api('POST', '/_sim/tenants/acme-msp/settings', { body: { objectSharingEnabled: false } });
    expect(obj(await api('GET', '/v1/settings/tenant')).objectSharingEnabled).toBe(false);
    const off = await api('POST', '/v1/objects', {
      body: { name: 'X', value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '192.0.2.1' } } },
    });
    expect(off.status).toBe(403);
    expect(str(obj(off).errorMsg)).toContain('Object sharing is not enabled');
    expect((await api('GET', '/v1/objects/issues-count')).status).toBe(403);
  });
});
