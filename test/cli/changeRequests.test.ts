// `fwbot change-requests` against the simulator: the same views as Slack's, as text.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runCli } from '../../src/cli/cli.js';
import { createSccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';

describe('fwbot CLI: change requests', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
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
