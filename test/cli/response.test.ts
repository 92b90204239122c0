// Incident response from the command line. A shun's end is timed work: the CLI schedules it in the bot's
// Redis (REDIS_URL as the bot has it), and the bot's workers run it when it is due; without a Redis named,
// `fwbot shun`, `shun list` and `unshun` are refused in one sentence, before anything reaches SCC.
// `fwbot vpn disconnect` takes the policy's fast path as a role rule would: at once by default, only with
// --yes when the policy says `response.disconnect_alone: false`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { createJobs } from '../../src/jobs/workers.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
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
  ])('refuses fwbot %j without the bot’s Redis, in one sentence, sending nothing', async (argv, words) => {
    const run = await fwbot(argv, { REDIS_URL: '' });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `\`fwbot ${words}\` needs the Redis the bot uses: set REDIS_URL (or REDIS_SENTINELS or REDIS_CLUSTER_NODES) as the bot has it.`,
    );
    expect(await requestCount(sim.url, 'executeCliCommand')).toBe(0);
    expect([...sim.state.shuns.values()].flat()).toEqual([]);
  });

  it('shuns within the fast path, its end kept in the bot’s timed work; lists it; unshun makes the end due now', async () => {
    const prefix = uniquePrefix('cli-shun');
    const jobs = createJobs({ redisUrl: redisUrl(), prefix, logger: pino({ level: 'silent' }) });
    try {
      const withRedis = (argv: string[]) =>
        runCaptured(
          argv,
          {
            env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, REDIS_URL: redisUrl() },
            redisPrefix: prefix,
          },
          (run) => driveClock(sim.clock, run),
        );
      const shun = await withRedis([
        'shun',
        '203.0.113.66',
        '--devices',
        'asa-hq-01',
        '--for',
        '1h',
        '--reason',
        'brute force',
      ]);
      expect(shun.stderr).toBe('');
      expect(shun.code).toBe(EXIT.ok);
      const hq = sim.deviceUid('asa-hq-01');
      expect((sim.state.shuns.get(hq) ?? []).map((r) => r.address)).toEqual(['203.0.113.66']);
      const [end] = await jobs.timed.list({ kind: 'shun-expiry' });
      // The CLI's clock is the machine's (the simulator's manual one only paces SCC's answers).
      expect(end?.dueAt).toBeGreaterThan(Date.now() + 55 * 60_000);

      const listed = await withRedis(['shun', 'list']);
      expect(listed.code).toBe(EXIT.ok);
      expect(listed.stdout).toContain('203.0.113.66');
      expect(listed.stdout).toContain('brute force');

      const unshun = await withRedis(['unshun', '203.0.113.66', '--yes']);
      expect(unshun.stderr).toBe('');
      expect(unshun.code).toBe(EXIT.ok);
      // The end itself sends `no shun`, once, when the bot's workers next pass over the timed work.
      const [due] = await jobs.timed.list({ kind: 'shun-expiry' });
      expect(due?.dueAt).toBeLessThanOrEqual(Date.now() + 60_000);
    } finally {
      await jobs.close();
    }
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
