// `rules remove` and `rules disable` against the simulator: the target is resolved and described as the
// approver sees it (the rule, the predicted commands, what is already staged), the call changes SCC's copy
// only (the device NOT_SYNCED), the outcome shows SCC's calculated commands and the deploy, and after a
// deploy the device's own `show access-list` no longer has the rule (or shows it inactive). A rule that
// moved or changed since the request is refused; a hostile line is refused before any SCC call.
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/catalogue/operation.js';
import { compareRules, type RuleFacts } from '../../src/catalogue/ruleChanges.js';
import { UsageError } from '../../src/model/errors.js';
import { CLI_PENDING_MS, CLI_RUNNING_MS } from '../../src/simulator/api/cli.js';
import { call, items, obj, str } from '../simulator/support.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const ASAS = '/v1/inventory/devices/asas';
// Telnet from the users' network: dropped by inside_access_in #3 (deny tcp any any eq telnet), allowed by #4 without it.
const TELNET = 'packet-tracer input inside tcp 10.1.5.5 40000 8.8.8.8 23';
const DENY_130 =
  'access-list outside_access_in extended deny tcp host 198.51.100.66 object WEB-01 eq https log';

describe('rules remove and rules disable', () => {
  const h = useSimulator();
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });
  const api = (method: string, path: string, options = {}) => call(h.sim.url, method, path, options);
  const hq = () => h.sim.deviceUid('asa-hq-01');

  /** Resolves the command's target as a request does, and describes it as the card does. */
  async function request(text: string) {
    const { op, raw } = catalogue.parse(text);
    const target = op.target;
    if (!target) throw new Error(`${op.id} has no target`);
    const resolved = await driving(target.resolve(h.context(), raw));
    return { op, target, resolved, card: target.describe(resolved.facts, Date.now()) };
  }

  const configState = async () => obj(await api('GET', `/v1/inventory/devices/${hq()}`)).configState;
  const sccRules = async () =>
    items(
      await api('GET', '/v1/policies/asa/accessrules', { query: { q: `entityUid:${hq()}`, limit: 200 } }),
    );
  /** The device's own answer to a line (refused while NOT_SYNCED). */
  const onDevice = async (script: string) => {
    const started = await api('POST', `${ASAS}/cli/execute`, { body: { deviceUids: [hq()], script } });
    expect(started.status).toBe(202);
    h.sim.clock.advance(CLI_PENDING_MS + CLI_RUNNING_MS);
    const [result] = items(await api('GET', str(obj(started).entityUrl).slice(h.sim.url.length)));
    return str(result?.result);
  };
  const runningOnDevice = async () => str(obj(await api('GET', `${ASAS}/${hq()}/configs`)).configOnDevice);
  const action = (output: string) => /^Action: (\w+)$/m.exec(output)?.[1];
  async function deploy() {
    const tx = await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [hq()] } });
    expect(tx.status).toBe(202);
    h.sim.clock.advance(120_000);
    expect(await configState()).toBe('SYNCED');
  }
  const codeOf = (outcome: Outcome) =>
    outcome.view.blocks.flatMap((b) => (b.kind === 'code' ? [b.text] : [])).join('\n');
  const buttonsOf = (outcome: Outcome) =>
    outcome.view.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons.map((x) => x.label) : []));

  it('removes any rule: the card shows it and the predicted command, SCC’s copy changes, a deploy takes it to the device', async () => {
    const { op, resolved, card } = await request('rules remove asa-hq-01 130');
    expect(card.action).toBe('remove the access rule at line 130 (#4 of `outside_access_in`) on `asa-hq-01`');
    expect(card.fields).toEqual(
      expect.arrayContaining([
        { label: 'Access list', value: 'outside_access_in' },
        { label: 'Line', value: '130 (#4 of the list)' },
        { label: 'Rule', value: DENY_130 },
      ]),
    );
    expect(card.code).toBe(
      `! predicted by fwbot; SCC calculates the exact commands once the change is made\nno ${DENY_130}`,
    );
    expect(card.warnings).toEqual([]);
    // Bound to the UUIDs: the approved call names the device and the rule by UUID.
    expect(resolved.raw).toEqual({ asa: hq(), rule: (resolved.facts as RuleFacts).uid });
    expect(h.sim.requestLog.list({ operationId: 'deleteAccessRule' })).toHaveLength(0);

    const outcome = await driving(op.execute(h.context(), resolved.raw, resolved.facts));
    h.golden('rules.remove', outcome);
    expect(h.sim.requestLog.list({ operationId: 'deleteAccessRule' })).toHaveLength(1);
    expect(codeOf(outcome)).toContain(`no ${DENY_130}`);
    expect(buttonsOf(outcome)).toEqual(['Preview commands', 'Deploy…', 'Discard…']);
    // The change is staged, and verified once a deploy of the device after it (none before: after 0) ends.
    expect(outcome.track).toMatchObject([
      { kind: 'staged', deviceName: 'asa-hq-01' },
      {
        kind: 'rule-verify',
        after: 0,
        change: 'remove',
        rule: { text: DENY_130 },
        script: 'packet-tracer input outside tcp 198.51.100.66 49152 172.16.0.10 443',
      },
    ]);
    expect((await sccRules()).map((r) => r.ruleConfigurationText)).not.toContain(DENY_130);
    expect(await configState()).toBe('NOT_SYNCED');

    expect(await runningOnDevice()).toContain(DENY_130);
    await deploy();
    expect(await runningOnDevice()).not.toContain(DENY_130);
    expect(await runningOnDevice()).toContain(
      'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
    );
  });

  it('disables a rule (inactive): modifyAccessRule with isActiveRule false, and the card names what is already staged', async () => {
    expect(action(await onDevice(TELNET))).toBe('drop');
    await driving(h.run('interfaces delete asa-hq-01 Vlan20'));
    // Line numbers are SCC's copy's: the staged deletion moved them, so the rule is named by its UUID.
    const telnet = (await sccRules()).find((r) => str(r.ruleConfigurationText).endsWith('eq telnet'));
    const { op, resolved, card } = await request(`rules disable asa-hq-01 ${str(telnet?.uid)}`);
    expect(card.action).toMatch(
      /^disable the access rule at line \d+ \(#3 of `inside_access_in`\) on `asa-hq-01`$/,
    );
    expect(card.code).toContain(
      'access-list inside_access_in line 3 extended deny tcp any any eq telnet inactive',
    );
    expect(card.code).toContain('! already staged on asa-hq-01, deployed with it\nno interface Vlan20');
    expect(card.warnings.join(' ')).toMatch(/already staged on `asa-hq-01` go(es)? with this change/);

    const outcome = await driving(op.execute(h.context(), resolved.raw, resolved.facts));
    h.golden('rules.disable', outcome);
    const [modify] = h.sim.requestLog.list({ operationId: 'modifyAccessRule' });
    expect(modify).toBeDefined();
    expect(codeOf(outcome)).toContain('no interface Vlan20');
    expect(codeOf(outcome)).toContain('eq telnet inactive');
    const after = (await sccRules()).find((r) => r.uid === (resolved.facts as RuleFacts).uid);
    expect(after?.isActiveRule).toBe(false);

    await deploy();
    // Inactive on the device: telnet from the users' network now reaches the permit under it.
    expect(action(await onDevice(TELNET))).toBe('allow');
  });

  it('refuses a rule that moved or changed since the request, and says when it is gone', async () => {
    const { target, resolved } = await request('rules remove asa-hq-01 130');
    // Someone removes line 128 in SCC meanwhile (with its remark on 127): line 130 becomes 128 (#2).
    const moved = (await sccRules()).find((r) => r.ruleConfigurationLineNumber === 128);
    expect((await api('DELETE', `/v1/policies/asa/accessrules/${str(moved?.uid)}`)).status).toBe(204);
    const again = await target.reread(h.context(), resolved.facts);
    if (!again.found) throw new Error('the rule should still exist');
    expect(target.compare(resolved.facts, again.facts)).toEqual([
      'the rule moved from line 130 (#4) to line 128 (#2)',
    ]);
    const facts = resolved.facts as RuleFacts;
    expect(compareRules(facts, { ...facts, text: `${facts.text} log` })).toEqual([
      `the rule changed from “${DENY_130}” to “${DENY_130} log”`,
    ]);
    await api('DELETE', `/v1/policies/asa/accessrules/${facts.uid}`);
    expect(await target.reread(h.context(), resolved.facts)).toEqual({
      found: false,
      reason: 'the access rule no longer exists on asa-hq-01',
    });
  });

  it('finds after a crash whether an interrupted disable took effect, by reading the rule again', async () => {
    const { target, resolved } = await request('rules disable asa-hq-01 134');
    const interrupted = target.interrupted;
    if (!interrupted) throw new Error('rules.disable says nothing of an interrupted call');
    expect(await interrupted(h.context(), resolved.facts)).toBeUndefined();
    const facts = resolved.facts as RuleFacts;
    const patched = await api('PATCH', `/v1/policies/asa/accessrules/${facts.uid}`, {
      body: { uid: facts.uid, isActiveRule: false },
    });
    expect(patched.status).toBe(200);
    const found = await interrupted(h.context(), resolved.facts);
    expect(found?.view.summary).toBe(
      'disable of access rule line 134 (#3 of inside_access_in): done before fwbot restarted',
    );
    expect(found?.track).toEqual([]);
  });

  it('refuses a hostile line before any SCC call, and remarks, lines that are not rules, and a rule already inactive', async () => {
    const before = h.sim.requestLog.list().length;
    await expect(h.run('rules remove asa-hq-01 "1; write erase"')).rejects.toThrow(UsageError);
    await expect(h.run('rules disable asa-hq-01 130;reload')).rejects.toThrow(
      /line in the configuration .* or its UUID/,
    );
    expect(h.sim.requestLog.list()).toHaveLength(before);

    // SCC finds no rule at a remark's line: it is not one.
    await expect(request('rules remove asa-hq-01 127')).rejects.toThrow(
      'Line 127 of asa-hq-01’s configuration is not an access rule',
    );
    await expect(request('rules remove asa-hq-01 5')).rejects.toThrow(
      'Line 5 of asa-hq-01’s configuration is not an access rule',
    );
    await expect(request('rules disable asa-hq-01 138')).rejects.toThrow(
      'That rule of asa-hq-01 is already inactive',
    );
    await expect(request('rules remove asa-branch-02 99999')).rejects.toThrow('is not an access rule');
  });
});
