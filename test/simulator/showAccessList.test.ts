// `show access-list <acl>` on the simulated ASA: the ASA's shape (headers, `line N`, remarks, elements of
// object rules indented, `(hitcnt=N)`, `(inactive)`, a hash), read back by fwbot's own reader; seeded
// rules carry seeded counts, a rule added later starts at 0, and each packet-tracer a rule decides adds one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findRuleLine, hitsOf, parseShowAccessList } from '../../src/catalogue/asaAccessListOutput.js';
import { CLI_PENDING_MS, CLI_RUNNING_MS } from '../../src/simulator/api/cli.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { items, obj, simulator, str } from './support.js';

const ASAS = '/v1/inventory/devices/asas';
const RULES = '/v1/policies/asa/accessrules';
// Telnet from the users' network: dropped by inside_access_in's `deny tcp any any eq telnet`.
const TELNET = 'packet-tracer input inside tcp 10.1.5.5 40000 8.8.8.8 23';
const DENY_TELNET = 'access-list inside_access_in extended deny tcp any any eq telnet';

describe('simulator: show access-list', () => {
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

  const cli = async (script: string) => {
    const started = await api('POST', `${ASAS}/cli/execute`, { body: { deviceUids: [hq], script } });
    expect(started.status).toBe(202);
    sim.clock.advance(CLI_PENDING_MS + CLI_RUNNING_MS);
    const [result] = items(await api('GET', str(obj(started).entityUrl).slice(sim.url.length)));
    return { output: str(result?.result), error: result?.errorMsg };
  };

  it('prints the list in the ASA’s shape, which fwbot’s reader reads whole', async () => {
    const { output, error } = await cli('show access-list dmz_access_in');
    expect(error ?? undefined).toBeUndefined();
    expect(output).toMatch(/^access-list cached ACL log flows: total 0, denied 0 \(deny-flow-max 4096\)\n/);
    expect(output).toMatch(/^access-list dmz_access_in; \d+ elements; name hash: 0x[0-9a-f]{8}$/m);
    expect(output).toMatch(/^access-list dmz_access_in line 1 remark /m);
    // A rule written with objects is followed by its elements, indented.
    expect(output).toMatch(/^ {2}access-list dmz_access_in line 2 extended permit tcp host \S+ host \S+ /m);
    expect(output).toMatch(/ inactive \(hitcnt=\d+\) \(inactive\) 0x[0-9a-f]{8} $/m);
    const read = parseShowAccessList(output);
    expect(read.unread).toEqual([]);
    expect(read.lines.map((line) => line.kind)).toEqual(['remark', 'rule', 'rule', 'rule']);
    expect(read.lines[1]?.elements.length).toBeGreaterThan(0);
    expect(read.lines.every((line) => line.kind === 'remark' || hitsOf(line) !== undefined)).toBe(true);
  });

  it('adds one hit to the rule a packet-tracer decides, and to no other', async () => {
    const before = parseShowAccessList((await cli('show access-list inside_access_in')).output);
    const rule = findRuleLine(before, { index: 4, text: DENY_TELNET });
    expect(rule).toBeDefined();
    const others = before.lines.filter((line) => line !== rule).map(hitsOf);
    await cli(TELNET);
    await cli(TELNET);
    const after = parseShowAccessList((await cli('show access-list inside_access_in')).output);
    const again = findRuleLine(after, { index: 4, text: DENY_TELNET });
    expect(hitsOf(again ?? fail())).toBe((hitsOf(rule ?? fail()) ?? 0) + 2);
    expect(after.lines.filter((line) => line !== again).map(hitsOf)).toEqual(others);
  });

  it('starts a rule added later at 0 hits', async () => {
    const [deny] = items(await api('GET', RULES, { query: { q: `entityUid:${hq}`, limit: 200 } })).filter(
      (r) => str(r.ruleConfigurationText) === DENY_TELNET,
    );
    const changed = await api('PATCH', `${RULES}/${str(deny?.uid)}`, {
      body: { uid: str(deny?.uid), isActiveRule: false },
    });
    expect(changed.status).toBeLessThan(300);
    const tx = await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [hq] } });
    expect(tx.status).toBe(202);
    sim.clock.advance(120_000);
    const read = parseShowAccessList((await cli('show access-list inside_access_in')).output);
    const disabled = findRuleLine(read, { index: 4, text: `${DENY_TELNET} inactive` });
    expect(disabled?.inactive).toBe(true);
    expect(hitsOf(disabled ?? fail())).toBe(0);
  });

  it('answers an unknown list or extra words as the ASA does: invalid input', async () => {
    for (const script of ['show access-list nosuch_acl', 'show access-list inside_access_in extra']) {
      const { error } = await cli(script);
      expect(str(error)).toMatch(/Invalid input/);
    }
  });
});

function fail(): never {
  throw new Error('missing');
}
