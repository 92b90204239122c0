import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { UpgradeWatch } from '../../src/catalogue/operation.js';
import { tenantsCreate } from '../../src/catalogue/tenants.js';
import type { ThreadRef } from '../../src/dispatch/ports.js';
import { FOLLOW_KINDS } from '../../src/follow/index.js';
import type { ThreadRefSchema, UpgradeWatchSchema } from '../../src/jobs/payloads.js';
import { DEFAULT_SCHEDULE, pollDelayMs, resolveSchedule, transientDelayMs } from '../../src/jobs/schedule.js';

describe('the tracking schedule', () => {
  it('polls fast at first, then slower, up to a cap', () => {
    const poll = DEFAULT_SCHEDULE.poll.transaction;
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20].map((step) => pollDelayMs(poll, step));

    expect(delays.slice(0, 4)).toEqual([3_000, 6_000, 12_000, 12_000]);
    expect(delays.every((delay, i) => i === 0 || delay >= (delays[i - 1] ?? 0))).toBe(true);
    expect(delays.at(-1)).toBe(poll.capMs);
  });

  it('polls a straggler less often once it has run past the late mark', () => {
    const poll = DEFAULT_SCHEDULE.poll.transaction;
    const lateAfter = poll.lateAfterMs ?? Number.NaN;
    expect(pollDelayMs(poll, 40, undefined, lateAfter - 1)).toBe(poll.capMs);
    expect(pollDelayMs(poll, 40, undefined, lateAfter)).toBe(poll.lateCapMs);
    // Early in the late phase a step's own growth still rules: no jump above what the factor gives.
    expect(pollDelayMs(poll, 2, undefined, lateAfter)).toBe(poll.firstDelayMs * poll.factor);
    // Kinds without a late phase keep their cap however long they run.
    expect(pollDelayMs(DEFAULT_SCHEDULE.poll.gateway, 40, undefined, 10 * 3_600_000)).toBe(
      DEFAULT_SCHEDULE.poll.gateway.capMs,
    );
  });

  it('refuses a late phase that is half given or slower to poll than the cap says', () => {
    expect(() => resolveSchedule({ poll: { gateway: { lateAfterMs: 1_000 } } })).toThrow(/go together/);
    expect(() => resolveSchedule({ poll: { transaction: { lateAfterMs: 1_000, lateCapMs: 1 } } })).toThrow(
      /at least capMs/,
    );
  });

  it("waits at least as long as SCC's Retry-After", () => {
    expect(pollDelayMs(DEFAULT_SCHEDULE.poll.gateway, 1, 7_000)).toBe(7_000);
    expect(transientDelayMs(DEFAULT_SCHEDULE, 1, 45_000)).toBe(45_000);
    expect(transientDelayMs(DEFAULT_SCHEDULE, 1)).toBe(DEFAULT_SCHEDULE.transientBaseMs);
    expect(transientDelayMs(DEFAULT_SCHEDULE, 30)).toBe(DEFAULT_SCHEDULE.transientCapMs);
  });

  it('takes overrides section by section and refuses nonsense', () => {
    const schedule = resolveSchedule({ poll: { gateway: { capMs: 50 } }, slack: { lockMs: 5 } });

    expect(schedule.poll.gateway).toEqual({ ...DEFAULT_SCHEDULE.poll.gateway, capMs: 50 });
    expect(schedule.poll.transaction).toEqual(DEFAULT_SCHEDULE.poll.transaction);
    expect(schedule.slack).toEqual({ ...DEFAULT_SCHEDULE.slack, lockMs: 5 });
    expect(() => resolveSchedule({ poll: { gateway: { factor: 0.5 } } })).toThrow();
  });

  it('matches SCC: one tenant per 30 s, transactions kept two hours, so polls stay well under that', () => {
    // The limit is tenant creation's declaration; the schedule overrides no queue's by default.
    expect(tenantsCreate.queue?.limit).toEqual({ max: 1, perMs: 30_000 });
    expect(DEFAULT_SCHEDULE.queues).toEqual({});
    for (const poll of Object.values(DEFAULT_SCHEDULE.poll)) expect(poll.capMs).toBeLessThan(2 * 3_600_000);
  });
});

describe('the payload schemas', () => {
  it('give every kind of followed work the poll schedule it declares', () => {
    for (const kind of FOLLOW_KINDS) expect(DEFAULT_SCHEDULE.poll[kind.kind]).toEqual(kind.poll);
  });

  it('mirror the seams they carry (ThreadRef, UpgradeWatch)', () => {
    expectTypeOf<z.infer<typeof ThreadRefSchema>>().toEqualTypeOf<ThreadRef>();
    expectTypeOf<z.infer<typeof UpgradeWatchSchema>>().toEqualTypeOf<UpgradeWatch>();
  });
});
