// `/fw access list`: the access rules fwbot created, read from their records in a real Redis (src/access/
// records.ts), narrowed to a device, to the asker's own, to those that expire soon; its view as the
// golden holds it, on a fixed clock.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessRecords, type NewAccessRecord } from '../../src/access/records.js';
import { findRuleLine, hitsOf, parseShowAccessList } from '../../src/catalogue/asaAccessListOutput.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { CLI_PENDING_MS, CLI_RUNNING_MS } from '../../src/simulator/api/cli.js';
import { call, items, obj, str } from '../simulator/support.js';
import { driveClock } from '../support/driveClock.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 7, 12, 0);

function rule(overrides: Partial<NewAccessRecord>): NewAccessRecord {
  return {
    profile: 'default',
    deviceUid: 'dev-hq',
    deviceName: 'asa-hq-01',
    accessGroup: 'outside_access_in',
    ruleUid: 'rule-1',
    protocol: 'tcp',
    source: '198.51.100.7',
    destination: 'web-servers',
    port: '443',
    requester: 'U0ALICE0001',
    ticket: 'CHG0042',
    reason: 'partner portal',
    createdAt: NOW - 10 * DAY,
    ...overrides,
  };
}

describe('access list', () => {
  const op = catalogue.get('access.list');
  if (!op) throw new Error('no access.list operation');
  let redis: Redis;
  let records: AccessRecords;
  beforeAll(async () => {
    redis = connectRedis();
    records = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-list-op')));
    const actor = h.context().actor.userId;
    await records.add(rule({ expiresAt: NOW + 2 * DAY, requester: actor }));
    await records.add(
      rule({
        ruleUid: 'rule-2',
        deviceUid: 'dev-br',
        deviceName: 'asa-branch-02',
        accessGroup: 'inside_access_in',
        protocol: 'udp',
        source: '10.1.0.0/24',
        destination: '10.9.9.9',
        port: '514',
        ticket: undefined,
        reason: 'syslog to the *new* collector',
        createdAt: NOW - 40 * DAY,
      }),
    );
    await records.add(rule({ ruleUid: 'rule-3', expiresAt: NOW + 30 * DAY, createdAt: NOW - DAY }));
    await records.add(rule({ profile: 'acme', ruleUid: 'rule-elsewhere' }));
  });
  afterAll(async () => {
    await redis.quit();
  });

  const list = (raw: Record<string, string | boolean>) =>
    op.execute({ ...h.context(), now: () => NOW, services: { accessRecords: records } }, raw);

  it('lists the profile’s rules oldest first: device, rule, requester, ticket, reason, created, expires', async () => {
    const outcome = await list({});
    h.golden('access-list', outcome);
    expect(outcome.view.summary).toBe('*3 access rules* fwbot created:');
  });

  it('narrows to a device, to the asker’s own, and to those that expire within 7 days', async () => {
    const ids = async (raw: Record<string, string | boolean>) => {
      const text = (await list(raw)).view.blocks.map((b) => ('text' in b ? b.text : '')).join('\n');
      return [...text.matchAll(/^• `(\d+)`/gm)].map((m) => m[1]);
    };
    expect(await ids({ device: 'ASA-BRANCH-02' })).toEqual(['2']);
    expect(await ids({ device: 'dev-hq' })).toEqual(['1', '3']);
    expect(await ids({ mine: true })).toEqual(['1']);
    expect(await ids({ expiring: true })).toEqual(['1']);
    expect(await ids({ device: 'asa-hq-01', expiring: true, mine: true })).toEqual(['1']);
  });

  it('says so when nothing is left, naming what it was narrowed to', async () => {
    const outcome = await list({ device: 'asa-branch-02', expiring: true });
    expect(outcome.view.summary).toBe(
      'fwbot created no access rule here that is still in place (on asa-branch-02, expiring within 7 days).',
    );
  });

  it('cannot run without the records', async () => {
    await expect(op.execute({ ...h.context(), now: () => NOW }, {})).rejects.toThrow(
      /cannot read the access rules it created/,
    );
  });
});

describe('access revoke', () => {
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('removes a rule fwbot created by rules remove’s path, bound to its record, and drops the record', async () => {
    const records = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-revoke')));
    const ctx = { ...h.context(), services: { accessRecords: records } };
    // The rule at line 130 of asa-hq-01 stands for one fwbot created.
    const { raw: found } = catalogue.parse('rules remove asa-hq-01 130');
    const target = await driving(
      catalogue.get('rules.remove')?.target?.resolve(h.context(), found) ?? Promise.reject(),
    );
    const created = await records.add(
      rule({ deviceUid: String(target.raw.asa), ruleUid: String(target.raw.rule) }),
    );

    const { op, raw } = catalogue.parse(`access revoke ${created.id}`);
    expect(op.id).toBe('access.revoke');
    const resolved = await driving(op.target?.resolve(ctx, raw) ?? Promise.reject());
    expect(resolved.raw).toEqual({ rule: created.id });
    const card = op.target?.describe(resolved.facts, Date.now());
    expect(card?.action).toBe(
      'remove the access rule at line 130 (#4 of `outside_access_in`) on `asa-hq-01`',
    );
    expect(h.sim.requestLog.list({ operationId: 'deleteAccessRule' })).toHaveLength(0);

    const outcome = await driving(op.execute(ctx, resolved.raw, resolved.facts));
    h.golden('access.revoke', outcome);
    expect(h.sim.requestLog.list({ operationId: 'deleteAccessRule' })).toHaveLength(1);
    expect(await records.get('default', created.id)).toBeUndefined();
    await expect(driving(op.target?.resolve(ctx, raw) ?? Promise.reject())).rejects.toThrow(
      /fwbot created no access rule 1 in this profile that is still in place/,
    );
  });
});

describe('access extend', () => {
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('moves the expiry of a rule without a time-range, and finishes an extension a crash interrupted', async () => {
    const records = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-extend')));
    // On a fixed clock: the golden says the dates.
    const ctx = { ...h.context(), now: () => NOW, services: { accessRecords: records } };
    const { raw: found } = catalogue.parse('rules remove asa-hq-01 130');
    const target = await driving(
      catalogue.get('rules.remove')?.target?.resolve(h.context(), found) ?? Promise.reject(),
    );
    const expiresAt = NOW + 10 * DAY;
    const created = await records.add(
      rule({ deviceUid: String(target.raw.asa), ruleUid: String(target.raw.rule), expiresAt }),
    );

    const { op, raw } = catalogue.parse(`access extend ${created.id} 30d`);
    expect(op.id).toBe('access.extend');
    const resolved = await driving(op.target?.resolve(ctx, raw) ?? Promise.reject());
    const outcome = await driving(op.execute(ctx, resolved.raw, resolved.facts));
    h.golden('access.extend', outcome);
    const later = expiresAt + 30 * DAY;
    expect((await records.get('default', created.id))?.expiresAt).toBe(later);
    expect(h.sim.requestLog.list({ operationId: 'modifyAccessRule' })).toHaveLength(0);

    // A crash before the record was written: the interrupted call is finished, nothing sent to SCC.
    await records.update('default', created.id, { expiresAt });
    const again = await driving(op.target?.resolve(ctx, raw) ?? Promise.reject());
    const finished = await op.target?.interrupted?.(ctx, again.facts);
    expect(finished?.view.summary).toContain(`access rule ${created.id} on asa-hq-01 now expires`);
    expect((await records.get('default', created.id))?.expiresAt).toBe(later);
    expect(h.sim.requestLog.list({ operationId: 'modifyAccessRule' })).toHaveLength(0);
  });
});

describe('access list --hits', () => {
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });
  const api = (method: string, path: string, options = {}) => call(h.sim.url, method, path, options);
  const ASAS = '/v1/inventory/devices/asas';
  const TELNET = 'packet-tracer input inside tcp 10.1.5.5 40000 8.8.8.8 23';
  const DENY_TELNET = 'access-list inside_access_in extended deny tcp any any eq telnet';
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  const rulesOf = async (device: string) =>
    items(
      await api('GET', '/v1/policies/asa/accessrules', {
        query: { q: `entityUid:${h.sim.deviceUid(device)}`, limit: 200 },
      }),
    );
  const ruleNamed = async (device: string, text: string) => {
    const found = (await rulesOf(device)).find((r) => str(r.ruleConfigurationText) === text);
    if (!found) throw new Error(`no rule ${text}`);
    return str(found.uid);
  };
  /** The device's own answer to a line, read directly from the simulator. */
  const onDevice = async (device: string, script: string) => {
    const started = await api('POST', `${ASAS}/cli/execute`, {
      body: { deviceUids: [h.sim.deviceUid(device)], script },
    });
    expect(started.status).toBe(202);
    h.sim.clock.advance(CLI_PENDING_MS + CLI_RUNNING_MS);
    const [result] = items(await api('GET', str(obj(started).entityUrl).slice(h.sim.url.length)));
    return str(result?.result);
  };
  const deploy = async (device: string) => {
    const tx = await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [h.sim.deviceUid(device)] } });
    expect(tx.status).toBe(202);
    h.sim.clock.advance(120_000);
  };

  it('adds the count each device reports, marks 0 hits for removal, and says why a count is unknown', async () => {
    const records = new AccessRecords(redis, new RedisKeys(uniquePrefix('access-hits')));
    const ctx = { ...h.context(), now: () => NOW, services: { accessRecords: records } };
    const hq = { deviceUid: h.sim.deviceUid('asa-hq-01'), deviceName: 'asa-hq-01' };
    // A rule made inactive and deployed is a new line to the device: it starts at 0 hits.
    const idleText = 'access-list inside_access_in extended permit ip 10.1.100.0 255.255.255.0 any';
    const idleUid = await ruleNamed('asa-hq-01', idleText);
    expect(
      (
        await api('PATCH', `/v1/policies/asa/accessrules/${idleUid}`, {
          body: { uid: idleUid, isActiveRule: false },
        })
      ).status,
    ).toBeLessThan(300);
    await deploy('asa-hq-01');
    await onDevice('asa-hq-01', TELNET);
    await onDevice('asa-hq-01', TELNET);

    const telnet = await records.add(
      rule({ ...hq, accessGroup: 'inside_access_in', ruleUid: await ruleNamed('asa-hq-01', DENY_TELNET) }),
    );
    const idle = await records.add(rule({ ...hq, accessGroup: 'inside_access_in', ruleUid: idleUid }));
    const gone = await records.add(
      rule({ ...hq, accessGroup: 'inside_access_in', ruleUid: '00000000-0000-4000-8000-00000000dead' }),
    );
    const unsendable = await records.add(rule({ ...hq, accessGroup: 'inside_access_in;reload' }));
    // asa-dc-03 with a change staged and not deployed: SCC refuses command-line runs there.
    const [dcRule] = await rulesOf('asa-dc-03');
    const dc = await records.add(
      rule({
        deviceUid: h.sim.deviceUid('asa-dc-03'),
        deviceName: 'asa-dc-03',
        ruleUid: str(dcRule?.uid),
      }),
    );
    expect(
      (
        await api('PATCH', `/v1/policies/asa/accessrules/${str(dcRule?.uid)}`, {
          body: { uid: str(dcRule?.uid), remark: 'staged, not deployed' },
        })
      ).status,
    ).toBeLessThan(300);

    const expected = hitsOf(
      findRuleLine(parseShowAccessList(await onDevice('asa-hq-01', 'show access-list inside_access_in')), {
        index: 0,
        text: DENY_TELNET,
      }) ?? fail(),
    );
    expect(expected).toBeGreaterThanOrEqual(2);
    const before = h.sim.requestLog.list({ operationId: 'executeCliCommand' }).length;

    const op = catalogue.get('access.list');
    const { raw } = catalogue.parse('access list --hits');
    const outcome = await driving(op?.execute(ctx, raw) ?? Promise.reject());
    const text = outcome.view.blocks.map((b) => ('text' in b ? b.text : '')).join('\n');
    const lineOf = (id: string) => text.split('\n').find((l) => l.startsWith(`• \`${id}\``)) ?? '';

    expect(lineOf(telnet.id)).toContain(` · ${(expected ?? 0).toLocaleString('en-US')} hits`);
    expect(lineOf(idle.id)).toContain(' · *0 hits*: a candidate for removal');
    expect(lineOf(gone.id)).toContain('hits unknown: SCC no longer has the rule');
    expect(lineOf(unsendable.id)).toMatch(
      /hits unknown: .*is not sent to a device: it must be an access list name/,
    );
    expect(lineOf(dc.id)).toMatch(/hits unknown: .*undeployed changes/);
    expect(text).toContain(`1 rule the devices count no hit for: \`${idle.id}\``);
    // One show access-list for hq's inside_access_in (shared by its three records), one refused on dc.
    const runs = h.sim.requestLog.list({ operationId: 'executeCliCommand' }).slice(before);
    expect(runs).toHaveLength(2);
  });
});

function fail(): never {
  throw new Error('missing');
}
