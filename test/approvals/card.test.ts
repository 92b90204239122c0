// The approval card in each state, against golden files: what approvers read before they decide, and
// what everyone reads after.
import { describe, expect, it } from 'vitest';
import { renderCard } from '../../src/approvals/card.js';
import type { ApprovalRecord, ApprovalRequest } from '../../src/approvals/record.js';
import { interfacesDelete } from '../../src/catalogue/interfaces.js';
import type { InterfaceFacts } from '../../src/catalogue/interfaceTarget.js';
import type { Operation } from '../../src/catalogue/operation.js';
import { type RuleFacts, rulesDisable, rulesRemove } from '../../src/catalogue/ruleChanges.js';
import { tenantsRemove } from '../../src/catalogue/tenants.js';
import type { TenantFacts } from '../../src/catalogue/tenantTarget.js';
import { tenantsUsersRemove } from '../../src/catalogue/tenantUsers.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { mrkdwnIn } from '../support/blockTexts.js';
import { expectCardGolden } from './support/golden.js';

const CREATED = Date.parse('2025-06-02T09:00:00Z');
const NOW = CREATED + 5 * 60_000;

/** A target as the operation itself resolves and describes it. */
interface Target {
  op: Operation;
  command: string;
  facts: unknown;
}

const device = { uid: '524eeca3-7b08-4039-9063-aae9a153ec5f', name: 'asa-hq-01' };

const etherChannelFacts: InterfaceFacts = {
  device,
  uid: '717fd5db-d089-4055-8be1-b4bff75057d1',
  kind: 'etherchannel',
  name: 'uplink',
  hardwareName: 'Port-channel1',
  vlanId: null,
  subInterfaceId: null,
  members: [
    { uid: 'a1', name: 'GigabitEthernet1/4' },
    { uid: 'a2', name: 'GigabitEthernet1/5' },
  ],
  parent: null,
  ipv4: '10.2.0.1/24',
  ipv6: [],
  subinterfaces: ['servers (Port-channel1.300) VLAN 300'],
};

const etherChannel: Target = {
  op: interfacesDelete,
  command: '/fw interfaces delete asa-hq-01 uplink',
  facts: etherChannelFacts,
};

const subinterface: Target = {
  op: interfacesDelete,
  command: '/fw interfaces delete asa-hq-01 uplink',
  facts: {
    device,
    uid: '11111111-2222-4333-8444-555555555555',
    kind: 'subinterface',
    name: 'voice',
    hardwareName: 'GigabitEthernet1/2.200',
    vlanId: 200,
    subInterfaceId: 200,
    members: [],
    parent: { uid: 'p2', name: 'GigabitEthernet1/2' },
    ipv4: '10.1.200.1/24',
    ipv6: ['2001:db8:200::1/64'],
    subinterfaces: [],
  } satisfies InterfaceFacts,
};

const globex: TenantFacts = {
  uid: '9d1c8f50-1111-4222-8333-444444444444',
  name: 'globex-apj',
  displayName: 'Globex Asia Pacific',
  deviceCount: 32,
};

const tenant: Target = {
  op: tenantsRemove,
  command: '/fw tenants remove globex-apj',
  facts: { tenant: globex },
};

const users: Target = {
  op: tenantsUsersRemove,
  command: '/fw tenants users remove contoso-eu ana@contoso.example hiro@contoso.example',
  facts: {
    tenant: { ...globex, name: 'contoso-eu', displayName: 'Contoso Europe', deviceCount: 2 },
    usernames: ['ana@contoso.example', 'hiro@contoso.example'],
  },
};

const ruleFacts: RuleFacts = {
  device,
  uid: '94abc917-5493-5cfb-b9f5-d36afe776a5d',
  accessGroupUid: '0f5e2f6c-1111-4222-8333-444444444444',
  accessList: 'outside_access_in',
  index: 4,
  line: 130,
  text: 'access-list outside_access_in extended deny tcp host 198.51.100.66 object WEB-01 eq https log',
  active: true,
  remark: null,
  staged: { status: 'SUCCESS', commands: ['no interface Vlan20'] },
};

const ruleRemoval: Target = {
  op: rulesRemove,
  command: '/fw rules remove asa-hq-01 130',
  facts: ruleFacts,
};

const ruleDisabling: Target = {
  op: rulesDisable,
  command: '/fw rules disable asa-hq-01 130',
  facts: { ...ruleFacts, remark: 'CHG-88 partner block', staged: { status: 'SUCCESS', commands: [] } },
};

function record(target: Target, extra: Partial<ApprovalRecord> = {}): ApprovalRecord {
  const describe = target.op.target?.describe;
  if (!describe) throw new Error(`${target.op.id} declares no target`);
  const request: ApprovalRequest = {
    id: 'ap-0123456789',
    operationId: target.op.id,
    raw: {},
    commandText: target.command,
    profile: 'default',
    requesterId: 'U0ALICE',
    channelId: 'C0OPS',
    createdAt: CREATED,
    expiresAt: CREATED + 30 * 60_000,
    role: 'operator',
    target: { facts: target.facts, description: describe(target.facts, CREATED) },
  };
  return { request, state: 'pending', attempts: 0, ...extra };
}

describe('approvals: the card', () => {
  it('shows a pending EtherChannel delete with what depends on it', () => {
    expectCardGolden('pending-etherchannel', renderCard(record(etherChannel), NOW));
  });

  it('shows a pending rule removal: the rule, the predicted command, and what is already staged', () => {
    expectCardGolden('pending-rule-remove', renderCard(record(ruleRemoval), NOW));
  });

  it('shows a pending rule disabling: the line again with inactive, predicted', () => {
    expectCardGolden('pending-rule-disable', renderCard(record(ruleDisabling), NOW));
  });

  it('shows a pending subinterface delete with its parent, VLAN and addresses', () => {
    expectCardGolden('pending-subinterface', renderCard(record(subinterface), NOW));
  });

  it('shows a pending tenant removal with the device count', () => {
    expectCardGolden('pending-tenant', renderCard(record(tenant), NOW));
  });

  it('shows a pending user removal with every username', () => {
    expectCardGolden('pending-users', renderCard(record(users), NOW));
  });

  it('shows who approved and what happened, without buttons', () => {
    const done = record(etherChannel, {
      state: 'done',
      decidedBy: 'U0BOB',
      decidedAt: NOW,
      outcome: {
        summary: 'Deleted EtherChannel interface uplink (Port-channel1) on asa-hq-01.',
        view: { summary: 'Deleted', blocks: [], visibility: 'in_channel' },
        track: [],
      },
    });
    expectCardGolden('done', renderCard(done, NOW));
  });

  it('shows a rejection with its reason, a cancellation and an expiry, without buttons', () => {
    expectCardGolden(
      'rejected',
      renderCard(
        record(tenant, { state: 'rejected', decidedBy: 'U0BOB', decidedAt: NOW, reason: 'wrong tenant' }),
        NOW,
      ),
    );
    expectCardGolden(
      'cancelled',
      renderCard(record(users, { state: 'cancelled', decidedBy: 'U0ALICE', decidedAt: NOW }), NOW),
    );
    expectCardGolden(
      'expired',
      renderCard(record(subinterface, { state: 'expired', decidedAt: NOW }), NOW + 30 * 60_000),
    );
  });

  it('keeps an SCC name from pinging anyone or forging a link', () => {
    const hostile: Target = {
      ...tenant,
      facts: { tenant: { ...globex, name: 'acme <!channel> <https://evil.example|click>' } },
    };

    const { blocks } = renderBlocks(renderCard(record(hostile), NOW));

    // Slack reads markup only in mrkdwn text; plain_text (headers, the confirm dialog) shows it as typed.
    const markdown = mrkdwnIn(blocks).join('\n');
    expect(markdown).toContain('acme &lt;!channel&gt; &lt;https://evil.example|click&gt;');
    expect(markdown).not.toContain('<!channel>');
    expect(markdown).not.toContain('<https://evil.example');
  });
});
