// Ending a user's VPN sessions and accepting an ASA's new certificate end to end: the card names the
// headends and the sessions, or warns that SCC shows no certificate; nothing reaches SCC before someone
// else approves; then one terminate call per headend (or one accept call), followed in the card's thread.
// Signed requests into a real Bolt app, the simulator behind the real client, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const EVE = 'eve.kowalski@acme.example';

describe('approvals: incident response', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv();
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
