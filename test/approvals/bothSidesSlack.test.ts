// Approvals from both sides through Slack (issue 29): in a customer channel shared with the customer
// (Slack Connect), a deletion on its tenant needs the MSP's approver and the customer's. The MSP's approvals
// alone, however many, run nothing; the customer's approver, an external person clicking on the card in
// the shared channel, completes it, and it runs once. Signed requests into a real Bolt app behind the
// workspace binding, the simulator's MSP portal, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessControl } from '../../src/policy/access.js';
import { interactionBody, postSigned } from '../support/slackRequests.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { buttonsOf, type Card, textOf } from './support/slackDriver.js';
import { POLICY, SIGNING_SECRET, TEAM, USERS } from './support/world.js';

const CUSTOMER_CHANNEL = 'C0NORTHWND1';
const CUSTOMER_TEAM = 'T0NORTHWND';
const CUSTOMER_APPROVER = 'U0NWLEAD01';
const RULE = {
  key: 'approvals.approvers[0]',
  tenant: 'northwind-us',
  approvers: [USERS.bob, USERS.dave],
  customerApprovers: [CUSTOMER_APPROVER],
};

/**
 * The customer's approver clicks Approve, from their own organization: on the card in the shared channel,
 * or (`fromHome`) on the same buttons elsewhere, where no channel comes with the click.
 */
async function customerApproves(env: ApprovalsEnv, card: Card, fromHome = false): Promise<number> {
  const element = buttonsOf(card.blocks).find((b) => b.action_id?.startsWith('fw.approval.approve'));
  const where = fromHome
    ? { container: { type: 'view', view_id: 'V0HOME' } }
    : {
        is_ext_shared_channel: true,
        channel: { id: card.channel, name: 'northwind-shared' },
        container: { type: 'message', message_ts: card.ts, channel_id: card.channel, is_ephemeral: false },
        message: { type: 'message', ts: card.ts, text: 'Approval needed', blocks: card.blocks },
      };
  const payload = {
    type: 'block_actions',
    user: { id: CUSTOMER_APPROVER, team_id: CUSTOMER_TEAM },
    api_app_id: 'A0FWBOT',
    team: { id: TEAM, domain: 'fake' },
    ...where,
    trigger_id: `trigger-customer-${card.id}-${fromHome ? 'home' : 'card'}`,
    response_url: env.slack.responseUrl(),
    actions: [
      { type: 'button', action_id: element?.action_id, block_id: 'b', value: element?.value, action_ts: '1' },
    ],
  };
  return (await postSigned(env.bot.eventsUrl, SIGNING_SECRET, interactionBody(payload))).status;
}

async function humanUser(env: ApprovalsEnv, tenantName: string): Promise<string> {
  const tenant = [...env.sim.state.tenants.values()].find((t) => t.name === tenantName);
  const username = tenant?.users.find((u) => !u.apiOnly)?.username;
  if (!username) throw new Error(`the seed has no human user in ${tenantName}`);
  return username;
}

describe('approvals from both sides, through Slack', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    // The channel is a customer channel of northwind-us; it grants the customer's people nothing, and does
    // not allow external approvers: being named in customer_approvers is the customer's approver's grant.
    const access = new AccessControl({
      policy: POLICY,
      channels: new Map([[CUSTOMER_CHANNEL, { profile: 'default', tenant: 'northwind-us' }]]),
      customerChannels: new Set([CUSTOMER_CHANNEL]),
      profiles: ['default'],
    });
    env = await startEnv({ approvers: [RULE] }, { access, bindWorkspace: true });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('runs nothing on the MSP’s approvals alone, then once when the customer’s approver approves', async () => {
    const username = await humanUser(env, 'northwind-us');
    const card = await env.driver.ask(
      env.bot.eventsUrl,
      `tenants users remove northwind-us ${username}`,
      USERS.alice,
      CUSTOMER_CHANNEL,
    );
    expect(textOf(card.blocks)).toContain('one of the customer’s approvers (northwind-us: <@U0NWLEAD01>)');

    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    expect(await env.driver.ephemeral(USERS.bob, (t) => t.includes('counted'))).toBe(
      'Your approval is counted (1 of 2); it still needs one of the customer’s approvers (northwind-us).',
    );
    // A second MSP approval reaches the count, yet the customer's side is still missing.
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.dave, card);
    expect(await env.driver.ephemeral(USERS.dave, (t) => t.includes('counted'))).toBe(
      'Your approval is counted (2 of 2); it still needs one of the customer’s approvers (northwind-us).',
    );
    const waiting = await env.driver.cardUpdate(card, (t) => t.includes('<@U0DAVE>'));
    expect(textOf(waiting.blocks)).toContain('Still needed: one of the customer’s approvers (northwind-us).');
    expect(buttonsOf(waiting.blocks).length).toBeGreaterThan(0);
    expect(await env.sccCalls('deleteUsersFromTenantInMspPortal')).toBe(0);

    expect(await customerApproves(env, card)).toBe(200);
    expect(await env.driver.threadReply(card)).toContain('approved');
    await env.bot.tracker.followedIn(card.ts);
    expect(await env.sccCalls('deleteUsersFromTenantInMspPortal')).toBe(1);
    const record = await env.bot.redis.hmget(
      `${env.prefix}approval:${card.id}`,
      'approvers',
      'approverSides',
    );
    expect(record).toEqual([`${USERS.bob},${USERS.dave},${CUSTOMER_APPROVER}`, 'mmc']);
  });

  it('counts the customer’s approver only on the card in the customer channel', async () => {
    const username = await humanUser(env, 'northwind-us');
    const card = await env.driver.ask(
      env.bot.eventsUrl,
      `tenants users remove northwind-us ${username}`,
      USERS.alice,
      CUSTOMER_CHANNEL,
    );
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    expect(await customerApproves(env, card, true)).toBe(200);
    expect(await env.driver.ephemeral(CUSTOMER_APPROVER)).toBe(
      'You are one of the customer’s approvers (northwind-us) for this request, and they approve it only on its card in <#C0NORTHWND1>, the tenant’s customer channel.',
    );
    const pending = await env.bot.redis.hmget(`${env.prefix}approval:${card.id}`, 'state', 'approvers');
    expect(pending).toEqual(['pending', USERS.bob]);
  });

  it('refuses, in one sentence, to ask for it where the customer’s approvers cannot approve', async () => {
    const username = await humanUser(env, 'northwind-us');
    const answer = await env.driver.command(
      env.bot.eventsUrl,
      `tenants users remove northwind-us ${username}`,
      USERS.alice,
    );
    expect(answer).toBe(
      'Changes on `northwind-us` need one of the customer’s approvers as well (`approvals.approvers[0]` in the profiles file), who approve on the card in that tenant’s customer channel: ask there.',
    );
  });
});
