// Change tickets from the CLI: the profiles file's `changes.ticket: required` holds there as in Slack (one
// sentence, nothing sent), and a deploy run with --ticket carries it first in the description SCC stores.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { runCaptured } from './support.js';

describe('fwbot CLI: change tickets', () => {
  let sim: SimulatorHandle;
  let dir: string;
  let profiles: string;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    dir = mkdtempSync(join(tmpdir(), 'fwbot-tickets-'));
    profiles = join(dir, 'profiles.yaml');
    writeFileSync(profiles, "changes:\n  ticket: required\n  ticket_pattern: '^CHG[0-9]{7}$'\n");
  });
  afterAll(async () => {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const fwbot = (argv: string[]) =>
    runCaptured(argv, {
      env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, FWBOT_PROFILES: profiles },
    });

  it('refuses a change without a ticket, and deploys with one first in the description', async () => {
    const drive = <T>(work: Promise<T>): Promise<T> => driveClock(sim.clock, work);
    const refused = await fwbot(['--yes', 'interfaces', 'delete', 'asa-hq-01', 'Vlan20']);
    expect(refused.code).not.toBe(EXIT.ok);
    expect(refused.stderr).toContain('`ticket` is required');

    const staged = await fwbot([
      '--yes',
      'interfaces',
      'delete',
      'asa-hq-01',
      'Vlan20',
      '--ticket',
      'CHG0000001',
    ]);
    expect(staged.code).toBe(EXIT.ok);
    const deployed = await drive(fwbot(['--yes', 'deploy', 'asa-hq-01', '--ticket', 'CHG0000001']));
    expect(deployed.code).toBe(EXIT.ok);
    const runs = [...sim.state.deploymentRuns.values()];
    expect(runs.map((run) => run.description)).toEqual([
      expect.stringMatching(/^CHG0000001: \(fwbot request [^)]+\)$/),
    ]);
  });
});
