// Ending a user's VPN sessions and accepting an ASA's new certificate end to end. A disconnect takes the
// responder's fast path like a shun: an operator alone by default, audited, one terminate call per headend;
// when the policy says `response.disconnect_alone: false`, the card names the headends and the sessions
// and nothing reaches SCC before someone else approves. A new certificate's card warns that SCC shows no
// certificate. Signed requests into a real Bolt app, the simulator behind the real client, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const EVE = 'eve.kowalski@acme.example';

describe('approvals: a VPN disconnect by the fast path (the default policy)', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => {
    await env.stop();
  });

  it('refuses a viewer, and sends nothing', async () => {
    expect(await env.driver.command(env.bot.eventsUrl, `vpn disconnect ${EVE}`, USERS.carol)).toMatch(
      /operator/,
    );
    expect(await env.sccCalls('terminateRaVpnSessionsByDeviceAndUserName')).toBe(0);
  });

  it('lets an operator end the sessions alone, one call per headend, and audits it', async () => {
    const reply = await env.driver.commandReply(env.bot.eventsUrl, `vpn disconnect ${EVE}`, USERS.alice);
    expect(textOf(reply.blocks)).toContain('end the VPN sessions of');
    expect(await env.sccCalls('terminateRaVpnSessionsByDeviceAndUserName')).toBe(2);
    const [record] = await env.bot.approvals.audit.latest(1);
    expect(record).toMatchObject({
      action: 'executed',
      actor: USERS.alice,
      operationId: 'vpn.disconnect',
      target: `VPN sessions of ${EVE} on asa-hq-01, ftd-edge-01`,
    });
  });
});

describe('approvals: incident response with a second person (disconnect_alone: false)', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({}, { response: { shunAloneUpToMs: 4 * 3_600_000, disconnectAlone: false } });
  });
  afterAll(async () => {
    await env.stop();
  });

  it("names the user's headends on the card, and ends the sessions once approved, one call per headend", async () => {
    const card = await env.driver.ask(env.bot.eventsUrl, `vpn disconnect ${EVE}`, USERS.alice);
    const text = textOf(card.blocks);
    expect(text).toContain('asa-hq-01 (1 session), ftd-edge-01 (1 session)');
    expect(text).toContain('Ending a session does not stop the user signing in again');
    expect(await env.sccCalls('terminateRaVpnSessionsByDeviceAndUserName')).toBe(0);

    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    const followed = await env.bot.tracker.followedIn(card.ts);
    expect(followed.request).toMatchObject({ kind: 'transaction', transactionUid: expect.any(String) });
    expect(await env.sccCalls('terminateRaVpnSessionsByDeviceAndUserName')).toBe(2);
  });

  it('warns that SCC shows no certificate before anyone accepts one', async () => {
    const branch = env.sim.state.devices.get(env.sim.deviceUid('asa-branch-02'));
    if (!branch) throw new Error('no asa-branch-02');
    branch.device.connectivityState = 'NEW_CERT_DETECTED';
    const card = await env.driver.ask(
      env.bot.eventsUrl,
      'devices accept-certificate asa-branch-02',
      USERS.alice,
    );
    expect(textOf(card.blocks)).toContain('SCC accepts the certificate without showing it');
    expect(await env.sccCalls('bulkAcceptAsaCertificates')).toBe(0);
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    await env.bot.tracker.followedIn(card.ts);
    expect(await env.sccCalls('bulkAcceptAsaCertificates')).toBe(1);
  });
});
