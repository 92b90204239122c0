// `fwbot deployments scheduled` over the bot's Redis: the CLI lists the approved deploys the bot holds
// until their time (same Redis, same key prefix, the approvals' own store), and `fwbot deployments cancel`
// is refused in a sentence that says where to cancel instead: only the requester or an approver may, and
// they are Slack users a terminal cannot be. Against the simulator and the run's redis-server.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/approvals/record.js';
import { ApprovalStore } from '../../src/approvals/store.js';
import { EXIT } from '../../src/cli/cli.js';
import { normalisePrefix } from '../../src/redis/keys.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { runCaptured } from './support.js';

const HOUR = 3_600_000;

function request(id: string, now: number): ApprovalRequest {
  return {
    id,
    operationId: 'deploy',
    raw: { devices: ['asa-hq-01'] },
    commandText: '/fw deploy asa-hq-01 --ticket CHG0000042',
    profile: 'default',
    requesterId: 'U0ALICE',
    channelId: 'C0OPS',
    createdAt: now,
    expiresAt: now + HOUR,
    role: 'operator',
    ticket: 'CHG0000042',
    target: {
      facts: {},
      description: { action: 'deploy', line: 'deploy to asa-hq-01', fields: [], warnings: [] },
    },
  };
}

describe('fwbot deployments scheduled / cancel', () => {
  let sim: SimulatorHandle;
  let redis: Redis;
  let prefix: string;
  let store: ApprovalStore;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    redis = new Redis(redisUrl());
  });
  beforeEach(() => {
    prefix = uniquePrefix('cli-scheduled');
    // The bot's side: its approvals under the deployment's prefix and a colon.
    store = new ApprovalStore({
      redis,
      prefix: `${normalisePrefix(prefix)}:`,
      retentionMs: 86_400_000,
      claimGraceMs: 60_000,
    });
  });
  afterAll(async () => {
    redis.disconnect();
    await sim.stop();
  });

  const fwbot = (argv: string[], extra: Record<string, string | undefined> = {}) =>
    runCaptured(argv, {
      env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, REDIS_URL: redisUrl(), ...extra },
      redisPrefix: prefix,
    });

  /** A deploy approved by bob and held two hours, as the bot's executor leaves it. */
  async function held(id: string): Promise<void> {
    const now = Date.now();
    await store.create(request(id, now));
    await store.decide(id, 'approved', now, 'U0BOB');
    await store.holdRun(id, { runAt: now + 2 * HOUR, runReason: 'explicit', runZone: 'UTC', runWindows: '' });
  }

  it('lists what the bot holds, and refuses a cancel with where to do it', async () => {
    await held('ap-00000000c1');
    const listed = await fwbot(['deployments', 'scheduled']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.stdout).toContain('deploy to asa-hq-01 · request `ap-00000000c1`');
    expect(listed.stdout).toMatch(/Runs \w{3} \d\d:\d\d UTC, in 2 hours.* \(the time asked for\)\./);
    expect(listed.stdout).toContain('Asked by @U0ALICE · approved by @U0BOB · ticket `CHG0000042`');

    const cancel = await fwbot(['deployments', 'cancel', 'ap-00000000c1']);
    expect(cancel.code).not.toBe(EXIT.ok);
    expect(cancel.stderr).toContain('cancel it in Slack or the console');
    expect((await store.get('ap-00000000c1'))?.state).toBe('approved');
  });

  it('says when nothing is scheduled, and is one sentence without the bot’s Redis', async () => {
    expect((await fwbot(['deployments', 'scheduled'])).stdout).toContain('No approved request of profile');
    const run = await fwbot(['deployments', 'scheduled'], { REDIS_URL: undefined });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('`fwbot deployments scheduled` needs the Redis the bot uses');
  });
});
