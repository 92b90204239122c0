// Cancelling a held request races the recovery pass that runs it at its minute: one Lua step each on the
// request's hash, so of "ran" (the claim) and "cancelled" exactly one wins, whichever comes first, and the
// loser learns the state it lost to. A cancel of a request that is not held (pending, or approved to run
// now) is refused: only a scheduled run can be withdrawn this way. Real Redis, the store's own scripts.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/approvals/record.js';
import { ApprovalStore } from '../../src/approvals/store.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

const T0 = Date.parse('2026-11-27T21:00:00Z');
const RUN_AT = T0 + 60 * 60_000;
const LEASE = 10_000;

function request(id: string): ApprovalRequest {
  return {
    id,
    operationId: 'deploy',
    raw: { devices: ['asa-hq-01'] },
    commandText: '/fw deploy asa-hq-01 --at 22:00',
    profile: 'default',
    requesterId: 'U0ALICE',
    channelId: 'C0OPS',
    createdAt: T0,
    expiresAt: T0 + 30 * 60_000,
    role: 'operator',
    target: {
      facts: {},
      description: { action: 'deploy', line: 'deploy to asa-hq-01', fields: [], warnings: [] },
    },
  };
}

describe('approvals: a cancel against the run at the scheduled minute', () => {
  let redis: Redis;
  let store: ApprovalStore;
  let n = 0;
  /** A request approved by bob and held until RUN_AT. */
  const held = async () => {
    n += 1;
    const id = `ap-race${n}`;
    await store.create(request(id));
    await store.decide(id, 'approved', T0, 'U0BOB');
    expect(
      await store.holdRun(id, { runAt: RUN_AT, runReason: 'explicit', runZone: 'UTC', runWindows: '' }),
    ).toBe(true);
    return id;
  };

  beforeAll(() => {
    redis = new Redis(redisUrl());
    store = new ApprovalStore({
      redis,
      prefix: uniquePrefix('held'),
      retentionMs: 86_400_000,
      claimGraceMs: LEASE,
    });
  });
  afterAll(() => {
    redis.disconnect();
  });

  it('lets exactly one of the claim and the cancel win, every time, and the list agrees', async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, () => held()));
    expect((await store.heldRecords(500)).map((r) => r.request.id).sort()).toEqual([...ids].sort());

    const results = await Promise.all(
      ids.map(async (id, i) => {
        // Half the time the claim is sent first, half the time the cancel: Redis orders them.
        const claim = () => store.claim(id, `proc-${i}`, RUN_AT, LEASE);
        const cancel = () => store.cancelHeld(id, 'U0ALICE', RUN_AT, 'withdrawn');
        const [claimed, cancelled] =
          i % 2 === 0
            ? await Promise.all([claim(), cancel()])
            : await Promise.all([cancel(), claim()]).then(([c, k]) => [k, c] as const);
        return { id, ran: claimed.claimed, cancelled: cancelled.outcome === 'cancelled' };
      }),
    );
    for (const result of results) expect(result.ran !== result.cancelled, result.id).toBe(true);
    for (const { id, ran } of results)
      expect((await store.get(id))?.state, id).toBe(ran ? 'executing' : 'cancelled');
    // Neither a run nor a cancel leaves it in the schedule.
    expect(await store.heldRecords(500)).toEqual([]);
  });

  it('keeps who cancelled and when, and takes it off the recovery index', async () => {
    const id = await held();
    expect(await store.cancelHeld(id, 'U0ALICE', RUN_AT - 5_000, 'withdrawn')).toEqual({
      outcome: 'cancelled',
    });
    const record = await store.get(id);
    expect(record).toMatchObject({ state: 'cancelled', cancelledBy: 'U0ALICE', cancelledAt: RUN_AT - 5_000 });
    expect(record?.decidedBy).toBe('U0BOB');
    expect(await store.dueForRecovery(RUN_AT + 60_000, 100)).not.toContain(id);
    expect(await store.claim(id, 'late', RUN_AT, LEASE)).toEqual({ claimed: false, state: 'cancelled' });
  });

  it('refuses to cancel what is not held: a pending request, or one approved to run now', async () => {
    n += 1;
    const pending = `ap-race${n}`;
    await store.create(request(pending));
    expect(await store.cancelHeld(pending, 'U0ALICE', T0, '')).toEqual({
      outcome: 'refused',
      state: 'pending',
      held: false,
    });
    await store.decide(pending, 'approved', T0, 'U0BOB');
    expect(await store.cancelHeld(pending, 'U0ALICE', T0, '')).toEqual({
      outcome: 'refused',
      state: 'approved',
      held: false,
    });
    expect(await store.cancelHeld('ap-none', 'U0ALICE', T0, '')).toEqual({
      outcome: 'refused',
      state: 'missing',
      held: false,
    });
  });
});
