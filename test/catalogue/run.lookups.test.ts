// Search, access rules and objects against the simulator's seeded policy of asa-hq-01 (the design note
// of issue 27 fixes it): the shadowed deny of outside_access_in and the duplicate permit of
// inside_access_in are flagged with the rule that hides them, one rule is shown by its configuration line
// and by its UUID, WEB-01 is shown with where it is used, and the search finds WEB-01 and the lines of
// asa-hq-01's configuration that name it. Bad input is one sentence before or instead of SCC's answer.
import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import type { AccessRule } from '../../src/scc/generated/models.js';
import { catalogue, useSimulator } from './harness.js';

describe('search, rules and objects', () => {
  const h = useSimulator();
  /** The query string of the last request of an operation, as SCC received it. */
  const lastQuery = (operationId: string) =>
    new URLSearchParams(h.sim.requestLog.list({ operationId }).at(-1)?.query ?? '');
  const text = async (command: string) => renderText((await h.run(command)).view);

  /** Every access rule of a device, as SCC lists them. */
  async function rulesOf(device: string): Promise<AccessRule[]> {
    const page = await h
      .client()
      .lookups.accessRules({ q: `entityUid:${h.sim.deviceUid(device)}`, limit: 200 });
    return page.items ?? [];
  }
  async function ruleWith(device: string, fragment: string): Promise<AccessRule> {
    const found = (await rulesOf(device)).find((rule) => rule.ruleConfigurationText?.includes(fragment));
    if (!found) throw new Error(`no rule of ${device} with ${fragment}`);
    return found;
  }

  it('lists asa-hq-01’s rules in order, flagging the shadowed and the duplicate rule with their cause', async () => {
    const outcome = await h.run('rules asa-hq-01');
    h.golden('rules', outcome);
    expect(lastQuery('listAccessRules').get('q')).toBe(`entityUid:${h.sim.deviceUid('asa-hq-01')}`);
    const shown = renderText(outcome.view);
    const shadowed = await ruleWith('asa-hq-01', 'deny tcp host 198.51.100.66');
    const duplicate = await ruleWith('asa-hq-01', 'permit ip 10.1.100.0 255.255.255.0 any');
    expect(shown).toMatch(
      new RegExp(
        `\\n${shadowed.ruleConfigurationLineNumber} +${shadowed.index} +outside_access_in +deny .*shadowed by #2`,
      ),
    );
    expect(shown).toMatch(
      new RegExp(
        `\\n${duplicate.ruleConfigurationLineNumber} +${duplicate.index} +inside_access_in +permit .*duplicate of #1`,
      ),
    );
    expect(shown).toContain(
      `Line ${shadowed.ruleConfigurationLineNumber} (#${shadowed.index} of outside_access_in): Shadowed by rule #2 \`access-list outside_access_in extended permit tcp any object WEB-01 eq https\``,
    );
    expect(shown).toContain(
      `Line ${duplicate.ruleConfigurationLineNumber} (#${duplicate.index} of inside_access_in): Duplicate of rule #1 \`access-list inside_access_in extended permit ip object HQ-USERS any\`: it matches the same traffic with the same action.`,
    );
    expect(shown).toMatch(/remark +Published web server WEB-01/);
    expect(shown).toContain('outside_access_in (in on outside)');
  });

  it('narrows the rules by text in their configuration line, or by a Lucene query', async () => {
    const uid = h.sim.deviceUid('asa-hq-01');
    const shown = await text('rules asa-hq-01 WEB-01');
    expect(lastQuery('listAccessRules').get('q')).toBe(`entityUid:${uid} AND ruleConfigurationText:*WEB-01*`);
    expect(shown).toContain('matching `WEB-01`');
    expect(shown).not.toContain('HQ-USERS');
    await h.run('rules asa-hq-01 ruleAction:DENY');
    expect(lastQuery('listAccessRules').get('q')).toBe(`entityUid:${uid} AND ruleAction:DENY`);
  });

  it('pages the rules with SCC’s offset, and a Previous page button that carries the command', async () => {
    const outcome = await h.run('rules asa-hq-01 --offset 10');
    expect(lastQuery('listAccessRules').get('offset')).toBe('10');
    expect(lastQuery('listAccessRules').get('limit')).toBe('25');
    const shown = renderText(outcome.view);
    expect(shown).toContain('Access rules of asa-hq-01: 11–11 of 11');
    expect(shown).toContain('Previous page');
    expect(shown).not.toContain('Next page');
  });

  it('refuses rules of a device that is not an ASA before reading any', async () => {
    await expect(h.run('rules ftd-edge-01')).rejects.toThrow(
      'ftd-edge-01 is a threat-defense device (FTD); access rules are read here for ASAs only.',
    );
    expect(h.sim.requestLog.list({ operationId: 'listAccessRules' })).toEqual([]);
  });

  it('shows one rule by its configuration line and by its UUID, with its issue', async () => {
    const shadowed = await ruleWith('asa-hq-01', 'deny tcp host 198.51.100.66');
    const byLine = await h.run(`rules show asa-hq-01 ${shadowed.ruleConfigurationLineNumber}`);
    h.golden('rules.show', byLine);
    const shown = renderText(byLine.view);
    expect(shown).toContain(shadowed.ruleConfigurationText);
    expect(shown).toContain(`#${shadowed.index} of outside_access_in (in on outside)`);
    expect(shown).toContain('Shadowed by rule #2');
    const byUid = await h.run(`rules show asa-hq-01 ${shadowed.uid}`);
    // The remark written above a rule is its own.
    const published = await ruleWith('asa-hq-01', 'permit tcp any object WEB-01 eq https');
    expect(await text(`rules show asa-hq-01 ${published.ruleConfigurationLineNumber}`)).toMatch(
      /Remark: +Published web server WEB-01 \(static NAT 203\.0\.113\.10\)\n/,
    );
    // The same view but its share button, which carries the command as typed.
    expect(byUid.view.blocks.slice(0, -1)).toEqual(byLine.view.blocks.slice(0, -1));
  });

  it('says a line that is no rule in one sentence, and refuses another device’s rule', async () => {
    await expect(h.run('rules show asa-hq-01 1')).rejects.toThrow(
      'Line 1 of asa-hq-01’s configuration is not an access rule; `/fw rules asa-hq-01` lists them with their lines.',
    );
    const branch = (await rulesOf('asa-branch-02'))[0];
    await expect(h.run(`rules show asa-hq-01 ${branch?.uid}`)).rejects.toThrow(
      `The access rule ${branch?.uid} is not one of asa-hq-01’s: fwbot shows it only with its own ASA.`,
    );
    await expect(h.run('rules show asa-hq-01 line-two')).rejects.toThrow(
      '`rule` must be a line number of asa-hq-01’s configuration',
    );
  });

  it('lists objects by name, and gives SCC’s refusal of a field it cannot search as a sentence', async () => {
    const outcome = await h.run('objects WEB');
    h.golden('objects', outcome);
    expect(lastQuery('getObjects').get('q')).toBe('name:*WEB*');
    expect(renderText(outcome.view)).toContain('WEB-01');
    await expect(h.run('objects description:server')).rejects.toThrow(
      /^Could not list the objects\. SCC refused the request \(400 [A-Z_]+\)/,
    );
  });

  it('shows WEB-01 with where it is used', async () => {
    const outcome = await h.run('objects show WEB-01');
    h.golden('objects.show', outcome);
    const shown = renderText(outcome.view);
    expect(shown).toContain('172.16.0.10');
    expect(shown).toContain('asa-hq-01');
    expect(shown).toMatch(/Used by \d+ items:/);
    expect(shown).toContain('DMZ-SERVERS');
    await expect(h.run('objects show NO-SUCH-OBJECT')).rejects.toThrow(
      'No object is named “NO-SUCH-OBJECT” (names are matched exactly here)',
    );
  });

  it('lists the UUIDs of objects that share a name and asks for one', async () => {
    // Two ASAs may define one name with different contents: SCC then has two objects of that name.
    const context = h.context();
    const twins = [
      { uid: '11111111-0000-4000-8000-000000000001', name: 'WEB-01' },
      { uid: '11111111-0000-4000-8000-000000000002', name: 'WEB-01' },
    ];
    const lookups = { ...context.scc.lookups, objects: async () => ({ count: 2, items: twins }) };
    const op = catalogue.get('objects.show');
    await expect(
      op?.execute({ ...context, scc: { ...context.scc, lookups } }, { object: 'WEB-01' }),
    ).rejects.toThrow(
      '2 objects are named “WEB-01”: 11111111-0000-4000-8000-000000000001, 11111111-0000-4000-8000-000000000002. Which one? Give its UUID: `/fw objects show <uuid>`.',
    );
  });

  it('finds WEB-01 and the lines of asa-hq-01’s configuration that name it', async () => {
    const outcome = await h.run('search WEB-01');
    h.golden('search', outcome);
    expect(lastQuery('search').get('q')).toBe('WEB-01');
    const shown = renderText(outcome.view);
    expect(shown).toContain('asa-hq-01');
    expect(shown).toContain('object network WEB-01');
    expect(shown).toMatch(/\d+ lines? of asa-hq-01’s configuration/);
    expect(await text('search zz-nothing-matches-this')).toContain('SCC found nothing');
  });

  it('refuses a search without text, naming the argument, before calling SCC', async () => {
    await expect(h.run('search')).rejects.toThrow(/text/);
    await expect(h.run('search', { raw: { text: '   ' } })).rejects.toThrow(/text/);
    expect(h.sim.requestLog.list({ operationId: 'search' })).toEqual([]);
  });
});
