// A customer channel reaches its own tenant only, however close another tenant's name is (issue 34, outside
// test, attack 1). SCC tenant names may hold `-` and `_` and are unique ignoring case only, so the portal
// may hold `northwind-us` and `northwind_us`, two customers. Northwind-us's shared channel, with an
// external operator and an external approver (allowed to approve there): naming `northwind_us` from it
// reads nothing of that tenant and asks nothing, with the one sentence another tenant or an unknown name
// gets; their own tenant, named in any case, works and the change lands in it, by UID. Signed requests into
// a real Bolt app behind the workspace binding (external people, Slack saying the channel is shared), the
// approvals service on real Redis, the simulator's MSP portal holding both tenants.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoleGrants, RolePolicy } from '../../src/config/policy.js';
import { AccessControl } from '../../src/policy/access.js';
import { type ApprovalsEnv, startEnv } from '../approvals/support/env.js';
import { buttonsOf, type Card } from '../approvals/support/slackDriver.js';
import { POLICY, SIGNING_SECRET } from '../approvals/support/world.js';
import { interactionBody, postSigned, slashCommandBody } from '../support/slackRequests.js';

const NORTHWIND = 'C0NORTHWND1';
const NORTHWIND_TEAM = 'T0NORTHWND';
const NW_OPERATOR = 'U0NWOPER01';
const NW_LEAD = 'U0NWLEAD01';

function grants(partial: Partial<RoleGrants>): RoleGrants {
  return { viewer: [], operator: [], approver: [], admin: [], ...partial };
}

const policy: RolePolicy = {
  ...POLICY,
  external: new Map([[NORTHWIND, grants({ viewer: ['*'], operator: [NW_OPERATOR], approver: [NW_LEAD] })]]),
  externalApprovers: new Set([NORTHWIND]),
};

/** The channel's one sentence for anything but its own tenant. */
const SCOPED =
  /^This channel is scoped to the tenant `northwind-us`: `\/fw tenants users( add)?` here works on that tenant only\.$/;

describe('a customer channel and a tenant whose name differs only in - or _', () => {
  let env: ApprovalsEnv;
  let otherUid: string;

  beforeAll(async () => {
    const access = new AccessControl({
      policy,
      channels: new Map([[NORTHWIND, { profile: 'default', tenant: 'northwind-us' }]]),
      customerChannels: new Set([NORTHWIND]),
      profiles: ['default'],
    });
    env = await startEnv({}, { access, bindWorkspace: true, sharedChannels: [NORTHWIND] });
    // Another customer, as SCC allows: the name differs from northwind-us in `_` only.
    const made = await fetch(`${env.sim.url}/_sim/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'northwind_us', displayName: 'Northwind Underwriters' }),
    });
    expect(made.status).toBe(201);
    otherUid = ((await made.json()) as { uid: string }).uid;
  });
  afterAll(async () => {
    await env.stop();
  });
  beforeEach(() => {
    env.slack.reset();
  });

  /** /fw <text> typed in northwind's shared channel by one of northwind's people, from their workspace. */
  async function customerAsks(text: string, userId: string): Promise<string> {
    const responseUrl = env.slack.responseUrl();
    const id = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
    const body = slashCommandBody({
      text,
      userId,
      channelId: NORTHWIND,
      teamId: NORTHWIND_TEAM,
      responseUrl,
    });
    expect((await postSigned(env.bot.eventsUrl, SIGNING_SECRET, body)).status).toBe(200);
    const reply = await env.slack.waitFor(
      (c) => c.method === 'response_url' && c.args.responseUrlId === id,
      10_000,
    );
    return String(reply.args.text ?? '');
  }

  /** The tenant paths SCC's user additions went to (the simulator's request log). */
  const addsTo = () =>
    env.sim.requestLog
      .list({ operationId: 'addUsersToTenantInMspPortal' })
      .map((entry) => entry.path)
      .filter((path) => path.endsWith('/users'));
  const usersOf = (uid: string) => env.sim.state.tenants.get(uid)?.users.map((u) => u.username) ?? [];

  it('reads nothing of the other tenant, with the sentence another tenant or an unknown name gets', async () => {
    const otherUsers = usersOf(otherUid);
    const answers = await Promise.all(
      ['northwind_us', 'NORTHWIND_US', otherUid, 'globex-apj', 'no-such-tenant'].map((named) =>
        customerAsks(`tenants users ${named}`, NW_OPERATOR),
      ),
    );
    for (const answer of answers) {
      expect(answer).toMatch(SCOPED);
      for (const username of otherUsers) expect(answer).not.toContain(username);
    }
    // No user list of any tenant was read for these: SCC was asked only which tenants the portal holds.
    expect(await env.sccCalls('getHumanUsersInMspManagedTenant')).toBe(0);
  });

  it('asks nothing for the other tenant: no card, no call, however it is written', async () => {
    for (const named of ['northwind_us', 'Northwind_US', otherUid]) {
      const answer = await customerAsks(
        `tenants users add ${named} mallory@evil.example --role super-admin`,
        NW_OPERATOR,
      );
      expect(answer).toMatch(SCOPED);
    }
    expect(env.slack.calls.filter((c) => c.method === 'chat.postMessage')).toEqual([]);
    expect(await env.sccCalls('addUsersToTenantInMspPortal')).toBe(0);
    expect(usersOf(otherUid)).not.toContain('mallory@evil.example');
  });

  it('works on its own tenant, named in any case, and the change lands in it, by UID', async () => {
    const ownUid = env.sim.tenantUid('northwind-us');
    expect(await customerAsks('tenants users Northwind-US', NW_OPERATOR)).not.toMatch(SCOPED);

    expect(
      await customerAsks(
        'tenants users add NORTHWIND-US ana@northwind.example --role read-only',
        NW_OPERATOR,
      ),
    ).toBe('Asked for approval.');
    const card = postedCard(env);
    expect(await leadApproves(env, card)).toBe(200);
    expect(await env.driver.threadReply(card)).toContain('approved');
    // The add SCC received names northwind-us by its UID (the user joins once SCC's transaction is done).
    await vi.waitFor(() => expect(addsTo()).toEqual([`/v1/msp/tenants/${ownUid}/users`]), {
      timeout: 10_000,
    });
    expect(usersOf(otherUid)).not.toContain('ana@northwind.example');
  });
});

/** The approval card posted in northwind's channel. */
function postedCard(env: ApprovalsEnv): Card {
  const found = [...env.slack.messages().entries()].find(
    ([, message]) => String(message.text ?? '').startsWith('Approval needed') && !message.thread_ts,
  );
  if (!found) throw new Error('no approval card was posted');
  const [key, message] = found;
  const blocks = (Array.isArray(message.blocks) ? message.blocks : []) as Card['blocks'];
  const value = buttonsOf(blocks).find((b) => b.action_id?.startsWith('fw.approval.approve'))?.value ?? '{}';
  return {
    channel: String(message.channel),
    ts: key.slice(key.indexOf('/') + 1),
    id: (JSON.parse(value) as { id: string }).id,
    blocks,
  };
}

/** Northwind's lead, an allowed external approver, clicks Approve on the card in their channel. */
async function leadApproves(env: ApprovalsEnv, card: Card): Promise<number> {
  const element = buttonsOf(card.blocks).find((b) => b.action_id?.startsWith('fw.approval.approve'));
  const payload = {
    type: 'block_actions',
    user: { id: NW_LEAD, team_id: NORTHWIND_TEAM },
    api_app_id: 'A0FWBOT',
    team: { id: NORTHWIND_TEAM, domain: 'northwind' },
    is_ext_shared_channel: true,
    channel: { id: card.channel, name: 'shared' },
    container: { type: 'message', message_ts: card.ts, channel_id: card.channel, is_ephemeral: false },
    message: { type: 'message', ts: card.ts, text: 'Approval needed', blocks: card.blocks },
    trigger_id: `trigger-lead-${card.id}`,
    response_url: env.slack.responseUrl(),
    actions: [
      { type: 'button', action_id: element?.action_id, block_id: 'b', value: element?.value, action_ts: '1' },
    ],
  };
  return (await postSigned(env.bot.eventsUrl, SIGNING_SECRET, interactionBody(payload))).status;
}
