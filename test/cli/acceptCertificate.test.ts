// The CLI shows the certificate an ASA presents before `--yes` accepts it, as the bot's card does: the
// look needs no Redis, so the CLI always has it (here sent to the simulator's management endpoint).
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateProbe } from '../../src/app/certificateProbe.js';
import { EXIT } from '../../src/cli/cli.js';
import { managementRoute, type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { presentedKeyPair } from '../../src/simulator/state/managementCertificates.js';
import { runCaptured } from './support.js';

describe('fwbot devices accept-certificate', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  afterAll(async () => {
    await sim.stop();
  });

  it('prints the SHA-256 fingerprint the ASA presents and accepts nothing without --yes', async () => {
    const answer = await fetch(`${sim.url}/_sim/devices/asa-branch-02/connectivity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ connectivityState: 'NEW_CERT_DETECTED' }),
    });
    expect(answer.status).toBe(200);
    const record = sim.state.devices.get(sim.deviceUid('asa-branch-02'));
    if (!record) throw new Error('no asa-branch-02');
    const fingerprint = new X509Certificate(presentedKeyPair(record).cert).fingerprint256;

    const run = await runCaptured(['devices', 'accept-certificate', 'asa-branch-02'], {
      env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin },
      certificates: createCertificateProbe({ route: managementRoute(sim.managementPort) }),
    });

    expect(run.code).toBe(EXIT.confirm);
    expect(run.stderr).toContain('Not done: this would accept the new certificate of asa-branch-02.');
    expect(run.stderr).toContain(`SHA-256  ${fingerprint}`);
    expect(run.stderr).toContain('Issuer   itself (self-signed)');
    expect(sim.requestLog.list({ operationId: 'bulkAcceptAsaCertificates' })).toEqual([]);
  });
});
