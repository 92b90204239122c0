// The simulator's incident-response operations over HTTP on the manual clock (remote-access VPN sessions,
// MFA events, reconnect, certificate acceptance, one SDC) and the ASA's shuns through SCC's command line:
// `show shun` lists them, a shun removes the address's connections and packet-tracer drops its packets, and
// a reload or a failover loses them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PENDING_MS, CLI_RUNNING_MS } from '../../src/simulator/api/cli.js';
import { RESPONSE_PENDING_MS, RESPONSE_RUNNING_MS } from '../../src/simulator/api/response.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { VPN_USERS } from '../../src/simulator/state/seedResponse.js';
import { type CallOptions, items, obj, type RawResponse, simulator, str } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;

beforeEach(async () => {
  ({ sim, api } = await simulator());
});
afterEach(async () => {
  await sim.stop();
});

/** Lets SCC finish what it was asked, and returns the transaction as it ended. */
async function finished(response: RawResponse): Promise<Record<string, unknown>> {
  expect(response.status, response.text).toBe(202);
  const tx = obj(response);
  sim.clock.advance(RESPONSE_PENDING_MS + RESPONSE_RUNNING_MS);
  return obj(await api('GET', `/v1/transactions/${str(tx.transactionUid)}`));
}

const sessionsOf = async (q: string) => items(await api('GET', '/v1/vpnsessions', { query: { q } }));

describe('remote-access VPN sessions', () => {
  it('lists the seeded sessions newest first, searchable by user, device and status, and reads one', async () => {
    const all = items(await api('GET', '/v1/vpnsessions'));
    expect(all.length).toBeGreaterThanOrEqual(6);
    const logins = all.map((s) => Date.parse(str(s.loginTime)));
    expect(logins).toEqual([...logins].sort((a, b) => b - a));
    const eve = await sessionsOf(`username:"${VPN_USERS.eve}"`);
    expect(eve.map((s) => s.deviceUid).sort()).toEqual(
      [sim.deviceUid('asa-hq-01'), sim.deviceUid('ftd-edge-01')].sort(),
    );
    expect(eve[0]).toMatchObject({ status: 'ACTIVE', location: { country: 'Nigeria' } });
    const one = obj(await api('GET', `/v1/vpnsessions/${str(eve[0]?.uid)}`));
    expect(one).toEqual(eve[0]);
    expect((await api('GET', '/v1/vpnsessions/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it("terminates one user's sessions on a device when the transaction ends, and leaves the others", async () => {
    const hq = sim.deviceUid('asa-hq-01');
    const path = `/v1/vpnsessions/${hq}/terminate/${encodeURIComponent(VPN_USERS.eve)}`;
    const response = await api('POST', path);
    expect(response.status).toBe(202);
    expect(obj(response)).toMatchObject({ transactionType: 'TERMINATE_USER_RA_VPN_SESSIONS', entityUid: hq });
    // Nothing has ended before SCC has done it.
    expect((await sessionsOf(`username:"${VPN_USERS.eve}" AND status:ACTIVE`)).length).toBe(2);
    sim.clock.advance(RESPONSE_PENDING_MS + RESPONSE_RUNNING_MS);
    const tx = obj(await api('GET', `/v1/transactions/${str(obj(response).transactionUid)}`));
    expect(tx).toMatchObject({
      cdoTransactionStatus: 'DONE',
      transactionDetails: { terminatedSessions: '1' },
    });
    const eve = await sessionsOf(`username:"${VPN_USERS.eve}"`);
    expect(eve.find((s) => s.deviceUid === hq)?.status).toBe('TERMINATED');
    expect(eve.find((s) => s.deviceUid !== hq)?.status).toBe('ACTIVE');
    expect((await sessionsOf(`deviceUid:${hq} AND status:ACTIVE`)).length).toBeGreaterThan(0);
  });

  it('terminates every session of a device, and fails on a device SCC cannot reach', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    const tx = await finished(await api('POST', `/v1/vpnsessions/${hq}/terminate`));
    expect(tx.cdoTransactionStatus).toBe('DONE');
    expect(await sessionsOf(`deviceUid:${hq} AND status:ACTIVE`)).toEqual([]);

    const ftd = sim.deviceUid('ftd-edge-01');
    await api('POST', '/_sim/devices/ftd-edge-01/connectivity', {
      body: { connectivityState: 'UNREACHABLE' },
    });
    const failed = await finished(await api('POST', `/v1/vpnsessions/${ftd}/terminate`));
    expect(failed).toMatchObject({
      cdoTransactionStatus: 'ERROR',
      errorMessage: 'The device is not reachable',
    });
    expect((await sessionsOf(`deviceUid:${ftd} AND status:ACTIVE`)).length).toBeGreaterThan(0);
  });

  it('refuses a device that is not an RA VPN headend, and one of another tenant', async () => {
    const lab = sim.deviceUid('ftd-lab-03');
    const refused = await api('POST', `/v1/vpnsessions/${lab}/terminate`);
    expect(refused.status).toBe(400);
    expect(obj(refused).errorCode).toBe('INVALID_INPUT');
    const elsewhere = sim.deviceUid('nw-asa-hq');
    expect((await api('POST', `/v1/vpnsessions/${elsewhere}/terminate`)).status).toBe(404);
    const refresh = await api('POST', '/v1/vpnsessions/refresh', { body: { deviceUids: [lab] } });
    expect(refresh.status).toBe(400);
  });

  it("refreshes the headends' sessions: their last activity and counters move to SCC's reading", async () => {
    const hq = sim.deviceUid('asa-hq-01');
    const [before] = await sessionsOf(`deviceUid:${hq}`);
    sim.clock.advance(60_000);
    const tx = await finished(await api('POST', '/v1/vpnsessions/refresh', { body: { deviceUids: [hq] } }));
    expect(tx).toMatchObject({ transactionType: 'REFRESH_RA_VPN_SESSIONS', cdoTransactionStatus: 'DONE' });
    expect(tx.entityUid).toBeUndefined();
    const after = obj(await api('GET', `/v1/vpnsessions/${str(before?.uid)}`));
    expect(Date.parse(str(after.lastActiveTime))).toBe(sim.clock.now());
    expect(Number(after.bytesRx)).toBeGreaterThan(Number(before?.bytesRx));
  });
});

describe('MFA events', () => {
  it("lists a user's events newest first, with the denied ones and why", async () => {
    const events = items(await api('GET', '/v1/mfaevents', { query: { q: `username:"${VPN_USERS.eve}"` } }));
    expect(events.length).toBe(5);
    const times = events.map((e) => Date.parse(str(e.timestamp)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const denied = items(
      await api('GET', '/v1/mfaevents', { query: { q: `username:"${VPN_USERS.eve}" AND result:DENIED` } }),
    );
    expect(denied.map((e) => e.reason).sort()).toEqual(['invalid_passcode', 'user_marked_fraud']);
    expect(denied[0]).toMatchObject({ clientDevice: { location: { city: 'Lagos' } } });
  });
});

describe('reconnect and certificates', () => {
  it('reconnects an unreachable ASA, and refuses to while it presents a new certificate until accepted', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    await api('POST', '/_sim/devices/asa-hq-01/connectivity', { body: { connectivityState: 'UNREACHABLE' } });
    const done = await finished(await api('POST', `/v1/inventory/devices/asas/${hq}/reconnect`));
    expect(done).toMatchObject({ transactionType: 'RECONNECT_ASA', cdoTransactionStatus: 'DONE' });
    expect(obj(await api('GET', `/v1/inventory/devices/${hq}`)).connectivityState).toBe('ONLINE');

    await api('POST', '/_sim/devices/asa-hq-01/connectivity', {
      body: { connectivityState: 'NEW_CERT_DETECTED' },
    });
    const refused = await finished(await api('POST', `/v1/inventory/devices/asas/${hq}/reconnect`));
    expect(refused.cdoTransactionStatus).toBe('ERROR');
    const accepted = await finished(
      await api('POST', '/v1/inventory/devices/asas/acceptCert', { body: { deviceUids: [hq] } }),
    );
    expect(accepted).toMatchObject({
      transactionType: 'BULK_ACCEPT_ASA_CERTIFICATES',
      cdoTransactionStatus: 'DONE',
      transactionDetails: { acceptedCertificates: '1' },
    });
    expect(obj(await api('GET', `/v1/inventory/devices/${hq}`)).connectivityState).toBe('ONLINE');
  });

  it('refuses to accept certificates of a device that is not an ASA, or none', async () => {
    const ftd = sim.deviceUid('ftd-edge-01');
    const refused = await api('POST', '/v1/inventory/devices/asas/acceptCert', {
      body: { deviceUids: [ftd] },
    });
    expect(refused.status).toBe(400);
    expect((await api('POST', '/v1/inventory/devices/asas/acceptCert', { body: {} })).status).toBe(400);
    expect((await api('POST', `/v1/inventory/devices/asas/${ftd}/reconnect`)).status).toBe(404);
  });

  it('reads one connector by UID, as the list gives it', async () => {
    const [first] = items(await api('GET', '/v1/connectors/sdcs'));
    expect(obj(await api('GET', `/v1/connectors/sdcs/${str(first?.uid)}`))).toEqual(first);
    expect((await api('GET', '/v1/connectors/sdcs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('shuns on the ASA command line', () => {
  /** Runs a script on asa-hq-01 through SCC's command line and returns the device's answer. */
  async function cli(script: string, device = 'asa-hq-01'): Promise<Record<string, unknown>> {
    const response = await api('POST', '/v1/inventory/devices/asas/cli/execute', {
      body: { deviceUids: [sim.deviceUid(device)], script },
    });
    expect(response.status, response.text).toBe(202);
    sim.clock.advance(CLI_PENDING_MS + CLI_RUNNING_MS);
    const [result] = items(await api('GET', str(obj(response).entityUrl).slice(sim.url.length)));
    return result ?? {};
  }
  const trace = 'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443';

  it('lists shuns in the ASA format, drops the address at once, and lifts it with no shun', async () => {
    expect((await cli('show shun')).result).toBe('');
    expect(String((await cli(trace)).result)).toMatch(/Action: allow/);

    const placed = await cli('shun 198.51.100.7\nshow shun');
    expect(placed.errorMsg).toBeUndefined();
    expect(placed.result).toBe('Shun 198.51.100.7 successful\nshun (outside) 198.51.100.7 0.0.0.0 0 0 0\n');
    const dropped = String((await cli(trace)).result);
    expect(dropped).toMatch(/^Result:\ninput-interface: outside\n/);
    expect(dropped).toMatch(/Action: drop\n/);
    expect(dropped).toMatch(/Drop-reason: \(shunned\) /);

    const lifted = await cli('no shun 198.51.100.7\nshow shun');
    expect(lifted.result).toBe('');
    expect(String((await cli(trace)).result)).toMatch(/Action: allow/);
  });

  it("removes the shunned address's connections from show conn address", async () => {
    const before = String((await cli('show conn address 10.1.100.25')).result);
    // `TCP <egress>  <destination>:<port> <ingress>  <source>:<port>, …`: the peer of the address.
    const from = /^(?:TCP|UDP) \S+ {2}(\S+):\d+ \S+ {2}(\S+):\d+,/m
      .exec(before)
      ?.slice(1, 3)
      .find((a) => a !== '10.1.100.25');
    expect(from, before).toBeDefined();
    await cli(`shun ${from}`);
    const after = String((await cli('show conn address 10.1.100.25')).result);
    expect(after).not.toContain(`${from}:`);
    expect(after).toMatch(/^\d+ in use, \d+ most used\n/);
  });

  it('loses every shun on a reload and on a failover, and clear shun lifts them all', async () => {
    await cli('shun 198.51.100.7\nshun 2001:db8::66');
    expect((await cli('show shun')).result).toBe(
      'shun (outside) 198.51.100.7 0.0.0.0 0 0 0\nshun (outside) 2001:db8::66 :: 0 0 0\n',
    );
    expect(obj(await api('POST', '/_sim/devices/asa-hq-01/reload', { body: {} })).shunsLost).toBe(2);
    expect((await cli('show shun')).result).toBe('');

    await cli('shun 198.51.100.7', 'asa-dc-03');
    expect(obj(await api('POST', '/_sim/devices/asa-dc-03/failover', { body: {} })).shunsLost).toBe(1);
    expect((await cli('show shun', 'asa-dc-03')).result).toBe('');

    await cli('shun 198.51.100.7\nshun 198.51.100.8\nclear shun');
    expect((await cli('show shun')).result).toBe('');
  });

  it('refuses a shun of anything but an address, as invalid input that stops the script', async () => {
    const refused = await cli('shun 198.51.100.7; write erase\nshow shun');
    expect(refused.errorMsg).toMatch(/Invalid input/);
    expect(String(refused.result)).not.toContain('shun (');
    expect((await cli('shun 198.51.100.7 reload')).errorMsg).toMatch(/Invalid input/);
    expect((await cli('show shun')).result).toBe('');
  });
});
