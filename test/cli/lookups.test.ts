import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { runCaptured } from './support.js';

describe('fwbot CLI: policy lookups', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await sim.stop();
  });

  const fwbot = (argv: string[]) =>
    runCaptured(argv, { env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin } });

  it('searches, lists rules and shows where an object is used', async () => {
    const found = await fwbot(['search', 'WEB-01']);
    expect(found.code).toBe(EXIT.ok);
    expect(found.stdout).toContain(
      'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
    );

    const rules = await fwbot(['rules', 'asa-hq-01', 'HQ-USERS']);
    expect(rules.code).toBe(EXIT.ok);
    expect(rules.stdout).toMatch(/inside_access_in\s+permit\s+HQ-USERS\s+any\s+ip\s+yes/);

    const object = await fwbot(['objects', 'show', 'WEB-01']);
    expect(object.code).toBe(EXIT.ok);
    expect(object.stdout).toContain('network groups (1): DMZ-SERVERS');
  });

  it('exits with a usage error for a search without text, and gives SCC’s 400 as a sentence', async () => {
    const blank = await fwbot(['search']);
    expect(blank.code).toBe(EXIT.usage);
    expect(blank.stderr).toContain('text');
    const refused = await fwbot(['objects', 'description:server']);
    expect(refused.code).not.toBe(EXIT.ok);
    expect(refused.stderr).toMatch(/Could not list the objects\. SCC refused the request \(400 [A-Z_]+\)/);
  });
});
