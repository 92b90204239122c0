// Scoped approvers (`approvals.approvers`): a rule on a device query, a profile or a managed tenant gives
// requests on what it covers their own approvers, instead of the channel's approver role, and may ask for
// several of them. Signed requests into a real Bolt app, the simulator answering the device queries, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopedApprovers, scopeOfFacts } from '../../src/approvals/approvers.js';
import type { ApproverRule } from '../../src/config/profilesFileSchema.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { buttonsOf, textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const HQ_RULE = {
  key: 'approvals.approvers[0]',
  devices: 'name:asa-hq-*',
  approvers: [USERS.dave],
};
const BRANCH_RULE = {
  key: 'approvals.approvers[1]',
  profile: 'default',
  devices: 'name:asa-branch-*',
  approvers: [USERS.bob, USERS.dave, USERS.carol],
  minApprovers: 2,
};

describe('approvals: scoped approvers through Slack', () => {
  let env: ApprovalsEnv;
  const ask = (text: string, user: string = USERS.alice) => env.driver.ask(env.bot.eventsUrl, text, user);
  const click = (
    action: 'approve' | 'reject' | 'cancel',
    user: string,
    card: Awaited<ReturnType<typeof ask>>,
  ) => env.driver.click(env.bot.eventsUrl, action, user, card);

  beforeAll(async () => {
    env = await startEnv({ approvers: [HQ_RULE, BRANCH_RULE] });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('refuses someone with the channel’s approver role but not the rule’s, and runs on the rule’s approver', async () => {
    const card = await ask('interfaces delete asa-hq-01 guest');
    expect(textOf(card.blocks)).toContain(
      'One of <@U0DAVE> (`approvals.approvers[0]`) other than the requester decides.',
    );

    await click('approve', USERS.bob, card);
    expect(await env.driver.ephemeral(USERS.bob)).toMatch(
      /you must be one of its approvers .*approvals\.approvers\[0\]/,
    );
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(0);

    await click('approve', USERS.dave, card);
    expect(await env.driver.threadReply(card)).toContain('<@U0ALICE> asked, <@U0DAVE> approved');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(1);
  });

  it('waits for min_approvers distinct approvers, saying who is still needed, then runs once', async () => {
    const card = await ask('interfaces delete asa-branch-02 printers');
    expect(textOf(card.blocks)).toContain('Needs 2 approvals');

    await click('approve', USERS.bob, card);
    expect(await env.driver.ephemeral(USERS.bob, (t) => t.includes('counted'))).toMatch(/counted \(1 of 2\)/);
    const partial = await env.driver.cardUpdate(card, (t) => t.includes('Approved so far by <@U0BOB>'));
    expect(textOf(partial.blocks)).toContain('1 more needed');
    expect(buttonsOf(partial.blocks).length).toBeGreaterThan(0);
    await click('approve', USERS.bob, card);
    expect(await env.driver.ephemeral(USERS.bob, (t) => t.includes('already'))).toMatch(
      /approved this already/,
    );
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(1);

    await click('approve', USERS.carol, card);
    expect(await env.driver.threadReply(card)).toContain('<@U0BOB> and <@U0CAROL> approved');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(2);
  });
});

describe('approvals: which rules cover a request', () => {
  const rules: ApproverRule[] = [
    { key: 'approvals.approvers[0]', devices: 'name:asa-hq-*', approvers: ['U0LEAD00001'], minApprovers: 1 },
    { key: 'approvals.approvers[1]', profile: 'acme', approvers: ['S0NETSEC01'], minApprovers: 2 },
    { key: 'approvals.approvers[2]', tenant: 'contoso-eu', approvers: ['U0MSP00001'], minApprovers: 1 },
  ];
  // SCC answers device queries; here a stand-in that knows which uid each query finds.
  const inQuery = async (query: string, uid: string) => query === 'name:asa-hq-*' && uid === 'hq-uid';

  it('matches a device query on any of the request’s devices', async () => {
    const scope = scopeOfFacts('default', {
      devices: [
        { uid: 'branch-uid', name: 'asa-branch-02' },
        { uid: 'hq-uid', name: 'asa-hq-01' },
      ],
    });
    expect(await scopedApprovers(rules, scope, inQuery)).toEqual({
      principals: ['U0LEAD00001'],
      rules: ['approvals.approvers[0]'],
      minApprovers: 1,
    });
  });

  it('matches a profile rule on the request’s profile, taking the largest min_approvers of all that match', async () => {
    const scope = scopeOfFacts('acme', { device: { uid: 'hq-uid', name: 'asa-hq-01' } });
    expect(await scopedApprovers(rules, scope, inQuery)).toEqual({
      principals: ['U0LEAD00001', 'S0NETSEC01'],
      rules: ['approvals.approvers[0]', 'approvals.approvers[1]'],
      minApprovers: 2,
    });
  });

  it('matches a managed tenant rule on a tenant target and on managed devices’ tenants', async () => {
    const tenant = scopeOfFacts('default', {
      tenant: { uid: 't1', name: 'Contoso-EU', displayName: 'Contoso', deviceCount: 2 },
    });
    expect((await scopedApprovers(rules, tenant, inQuery))?.rules).toEqual(['approvals.approvers[2]']);
    const managed = scopeOfFacts('default', {
      devices: [{ uid: 'd1', name: 'asa-1', tenantUid: 't1', tenantName: 'contoso-eu' }],
    });
    expect((await scopedApprovers(rules, managed, inQuery))?.principals).toEqual(['U0MSP00001']);
  });

  it('leaves a request no rule covers to the channel’s approver role', async () => {
    const scope = scopeOfFacts('default', { device: { uid: 'branch-uid', name: 'asa-branch-02' } });
    expect(await scopedApprovers(rules, scope, inQuery)).toBeUndefined();
  });
});
