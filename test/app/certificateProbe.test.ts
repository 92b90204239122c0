// The look at the certificate a device presents: a TLS handshake to the simulator's management endpoint
// (one per simulated ASA, chosen by the server name), and the plain sentences of a look that finds nothing.
import { X509Certificate } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateProbe, parseManagementAddress } from '../../src/app/certificateProbe.js';
import { managementRoute, type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { MANAGEMENT_KEY_PAIRS, presentedKeyPair } from '../../src/simulator/state/managementCertificates.js';

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('certificate probe', () => {
  let sim: SimulatorHandle;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.stop();
  });

  const record = (name: string) => {
    const found = sim.state.devices.get(sim.deviceUid(name));
    if (!found) throw new Error(`no ${name}`);
    return found;
  };

  it("shows the certificate a simulated ASA presents: Node's own fingerprint of its PEM", async () => {
    const probe = createCertificateProbe({ route: managementRoute(sim.managementPort) });
    const asa = record('asa-dc-03');
    const expected = new X509Certificate(presentedKeyPair(asa).cert);

    const look = await probe.presented(asa.device.address ?? '');

    expect(look).toEqual({
      seen: {
        sha256: expected.fingerprint256,
        subject: 'CN=ASA Temporary Self Signed Certificate',
        issuer: 'CN=ASA Temporary Self Signed Certificate',
        validFrom: new Date(expected.validFrom).toISOString(),
        validTo: new Date(expected.validTo).toISOString(),
        selfSigned: true,
      },
    });
  });

  it('sees the next certificate once the ASA is set to NEW_CERT_DETECTED', async () => {
    const probe = createCertificateProbe({ route: managementRoute(sim.managementPort) });
    const asa = record('asa-hq-01');
    const address = asa.device.address ?? '';
    const before = await probe.presented(address);

    const answer = await fetch(`${sim.url}/_sim/devices/asa-hq-01/connectivity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ connectivityState: 'NEW_CERT_DETECTED' }),
    });
    expect(answer.status).toBe(200);
    const after = await probe.presented(address);

    expect('seen' in before && 'seen' in after).toBe(true);
    if (!('seen' in before && 'seen' in after)) return;
    expect(after.seen.sha256).not.toBe(before.seen.sha256);
    expect(MANAGEMENT_KEY_PAIRS.map((p) => new X509Certificate(p.cert).fingerprint256)).toContain(
      after.seen.sha256,
    );
  });

  it('says plainly that nothing listens at an address', async () => {
    const closed = createServer();
    const port = await listening(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const probe = createCertificateProbe();

    expect(await probe.presented(`127.0.0.1:${port}`)).toEqual({
      unreachable: 'the connection was refused (nothing listens on that port)',
    });
  });

  it('says a port that answers in something other than TLS', async () => {
    // It reads what it is sent (resume) so that it sees the probe leave, and closes.
    const plain = createServer((socket) => socket.resume().end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const port = await listening(plain);
    try {
      const look = await createCertificateProbe().presented(`127.0.0.1:${port}`);
      expect(look).toEqual({ unreachable: expect.stringMatching(/TLS/) });
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it('gives up after its timeout on a port that never answers the handshake', async () => {
    const held = new Set<Socket>();
    const silent = createServer((socket) => held.add(socket));
    const port = await listening(silent);
    try {
      const look = await createCertificateProbe({ timeoutMs: 300 }).presented(`127.0.0.1:${port}`);
      expect(look).toEqual({ unreachable: 'no TLS handshake within 0.3 s' });
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('gives no certificate for an ASA the simulator has UNREACHABLE', async () => {
    const probe = createCertificateProbe({ route: managementRoute(sim.managementPort) });
    const asa = record('asa-branch-02');
    asa.device.connectivityState = 'UNREACHABLE';
    try {
      expect(await probe.presented(asa.device.address ?? '')).toEqual({
        unreachable: expect.stringMatching(
          /closed the connection during the TLS handshake|TLS handshake failed/,
        ),
      });
    } finally {
      asa.device.connectivityState = 'ONLINE';
    }
  });

  it('refuses an address that is neither an IP address nor a DNS name before connecting', async () => {
    expect(await createCertificateProbe().presented('bad host;rm -rf:443')).toEqual({
      unreachable: 'its address cannot be used: “bad host;rm -rf” is neither an IP address nor a DNS name',
    });
    expect(parseManagementAddress('asa.example.com:8443')).toEqual({
      host: 'asa.example.com',
      port: 8443,
      servername: 'asa.example.com',
    });
    expect(parseManagementAddress('[2001:db8::1]:443')).toEqual({ host: '2001:db8::1', port: 443 });
    expect(parseManagementAddress('198.51.100.10')).toEqual({ host: '198.51.100.10', port: 443 });
    expect(parseManagementAddress('198.51.100.10:99999')).toEqual({
      problem: 'its port “99999” is not a TCP port',
    });
  });
});
