// `fwbot search`, `fwbot rules` and `fwbot objects` against the simulator: the same views as Slack's, as
// text, with the CLI's exit codes (a usage error for a search without text, SCC's 400 as a sentence).
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT, runCli } from '../../src/cli/cli.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';

describe('fwbot CLI: policy lookups', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await sim.stop();
  });

  async function fwbot(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runCli(argv, {
      env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin },
      io: { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) },
      log: pino({ level: 'silent' }),
    });
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  }

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
