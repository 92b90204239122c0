// The lookups' views on their own, from answers written here: where an access group is applied (the
// reference leaves the shape of `resources` open), remark lines, the sentences for shadowed and duplicate
// rules, search results grouped and counted, an object's usages grouped by kind, and configuration text
// that tries to make markup or mentions reaching Slack as the characters it holds.
import { describe, expect, it } from 'vitest';
import type { RenderMeta } from '../../src/model/types.js';
import {
  accessGroupBindings,
  accessGroupLabel,
  renderRule,
  renderRules,
} from '../../src/render/accessRules.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { contentText, renderObject } from '../../src/render/objects.js';
import { renderSearch } from '../../src/render/search.js';
import { renderText } from '../../src/render/text.js';
import type { AccessRule } from '../../src/scc/generated/models.js';
import { mrkdwnIn } from '../support/blockTexts.js';

const meta: RenderMeta = {
  operationId: 'rules',
  raw: { asa: 'asa-hq-01' },
  actor: { userId: 'U0ENGINEER', channelId: 'C0OPS' },
};
const DEVICE = 'd0000000-0000-4000-8000-000000000001';
const GROUP = 'a0000000-0000-4000-8000-000000000001';
const group = accessGroupLabel(
  {
    uid: GROUP,
    entityUid: DEVICE,
    name: 'outside_access_in',
    resources: [{ interface: { interfaceName: 'outside', direction: 'INBOUND' } }],
  },
  0,
);
const groups = new Map([[GROUP, group]]);

function rule(index: number, line: number, text: string, extra: Partial<AccessRule> = {}): AccessRule {
  return {
    uid: `b0000000-0000-4000-8000-00000000000${index}`,
    entityUid: DEVICE,
    accessGroupUid: GROUP,
    index,
    ruleConfigurationLineNumber: line,
    ruleConfigurationText: text,
    isActiveRule: true,
    ...extra,
  };
}

const REMARK = rule(1, 30, 'access-list outside_access_in remark Published web server WEB-01');
const PERMIT = rule(2, 31, 'access-list outside_access_in extended permit tcp any object WEB-01 eq https', {
  ruleAction: 'PERMIT',
  protocol: { name: 'tcp' },
  sourceNetwork: { name: 'any' },
  destinationNetwork: { name: 'WEB-01', type: 'NETWORK_OBJECT', elements: ['172.16.0.10'] },
  destinationPort: { name: 'https', elements: ['443'] },
});
const SHADOWED = rule(
  4,
  33,
  'access-list outside_access_in extended deny tcp host 198.51.100.66 object WEB-01 eq https log',
  {
    ruleAction: 'DENY',
    protocol: { name: 'tcp' },
    sourceNetwork: { name: '198.51.100.66' },
    destinationNetwork: { name: 'WEB-01' },
    destinationPort: { name: 'https' },
    logSettings: { level: 'informational' },
    issues: [
      {
        issueType: 'SHADOWED',
        causes: [
          {
            causingRule: PERMIT.ruleConfigurationText,
            causingRuleIdx: 2,
            causeTypes: ['SHADOWED_BY_NETWORK_ADDRESS', 'SHADOWED_BY_ACTION'],
          },
        ],
      },
    ],
  },
);

describe('access groups', () => {
  it('reads where a group is applied from the shapes the reference allows', () => {
    expect(
      accessGroupBindings({ resources: [{ x: { interfaceName: 'outside', direction: 'INBOUND' } }] }),
    ).toEqual(['in on outside']);
    // The reference's own example: the interface and the direction as two entries.
    expect(
      accessGroupBindings({
        resources: [{ a: { interfaceName: 'inside' } }, { a: { direction: 'OUTBOUND' } }],
      } as never),
    ).toEqual(['out on inside']);
    expect(accessGroupBindings({ resources: [{ g: { global: true } }] } as never)).toEqual(['global']);
    expect(accessGroupBindings({ resources: null })).toEqual([]);
  });
});

describe('access rules', () => {
  const page = { offset: 0, limit: 25, count: 3, shown: 3 };

  it('lists rules with remarks as remarks and shadowed ones flagged with the rule that hides them', () => {
    const text = renderText(
      renderRules('asa-hq-01', [REMARK, PERMIT, SHADOWED], groups, page, undefined, meta),
    );
    expect(text).toMatch(/30 +│? *1 +.*remark +.*Published web server WEB-01/);
    expect(text).toMatch(/33 .*deny .*198\.51\.100\.66 .*WEB-01 .*tcp https .*shadowed by #2/);
    expect(text).toContain('Access groups: outside_access_in (in on outside)');
    expect(text).toContain(
      'Line 33 (#4 of outside_access_in): Shadowed by rule #2 `access-list outside_access_in extended permit tcp any object WEB-01 eq https`: its addresses cover this one’s; it does the opposite.',
    );
  });

  it('shows one rule with its configuration line, operands with their elements, and its issue', () => {
    const text = renderText(renderRule('asa-hq-01', PERMIT, group));
    expect(text).toContain('Line 31 of asa-hq-01');
    expect(text).toContain('access-list outside_access_in extended permit tcp any object WEB-01 eq https');
    expect(text).toContain('#2 of outside_access_in (in on outside)');
    expect(text).toContain('WEB-01: 172.16.0.10');
    expect(text).toContain('neither shadowed nor a duplicate');
    expect(renderText(renderRule('asa-hq-01', SHADOWED, group))).toMatch(/Log: +informational/);
  });

  it('shows configuration text that tries markup or mentions as the characters it holds', () => {
    const hostile = rule(5, 40, 'access-list x remark <!channel> *urgent* <@U0ATTACK>', {
      remark: '<!channel> *urgent* <@U0ATTACK>',
      accessGroupUid: GROUP,
    });
    for (const view of [
      renderRules('<@U0ATTACK>', [hostile], groups, page, '<!here>', meta),
      renderRule('asa-hq-01', hostile, group),
    ]) {
      const message = renderBlocks(view);
      const live = [message.text, ...mrkdwnIn(message.blocks)].flatMap((t) => [...t.matchAll(/<[^<>]*>/g)]);
      expect(live).toEqual([]);
    }
    expect(JSON.stringify(renderBlocks(renderRule('asa-hq-01', hostile, group)).blocks)).toContain(
      '`&lt;!channel&gt; *urgent* &lt;@U0ATTACK&gt;`',
    );
    // A device or access-list name that Slack would read as bold, a broadcast or an emoji stays a literal.
    const marked = accessGroupLabel({ uid: GROUP, entityUid: DEVICE, name: '*acl* @here', resources: [] }, 0);
    const listed = renderBlocks(
      renderRules('_asa_ :fire:', [PERMIT], new Map([[GROUP, marked]]), page, undefined, meta),
    );
    const mrkdwn = mrkdwnIn(listed.blocks).join('\n');
    expect(mrkdwn).toContain('*Access rules of `_asa_ :fire:`*');
    expect(mrkdwn).toContain('Access groups: `*acl* @here` (not applied)');
  });
});

describe('search', () => {
  it('groups what it found, counted, with an ASA’s matching configuration lines', () => {
    const view = renderSearch(
      {
        inventory: {
          devices: [
            {
              name: 'asa-hq-01',
              type: 'ASA',
              uid: DEVICE,
              matchingConfigurations: ['object network WEB-01', ' nat (dmz,outside) static 203.0.113.10'],
            },
          ],
          managers: [{ name: 'cdfmc-acme', type: 'CDFMC' }],
        },
        objects: [
          { name: 'WEB-01', uid: 'c0000000-0000-4000-8000-000000000001', objectType: 'NETWORK_OBJECT' },
        ],
        policies: [],
        cdFmcResult: {
          policies: [{ name: 'Edge policy', link: 'https://cdfmc.example/policy/1' }],
          objects: [{ name: 'Sneaky', link: 'javascript:alert(1)' }],
        },
      },
      'WEB-01',
    );
    const text = renderText(view);
    expect(text).toContain('1 device, 1 manager or service, 1 object, 1 cdFMC object, 1 cdFMC policy.');
    expect(text).toContain(' nat (dmz,outside) static 203.0.113.10');
    expect(text).toContain('2 lines of asa-hq-01’s configuration');
    const buttons = view.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons : []));
    expect(buttons.map((b) => b.url)).toEqual(['https://cdfmc.example/policy/1']);
    expect(text).toContain('its link is not https');
  });

  it('says plainly when nothing is found', () => {
    expect(renderText(renderSearch({}, 'nothing-like-this'))).toContain(
      'SCC found nothing: no device, object or policy matches.',
    );
  });
});

describe('objects', () => {
  it('shows content, devices and usages grouped by kind with counts', () => {
    const text = renderText(
      renderObject(
        {
          uid: 'c0000000-0000-4000-8000-000000000001',
          name: 'WEB-01',
          description: 'Public web server',
          elements: ['172.16.0.10'],
          targets: [{ displayName: 'asa-hq-01', type: 'ASA', id: DEVICE }],
          value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '172.16.0.10' } },
        },
        [
          { name: 'DMZ-SERVERS', objectType: 'NETWORK_GROUP', uid: '1' },
          { name: 'access-list outside_access_in line 2', objectType: 'ACCESS_RULE', uid: '2' },
          { name: 'access-list outside_access_in line 3', objectType: 'ACCESS_RULE', uid: '3' },
        ],
      ),
    );
    expect(text).toContain('Used by 3 items:');
    expect(text).toContain('network groups (1): DMZ-SERVERS');
    expect(text).toContain(
      'access rules (2):\n    ◦ `access-list outside_access_in line 2`\n    ◦ `access-list outside_access_in line 3`',
    );
    expect(text).toContain('On 1 device: asa-hq-01 (ASA)');
    expect(renderText(renderObject({ name: 'UNUSED' }, []))).toContain('Used nowhere');
  });

  it('says a content in one line', () => {
    expect(contentText({ literal: '10.1.100.0/24' })).toBe('10.1.100.0/24');
    expect(
      contentText({
        literals: [{ literal: '10.0.0.1' }, { value: '443' }],
        referencedObjectUids: ['a', 'b'],
      }),
    ).toBe('10.0.0.1, 443, 2 objects');
  });
});
