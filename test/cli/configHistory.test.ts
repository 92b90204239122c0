// `fwbot config history` and `fwbot config diff` over the bot's Redis: the CLI reads the snapshots the bot
// kept around deploys (same Redis, same key prefix) and compares one with what the device runs now;
// without a Redis configured, the command is one sentence. Against the simulator and the run's redis-server.
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { createJobs, type Jobs } from '../../src/jobs/workers.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { runCaptured } from './support.js';

describe('fwbot config history / diff', () => {
  let sim: SimulatorHandle;
  let prefix: string;
  /** The bot's side of the same Redis and prefix. */
  let bot: Jobs;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => {
    sim.reset();
    prefix = uniquePrefix('cli-snapshots');
    bot = createJobs({ redisUrl: redisUrl(), prefix, logger: pino({ level: 'silent' }) });
  });
  afterEach(() => bot.close());
  afterAll(async () => {
    await sim.stop();
  });

  const fwbot = (argv: string[], extra: Record<string, string | undefined> = {}) =>
    runCaptured(argv, {
      env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, REDIS_URL: redisUrl(), ...extra },
      redisPrefix: prefix,
    });

  it('lists what the bot kept and compares a snapshot with the running configuration now', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    await bot.snapshots.keep('default', {
      deviceUid: hq,
      device: 'asa-hq-01',
      at: Date.now(),
      phase: 'before-deploy',
      requestId: 'req-1',
      approvalId: 'req-1',
      actor: 'U0ALICE',
      text: 'hostname asa-old\n',
    });

    const history = await fwbot(['config', 'history', 'asa-hq-01']);
    expect(history.stderr).toBe('');
    expect(history.code).toBe(EXIT.ok);
    expect(history.stdout).toMatch(/1 +\S+ \S+ UTC +before deploy +approval req-1 +U0ALICE +17 B/);

    const diff = await fwbot(['config', 'diff', 'asa-hq-01', '1']);
    expect(diff.code).toBe(EXIT.ok);
    expect(diff.stdout).toMatch(/^ *-hostname asa-old$/m);
    expect(diff.stdout).toMatch(/^ *\+hostname asa-hq-01$/m);
  });

  it('is one sentence without the bot’s Redis', async () => {
    const run = await fwbot(['config', 'history', 'asa-hq-01'], { REDIS_URL: undefined });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('`fwbot config history` needs the Redis the bot uses');
  });
});
