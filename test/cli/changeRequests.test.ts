import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { createSccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { runCaptured } from './support.js';

describe('fwbot CLI: change requests', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  afterAll(async () => {
    await sim.stop();
  });

  const fwbot = (argv: string[]) =>
    runCaptured(argv, { env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin } });

  it('lists them and shows one; a name that is none is one sentence', async () => {
    const client = createSccClient({ baseUrl: sim.url, token: sim.tokens.superAdmin });
    await client.governance.createChangeRequest({ name: 'CHG0000007', description: 'firewall rule review' });
    await client.close();
    const listed = await fwbot(['change-requests']);
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.stdout).toContain('CHG0000007');
    const shown = await fwbot(['change-requests', 'show', 'CHG0000007']);
    expect(shown.stdout).toContain('firewall rule review');
    const missing = await fwbot(['change-requests', 'show', 'CHG0000999']);
    expect(missing.code).not.toBe(EXIT.ok);
    expect(missing.stderr).toContain('No change request is named');
  });
});
