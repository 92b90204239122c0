// `access request` against the simulator: the design (the group bound inbound to the input interface, the
// place above the deny the trace names, objects reused by content or created by convention, the remark),
// the card, the run (objects and the rule staged, SCC's commands read, the deploy sent and followed by the
// verification), what a crash after the deploy leaves to follow, and what is refused before anything is
// staged: the traffic already allowed, a device with undeployed changes, a request that changed since.
import { describe, expect, it } from 'vitest';
import { type AccessRequestFacts, compareRequests, expiryOf } from '../../src/catalogue/accessRequest.js';
import { accessFrom } from '../../src/config/sections/access.js';
import { UsageError, UserError } from '../../src/model/errors.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const PARTNER_DENY = 'access-list outside_access_in extended deny ip object PARTNER-NET any log';

describe('access request', () => {
  const h = useSimulator();
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });

  async function request(text: string) {
    const { op, raw } = catalogue.parse(text);
    const target = op.target;
    if (!target) throw new Error(`${op.id} has no target`);
    const resolved = await driving(target.resolve(h.context(), raw));
    return { op, target, resolved, facts: resolved.facts as AccessRequestFacts };
  }

  it('designs the rule above the deny, reuses PARTNER-NET, creates the host object, and deploys with its verification', async () => {
    const { op, target, resolved, facts } = await request(
      'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync" --expires 30d',
    );
    expect(facts.source).toMatchObject({ object: 'PARTNER-NET', how: 'reused' });
    expect(facts.destination).toMatchObject({ object: 'fwbot-h-172.20.41.5', how: 'created' });
    expect(facts.before).toMatchObject({ text: PARTNER_DENY, index: 2 });
    expect(facts.index).toBe(2);
    expect(facts.script).toBe('packet-tracer input outside tcp 198.51.100.1 49152 172.20.41.5 8443');
    expect(facts.remark).toBe('fwbot: U0ENGINEER partner sync');
    expect(facts.expiresAt).toBeGreaterThan(Date.now());
    // Bound to the device's UUID and the input interface.
    expect(resolved.raw).toMatchObject({ asa: h.sim.deviceUid('asa-dc-03'), in: 'outside', port: '8443' });
    const card = target.describe(facts, Date.now());
    expect(card.code).toBe(
      [
        '! predicted by fwbot; SCC calculates the exact commands once the change is staged, shown before the deploy',
        'object network fwbot-h-172.20.41.5',
        ' host 172.20.41.5',
        'access-list outside_access_in line 2 remark fwbot: U0ENGINEER partner sync',
        'access-list outside_access_in line 3 extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443',
        '! already staged on asa-dc-03: nothing (packet-tracer ran, which SCC allows only then)',
      ].join('\n'),
    );
    expect(h.sim.requestLog.list({ operationId: 'createAccessRule' })).toHaveLength(0);

    const outcome = await driving(op.execute({ ...h.context(), approvedBy: 'U0BOB' }, resolved.raw, facts));
    h.golden('access.request', outcome);
    expect(h.sim.requestLog.list({ operationId: 'createObject' })).toHaveLength(1);
    expect(h.sim.requestLog.list({ operationId: 'createAccessRule' })).toHaveLength(1);
    expect(h.sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' })).toHaveLength(1);
    expect(outcome.track.map((t) => t.kind)).toEqual(['deployment', 'access-verify']);
    expect(outcome.track[1]).toMatchObject({
      kind: 'access-verify',
      holder: 'req-test',
      removal: expect.stringMatching(/^rules remove [0-9a-f-]{36} [0-9a-f-]{36}$/),
    });

    // After a crash once the deploy was sent, the tagged run and the rule are found: followed, not resent.
    const found = await driving(target.interrupted?.(h.context(), facts) ?? Promise.resolve(undefined));
    expect(found?.track.map((t) => t.kind)).toEqual(['deployment', 'access-verify']);
  });

  it('places a rule at the end of its list when the implicit deny drops the traffic', async () => {
    // asa-dc-03's web list permits 8443 only and ends without a deny of its own.
    const { facts } = await request(
      'access request asa-dc-03 tcp 172.20.40.10 172.20.41.5 22 --reason "ssh"',
    );
    expect(facts.input).toBe('web');
    expect(facts.inferred).toBe(true);
    expect(facts.group.name).toBe('web_access_in');
    expect(facts.source).toMatchObject({ object: 'DC-WEB', how: 'reused' });
    expect(facts.before).toEqual({ text: null, ruleUid: null, configLine: null, index: 3 });
  });

  it('applies the policy’s risk check before anything is traced: a refusal in one sentence, an extra approver on the card', async () => {
    const policy = {
      accessRequests: accessFrom({
        forbidden_services: [
          { name: 'rsync', protocol: 'tcp', ports: [873], action: 'refuse' },
          {
            name: 'app',
            protocol: 'tcp',
            ports: [8443],
            action: 'extra-approval',
            approvers: ['U0NETSEC01'],
          },
        ],
      } as Parameters<typeof accessFrom>[0]),
    };
    const { op, raw } = catalogue.parse(
      'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 873 --in outside --reason "sync"',
    );
    const target0 = op.target;
    if (!target0) throw new Error('no target');
    const error = await driving(target0.resolve({ ...h.context(), policy }, raw)).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Refused by access\.forbidden_services\[0\] \(rsync\)/);
    expect(h.sim.requestLog.list({ operationId: 'executeCliCommand' })).toHaveLength(0);

    const asked = catalogue.parse(
      'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "sync"',
    );
    const target = asked.op.target;
    if (!target) throw new Error('no target');
    const resolved = await driving(target.resolve({ ...h.context(), policy }, asked.raw));
    const facts = resolved.facts as AccessRequestFacts;
    expect(facts.risk.outcome).toBe('extra-approval');
    expect(target.approvers?.(facts)).toEqual([
      expect.objectContaining({ rule: expect.objectContaining({ approvers: ['U0NETSEC01'] }) }),
    ]);
    const card = target.describe(facts, Date.now());
    expect(card.fields.find((f) => f.label === 'Risk check')?.value).toMatch(
      /^Needs an extra approval by access\.forbidden_services\[1\] \(app\)/,
    );
  });

  it('says the traffic is allowed already, by which line, and stages nothing', async () => {
    const error = await request(
      'access request asa-dc-03 tcp 198.51.100.7 172.20.40.10 https --in outside --reason "web"',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /^No change needed: asa-dc-03 already lets this through, allowed by line \d+ \(`access-list outside_access_in extended permit tcp any object DC-WEB eq https`\)/,
    );
    expect(h.sim.requestLog.list({ operationId: 'createAccessRule' })).toHaveLength(0);
  });

  it('refuses hostile or unfit values before any call to SCC', () => {
    const refused = [
      'access request asa-dc-03 tcp 10.0.0.1/8 172.20.41.5 443 --reason x',
      'access request asa-dc-03 tcp any 172.20.41.5 443 --reason x',
      'access request asa-dc-03 tcp "$(reboot)" 172.20.41.5 443 --reason x',
      'access request asa-dc-03 tcp 10.0.0.1 172.20.41.5 --reason x',
      'access request asa-dc-03 ip 10.0.0.1 172.20.41.5 443 --reason x',
      'access request asa-dc-03 gre 10.0.0.1 172.20.41.5 --reason x',
      'access request asa-dc-03 tcp 10.0.0.1 172.20.41.5 443',
      'access request asa-dc-03 tcp 10.0.0.1 172.20.41.5 443 --reason x --expires soon',
    ];
    for (const text of refused) {
      let issues: number;
      try {
        const { op, raw } = catalogue.parse(text);
        issues = op.validate(raw).length;
      } catch (error) {
        expect(error, text).toBeInstanceOf(UsageError);
        issues = 1;
      }
      expect(issues, text).toBeGreaterThan(0);
    }
    expect(h.sim.requestLog.list({}).length).toBe(0);
  });

  it('reads --expires as days or a date in the future, at most a year', () => {
    const now = Date.parse('2026-12-07T12:00:00Z');
    expect(expiryOf('30d', now)).toBe(now + 30 * 86_400_000);
    expect(expiryOf('2027-01-31', now)).toBe(Date.parse('2027-01-31T00:00:00Z'));
    expect(() => expiryOf('2026-01-01', now)).toThrow(/not in the future/);
    expect(() => expiryOf('2027-02-30', now)).toThrow(/not a date/);
    expect(() => expiryOf('0d', now)).toThrow(/1 to 365/);
  });

  it('refuses a device with undeployed changes: SCC would refuse packet-tracer', async () => {
    const scc = h.client();
    const rules = await scc.lookups.accessRules({ q: `entityUid:${h.sim.deviceUid('asa-dc-03')}`, limit: 1 });
    const uid = rules.items?.[0]?.uid ?? '';
    await scc.call('modifyAccessRule', { path: { accessRuleUid: uid }, body: { uid, isActiveRule: false } });
    const error = await request(
      'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync"',
    ).catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      'asa-dc-03 has changes staged in SCC that are not deployed: SCC refuses packet-tracer until they are',
    );
    expect(h.sim.requestLog.list({ operationId: 'executeCliCommand' })).toHaveLength(0);
  });

  it('stops the run when something was staged on the device since the card, or the deny moved', () => {
    const base = {
      device: { uid: 'd', name: 'asa-dc-03' },
      configState: 'SYNCED',
      group: { uid: 'g', name: 'outside_access_in' },
      before: { text: PARTNER_DENY, ruleUid: 'r', configLine: 112, index: 2 },
    } as AccessRequestFacts;
    expect(compareRequests(base, base)).toEqual([]);
    expect(compareRequests(base, { ...base, configState: 'NOT_SYNCED' })).toEqual([
      'something was staged on asa-dc-03 since the card was posted, and a deploy would carry it with this rule (`/fw changes asa-dc-03`)',
    ]);
    expect(compareRequests(base, { ...base, before: { ...base.before, index: 3 } })).toEqual([
      'the rule that denies the traffic moved from #2 to #3 of outside_access_in',
    ]);
  });
});
