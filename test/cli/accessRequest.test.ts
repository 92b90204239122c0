// `fwbot access request` (issue 36 item 11). The person at the terminal holds the SCC token, so the request
// says what it would do and runs only with --yes. Its ASA is held in the bot's Redis (REDIS_URL as the bot
// has it), as the bot's requests hold theirs, so neither's changes ride in the other's deploy; the CLI then
// follows the deploy and verifies the rule in the foreground, prints the verdict and releases the hold.
// Without a Redis named it is refused in one sentence, before anything reaches SCC.
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { createJobs, type Jobs } from '../../src/jobs/workers.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { runCaptured } from './support.js';

const ASK = [
  'access',
  'request',
  'asa-dc-03',
  'tcp',
  '198.51.100.0/24',
  '172.20.41.5',
  '8443',
  '--in',
  'outside',
  '--reason',
  'partner sync',
];

async function requestCount(simUrl: string, operationId: string): Promise<number> {
  const res = await fetch(
    `${simUrl}/_sim/requests?operationId=${encodeURIComponent(operationId)}&limit=10000`,
  );
  const body = (await res.json()) as { items: { operationId?: string }[] };
  return body.items.filter((item) => item.operationId === operationId).length;
}

describe('fwbot access request', () => {
  let sim: SimulatorHandle;
  let jobs: Jobs;
  const prefix = uniquePrefix('cli-access');
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    jobs = createJobs({ redisUrl: redisUrl(), prefix, logger: pino({ level: 'silent' }) });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await jobs.close();
    await sim.stop();
  });
  const fwbot = (argv: string[], redis: string = redisUrl()) =>
    runCaptured(
      argv,
      {
        env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, REDIS_URL: redis },
        redisPrefix: prefix,
        followDelayMs: 20,
      },
      (run) => driveClock(sim.clock, run, { maxSteps: 2_000 }),
    );

  it('is refused without the bot’s Redis, in one sentence, sending nothing', async () => {
    const run = await fwbot([...ASK, '--yes'], '');
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toBe(
      '`fwbot access request` needs the Redis the bot uses: set REDIS_URL (or REDIS_SENTINELS or REDIS_CLUSTER_NODES) as the bot has it.',
    );
    expect(await requestCount(sim.url, 'getDevices')).toBe(0);
  });

  it('says what it would do without --yes; with --yes holds the ASA, stages, deploys and verifies it', async () => {
    const asked = await fwbot(ASK);
    expect(asked.code).toBe(EXIT.confirm);
    expect(asked.stderr).toContain('Not done: this would let 198.51.100.0/24 reach 172.20.41.5 on tcp/8443');
    expect(asked.stderr).toContain(
      'access-list outside_access_in line 3 extended permit tcp object PARTNER-NET',
    );
    expect(await requestCount(sim.url, 'createAccessRule')).toBe(0);

    const done = await fwbot([...ASK, '--yes']);
    expect(done.stderr).toContain('Following access request on asa-dc-03 until it ends');
    expect(done.stdout).toContain('add the access rule');
    expect(done.stdout).toMatch(/verified: ALLOW by line \d+ \(the new rule, `access-list outside_access_in/);
    expect(done.code).toBe(EXIT.ok);
    expect(await requestCount(sim.url, 'createAccessRule')).toBe(1);
    expect(await requestCount(sim.url, 'deployChangesToMultipleAsaDevices')).toBe(1);
    // The rule is fwbot's, kept in the bot's records; the hold ended with the verification.
    const [record] = await jobs.accessRecords.list('default');
    expect(record).toMatchObject({ deviceName: 'asa-dc-03', reason: 'partner sync' });
    expect(await jobs.holds.list(Date.now())).toEqual([]);
  });

  it('is refused when the bot holds the ASA for another request, staging nothing', async () => {
    const dc = sim.deviceUid('asa-dc-03');
    const now = Date.now();
    await jobs.holds.take(
      {
        profile: 'default',
        devices: [{ uid: dc, name: 'asa-dc-03' }],
        holder: { kind: 'access', id: 'ap-0123456789', requesterId: 'U0OLGA' },
        reason: 'access request on asa-dc-03',
        until: now + 3_600_000,
      },
      now,
    );
    try {
      const run = await fwbot([...ASK, '--yes']);
      expect(run.code).not.toBe(EXIT.ok);
      expect(run.stderr).toContain('asa-dc-03 is held by an access request (request `ap-0123456789`');
      expect(await requestCount(sim.url, 'createAccessRule')).toBe(0);
    } finally {
      await jobs.holds.release('ap-0123456789');
    }
  });
});
