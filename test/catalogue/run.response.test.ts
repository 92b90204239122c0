// Incident response through the catalogue against the seeded simulator: VPN sessions and a user's MFA
// events as a responder reads them, ending sessions (a user's, a headend's), refreshing them, reconnecting
// an ASA and accepting its new certificate, and one Secure Device Connector.
import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { RESPONSE_PENDING_MS, RESPONSE_RUNNING_MS } from '../../src/simulator/api/response.js';
import { VPN_USERS } from '../../src/simulator/state/seedResponse.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();

const text = async (line: string) => renderText((await h.run(line)).view);
const sessionOf = (user: string, device: string) => {
  const deviceUid = h.sim.deviceUid(device);
  const found = [...h.sim.state.raVpnSessions.values()].find(
    (s) => s.username === user && s.deviceUid === deviceUid,
  );
  if (!found) throw new Error(`no session of ${user} on ${device}`);
  return found;
};

describe('vpn sessions and MFA events', () => {
  it("lists one user's sessions with device names, public address, place and length", async () => {
    const shown = await text('vpn sessions --user eve.kowalski');
    expect(shown).toContain('asa-hq-01');
    expect(shown).toContain('ftd-edge-01');
    expect(shown).toContain('203.0.113.201');
    expect(shown).toContain('Lagos, Nigeria');
    expect(shown).not.toContain('alice.martin');
  });

  it('filters by headend and by a part of the public address', async () => {
    const shown = await text('vpn sessions 198.51.100 --device asa-hq-01');
    expect(shown).toContain(VPN_USERS.alice);
    expect(shown).not.toContain(VPN_USERS.bob);
    expect(shown).not.toContain('ftd-edge-01');
  });

  it('shows one session in full', async () => {
    h.golden('vpn.session', await h.run(`vpn session ${sessionOf(VPN_USERS.eve, 'asa-hq-01').uid}`));
  });

  it("says how many of a user's sign-ins were denied and from how many places", async () => {
    const shown = await text('vpn mfa eve.kowalski');
    expect(shown).toContain('2 denied sign-ins on this page.');
    expect(shown).toContain('Signed in from 2 places.');
    expect(shown).toContain('user_marked_fraud');
  });
});

describe('ending sessions', () => {
  it("ends a user's sessions on every headend they reach, one transaction each, followed", async () => {
    const outcome = await h.run(`vpn disconnect ${VPN_USERS.eve}`);
    h.golden('vpn.disconnect', outcome);
    expect(outcome.track?.map((t) => ('label' in t ? t.label : ''))).toEqual([
      `VPN sessions of ${VPN_USERS.eve} on asa-hq-01`,
      `VPN sessions of ${VPN_USERS.eve} on ftd-edge-01`,
    ]);
    h.sim.clock.advance(RESPONSE_PENDING_MS + RESPONSE_RUNNING_MS);
    expect(sessionOf(VPN_USERS.eve, 'asa-hq-01').status).toBe('TERMINATED');
    expect(sessionOf(VPN_USERS.eve, 'ftd-edge-01').status).toBe('TERMINATED');
    expect(sessionOf(VPN_USERS.alice, 'asa-hq-01').status).toBe('ACTIVE');
  });

  it('ends them on one headend only when asked, and refuses a user with no active session', async () => {
    await h.run(`vpn disconnect ${VPN_USERS.eve} --device ftd-edge-01`);
    h.sim.clock.advance(RESPONSE_PENDING_MS + RESPONSE_RUNNING_MS);
    expect(sessionOf(VPN_USERS.eve, 'ftd-edge-01').status).toBe('TERMINATED');
    expect(sessionOf(VPN_USERS.eve, 'asa-hq-01').status).toBe('ACTIVE');
    await expect(h.run('vpn disconnect eve.kowalski')).rejects.toThrow(
      'eve.kowalski has no active VPN session: `/fw vpn sessions --user eve.kowalski` finds the user name as SCC has it.',
    );
  });

  it('stops an approved disconnect when the user has reached another headend since, or has no session left', async () => {
    const op = catalogue.get('vpn.disconnect');
    const target = op?.target;
    if (!target) throw new Error('vpn.disconnect has no target');
    const { facts } = await target.resolve(h.context(), { user: VPN_USERS.bob });
    const moved = sessionOf(VPN_USERS.bob, 'asa-hq-01');
    const uid = '11111111-2222-4333-8444-555555555555';
    h.sim.state.raVpnSessions.set(uid, { ...moved, uid, deviceUid: h.sim.deviceUid('ftd-edge-02') });
    const read = await target.reread(h.context(), facts);
    if (!read.found) throw new Error(read.reason);
    expect(target.compare(facts, read.facts)).toEqual([
      `${VPN_USERS.bob} now also has a session on ftd-edge-02, which was not approved.`,
    ]);
    for (const s of h.sim.state.raVpnSessions.values())
      if (s.username === VPN_USERS.bob) s.status = 'TERMINATED';
    expect(await target.reread(h.context(), facts)).toEqual({
      found: false,
      reason: `${VPN_USERS.bob} has no active VPN session any more.`,
    });
  });

  it('ends every session of a headend', async () => {
    h.golden('vpn.disconnect-all', await h.run('vpn disconnect-all ftd-edge-02'));
    h.sim.clock.advance(RESPONSE_PENDING_MS + RESPONSE_RUNNING_MS);
    expect(sessionOf(VPN_USERS.farid, 'ftd-edge-02').status).toBe('TERMINATED');
    await expect(h.run('vpn disconnect-all ftd-edge-02')).rejects.toThrow(
      'ftd-edge-02 has no active VPN session.',
    );
  });

  it('asks SCC to read the sessions of the headends again', async () => {
    h.golden('vpn.refresh', await h.run('vpn refresh asa-hq-01 ftd-edge-01'));
    const body = h.sim.requestLog.list().find((e) => e.operationId === 'refreshRaVpnSessionsByDevice');
    expect(body).toBeDefined();
    const all = await text('vpn refresh');
    expect(all).toContain('every headend');
    await expect(h.run('vpn refresh ftd-lab-03')).rejects.toThrow(
      'ftd-lab-03 is not a remote-access VPN headend: it has no sessions to refresh.',
    );
  });
});

describe('reconnecting an ASA and accepting its certificate', () => {
  it('reconnects an unreachable ASA', async () => {
    const hq = h.sim.state.devices.get(h.sim.deviceUid('asa-hq-01'));
    if (!hq) throw new Error('no asa-hq-01');
    hq.device.connectivityState = 'UNREACHABLE';
    h.golden('devices.reconnect', await h.run('devices reconnect asa-hq-01'));
    h.sim.clock.advance(RESPONSE_PENDING_MS + RESPONSE_RUNNING_MS);
    expect(hq.device.connectivityState).toBe('ONLINE');
    await expect(h.run('devices reconnect ftd-edge-01')).rejects.toThrow(
      'SCC reconnects and accepts certificates of ASAs only',
    );
  });

  it('accepts the new certificate of an ASA that presents one, and refuses one that does not', async () => {
    await expect(h.run('devices accept-certificate asa-hq-01')).rejects.toThrow(
      'asa-hq-01 (online) presents no new certificate: there is nothing to accept.',
    );
    const hq = h.sim.state.devices.get(h.sim.deviceUid('asa-hq-01'));
    if (!hq) throw new Error('no asa-hq-01');
    hq.device.connectivityState = 'NEW_CERT_DETECTED';
    h.golden('devices.accept-certificate', await h.run('devices accept-certificate asa-hq-01'));
    h.sim.clock.advance(RESPONSE_PENDING_MS + RESPONSE_RUNNING_MS);
    expect(hq.device.connectivityState).toBe('ONLINE');
  });

  it('shows one connector by name or UUID, with the devices behind it', async () => {
    const shown = await text('connectors show sdc-hq');
    expect(shown).toContain('asa-hq-01');
    const uid = /UUID:\s+(\S+)/.exec(shown)?.[1];
    expect(await text(`connectors show ${uid}`)).toContain('asa-hq-01');
    await expect(h.run('connectors show nowhere')).rejects.toThrow(
      'No Secure Device Connector is named “nowhere”',
    );
  });
});

describe('show shun through the ASA command line', () => {
  const driving = <T>(work: Promise<T>) => driveClock(h.sim.clock, work, { pauseMs: 10 });

  it('says the ASA blocks no address, then names the shunned ones', async () => {
    const none = renderText((await driving(h.run('show asa-hq-01 shun'))).view);
    expect(none).toContain('asa-hq-01 blocks no address with a shun.');
    h.sim.state.shuns.set(h.sim.deviceUid('asa-hq-01'), [
      { address: '198.51.100.7', interface: 'outside', since: h.sim.clock.now() },
    ]);
    const one = renderText((await driving(h.run('show asa-hq-01 shun'))).view);
    expect(one).toContain('asa-hq-01 blocks 1 address with a shun: `198.51.100.7`.');
    expect(one).toContain('shun (outside) 198.51.100.7 0.0.0.0 0 0 0');
    expect(h.sim.requestLog.list().filter((e) => e.operationId === 'executeCliCommand')).toHaveLength(2);
  });
});
