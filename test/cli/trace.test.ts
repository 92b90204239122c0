import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { runCaptured } from './support.js';

describe('fwbot CLI: trace and show', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await sim.stop();
  });

  const fwbot = (argv: string[]) =>
    runCaptured(argv, { env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin } }, (run) =>
      driveClock(sim.clock, run),
    );

  it('traces an allowed flow and names the line that allowed it', async () => {
    const traced = await fwbot(['trace', 'asa-hq-01', 'tcp', '10.1.100.25', '8.8.8.8', 'https']);
    expect(traced.code).toBe(EXIT.ok);
    expect(traced.stdout).toContain('ALLOW on asa-hq-01');
    expect(traced.stdout).toContain('access-list inside_access_in extended permit ip object HQ-USERS any');
    const shown = await fwbot(['show', 'asa-hq-01', 'version']);
    expect(shown.code).toBe(EXIT.ok);
    expect(shown.stdout).toContain('show version on asa-hq-01');
  });

  it('exits with a usage error for a hostile port, having sent nothing', async () => {
    const refused = await fwbot(['trace', 'asa-hq-01', 'tcp', '10.1.100.25', '8.8.8.8', '443\nconf t']);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain('port');
    expect(receivedCliScripts(sim.state)).toEqual([]);
  });
});
