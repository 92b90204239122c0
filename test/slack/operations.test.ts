// Every operation of the catalogue, end to end: a signed slash command (or form submission) into the real
// Bolt app, the simulator answering, and what the user or the channel sees. Reads answer privately;
// changes are announced in the channel and their 202s handed to the tracker; destructive operations go
// to the approval gate. A plain read no case names runs from its first example, and must answer with the
// view that example renders. The last test fails if an operation of the catalogue has no case here.

import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OpenIncident } from '../../src/alerts/model.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import type { AuditRecord } from '../../src/catalogue/operation.js';
import { TIMED_KINDS } from '../../src/catalogue/timed/index.js';
import { defaultAccessRequests } from '../../src/config/sections/access.js';
import { RedisDeviceHolds } from '../../src/jobs/deviceHolds.js';
import { RedisTimedWork, TimedStore } from '../../src/jobs/timed/store.js';
import { normalisePrefix, RedisKeys } from '../../src/redis/keys.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { COMMAND_ACTION } from '../../src/render/paging.js';
import { plainReads, runnableExample } from '../support/catalogueExamples.js';
import { driveClock } from '../support/driveClock.js';
import {
  memoryAccessRecords,
  memoryScheduled,
  memoryServices,
  memorySnapshots,
} from '../support/memoryServices.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import {
  blocksText,
  buttonsOf,
  CHANNEL,
  clickPayload,
  type Harness,
  newTriggerId,
  startHarness,
  USERS,
} from './support/harness.js';
import { type FieldValue, submissionPayload } from './support/modals.js';

/** What the audit trail holds for `/fw audit`. */
const AUDIT: AuditRecord[] = [
  {
    id: '1764150000000-0',
    at: '2026-11-26T10:00:00.000Z',
    actor: USERS.admin,
    action: 'approved',
    operationId: 'interfaces.delete',
    target: 'VLAN interface iot (Vlan20) on asa-hq-01',
    outcome: 'approved',
    approvalId: 'ap-0000000001',
  },
];

/** An open incident of the channel, for `/fw alerts` and the buttons' ack and mute. */
const INCIDENT: OpenIncident = {
  id: 'k3v9x2qa',
  channelId: CHANNEL,
  kind: 'connectivity',
  profile: 'default',
  subject: { type: 'device', uid: 'dev-uid-of-asa-branch-02', name: 'asa-branch-02' },
  headline: '*asa-branch-02* is UNREACHABLE',
  openedAt: '2026-11-26T10:00:00.000Z',
  flaps: 0,
};

const DAY_MS = 86_400_000;
/** Permanent access rules recertified every 90 days, as a profiles file may say. */
const POLICY = {
  accessRequests: {
    ...defaultAccessRequests,
    recertification: { everyMs: 90 * DAY_MS, graceMs: 7 * DAY_MS },
  },
};

describe('every operation through Slack', () => {
  let h: Harness;
  /** Configuration snapshots as the bot keeps them before a deploy (src/jobs/configSnapshots.ts). */
  const snapshots = memorySnapshots();
  /** A deploy held until its window, asked for by the operator (src/approvals/scheduled.ts keeps them). */
  const scheduled = memoryScheduled([
    {
      id: 'ap-0a1b2c3d4e',
      profile: 'default',
      operationId: 'deploy',
      what: 'deploy to asa-hq-01',
      commandText: '/fw deploy asa-hq-01',
      runAt: Date.parse('2026-11-28T22:00:00Z'),
      when: 'Sat 22:00 UTC, in 2 days, when the change window opens',
      reason: 'window',
      requester: USERS.operator,
      approvers: [USERS.admin],
    },
  ]);
  /** Device holds, in the run's Redis as the bot keeps them (src/jobs/deviceHolds.ts). */
  const redis = connectRedis();
  const keys = new RedisKeys(normalisePrefix(uniquePrefix('slack-ops')));
  const holds = new RedisDeviceHolds(redis, keys);
  /** Timed work, in the same Redis (src/jobs/timed/): what a shun's end is scheduled in. */
  const timed = new RedisTimedWork(
    new TimedStore(redis, keys, 86_400_000),
    new Map(TIMED_KINDS.map((kind) => [kind.kind, kind])),
    () => Date.now(),
  );
  const accessRecords = memoryAccessRecords();
  const services = {
    ...memoryServices(AUDIT, [INCIDENT]),
    snapshots,
    scheduled,
    holds,
    timed,
    accessRecords,
  };
  beforeAll(async () => {
    h = await startHarness({
      services,
      // Permanent rules recertified every 90 days: the recertification report answers (without it, it says
      // in one sentence that nothing is recertified here).
      operationPolicy: {
        accessRequests: {
          ...defaultAccessRequests,
          recertification: { everyMs: 90 * DAY_MS, graceMs: 7 * DAY_MS },
        },
      },
    });
  });
  afterAll(async () => {
    await h.stop();
    redis.disconnect();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
    h.tracker.follows.length = 0;
    h.gate.requests.length = 0;
  });

  /** Whether fwbot logged running `id` (so the text reached the operation meant). */
  function ran(id: string): boolean {
    return h.logs.some((line) => line.includes('"msg":"running"') && line.includes(`"operationId":"${id}"`));
  }

  /** Whether fwbot logged sending `id` for approval. */
  function asked(id: string): boolean {
    return h.logs.some(
      (line) => line.includes('"msg":"asking for approval"') && line.includes(`"operationId":"${id}"`),
    );
  }

  /** A read: the private answer's text. */
  async function read(id: string, text: string): Promise<string> {
    const { responseUrl } = await h.command(text, { userId: USERS.viewer });
    const reply = await h.reply(responseUrl);
    expect(reply.args.response_type).toBe('ephemeral');
    expect(ran(id)).toBe(true);
    return blocksText(reply.args);
  }

  /** A change: the announcement's text, once the tracker has what it follows. */
  async function change(id: string, text: string, follows = 1): Promise<string> {
    await h.command(text, { userId: USERS.operator });
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage' && c.status === 200, 10_000);
    await h.tracker.until(follows);
    expect(h.tracker.follows).toHaveLength(follows);
    expect(ran(id)).toBe(true);
    return blocksText(post.args);
  }

  /** A form: opened by the command, submitted with `values`, announced in the channel. */
  async function form(id: string, text: string, values: Record<string, FieldValue>): Promise<string> {
    const triggerId = newTriggerId();
    await h.command(text, { userId: USERS.operator, triggerId });
    const modal = await h.openedModal(triggerId);
    const http = await h.interact(submissionPayload(modal, USERS.operator, values));
    expect(http.body).toBe('');
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage', 10_000);
    expect(ran(id)).toBe(true);
    return blocksText(post.args);
  }

  /**
   * A governed operation: its target resolved, then handed to the approval gate with its raw arguments
   * bound to the target's UUIDs; nothing run.
   */
  async function destructive(id: string, text: string): Promise<Record<string, unknown>> {
    const { responseUrl } = await h.command(text, { userId: USERS.operator });
    await vi.waitFor(() => expect(h.gate.requests.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(h.gate.requests.map((r) => r.operation.id)).toEqual([id]);
    expect(
      h.slack
        .callsTo('response_url')
        .filter((c) => String(responseUrl).endsWith(String(c.args.responseUrlId))),
    ).toEqual([]);
    return h.gate.requests[0]?.raw ?? {};
  }

  function uidOf(device: string, hardwareName: string): string {
    const deviceUid = h.sim.deviceUid(device);
    const found = [...h.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === deviceUid && i.hardwareName === hardwareName,
    );
    if (!found) throw new Error(`no ${hardwareName} on ${device}`);
    return found.uid;
  }

  it('help', async () => {
    expect(await read('help', 'help tenants')).toContain('/fw tenants create');
  });

  it('devices', async () => {
    const text = await read('devices', 'devices asa');
    expect(text).toContain('asa-hq-01');
    expect(text).not.toContain('ftd-edge-01');
  });

  it('tenants list / show / users', async () => {
    expect(await read('tenants.list', 'tenants list contoso')).toContain('Contoso Europe');
    expect(await read('tenants.show', 'tenants show contoso-eu')).toContain(h.sim.tenantUid('contoso-eu'));
    expect(await read('tenants.users', 'tenants users contoso-eu')).toContain('super.admin@acme-msp.example');
    const apiUser = h.sim.state.tenants.get(h.sim.tenantUid('contoso-eu'))?.users.find((u) => u.apiOnly);
    expect(await read('tenants.users', 'tenants users contoso-eu --api-only')).toContain(
      String(apiUser?.uid),
    );
  });

  it('tenants create', async () => {
    const text = await change('tenants.create', 'tenants create acme-e2e --display-name "Acme E2E"');
    expect(text).toContain(`<@${USERS.operator}> asked to create tenant`);
    expect(h.tracker.follows[0]?.request).toMatchObject({
      kind: 'transaction',
      label: 'create tenant acme-e2e',
    });
  });

  it('tenants add (an associated tenant, by UUID)', async () => {
    const text = await change('tenants.add', `tenants add ${h.sim.tenantUid('stark-us')}`);
    expect(text).toContain(h.sim.tenantUid('stark-us'));
  });

  it('tenants remove (destructive)', async () => {
    expect(await destructive('tenants.remove', 'tenants remove hooli-uae')).toEqual({
      tenant: h.sim.tenantUid('hooli-uae'),
    });
  });

  it('tenants users add (form, then a second person approves)', async () => {
    const triggerId = newTriggerId();
    await h.command('tenants users add contoso-eu', { userId: USERS.operator, triggerId });
    const modal = await h.openedModal(triggerId);
    const values = {
      tenant: 'contoso-eu',
      username: 'new.person@contoso.example\nother.person@contoso.example',
      role: 'read-only',
      'api-only': false,
    };
    expect((await h.interact(submissionPayload(modal, USERS.operator, values))).body).toBe('');
    await vi.waitFor(() => expect(h.gate.requests.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(h.gate.requests[0]?.operation.id).toBe('tenants.users.add');
    expect(h.gate.requests[0]?.raw).toMatchObject({
      tenant: h.sim.tenantUid('contoso-eu'),
      role: 'ROLE_READ_ONLY',
    });
    expect(h.sim.requestLog.list({ operationId: 'addUsersToTenantInMspPortal' })).toHaveLength(0);
  });

  it('tenants users remove (destructive)', async () => {
    const raw = await destructive(
      'tenants.users.remove',
      'tenants users remove contoso-eu a@contoso.example b@contoso.example',
    );
    expect(raw).toEqual({
      tenant: h.sim.tenantUid('contoso-eu'),
      username: ['a@contoso.example', 'b@contoso.example'],
    });
  });

  it('tenants token (the API user by name; a second person approves, then a private Reveal button)', async () => {
    const user = h.sim.state.tenants.get(h.sim.tenantUid('contoso-eu'))?.users.find((u) => u.apiOnly);
    const raw = await destructive('tenants.token', `tenants token contoso-eu ${user?.username}`);
    expect(raw).toEqual({ tenant: h.sim.tenantUid('contoso-eu'), 'api-user': user?.uid });
    expect(h.gate.requests[0]?.target.description.fields).toContainEqual({
      label: 'API-only user',
      value: `${user?.username} (${user?.uid})`,
    });
    expect(h.sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
  });

  it('tenants mcd enable / cdfmc provision', async () => {
    expect(await change('tenants.mcd.enable', 'tenants mcd enable globex-apj')).toContain('globex-apj');
    h.slack.reset();
    h.tracker.follows.length = 0;
    expect(await change('tenants.cdfmc.provision', 'tenants cdfmc provision globex-apj')).toContain(
      'globex-apj',
    );
    expect(h.tracker.follows[0]?.request).toMatchObject({ kind: 'cdfmc', tenantName: 'globex-apj' });
  });

  it('interfaces list / show', async () => {
    expect(await read('interfaces', 'interfaces asa-hq-01 vlan')).toContain('Vlan10');
    expect(await read('interfaces.show', 'interfaces show asa-hq-01 inside')).toContain('10.1.0.1');
  });

  it('interfaces create etherchannel / subinterface / vlan (forms)', async () => {
    const members = [uidOf('asa-hq-01', 'GigabitEthernet1/6'), uidOf('asa-hq-01', 'GigabitEthernet1/7')];
    expect(
      await form('interfaces.create.etherchannel', 'interfaces create etherchannel asa-hq-01', {
        members,
        name: 'uplink2',
        'lacp-mode': 'active',
      }),
    ).toContain('asa-hq-01');
    h.slack.reset();
    expect(
      await form('interfaces.create.subinterface', 'interfaces create subinterface asa-hq-01', {
        parent: uidOf('asa-hq-01', 'GigabitEthernet1/2'),
        'subinterface-id': '300',
        vlan: '300',
        name: 'printers',
      }),
    ).toContain('asa-hq-01');
    h.slack.reset();
    expect(
      await form('interfaces.create.vlan', 'interfaces create vlan asa-hq-01', {
        'vlan-id': '40',
        name: 'cameras',
      }),
    ).toContain('asa-hq-01');
  });

  it('interfaces edit (form fitted to the interface)', async () => {
    const text = await form('interfaces.edit', 'interfaces edit asa-hq-01 dmz', {
      name: 'dmz',
      description: 'edited from Slack',
      mtu: '9000',
    });
    expect(text).toContain('dmz');
    expect(h.sim.requestLog.list({ operationId: 'modifyAsaPhysicalInterface' })).toHaveLength(1);
  });

  it('interfaces create / edit from the text: flags, and no form opened', async () => {
    const created = await change(
      'interfaces.create.vlan',
      'interfaces create vlan asa-hq-01 --vlan-id 41 --name lobby --ipv4 10.41.0.1/24 --security-level 30',
    );
    expect(created).toContain('lobby (Vlan41)');
    h.slack.reset();
    h.tracker.follows.length = 0;
    expect(await change('interfaces.edit', 'interfaces edit asa-hq-01 dmz --mtu 9000')).toContain('9000');
    expect(h.sim.requestLog.list({ operationId: 'modifyAsaPhysicalInterface' })).toHaveLength(1);
    expect(h.slack.calls.filter((c) => c.method === 'views.open')).toEqual([]);
  });

  it('interfaces delete (destructive)', async () => {
    expect(await destructive('interfaces.delete', 'interfaces delete asa-hq-01 guest')).toEqual({
      device: h.sim.deviceUid('asa-hq-01'),
      interface: uidOf('asa-hq-01', 'Vlan10'),
    });
  });

  /** Moves simulated time on while `work` waits for SCC (a calculation of pending commands). */
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work);

  async function stageDelete(device: string, hardwareName: string): Promise<void> {
    const scc = h.clients.get('default');
    await scc?.call('deleteAsaVlanInterface', {
      path: { deviceUid: h.sim.deviceUid(device), interfaceUid: uidOf(device, hardwareName) },
    });
  }

  it('changes / deploy / discard / deployments (staged changes reach the device)', async () => {
    await stageDelete('asa-hq-01', 'Vlan20');
    expect(await driving(read('changes', 'changes asa-hq-01'))).toContain('no interface Vlan20');

    const raw = await driving(destructive('deploy', 'deploy asa-hq-01'));
    expect(raw).toEqual({ device: [h.sim.deviceUid('asa-hq-01')], 'force-unsupported': false });
    h.gate.requests.length = 0;
    h.slack.reset();
    expect(await driving(destructive('discard', 'discard asa-hq-01'))).toEqual({
      device: h.sim.deviceUid('asa-hq-01'),
    });

    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    const { data: tx } = await scc.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [h.sim.deviceUid('asa-hq-01')] },
    });
    for (let i = 0; i < 30; i += 1) h.sim.clock.advance(5_000);
    h.slack.reset();
    expect(await read('deployments', 'deployments')).toContain('deploy completed');
    const { data: runs } = await scc.call('getDeviceDeploymentRuns', {
      query: { q: `transactionUid:"${tx.transactionUid}"` },
    });
    h.slack.reset();
    expect(await read('deployments.show', `deployments show ${runs.items?.[0]?.uid}`)).toContain(
      'Deployed to',
    );
  });

  it('changelog / audit-log (what SCC recorded)', async () => {
    await stageDelete('asa-hq-01', 'Vlan20');
    const logged = await read('changelog', 'changelog asa-hq-01 --since 1h');
    expect(logged).toContain('Change log of asa-hq-01 in the last 1h');
    expect(logged).toContain('no interface Vlan20');
    h.slack.reset();
    expect(await read('audit-log', 'audit-log super')).toContain('user logged in');
  });

  it('transactions cancel (a running deploy SCC marks cancellable: four-eyes)', async () => {
    await stageDelete('asa-hq-01', 'Vlan20');
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    const { data: tx } = await scc.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [h.sim.deviceUid('asa-hq-01')] },
    });
    const raw = await destructive('transactions.cancel', `transactions cancel ${tx.transactionUid}`);
    expect(raw).toEqual({ transaction: tx.transactionUid });
  });

  it('config history / config diff (snapshots of the running configuration)', async () => {
    await snapshots.keep('default', {
      deviceUid: h.sim.deviceUid('asa-hq-01'),
      device: 'asa-hq-01',
      at: Date.now(),
      phase: 'before-deploy',
      requestId: 'req-slack',
      actor: USERS.operator,
      text: 'hostname old-name\n',
    });
    expect(await read('config.history', 'config history asa-hq-01')).toContain('before deploy');
    h.slack.reset();
    expect(await read('config.diff', 'config diff asa-hq-01 1')).toContain('old-name');
  });

  it('deployments scheduled / deployments cancel (a held deploy, cancelled from its button)', async () => {
    const { responseUrl } = await h.command('deployments scheduled', { userId: USERS.viewer });
    const listed = await h.reply(responseUrl);
    expect(blocksText(listed.args)).toContain('deploy to asa-hq-01');
    expect(ran('deployments.scheduled')).toBe(true);
    const cancel = buttonsOf(listed.args).find((b) => b.actionId.startsWith(COMMAND_ACTION));
    expect(cancel?.value).toBe('deployments cancel ap-0a1b2c3d4e');
    if (!cancel) return;

    // Someone who neither asked nor approved: one sentence, and the deploy stays scheduled.
    const refused = h.slack.responseUrl();
    await h.interact(clickPayload(cancel, USERS.viewer, refused));
    expect(blocksText((await h.reply(refused)).args)).toContain(
      'Only its requester or approvers may cancel request ap-0a1b2c3d4e.',
    );
    expect(await scheduled.list('default')).toHaveLength(1);

    // The requester: the channel hears that the scheduled change will not happen.
    await h.interact(clickPayload(cancel, USERS.operator, h.slack.responseUrl()));
    const done = await h.slack.waitFor((c) => c.method === 'chat.postMessage', 10_000);
    expect(blocksText(done.args)).toContain('Cancelled the scheduled run of request `ap-0a1b2c3d4e`');
    expect(ran('deployments.cancel')).toBe(true);
    expect(await scheduled.list('default')).toEqual([]);
  });

  it('holds / holds release (a device held for a deploy; ending it early waits for approval)', async () => {
    const hq = h.sim.deviceUid('asa-hq-01');
    await holds.take(
      {
        profile: 'default',
        devices: [{ uid: hq, name: 'asa-hq-01' }],
        holder: { kind: 'deploy', id: 'ap-0a1b2c3d4e', requesterId: USERS.operator },
        reason: 'deploy to asa-hq-01',
        until: Date.now() + 3_600_000,
      },
      Date.now(),
    );
    try {
      expect(await read('holds', 'holds')).toContain('held by a deploy (request `ap-0a1b2c3d4e`');
      await h.command('holds release asa-hq-01 --reason "stuck since the SCC outage"', {
        userId: USERS.admin,
      });
      await vi.waitFor(() => expect(h.gate.requests.length).toBeGreaterThan(0), { timeout: 10_000 });
      expect(h.gate.requests.map((r) => r.operation.id)).toEqual(['holds.release']);
      expect(h.gate.requests[0]?.raw).toEqual({ device: hq, reason: 'stuck since the SCC outage' });
    } finally {
      await holds.release('ap-0a1b2c3d4e');
    }
  });

  it('change-requests / change-requests show (SCC’s change requests)', async () => {
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    await scc.governance.createChangeRequest({ name: 'CHG0000042', description: 'a new VLAN' });
    expect(await read('change-requests', 'change-requests')).toContain('CHG0000042');
    h.slack.reset();
    expect(await read('change-requests.show', 'change-requests show CHG0000042')).toContain(
      'ties no change to it yet',
    );
  });

  it('search / rules / rules show / objects / objects show (policy lookups)', async () => {
    expect(await read('search', 'search WEB-01')).toContain('object network WEB-01');
    h.slack.reset();
    const rules = await read('rules', 'rules asa-hq-01');
    expect(rules).toContain('shadowed by #2');
    expect(rules).toContain('duplicate of #1');
    h.slack.reset();
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    const { items } = await scc.lookups.accessRules({
      q: `entityUid:${h.sim.deviceUid('asa-hq-01')} AND ruleConfigurationText:*198.51.100.66*`,
    });
    const line = items?.[0]?.ruleConfigurationLineNumber;
    expect(await read('rules.show', `rules show asa-hq-01 ${line}`)).toContain('Shadowed by rule #2');
    h.slack.reset();
    expect(await read('objects', 'objects WEB')).toContain('WEB-01');
    h.slack.reset();
    expect(await read('objects.show', 'objects show WEB-01')).toContain('DMZ-SERVERS');
  });

  it('rules remove / rules disable (destructive: bound to the device and the rule by UUID)', async () => {
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    const hq = h.sim.deviceUid('asa-hq-01');
    const { items } = await scc.lookups.accessRules({
      q: `entityUid:${hq} AND ruleConfigurationLineNumber:130`,
    });
    const uid = items?.[0]?.uid;
    expect(await driving(destructive('rules.remove', 'rules remove asa-hq-01 130'))).toEqual({
      asa: hq,
      rule: uid,
    });
    h.gate.requests.length = 0;
    h.slack.reset();
    expect(await driving(destructive('rules.disable', `rules disable asa-hq-01 ${uid}`))).toEqual({
      asa: hq,
      rule: uid,
    });
    h.gate.requests.length = 0;
  });

  it('access revoke (destructive: bound to the record of a rule fwbot created)', async () => {
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    const hq = h.sim.deviceUid('asa-hq-01');
    const { items } = await scc.lookups.accessRules({
      q: `entityUid:${hq} AND ruleConfigurationLineNumber:130`,
    });
    const record = await services.accessRecords.add({
      profile: 'default',
      deviceUid: hq,
      deviceName: 'asa-hq-01',
      accessGroup: 'outside_access_in',
      ruleUid: items?.[0]?.uid ?? '',
      protocol: 'tcp',
      source: '198.51.100.66',
      destination: 'WEB-01',
      port: '443',
      requester: USERS.operator,
      reason: 'partner test',
      createdAt: Date.now(),
    });
    expect(await driving(destructive('access.revoke', `access revoke ${record.id}`))).toEqual({
      rule: record.id,
    });
    h.gate.requests.length = 0;
  });

  it('access extend (a second person approves the new expiry; bound to the record and the date)', async () => {
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    const hq = h.sim.deviceUid('asa-hq-01');
    const { items } = await scc.lookups.accessRules({
      q: `entityUid:${hq} AND ruleConfigurationLineNumber:130`,
    });
    const record = await services.accessRecords.add({
      profile: 'default',
      deviceUid: hq,
      deviceName: 'asa-hq-01',
      accessGroup: 'outside_access_in',
      ruleUid: items?.[0]?.uid ?? '',
      protocol: 'tcp',
      source: '198.51.100.67',
      destination: 'WEB-01',
      port: '443',
      requester: USERS.operator,
      reason: 'partner test',
      createdAt: Date.now(),
      expiresAt: Date.now() + 10 * 86_400_000,
    });
    expect(await driving(destructive('access.extend', `access extend ${record.id} 30d`))).toEqual({
      rule: record.id,
      until: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    h.gate.requests.length = 0;
  });

  it('access recertification and recertify (the report schedules the questions missing; the requester says a permanent rule is still needed, in the channel, audited)', async () => {
    const hq = h.sim.deviceUid('asa-hq-01');
    const record = await services.accessRecords.add({
      profile: 'default',
      deviceUid: hq,
      deviceName: 'asa-hq-01',
      accessGroup: 'outside_access_in',
      ruleUid: 'rule-recertified',
      protocol: 'tcp',
      source: '198.51.100.68',
      destination: 'WEB-01',
      port: '443',
      requester: USERS.operator,
      reason: 'partner portal',
      createdAt: Date.now() - 91 * DAY_MS,
    });
    // The report first: the rules recorded without a question waiting (these tests' records) get theirs,
    // said once.
    const report = await read('access.recertification', 'access recertification');
    expect(report).toMatch(/permanent rules? had no question waiting/);
    expect(report).toContain(`\`${record.id}\` tcp 198.51.100.68 → WEB-01 443 on asa-hq-01`);
    expect(await read('access.recertification', 'access recertification')).not.toContain(
      'no question waiting',
    );
    h.slack.reset();
    await h.command(`access recertify ${record.id}`, { userId: USERS.operator });
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage' && c.status === 200, 10_000);
    expect(blocksText(post.args)).toContain(`says access rule \`${record.id}\``);
    expect(ran('access.recertify')).toBe(true);
    expect((await services.accessRecords.get('default', record.id))?.lastCertifiedAt).toBeDefined();
  });

  it('access request (a second person approves, always; bound to what was asked, checked by packet-tracer first)', async () => {
    const raw = await driving(
      destructive(
        'access.request',
        'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync"',
      ),
    );
    expect(raw).toMatchObject({ asa: h.sim.deviceUid('asa-dc-03'), protocol: 'tcp', reason: 'partner sync' });
    // Nothing is staged before the approval: packet-tracer only.
    expect(h.sim.requestLog.list({ operationId: 'createAccessRule' })).toHaveLength(0);
    h.gate.requests.length = 0;
  });

  it('trace / show (the ASA command line)', async () => {
    const trace = await driving(
      read('trace', 'trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in outside'),
    );
    expect(trace).toContain('ALLOW on asa-hq-01');
    expect(trace).toContain('access-list outside_access_in extended permit tcp any object WEB-01 eq https');
    h.slack.reset();
    expect(await driving(read('show', 'show asa-hq-01 route 8.8.8.8'))).toContain('203.0.113.1, via outside');
  });

  it('reports', async () => {
    expect(await read('reports', 'reports intrusion')).toContain('intrusion-events-daily');
  });

  it('gateway commands / run / result', async () => {
    expect(await read('gateway.commands', 'gateway commands')).toContain(
      '/api/fmc_platform/v1/info/serverversion',
    );
    expect(await read('gateway.domain', 'gateway domain cdfmc-acme')).toContain(
      '/api/fmc_config/v1/domain/e276abec-e0f2-11e3-8169-6d9ed49b625f/',
    );
    // Synchronous: SCC waits for the device, which answers when simulated time moves on.
    const { responseUrl } = await h.command(
      'gateway run cdfmc-acme GET /api/fmc_platform/v1/info/serverversion',
      {
        userId: USERS.operator,
      },
    );
    await h.sim.untilParked(1);
    h.sim.clock.advance(60_000);
    const answered = await Promise.race([
      h.reply(responseUrl).then((c) => blocksText(c.args)),
      h.slack.waitFor((c) => c.method === 'chat.postMessage').then((c) => blocksText(c.args)),
    ]);
    expect(answered).toMatch(/serverVersion|7\.\d/);
    // Asynchronous: the request id is followed, and `gateway result` reads it.
    h.slack.reset();
    await change('gateway.run', 'gateway run cdfmc-acme GET /api/fmc_platform/v1/info/serverversion --async');
    const follow = h.tracker.follows[0]?.request;
    expect(follow?.kind).toBe('gateway');
    const requestId = follow?.kind === 'gateway' ? follow.requestId : '';
    h.sim.clock.advance(60_000);
    expect(await read('gateway.result', `gateway result ${requestId}`)).toMatch(/responded|serverVersion/i);
  });

  it('vpn packages / package / versions', async () => {
    expect(await read('vpn.packages', 'vpn packages ftd-edge-01')).toContain('5.1.8.105');
    const pkg = [...h.sim.state.packages.values()].find(
      (p) => p.deviceUid === h.sim.deviceUid('ftd-edge-01'),
    );
    expect(await read('vpn.package', `vpn package ftd-edge-01 ${pkg?.uid}`)).toContain(String(pkg?.uid));
    expect(await read('vpn.versions', 'vpn versions ftd-edge-01')).toContain('5.1.8.105');
  });

  it('vpn upgrade', async () => {
    const text = await change('vpn.upgrade', 'vpn upgrade ftd-edge-01 --version 5.1.15.287 --name e2e-run');
    expect(text).toContain('ftd-edge-01');
    expect(h.tracker.follows[0]?.request.kind).toBe('upgradeRun');
  });

  it('vpn runs / run / run-fields', async () => {
    expect(await read('vpn.runs', 'vpn runs')).toContain('quarterly-vpn-refresh');
    const run = [...h.sim.state.upgradeRuns.values()][0];
    expect(await read('vpn.run', `vpn run ${run?.uid}`)).toContain(String(run?.name));
    expect(await read('vpn.run-fields', 'vpn run-fields')).toMatch(/upgradeRunStatus|status/i);
  });

  it('vpn session / refresh / disconnect / disconnect-all', async () => {
    const eve = [...h.sim.state.raVpnSessions.values()].find((s) => s.username.startsWith('eve.'));
    expect(await read('vpn.session', `vpn session ${eve?.uid}`)).toContain('Lagos, Nigeria');
    expect(await change('vpn.refresh', 'vpn refresh asa-hq-01')).toContain('asa-hq-01');
    h.slack.reset();
    h.tracker.follows.length = 0;
    // The responder's fast path (response.disconnect_alone, on by default): the operator runs it alone,
    // one terminate per headend, each followed.
    const ended = await change('vpn.disconnect', `vpn disconnect ${eve?.username}`, 2);
    expect(ended).toContain('asa-hq-01');
    expect(h.gate.requests).toEqual([]);
    h.slack.reset();
    expect(await destructive('vpn.disconnect-all', 'vpn disconnect-all asa-hq-01')).toEqual({
      device: h.sim.deviceUid('asa-hq-01'),
    });
  });

  it('devices reconnect / accept-certificate', async () => {
    expect(await destructive('devices.reconnect', 'devices reconnect asa-hq-01')).toEqual({
      device: h.sim.deviceUid('asa-hq-01'),
    });
    h.gate.requests.length = 0;
    const hq = h.sim.state.devices.get(h.sim.deviceUid('asa-hq-01'));
    if (hq) hq.device.connectivityState = 'NEW_CERT_DETECTED';
    expect(await destructive('devices.accept-certificate', 'devices accept-certificate asa-hq-01')).toEqual({
      device: [h.sim.deviceUid('asa-hq-01')],
    });
  });

  it('msp devices / vpn packages / vpn versions (across tenants)', async () => {
    const devices = await read('msp.devices', 'msp devices managedTenantName:globex-apj');
    expect(devices).toContain('globex-asa-02');
    expect(devices).not.toContain('nw-asa-hq');
    h.slack.reset();
    expect(await read('msp.vpn.packages', 'msp vpn packages nw-asa-hq')).toContain(
      'cisco-secure-client-win-5.0.05040-webdeploy-k9.pkg',
    );
    h.slack.reset();
    expect(await driving(read('msp.vpn.versions', 'msp vpn versions nw-asa-hq globex-asa-01'))).toContain(
      '5.1.8.105',
    );
  });

  it('upgrades versions (across tenants, by model)', async () => {
    const text = await driving(
      read('upgrades.versions', 'upgrades versions nw-asa-hq globex-asa-01 nw-ftd-edge'),
    );
    expect(text).toContain('Cisco Firepower 1120 Threat Defense');
    expect(text).toContain('7.4.2 (suggested)');
  });

  it('upgrade (a second person approves, always; bound to the devices that passed their checks)', async () => {
    const raw = await driving(destructive('upgrade', 'upgrade asa-hq-01 --version 9.20(3) --stage-only'));
    expect(raw).toEqual({
      device: [h.sim.deviceUid('asa-hq-01')],
      version: '9.20.3',
      'stage-only': true,
      canary: false,
    });
    expect(h.sim.requestLog.list({ operationId: 'upgradeAsaDevice' })).toHaveLength(0);
  });

  it('msp vpn upgrade (a second person approves, by default)', async () => {
    const raw = await destructive(
      'msp.vpn.upgrade',
      'msp vpn upgrade nw-asa-hq globex-asa-01 --version 5.1.8.105 --name e2e-msp',
    );
    expect(raw).toEqual({
      device: [h.sim.deviceUid('nw-asa-hq'), h.sim.deviceUid('globex-asa-01')],
      version: '5.1.8.105',
      name: 'e2e-msp',
    });
    expect(h.sim.requestLog.list({ operationId: 'upgradeMspManagedAsaSecureClientPackages' })).toHaveLength(
      0,
    );
  });

  it('msp vpn runs / run / run-fields', async () => {
    expect(await read('msp.vpn.runs', 'msp vpn runs')).toContain('msp-apac-rollout');
    const { data } = (await h.clients.get('default')?.call('getMspSecureClientUpgradeRuns', {
      query: { q: 'name:msp-spring-refresh' },
    })) ?? { data: undefined };
    const uid = data?.items?.[0]?.uid;
    expect(await read('msp.vpn.run', `msp vpn run ${uid}`)).toContain('msp-spring-refresh');
    expect(await read('msp.vpn.run-fields', 'msp vpn run-fields')).toContain('DONE_WITH_DEVICE_ERRORS');
  });

  it('vpn watch / unwatch (a channel hears of every upgrade run that ends)', async () => {
    const said = (pattern: RegExp) =>
      h.slack.waitFor((c) => c.method === 'chat.postMessage' && pattern.test(blocksText(c.args)), 10_000);
    await h.command(`vpn watch <#${CHANNEL}|ops>`, { userId: USERS.operator });
    await said(/now hears about every VPN client upgrade run/);
    expect(ran('vpn.watch')).toBe(true);
    await h.command(`vpn unwatch <#${CHANNEL}|ops>`, { userId: USERS.operator });
    await said(/no longer hears about the upgrade runs/);
    expect(ran('vpn.unwatch')).toBe(true);
  });

  it('alerts: subscribe, list, ack, mute, unsubscribe (what the channel is told unasked)', async () => {
    const said = (pattern: RegExp) =>
      h.slack.waitFor((c) => c.method === 'chat.postMessage' && pattern.test(blocksText(c.args)), 10_000);
    await h.command('alerts subscribe connectivity conflict', { userId: USERS.operator });
    await said(/now hears about/);
    expect(await read('alerts', 'alerts')).toMatch(/sub001[\s\S]*k3v9x2qa/);
    await h.command('alerts ack k3v9x2qa', { userId: USERS.operator });
    await h.waitForLog('"operationId":"alerts.ack"');
    await h.command('alerts mute asa-branch-02 1h', { userId: USERS.operator });
    await said(/muted asa-branch-02/);
    await h.command('alerts unsubscribe sub001', { userId: USERS.operator });
    await said(/no longer hears about/);
    for (const id of ['alerts.subscribe', 'alerts.ack', 'alerts.mute', 'alerts.unsubscribe'])
      expect(ran(id)).toBe(true);
  });

  it('shun, shun list, unshun (a responder blocks an address for a while, within the fast path or asking)', {
    timeout: 120_000,
  }, async () => {
    // The command line runs on the simulator's clock: driven until the shun is told (or asked for).
    const told = (pattern: RegExp) =>
      driveClock(
        h.sim.clock,
        h.slack.waitFor((c) => pattern.test(blocksText(c.args)), 60_000),
      );
    await h.command('shun 203.0.113.66 --devices asa-hq-01 --for 1h --reason "scanning us"', {
      userId: USERS.operator,
    });
    await told(/203\.0\.113\.66/);
    expect(ran('shun')).toBe(true);
    // Announced in the channel, and its end handed that message's thread to speak in.
    const announced = [...h.slack.messages().values()].find((m) =>
      /shunned \*203\.0\.113\.66\*/.test(JSON.stringify(m)),
    );
    expect(announced?.ts).toEqual(expect.any(String));
    await expect
      .poll(() => h.tracker.placed.map(({ ref, thread }) => [ref.kind, ref.key, thread.threadTs]))
      .toEqual([['shun-expiry', `${h.sim.deviceUid('asa-hq-01')}:203.0.113.66`, announced?.ts]]);
    const { responseUrl } = await h.command('shun list', { userId: USERS.viewer });
    expect((await h.reply(responseUrl)).args.response_type).toBe('ephemeral');
    expect(ran('shun.list')).toBe(true);
    h.slack.reset();
    await h.command('unshun 203.0.113.66 --devices asa-hq-01', { userId: USERS.operator });
    await told(/203\.0\.113\.66/);
    expect(ran('unshun') || asked('unshun')).toBe(true);
  });

  it('audit (admins read the trail)', async () => {
    const { responseUrl } = await h.command('audit 5', { userId: USERS.admin });
    expect(blocksText((await h.reply(responseUrl)).args)).toContain('interfaces.delete');
    expect(ran('audit')).toBe(true);
  });

  it('answers every plain read no case above ran: privately, with the view its first example renders', async () => {
    const catalogue = createCatalogue();
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    for (const op of plainReads(catalogue).filter((read) => !ran(read.id))) {
      h.sim.reset();
      h.slack.reset();
      const example = runnableExample(catalogue, op);
      const { responseUrl } = await h.command(example, { userId: USERS.viewer });
      const reply = await h.reply(responseUrl);
      expect(reply.args.response_type, example).toBe('ephemeral');
      expect(ran(op.id), example).toBe(true);
      const context = {
        scc,
        profile: 'default',
        actor: { userId: USERS.viewer, channelId: CHANNEL },
        requestId: 'req-derived',
        log: pino({ level: 'silent' }),
        now: () => Date.now(),
        services,
        policy: POLICY,
      };
      const { view } = await op.execute(context, catalogue.parse(example).raw);
      expect(reply.args.blocks, example).toEqual(renderBlocks(view).blocks);
    }
  });

  it('covers every operation of the catalogue', () => {
    // What fwbot itself logged as run, sent for approval or offered for reveal: not a list kept by hand.
    const handled = new Set(
      h.logs
        .map((line) => JSON.parse(line) as { msg?: string; operationId?: string })
        .filter((line) =>
          ['running', 'asking for approval', 'offering to reveal a secret'].includes(line.msg ?? ''),
        )
        .map((line) => line.operationId),
    );
    const ids = createCatalogue().operations.map((op) => op.id);
    expect(ids.filter((id) => !handled.has(id))).toEqual([]);
  });
});
