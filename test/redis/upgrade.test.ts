// An upgrade loses nothing: what a release before src/redis/keys.ts left in Redis, written here under the
// literal names that release used (not through RedisKeys), is read, and moved on, by today's code. Each
// family here changed the place its name is built in, none changed the name (test/redis/keys.test.ts holds
// every family's name).
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditTrail } from '../../src/approvals/audit.js';
import { ApprovalStore } from '../../src/approvals/store.js';
import { HomeChanges } from '../../src/home/changes.js';
import { cachedChannels } from '../../src/home/sources.js';
import { AlertScanStore } from '../../src/jobs/alerts/state.js';
import { SlackPace } from '../../src/jobs/slackPace.js';
import { RedisDeduper } from '../../src/redis/dedupe.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { RedisInstallStates } from '../../src/slack/installStates.js';
import { connectRedis } from '../support/testRedis.js';
import { deletionRequest, T0 } from './deletion.js';

describe('an upgrade from the release before one key module', () => {
  const redis = connectRedis();
  /** A deployment's prefix as production spells it: no trailing ':'. */
  let P: string;
  beforeEach(() => {
    P = `test-upgrade-${randomUUID().slice(0, 8)}`;
  });
  afterAll(async () => {
    await redis.quit();
  });
  const left = async () => (await redis.keys(`${P}:*`)).sort();

  it('reads a pending approval, decides it, and moves it to the active index it had', async () => {
    const request = deletionRequest('ap-upgrade');
    // As ApprovalStore.create left it, under `<prefix>:approval:<id>` and `<prefix>:approvals:pending`.
    await redis.hset(`${P}:approval:ap-upgrade`, {
      request: JSON.stringify(request),
      id: 'ap-upgrade',
      state: 'pending',
      expiresAt: String(request.expiresAt),
      attempts: '0',
    });
    await redis.zadd(`${P}:approvals:pending`, request.expiresAt, 'ap-upgrade');
    // The approvals took their prefix with a ':' then; either spelling reads the same keys.
    for (const prefix of [P, `${P}:`]) {
      const store = new ApprovalStore({ redis, prefix, retentionMs: 60_000, claimGraceMs: 5_000 });
      expect((await store.get('ap-upgrade'))?.state).toBe('pending');
      expect(await store.pendingIds(T0, 10)).toEqual(['ap-upgrade']);
    }
    const store = new ApprovalStore({ redis, prefix: P, retentionMs: 60_000, claimGraceMs: 5_000 });
    const decided = await store.decide('ap-upgrade', 'approved', T0 + 1_000, 'U0BOB');
    expect(decided.outcome).toBe('decided');
    expect(await redis.zscore(`${P}:approvals:active`, 'ap-upgrade')).toBe(String(T0 + 1_000 + 5_000));
    expect(await redis.zcard(`${P}:approvals:pending`)).toBe(0);
    expect(await left()).toEqual([`${P}:approval:ap-upgrade`, `${P}:approvals:active`]);
  });

  it('reads the audit trail and appends to the same stream', async () => {
    const fields = {
      at: String(T0),
      actor: 'U0ALICE',
      action: 'requested',
      operationId: 'interfaces.delete',
      target: 'asa-branch-02',
      outcome: 'waiting for approval',
    };
    await redis.xadd(`${P}:audit`, `${T0}-0`, ...Object.entries(fields).flat());
    const trail = new AuditTrail({ redis, prefix: P, retentionDays: 1, clock: () => T0 + 1_000 });
    expect(trail.key).toBe(`${P}:audit`);
    const [before] = await trail.latest(1);
    expect(before).toMatchObject({
      id: `${T0}-0`,
      operationId: 'interfaces.delete',
      target: 'asa-branch-02',
    });
    await trail.record({
      actor: 'U0BOB',
      action: 'approved',
      operationId: 'interfaces.delete',
      target: 'x',
      outcome: 'ok',
    });
    expect(await redis.xlen(`${P}:audit`)).toBe(2);
    expect(await left()).toEqual([`${P}:audit`]);
  });

  it('drops a Slack retry the previous release saw first, and takes an OAuth install it began', async () => {
    await redis.set(`${P}:slack:seen:trigger:123.456`, '1', 'EX', 600);
    const dedupe = new RedisDeduper(redis, P);
    expect(await dedupe.firstSight('trigger:123.456')).toBe(false);
    expect(await dedupe.firstSight('trigger:789')).toBe(true);

    const state = randomBytes(32).toString('base64url');
    await redis.set(
      `${P}:slack:oauth:state:${state}`,
      JSON.stringify({ scopes: ['commands', 'chat:write'] }),
    );
    const states = new RedisInstallStates(redis, P);
    expect(await states.verifyStateParam(new Date(), state)).toMatchObject({
      scopes: ['commands', 'chat:write'],
    });
    expect(await left()).toEqual([`${P}:slack:seen:trigger:123.456`, `${P}:slack:seen:trigger:789`]);
  });

  it('keeps the Homes that were open, their workspaces and their cached channels', async () => {
    await redis.zadd(`${P}:home:open`, T0 + 60_000, 'U0ALICE');
    await redis.hset(`${P}:home:workspace`, 'U0ALICE', JSON.stringify({ teamId: 'T0CUSTOMER' }));
    await redis.set(`${P}:home:channels:T0CUSTOMER:U0ALICE`, JSON.stringify(['C0OPS']));
    const changes = new HomeChanges(redis, P);
    expect(await changes.isOpen('U0ALICE', T0)).toBe(true);
    expect(await changes.workspaceOf('U0ALICE')).toEqual({ teamId: 'T0CUSTOMER' });
    const marked = await changes.mark(['U0ALICE'], T0);
    expect(marked.map((due) => due.userId)).toEqual(['U0ALICE']);
    const channels = cachedChannels({
      redis,
      prefix: P,
      read: async () => {
        throw new Error('the cache the previous release kept was not read');
      },
    });
    expect(await channels('U0ALICE', { teamId: 'T0CUSTOMER' })).toEqual(['C0OPS']);
    expect(await left()).toEqual(
      [
        `${P}:home:channels:T0CUSTOMER:U0ALICE`,
        `${P}:home:due`,
        `${P}:home:open`,
        `${P}:home:workspace`,
      ].sort(),
    );
  });

  it('keeps the alert scan’s health and Slack’s pace per channel', async () => {
    const health = { at: T0, stretch: 2, callsPerMinute: 40 };
    await redis.hset(`${P}:fw:alert-scan:health`, 'lab', JSON.stringify(health));
    expect(await new AlertScanStore(redis, P).health()).toEqual(new Map([['lab', health]]));

    // A slot booked far ahead by the previous release's worker: this one waits for it.
    await redis.set(`${P}:fw:pace:chat.postMessage:C0OPS`, String(Date.now() + 600_000), 'PX', 600_000);
    const wait = await new SlackPace(redis, new RedisKeys(P)).reserve('chat.postMessage', 'C0OPS', 1_000);
    expect(wait).toBeGreaterThan(500_000);
    expect(await left()).toEqual([`${P}:fw:alert-scan:health`, `${P}:fw:pace:chat.postMessage:C0OPS`]);
  });
});
