// An access request in a customer channel (issue 36 item 9): a Slack Connect channel bound to the managed
// tenant northwind-us runs `/fw access request` on the tenant's own profile, so only the tenant's ASAs can
// be named or found by `--devices`, and approvals from both sides apply as for every governed change
// (`customer_approvers`): the MSP's approvals alone stage nothing; the customer's approver, clicking on the
// card in the shared channel, completes it and the rule is staged on the tenant's ASA. Bolt real, the
// simulator's MSP portal and the tenant's own token, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessControl } from '../../src/policy/access.js';
import { driveClock } from '../support/driveClock.js';
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
const ASK = 'access request nw-asa-hq tcp 198.51.100.7 10.20.30.40 443 --in outside --reason "vendor portal"';

/** The customer's approver clicks Approve on the card in the shared channel, from their own organization. */
async function customerApproves(env: ApprovalsEnv, card: Card): Promise<number> {
  const element = buttonsOf(card.blocks).find((b) => b.action_id?.startsWith('fw.approval.approve'));
  const payload = {
    type: 'block_actions',
    user: { id: CUSTOMER_APPROVER, team_id: CUSTOMER_TEAM },
    api_app_id: 'A0FWBOT',
    team: { id: TEAM, domain: 'fake' },
    is_ext_shared_channel: true,
    channel: { id: card.channel, name: 'northwind-shared' },
    container: { type: 'message', message_ts: card.ts, channel_id: card.channel, is_ephemeral: false },
    message: { type: 'message', ts: card.ts, text: 'Approval needed', blocks: card.blocks },
    trigger_id: `trigger-customer-${card.id}`,
    response_url: env.slack.responseUrl(),
    actions: [
      { type: 'button', action_id: element?.action_id, block_id: 'b', value: element?.value, action_ts: '1' },
    ],
  };
  return (await postSigned(env.bot.eventsUrl, SIGNING_SECRET, interactionBody(payload))).status;
}

describe('approvals: an access request in a customer channel', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    const access = new AccessControl({
      policy: POLICY,
      channels: new Map([
        [CUSTOMER_CHANNEL, { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' }],
      ]),
      customerChannels: new Set([CUSTOMER_CHANNEL]),
      profiles: ['default', 'northwind'],
    });
    env = await startEnv(
      { approvers: [RULE] },
      {
        access,
        bindWorkspace: true,
        profiles: (sim) => ({ northwind: sim.mintTenantToken(sim.tenantUid('northwind-us')) }),
      },
    );
    // The seed gives the tenants' ASAs a policy but no interfaces: nw-asa-hq gets asa-hq-01's, so the
    // request's input interface (outside) is there to trace from, as on any ASA.
    const from = env.sim.deviceUid('asa-hq-01');
    const to = env.sim.deviceUid('nw-asa-hq');
    const interfaces = env.sim.state.interfaces;
    let n = 0;
    for (const record of [...interfaces.values()].filter((i) => i.deviceUid === from)) {
      n += 1;
      const uid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      interfaces.set(uid, { ...record, uid, deviceUid: to });
    }
  });
  afterAll(async () => {
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

  it('sees only the tenant’s own ASAs, by name and by --devices', async () => {
    const other = (
      await driving(
        env.driver.commandReply(
          env.bot.eventsUrl,
          'access request asa-dc-03 tcp 198.51.100.7 10.20.30.40 443 --in outside --reason "x"',
          USERS.alice,
          CUSTOMER_CHANNEL,
        ),
      )
    ).text;
    expect(other).toContain('No device named “asa-dc-03” in the inventory');
    // The tenant's object sharing is off (the seed's): the objects cannot be made, said for each ASA before
    // anyone approves; the query found the tenant's two ASAs and no other tenant's.
    const many = (
      await driving(
        env.driver.commandReply(
          env.bot.eventsUrl,
          'access request --devices name:*asa* tcp 198.51.100.7 10.20.30.40 443 --in outside --reason "vendor"',
          USERS.alice,
          CUSTOMER_CHANNEL,
        ),
      )
    ).text;
    expect(many).toContain('Nothing to stage on the 2 ASAs `name:*asa*` finds');
    for (const device of ['nw-asa-hq', 'nw-asa-branch'])
      expect(many).toContain(
        `\`${device}\` is left out: Object sharing is off for this tenant in SCC, and SCC changes objects only while it is on, so fwbot cannot create fwbot-h-198.51.100.7 and fwbot-h-10.20.30.40`,
      );
    // Only the tenant's ASAs: not the FTD, not another tenant's.
    expect(many).not.toContain('nw-ftd-edge');
    expect(many).not.toContain('asa-hq-01');
    expect(await env.sccCalls('createObject')).toBe(0);
  });

  it('stages nothing on the MSP’s approvals alone; the customer’s approver on the shared card completes it', async () => {
    const sharing = await fetch(`${env.sim.url}/_sim/tenants/northwind-us/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ objectSharingEnabled: true }),
    });
    expect(sharing.status).toBe(200);
    const card = await driving(env.driver.ask(env.bot.eventsUrl, ASK, USERS.alice, CUSTOMER_CHANNEL));
    const text = textOf(card.blocks);
    expect(text).toContain('let `198.51.100.7` reach `10.20.30.40` on tcp/443 through `nw-asa-hq`');
    expect(text).toContain('one of the customer’s approvers (northwind-us: <@U0NWLEAD01>)');

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.dave, card));
    const waiting = await driving(env.driver.cardUpdate(card, (t) => t.includes('<@U0DAVE>')));
    expect(textOf(waiting.blocks)).toContain('Still needed: one of the customer’s approvers (northwind-us).');
    expect(await env.sccCalls('createAccessRule')).toBe(0);

    expect(await driving(customerApproves(env, card))).toBe(200);
    const staged = await driving(env.driver.threadReply(card, (t) => t.includes('add the access rule')));
    expect(staged).toContain('to nw-asa-hq and deploy it');
    expect(await env.sccCalls('createAccessRule')).toBe(1);
    const record = await env.bot.redis.hmget(`${env.prefix}approval:${card.id}`, 'approverSides');
    expect(record).toEqual(['mmc']);
  });
});
