// `rules remove` and `rules disable` from the CLI: without --yes it says exactly what it would do (the rule,
// the predicted command) and does nothing; with --yes the rule changes in SCC's copy and the calculated
// commands are printed. A hostile rule argument is a usage error before any SCC call; SCC's refusal is a
// sentence with its status and errorCode.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { runCaptured } from './support.js';

const DENY_130 =
  'access-list outside_access_in extended deny tcp host 198.51.100.66 object WEB-01 eq https log';

describe('fwbot CLI: removing and disabling access rules', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await sim.stop();
  });

  const fwbot = (argv: string[]) =>
    driveClock(
      sim.clock,
      runCaptured(argv, { env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin } }),
    );

  it('asks for --yes naming the rule and the predicted command, then removes it with --yes', async () => {
    const asked = await fwbot(['rules', 'remove', 'asa-hq-01', '130']);
    expect(asked.code).toBe(EXIT.confirm);
    expect(asked.stderr).toContain(
      'Not done: this would remove the access rule at line 130 (#4 of outside_access_in) on asa-hq-01.',
    );
    expect(asked.stderr).toContain(`no ${DENY_130}`);
    expect(sim.requestLog.list({ operationId: 'deleteAccessRule' })).toHaveLength(0);

    const done = await fwbot(['--yes', 'rules', 'remove', 'asa-hq-01', '130']);
    expect(done.code).toBe(EXIT.ok);
    expect(done.stdout).toContain('removed the access rule at line 130 (#4 of outside_access_in)');
    expect(done.stdout).toContain('SCC calculates that a deploy of `asa-hq-01` runs 1 command');
    expect((await fwbot(['rules', 'asa-hq-01'])).stdout).not.toContain('198.51.100.66');
  });

  it('disables with --yes: the rule stays, inactive', async () => {
    const done = await fwbot(['--yes', 'rules', 'disable', 'asa-hq-01', '134']);
    expect(done.code).toBe(EXIT.ok);
    expect(done.stdout).toContain('eq telnet inactive');
    const [call] = sim.requestLog.list({ operationId: 'modifyAccessRule' });
    expect(call).toBeDefined();
    expect((await fwbot(['rules', 'show', 'asa-hq-01', '134'])).stdout).toMatch(/inactive/);
  });

  it('refuses a hostile rule argument before any SCC call', async () => {
    const since = sim.requestLog.total;
    const run = await fwbot(['--yes', 'rules', 'remove', 'asa-hq-01', '1; write erase']);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('line in the configuration');
    expect(sim.requestLog.list({ since })).toHaveLength(0);
  });

  it('gives SCC’s refusal of the change as a sentence with its errorCode', async () => {
    sim.faults.add({ path: '/v1/policies/asa/accessrules/*', method: 'DELETE', status: 500 });
    const run = await fwbot(['--yes', 'rules', 'remove', 'asa-hq-01', '130']);
    expect(run.code).toBe(EXIT.scc);
    expect(run.stderr).toMatch(
      /Could not remove the access rule\. SCC could not handle the request \(500 SERVER_ERROR\)/,
    );
  });
});
