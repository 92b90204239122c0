// A customer's approval click is good for their own tenant's cards only (issue 29, Slack Connect). Two
// customer channels shared with their customers: northwind-us's, where northwind's lead is an allowed
// external approver, and globex-apj's. Northwind's lead takes the Approve button of a card posted in
// globex's channel and replays it, signed by Slack, into their own channel, where the workspace binding
// lets them in: the approval is refused (they hold no role in the channel the request was asked in),
// nothing runs, and the refusal is in the audit trail. Also, by default (no allow_external_approvers) a
// customer named as an approver cannot approve even on their own tenant's card. Signed requests into a real
// Bolt app behind the workspace binding, the simulator's MSP portal, real Redis.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RoleGrants, RolePolicy } from '../../src/config/policy.js';
import { AccessControl } from '../../src/policy/access.js';
import { type ApprovalsEnv, startEnv } from '../approvals/support/env.js';
import { buttonsOf, type Card } from '../approvals/support/slackDriver.js';
import { POLICY, SIGNING_SECRET, TEAM, USERS } from '../approvals/support/world.js';
import { interactionBody, postSigned } from '../support/slackRequests.js';

const NORTHWIND = 'C0NORTHWND1';
/** Northwind's second shared channel, left with the default: external approvers do not count. */
const NORTHWIND_DEFAULT = 'C0NORTHWND2';
const GLOBEX = 'C0GLOBEX001';
const NORTHWIND_TEAM = 'T0NORTHWND';
const NORTHWIND_LEAD = 'U0NWLEAD01';

function grants(partial: Partial<RoleGrants>): RoleGrants {
  return { viewer: [], operator: [], approver: [], admin: [], ...partial };
}

const policy: RolePolicy = {
  ...POLICY,
  external: new Map([
    [NORTHWIND, grants({ viewer: ['*'], approver: [NORTHWIND_LEAD] })],
    [NORTHWIND_DEFAULT, grants({ viewer: ['*'], approver: [NORTHWIND_LEAD] })],
    [GLOBEX, grants({ viewer: ['*'] })],
  ]),
  externalApprovers: new Set([NORTHWIND]),
};

/** Northwind's lead clicks Approve on `card`'s button, from their own workspace, as if in `channel`. */
async function leadClicks(env: ApprovalsEnv, card: Card, channel: string): Promise<number> {
  const element = buttonsOf(card.blocks).find((b) => b.action_id?.startsWith('fw.approval.approve'));
  const payload = {
    type: 'block_actions',
    user: { id: NORTHWIND_LEAD, team_id: NORTHWIND_TEAM },
    api_app_id: 'A0FWBOT',
    team: { id: TEAM, domain: 'fake' },
    is_ext_shared_channel: true,
    channel: { id: channel, name: 'shared' },
    container: { type: 'message', message_ts: card.ts, channel_id: channel, is_ephemeral: false },
    message: { type: 'message', ts: card.ts, text: 'Approval needed', blocks: card.blocks },
    trigger_id: `trigger-lead-${card.id}-${channel}`,
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

describe('a customer’s approval click', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    const access = new AccessControl({
      policy,
      channels: new Map([
        [NORTHWIND, { profile: 'default', tenant: 'northwind-us' }],
        [NORTHWIND_DEFAULT, { profile: 'default', tenant: 'northwind-us' }],
        [GLOBEX, { profile: 'default', tenant: 'globex-apj' }],
      ]),
      customerChannels: new Set([NORTHWIND, NORTHWIND_DEFAULT, GLOBEX]),
      profiles: ['default'],
    });
    env = await startEnv({}, { access, bindWorkspace: true });
  });
  afterAll(async () => {
    await env.stop();
  });
  beforeEach(() => {
    // Each test reads the answers to its own clicks only.
    env.slack.reset();
  });

  it('on a card from another tenant’s channel, replayed into their own channel, is refused and audited', async () => {
    const username = await humanUser(env, 'globex-apj');
    const card = await env.driver.ask(
      env.bot.eventsUrl,
      `tenants users remove globex-apj ${username}`,
      USERS.alice,
      GLOBEX,
    );
    expect(await leadClicks(env, card, NORTHWIND)).toBe(200);
    expect(await env.driver.ephemeral(NORTHWIND_LEAD)).toBe(
      'To approve requests you need the approver role in this channel; you do not hold it.',
    );
    const record = await env.bot.redis.hmget(`${env.prefix}approval:${card.id}`, 'state', 'approvers');
    expect(record[0]).toBe('pending');
    expect(record[1] ?? '').not.toContain(NORTHWIND_LEAD);
    expect(await env.sccCalls('deleteUsersFromTenantInMspPortal')).toBe(0);
    const audited = await env.bot.approvals.audit.latest(10);
    expect(audited).toContainEqual(
      expect.objectContaining({
        actor: NORTHWIND_LEAD,
        action: 'refused',
        outcome: 'approve refused: not an approver',
      }),
    );
  });

  it('counts on their own tenant’s card where external approvers are allowed, and not by default', async () => {
    const username = await humanUser(env, 'northwind-us');
    const byDefault = await env.driver.ask(
      env.bot.eventsUrl,
      `tenants users remove northwind-us ${username}`,
      USERS.alice,
      NORTHWIND_DEFAULT,
    );
    expect(await leadClicks(env, byDefault, NORTHWIND_DEFAULT)).toBe(200);
    expect(await env.driver.ephemeral(NORTHWIND_LEAD)).toBe(
      'To approve requests you need the approver role in this channel; you do not hold it.',
    );
    const stillPending = await env.bot.redis.hmget(`${env.prefix}approval:${byDefault.id}`, 'state');
    expect(stillPending).toEqual(['pending']);

    const allowed = await env.driver.ask(
      env.bot.eventsUrl,
      `tenants users remove northwind-us ${username}`,
      USERS.alice,
      NORTHWIND,
    );
    expect(await leadClicks(env, allowed, NORTHWIND)).toBe(200);
    expect(await env.driver.threadReply(allowed)).toContain('approved');
  });
});
