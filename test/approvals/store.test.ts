// The state machine's transitions in Redis, one Lua step each: who may move a request where, and how a
// process that lost its claim is fenced out before it can call SCC or record a result.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/approvals/record.js';
import { ApprovalStore } from '../../src/approvals/store.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

const T0 = Date.parse('2025-06-02T09:00:00Z');
const LEASE = 10_000;
const outcome = {
  summary: 'Deleted.',
  view: { summary: 'Deleted.', blocks: [], visibility: 'in_channel' as const },
  track: [],
};

function request(id: string): ApprovalRequest {
  return {
    id,
    operationId: 'tenants.remove',
    raw: { tenant: '9d1c8f50-1111-4222-8333-444444444444' },
    commandText: '/fw tenants remove globex-apj',
    profile: 'default',
    requesterId: 'U0ALICE',
    channelId: 'C0OPS',
    createdAt: T0,
    expiresAt: T0 + 30 * 60_000,
    role: 'operator',
    target: {
      facts: {
        tenant: {
          uid: '9d1c8f50-1111-4222-8333-444444444444',
          name: 'globex-apj',
          displayName: 'Globex',
          deviceCount: 3,
        },
      },
      description: {
        action: 'remove tenant `globex-apj`',
        line: 'tenant globex-apj',
        fields: [],
        warnings: [],
      },
    },
  };
}

describe('approvals: the state machine in Redis', () => {
  let redis: Redis;
  let store: ApprovalStore;
  let n = 0;
  const fresh = async () => {
    n += 1;
    const id = `ap-test${n}`;
    await store.create(request(id));
    return id;
  };

  beforeAll(() => {
    redis = new Redis(redisUrl());
    store = new ApprovalStore({
      redis,
      prefix: uniquePrefix('store'),
      retentionMs: 86_400_000,
      claimGraceMs: LEASE,
    });
  });

  afterAll(() => {
    redis.disconnect();
  });

  it('lets exactly one of many simultaneous decisions through', async () => {
    const id = await fresh();

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.decide(id, i % 3 === 0 ? 'rejected' : 'approved', T0, `U0APPR${i}`),
      ),
    );

    const decided = results.filter((r) => r.outcome === 'decided');
    expect(decided).toHaveLength(1);
    const winner = decided[0];
    expect(results.filter((r) => r.outcome === 'refused' && r.state === winner?.state)).toHaveLength(49);
  });

  it('turns any decision after the deadline into an expiry', async () => {
    const id = await fresh();

    const late = await store.decide(id, 'approved', T0 + 30 * 60_000, 'U0BOB');

    expect(late).toMatchObject({ outcome: 'decided', state: 'expired' });
    expect((await store.get(id))?.decidedBy).toBeUndefined();
    expect(await store.dueForExpiry(T0 + 60 * 60_000, 100)).not.toContain(id);
  });

  it('approves a request that needs two approvers only at the second distinct one', async () => {
    const id = await fresh();

    const first = await store.decide(id, 'approved', T0, 'U0BOB', undefined, 2);
    const again = await store.decide(id, 'approved', T0, 'U0BOB', undefined, 2);
    expect(first).toMatchObject({ outcome: 'partial', approvers: ['U0BOB'] });
    expect(again).toMatchObject({ outcome: 'again', approvers: ['U0BOB'] });
    expect((await store.get(id))?.state).toBe('pending');
    expect(await store.claim(id, 'A', T0, LEASE)).toEqual({ claimed: false, state: 'pending' });

    const second = await store.decide(id, 'approved', T0, 'U0CAROL', undefined, 2);

    expect(second).toMatchObject({ outcome: 'decided', state: 'approved' });
    const record = await store.get(id);
    expect(record?.approvers).toEqual(['U0BOB', 'U0CAROL']);
    expect(record?.decidedBy).toBe('U0CAROL');
  });

  it('lets two of many simultaneous approvers complete a two-approver request, once', async () => {
    const id = await fresh();

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.decide(id, 'approved', T0, `U0APPR${i}`, undefined, 2)),
    );

    expect(results.filter((r) => r.outcome === 'partial')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'decided')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'refused')).toHaveLength(18);
    expect((await store.get(id))?.approvers).toHaveLength(2);
  });

  it('claims an approved request once, and only after approval', async () => {
    const id = await fresh();
    expect(await store.claim(id, 'A', T0, LEASE)).toEqual({ claimed: false, state: 'pending' });
    await store.decide(id, 'approved', T0, 'U0BOB');

    const claims = await Promise.all(['A', 'B', 'C', 'D'].map((who) => store.claim(id, who, T0, LEASE)));

    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    expect(claims.find((c) => c.claimed)).toEqual({ claimed: true, previousPhase: undefined, attempts: 1 });
  });

  it('fences a process whose lease was taken over: it can neither call SCC nor record a result', async () => {
    const id = await fresh();
    await store.decide(id, 'approved', T0, 'U0BOB');
    await store.claim(id, 'A', T0, LEASE);
    expect(await store.hold(id, 'A', T0 + 1_000, LEASE, 'calling')).toBe(true);

    expect(await store.claim(id, 'B', T0 + LEASE, LEASE)).toEqual({ claimed: false, state: 'executing' });
    const takeover = await store.claim(id, 'B', T0 + 1_000 + LEASE + 1, LEASE);

    expect(takeover).toEqual({ claimed: true, previousPhase: 'calling', attempts: 2 });
    expect(await store.hold(id, 'A', T0 + 12_000, LEASE, 'calling')).toBe(false);
    expect(await store.finish(id, 'A', 'done', outcome, T0 + 12_000, LEASE)).toBe(false);
    expect(await store.finish(id, 'B', 'done', outcome, T0 + 12_000, LEASE)).toBe(true);
    expect((await store.get(id))?.state).toBe('done');
  });

  it('lets recovery see an approved request only after the approving process had its grace', async () => {
    const id = await fresh();
    await store.decide(id, 'approved', T0, 'U0BOB');

    expect(await store.dueForRecovery(T0 + LEASE - 1, 100)).not.toContain(id);
    expect(await store.dueForRecovery(T0 + LEASE, 100)).toContain(id);
  });

  it('hands the posting of an outcome to one process, and forgets it once posted', async () => {
    const id = await fresh();
    await store.decide(id, 'approved', T0, 'U0BOB');
    await store.claim(id, 'A', T0, LEASE);
    await store.finish(id, 'A', 'done', outcome, T0, LEASE);

    const claims = await Promise.all([1, 2, 3].map(() => store.claimNotice(id, T0, LEASE)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    await store.noticed(id);

    expect(await store.claimNotice(id, T0 + 10 * LEASE, LEASE)).toBe(false);
    expect(await store.dueForRecovery(T0 + 10 * LEASE, 100)).not.toContain(id);
    expect(await redis.pttl(store.key(id))).toBeGreaterThan(0);
  });

  it('refuses to create two requests with one id', async () => {
    const id = await fresh();

    await expect(store.create(request(id))).rejects.toThrow(/could not be created/);
  });
});
