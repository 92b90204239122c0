// Ending a user's VPN sessions and accepting an ASA's new certificate end to end. A disconnect takes the
// responder's fast path like a shun: an operator alone by default, audited, one terminate call per headend;
// when the policy says `response.disconnect_alone: false`, the card names the headends and the sessions
// and nothing reaches SCC before someone else approves. A new certificate's card shows the certificate the
// ASA presents (its fingerprint, from the simulator's management endpoint); a certificate that changed
// meanwhile stops the call. Signed requests into a real Bolt app, the simulator behind the real client,
// real Redis.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentedKeyPair } from '../../src/simulator/state/managementCertificates.js';
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

  const newCertificate = async (name: string) => {
    const record = env.sim.state.devices.get(env.sim.deviceUid(name));
    if (!record) throw new Error(`no ${name}`);
    await setConnectivity(name, 'ONLINE');
    await setConnectivity(name, 'NEW_CERT_DETECTED');
    return record;
  };
  const setConnectivity = async (name: string, connectivityState: string) => {
    const answer = await fetch(`${env.sim.url}/_sim/devices/${name}/connectivity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ connectivityState }),
    });
    expect(answer.status).toBe(200);
  };
  const fingerprintOf = (record: Parameters<typeof presentedKeyPair>[0]) =>
    new X509Certificate(presentedKeyPair(record).cert).fingerprint256;

  it('shows the certificate the ASA presents, its SHA-256 fingerprint, before anyone accepts it', async () => {
    const branch = await newCertificate('asa-branch-02');
    const card = await env.driver.ask(
      env.bot.eventsUrl,
      'devices accept-certificate asa-branch-02',
      USERS.alice,
    );
    const shown = JSON.stringify(card.blocks);
    expect(shown).toContain(`SHA-256  ${fingerprintOf(branch)}`);
    expect(shown).toContain('Subject  CN=ASA Temporary Self Signed Certificate');
    expect(shown).toContain('Issuer   itself (self-signed)');
    expect(textOf(card.blocks)).toContain('compare its SHA-256 with `show crypto ca certificates`');
    expect(await env.sccCalls('bulkAcceptAsaCertificates')).toBe(0);
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    await env.bot.tracker.followedIn(card.ts);
    expect(await env.sccCalls('bulkAcceptAsaCertificates')).toBe(1);
  });

  it('accepts nothing when the ASA presents another certificate by the time it is approved', async () => {
    const hq = await newCertificate('asa-hq-01');
    const approved = fingerprintOf(hq);
    const card = await env.driver.ask(env.bot.eventsUrl, 'devices accept-certificate asa-hq-01', USERS.alice);
    expect(JSON.stringify(card.blocks)).toContain(approved);
    const calls = await env.sccCalls('bulkAcceptAsaCertificates');

    await newCertificate('asa-hq-01');
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);

    const reply = await env.driver.threadReply(card);
    expect(reply).toContain('Nothing was run: the target changed since the request.');
    expect(reply).toContain(
      `the certificate of asa-hq-01 changed since it was approved: now SHA-256 ${fingerprintOf(hq)}, not ${approved}`,
    );
    expect(await env.sccCalls('bulkAcceptAsaCertificates')).toBe(calls);
  });

  it('says plainly when fwbot cannot reach the ASA, and what to check instead', async () => {
    await newCertificate('asa-dc-03');
    // SCC reaches it through its connector; fwbot's look is cut, as by a firewall in between.
    const closed = await fetch(`${env.sim.url}/_sim/devices/asa-dc-03/management`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reachable: false }),
    });
    expect(closed.status).toBe(200);
    const card = await env.driver.ask(env.bot.eventsUrl, 'devices accept-certificate asa-dc-03', USERS.alice);
    const text = textOf(card.blocks);
    expect(text).toContain(
      'fwbot could not reach `198.51.100.30:443`: it closed the connection during the TLS handshake. Check `show crypto ca certificates` on asa-dc-03 before approving.',
    );
    expect(JSON.stringify(card.blocks)).not.toContain('SHA-256  ');
  });
});
