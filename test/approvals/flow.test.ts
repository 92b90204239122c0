// The approval flow end to end: signed requests into a real Bolt app, the SCC simulator behind the real
// client, real Redis, the fake Slack Web API recording what people see.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interfacesDelete } from '../../src/catalogue/interfaces.js';
import type { OperationContext } from '../../src/catalogue/operation.js';
import { PermissionError } from '../../src/model/errors.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { buttonsOf, textOf } from './support/slackDriver.js';
import { CHANNEL, USERS } from './support/world.js';

const MINUTE = 60_000;

describe('approvals: the flow', () => {
  let env: ApprovalsEnv;
  const ask = (text: string, user: string = USERS.alice) => env.driver.ask(env.bot.eventsUrl, text, user);
  const click = (
    ...args: Parameters<ApprovalsEnv['driver']['click']> extends [string, ...infer R] ? R : never
  ) => env.driver.click(env.bot.eventsUrl, ...args);

  beforeAll(async () => {
    env = await startEnv();
  });

  afterAll(async () => {
    await env.stop();
  });

  it('posts a card that says exactly what will be deleted, and what depends on it', async () => {
    const card = await ask('interfaces delete asa-hq-01 uplink');

    const text = textOf(card.blocks);
    expect(text).toContain(
      '<@U0ALICE> asks to *delete the EtherChannel `uplink (Port-channel1)` on `asa-hq-01`*',
    );
    expect(text).toContain('*Members*\nGigabitEthernet1/4, GigabitEthernet1/5');
    expect(text).toContain('*IPv4*\n10.2.0.1/24');
    expect(text).toContain('Its subinterfaces depend on it: servers (Port-channel1.300) VLAN 300.');
    expect(text).toContain(
      'Its member ports are freed from the EtherChannel: GigabitEthernet1/4, GigabitEthernet1/5.',
    );
    const buttons = buttonsOf(card.blocks);
    expect(buttons.map((b) => b.action_id?.split(':')[0])).toEqual([
      'fw.approval.approve',
      'fw.approval.reject',
      'fw.approval.cancel',
    ]);
    expect(buttons[0]?.confirm?.text?.text).toContain(
      'delete the EtherChannel uplink (Port-channel1) on asa-hq-01',
    );
    const context = card.blocks.find((b) => b.type === 'context');
    expect(JSON.stringify(context)).toMatch(
      // A card read around midnight dates the expiry: `expires 2026-11-25 00:05 UTC`.
      /requested by <@U0ALICE> at \d\d:\d\d UTC · expires (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC/,
    );
    expect(await env.sccCalls('deleteAsaEtherChannelInterface')).toBe(0);
  });

  it('runs the delete once an approver approves, removes the buttons and reports in the thread', async () => {
    const card = await ask('interfaces delete asa-hq-01 guest');

    expect(await click('approve', USERS.bob, card)).toBe(200);

    const reply = await env.driver.threadReply(card);
    expect(reply).toContain('<@U0ALICE> asked, <@U0BOB> approved');
    const final = await env.driver.cardUpdate(
      card,
      (t) => t.includes('Approved by <@U0BOB>') && !t.includes('running'),
    );
    expect(buttonsOf(final.blocks)).toEqual([]);
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(1);
    const vlans = await env.bot.scc.interfaces.vlan.list(env.sim.deviceUid('asa-hq-01'));
    expect(vlans.items?.map((v) => v.name)).not.toContain('guest');
  });

  it('refuses the requester as approver (four eyes), unless the policy allows it', async () => {
    const card = await ask('interfaces delete asa-branch-02 printers', USERS.olga);

    await click('approve', USERS.olga, card);

    expect(await env.driver.ephemeral(USERS.olga)).toContain(
      'you cannot approve it: another person with the approver role must',
    );
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(1); // the earlier test's one only
    expect(buttonsOf(env.driver.current(card).blocks)).toHaveLength(3);

    const smallTeam = await env.startBot({ allowSelfApproval: true });
    await env.driver.click(smallTeam.eventsUrl, 'approve', USERS.olga, card);
    await env.driver.threadReply(card);
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(2);
  });

  it('refuses an approver role it cannot find', async () => {
    const card = await ask('tenants remove initech-aus');

    await click('approve', USERS.carol, card);

    expect(await env.driver.ephemeral(USERS.carol)).toContain('you need the approver role');
    expect(await env.sccCalls('revokeTenantFromMspPortal')).toBe(0);
    expect(buttonsOf(env.driver.current(card).blocks)).toHaveLength(3);
  });

  it('shows a tenant by name and device count', async () => {
    const card = await ask('tenants remove globex-apj');

    const text = textOf(card.blocks);
    expect(text).toContain('asks to *remove tenant `globex-apj` from the MSP portal*');
    expect(text).toContain('*Devices in tenant*\n32');
    expect(text).toContain('The tenant manages 32 devices');
  });

  it('rejects with a reason given in a small modal', async () => {
    const card = await ask('interfaces delete asa-hq-01 iot');

    await click('reject', USERS.bob, card);
    expect(await env.driver.submitReason(env.bot.eventsUrl, USERS.bob, 'wrong device, use the lab ASA')).toBe(
      200,
    );

    const final = await env.driver.cardUpdate(card, (t) => t.includes('Rejected by'));
    expect(textOf(final.blocks)).toContain('Rejected by <@U0BOB>');
    expect(textOf(final.blocks)).toContain(': wrong device, use the lab ASA');
    expect(buttonsOf(final.blocks)).toEqual([]);
    expect(await env.driver.threadReply(card)).toContain('<@U0ALICE>, your request was rejected by <@U0BOB>');

    await click('approve', USERS.dave, card);
    expect(await env.driver.ephemeral(USERS.dave)).toBe('This request is already rejected by <@U0BOB>.');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(2);
  });

  it('lets only the requester cancel', async () => {
    const card = await ask('interfaces delete asa-dc-03 storage');

    await click('cancel', USERS.bob, card);
    expect(await env.driver.ephemeral(USERS.bob, (t) => t.includes('cancel'))).toBe(
      'Only <@U0ALICE>, who asked, can cancel this request.',
    );
    await click('cancel', USERS.alice, card);

    const final = await env.driver.cardUpdate(card, (t) => t.includes('Cancelled by'));
    expect(buttonsOf(final.blocks)).toEqual([]);
    await click('approve', USERS.dave, card);
    expect(await env.driver.ephemeral(USERS.dave, (t) => t.includes('cancelled'))).toBe(
      'This request is cancelled by <@U0ALICE>.',
    );
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(2);
  });

  it('expires: the sweeper updates the card and the buttons stop working', async () => {
    const card = await ask('interfaces delete asa-dc-03 web');

    env.clock.advance(30 * MINUTE + 1);
    // Cards of earlier tests that nobody decided expire in the same sweep.
    expect(await env.bot.approvals.sweepExpired()).toBeGreaterThanOrEqual(1);

    const final = await env.driver.cardUpdate(card, (t) => t.includes('Expired at'));
    expect(buttonsOf(final.blocks)).toEqual([]);
    await click('approve', USERS.bob, card);
    expect(await env.driver.ephemeral(USERS.bob, (t) => t.includes('expired'))).toBe(
      'This request is expired.',
    );
    expect(await env.sccCalls('deleteAsaSubInterface')).toBe(0);
  });

  it('expires on a click that comes after the deadline, before any sweep', async () => {
    const card = await ask('interfaces delete asa-dc-03 app');

    env.clock.advance(30 * MINUTE);
    await click('approve', USERS.bob, card);

    expect(await env.driver.ephemeral(USERS.bob, (t) => t.includes('has expired'))).toBe(
      'This request has expired; nothing was run.',
    );
    await env.driver.cardUpdate(card, (t) => t.includes('Expired at'));
    expect(await env.bot.approvals.sweepExpired()).toBe(0);
    expect(await env.sccCalls('deleteAsaSubInterface')).toBe(0);
  });

  it('hands a 202 to the tracking queue, in the card’s thread', async () => {
    const tenant = [...env.sim.state.tenants.values()].find((t) => t.name === 'contoso-eu');
    const username = tenant?.users.find((u) => !u.apiOnly)?.username;
    if (!username) throw new Error('the seed has no human user in contoso-eu');
    const card = await ask(`tenants users remove contoso-eu ${username}`);
    expect(textOf(card.blocks)).toContain(`*Usernames*\n${username}`);

    await click('approve', USERS.dave, card);

    const followed = await env.bot.tracker.followedIn(card.ts);
    expect(await env.sccCalls('deleteUsersFromTenantInMspPortal')).toBe(1);
    expect(followed.request.kind).toBe('transaction');
    expect(followed.thread).toEqual({
      channelId: card.channel,
      threadTs: card.ts,
      requesterId: USERS.alice,
      profile: 'default',
      // The workspace its reports go out with, and who approved (a Cancel… there is four-eyes too).
      teamId: 'T0FAKE',
      approvedBy: [USERS.dave],
    });
  });

  it('puts VPN client upgrades behind an approval when the policy says so', async () => {
    const strict = await env.startBot({ operations: { 'vpn.upgrade': 'four-eyes' } });
    const card = await env.driver.ask(
      strict.eventsUrl,
      'vpn upgrade asa-hq-01 asa-dc-03 --version 5.1.8.105',
      USERS.alice,
    );
    const text = textOf(card.blocks);
    expect(text).toContain('asks to *upgrade Secure Client to `5.1.8.105` on 2 devices*');
    expect(text).toContain('*Devices*\nasa-hq-01, asa-dc-03');
    expect(await env.sccCalls('triggerSecureClientUpgrade')).toBe(0);

    await env.driver.click(strict.eventsUrl, 'approve', USERS.bob, card);

    const followed = await strict.tracker.followedIn(card.ts);
    expect(followed.request.kind).toBe('upgradeRun');
    expect(await env.sccCalls('triggerSecureClientUpgrade')).toBe(1);
  });

  it('runs VPN client upgrades at once when the policy does not ask for approval', async () => {
    const answer = await env.driver.command(
      env.bot.eventsUrl,
      'vpn upgrade asa-branch-02 --version 5.1.8.105',
      USERS.alice,
    );

    expect(answer).not.toBe('Asked for approval.');
    expect(await env.sccCalls('triggerSecureClientUpgrade')).toBe(2);
  });

  it('refuses a request whose target does not exist, and posts no card', async () => {
    const before = env.slack.callsTo('chat.postMessage').length;

    const answer = await env.driver.command(
      env.bot.eventsUrl,
      'interfaces delete asa-hq-01 no-such-port',
      USERS.alice,
    );

    expect(answer).toContain('asa-hq-01 has no interface named “no-such-port”');
    expect(env.slack.callsTo('chat.postMessage')).toHaveLength(before);
  });

  it('re-checks the operator role itself rather than trusting its caller', async () => {
    const before = env.slack.callsTo('chat.postMessage').length;
    const ctx: OperationContext = {
      scc: env.bot.scc,
      profile: 'default',
      actor: { userId: USERS.bob, channelId: CHANNEL },
      requestId: 'req-direct',
      log: pino({ level: 'silent' }),
      now: env.clock,
    };

    const asked = env.bot.approvals.gate.request({
      operation: interfacesDelete,
      raw: { device: 'asa-hq-01', interface: 'iot' },
      target: {
        facts: {},
        description: { action: 'delete iot', line: 'iot on asa-hq-01', fields: [], warnings: [] },
      },
      ctx,
      commandText: '/fw interfaces delete asa-hq-01 iot',
      role: 'operator',
    });

    await expect(asked).rejects.toThrow(PermissionError);
    expect(env.slack.callsTo('chat.postMessage')).toHaveLength(before);
  });

  it('reads SCC a bounded number of times for one approved delete, from the request to the outcome', async () => {
    // Last in this file: it deletes iot, which earlier tests ask about.
    const since = env.sim.requestLog.total;
    const card = await ask('interfaces delete asa-hq-01 iot');
    const beforeCard = env.sim.requestLog.list({ since }).map((e) => e.operationId);
    await click('approve', USERS.bob, card);
    await env.driver.threadReply(card);
    const all = env.sim.requestLog.list({ since }).map((e) => e.operationId);

    // The request: the device by name, then its five interface lists at once (two rounds); the
    // execution: the interface again by UUID, the one DELETE, then one read of the device's two copies of
    // its configuration, so the outcome can say what is now staged on it.
    expect(beforeCard).toEqual(expect.arrayContaining(['getDevices', 'getAsaVlanInterfaces']));
    expect(beforeCard).toHaveLength(6);
    expect(all.slice(beforeCard.length)).toEqual([
      'getAsaVlanInterface',
      'deleteAsaVlanInterface',
      'getAsaConfiguration',
    ]);
    if (process.env.SHOW_COUNTS) console.log(`approved delete: ${all.length} SCC calls`, all);
  });
});
