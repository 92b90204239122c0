// Incident response from the command line. The CLI keeps no timed work, and a shun without its end would
// never be lifted (an ASA's shun has no expiry of its own): `fwbot shun`, `shun list` and `unshun` are
// refused in one sentence that says where they run, before anything reaches SCC, even with --yes and a
// Redis named. `fwbot vpn disconnect` takes the policy's fast path as a role rule would: at once by default,
// only with --yes when the policy says `response.disconnect_alone: false`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { redisUrl } from '../support/testRedis.js';
import { runCaptured } from './support.js';

/** How many requests of an SCC operation the simulator received (its request log). */
async function requestCount(simUrl: string, operationId: string): Promise<number> {
  const res = await fetch(
    `${simUrl}/_sim/requests?operationId=${encodeURIComponent(operationId)}&limit=10000`,
  );
  const body = (await res.json()) as { items: { operationId?: string }[] };
  return body.items.filter((item) => item.operationId === operationId).length;
}

describe('fwbot: incident response', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await sim.stop();
  });
  const fwbot = (argv: string[], extra: Record<string, string> = {}) =>
    runCaptured(
      argv,
      {
        env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, REDIS_URL: redisUrl(), ...extra },
      },
      (run) => driveClock(sim.clock, run),
    );

  it.each([
    [['shun', '203.0.113.66', '--for', '1h', '--reason', 'brute force', '--yes'], 'shun'],
    [['shun', 'list'], 'shun list'],
    [['unshun', '203.0.113.66', '--yes'], 'unshun'],
  ])('refuses fwbot %j in one sentence, sending nothing', async (argv, words) => {
    const run = await fwbot(argv);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `\`fwbot ${words}\` runs only in Slack and the console: it needs fwbot’s timed work (what ends a shun when its time is up), which this process does not keep, so nothing was done.`,
    );
    expect(await requestCount(sim.url, 'executeCliCommand')).toBe(0);
    expect([...sim.state.shuns.values()].flat()).toEqual([]);
  });

  it('still tells a typo near shun from the sentence (fwbot shwo)', async () => {
    const run = await fwbot(['shwo', 'asa-hq-01', 'shun']);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toMatch(/Did you mean `fwbot show`/);
  });

  it('ends a user’s VPN sessions at once within the fast path, as a call the policy lets a role run alone', async () => {
    const eve = [...sim.state.raVpnSessions.values()].find((s) => s.username.startsWith('eve.'));
    if (!eve) throw new Error('no session of eve in the simulator');
    const run = await fwbot(['vpn', 'disconnect', eve.username]);
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toContain('end the VPN sessions of');
    expect(await requestCount(sim.url, 'terminateRaVpnSessionsByDeviceAndUserName')).toBe(2);
  });

  it('asks for --yes before a disconnect when the policy says disconnect_alone: false', async () => {
    const eve = [...sim.state.raVpnSessions.values()].find((s) => s.username.startsWith('eve.'));
    if (!eve) throw new Error('no session of eve in the simulator');
    const file = join(await mkdtemp(join(tmpdir(), 'fwbot-cli-response-')), 'profiles.yaml');
    await writeFile(file, 'response: { disconnect_alone: false }\n');
    try {
      const dry = await fwbot(['vpn', 'disconnect', eve.username], { FWBOT_PROFILES: file });
      expect(dry.code).toBe(EXIT.confirm);
      expect(dry.stderr).toMatch(/--yes/);
      expect(await requestCount(sim.url, 'terminateRaVpnSessionsByDeviceAndUserName')).toBe(0);
      const run = await fwbot(['vpn', 'disconnect', eve.username, '--yes'], { FWBOT_PROFILES: file });
      expect(run.code).toBe(EXIT.ok);
      expect(await requestCount(sim.url, 'terminateRaVpnSessionsByDeviceAndUserName')).toBe(2);
    } finally {
      await rm(dirname(file), { recursive: true, force: true });
    }
  });
});
