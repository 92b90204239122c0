// Timed work on real Redis, the simulator and the fake Slack, on a driven clock: an item runs once when due
// and never before, one item per thing, exactly one of a cancel and a run wins, a waiting item moves, two
// processes passing at once run each item once, change windows hold an item until they open, SCC's
// transient failures are retried, refusals are told, periodic items come round, a run abandoned past its
// point of no return is settled by its kind's look, and people's roles are re-checked when it runs.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TimedItem } from '../../src/catalogue/operation.js';
import type { RoleHolder } from '../../src/catalogue/timed/index.js';
import type { ThreadRef } from '../../src/dispatch/ports.js';
import type { TimedRunner } from '../../src/jobs/timed/runner.js';
import { TimedStore } from '../../src/jobs/timed/store.js';
import type { Workers } from '../../src/jobs/workers.js';
import { normalisePrefix, RedisKeys, timedItemId } from '../../src/redis/keys.js';
import { blockTexts } from '../support/blockTexts.js';
import type { RecordedCall } from '../support/fakeSlack.js';
import { connectRedis } from '../support/testRedis.js';
import { type Harness, quietLog, type SimClients, thread, useHarness } from './support/harness.js';
import { noteKind, periodicKind, refusingKind, TEST_TIMED_KINDS, vlanKind } from './support/timedKinds.js';

const HOUR = 3_600_000;

function manualClock(start: number) {
  let now = start;
  const clock = () => now;
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

/** The grants the tests' policy gives: `user:role`. */
const grants = new Set<string>();
const roleCheck = async (check: RoleHolder) => grants.has(`${check.userId}:${check.role}`);

const shown = (call: RecordedCall) => blockTexts(call.args.blocks).join('\n');

describe('timed work', () => {
  let h: Harness;
  useHarness((harness) => {
    h = harness;
  });
  // Far from the machine's time: anything that read the machine's clock instead would show.
  let clock = manualClock(Date.parse('2031-03-04T09:00:00Z'));
  let workers: Workers;
  let clients: SimClients;
  let prefix: string;
  let redis: Redis;

  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(() => {
    redis.disconnect();
  });
  beforeEach(async () => {
    clock = manualClock(Date.parse('2031-03-04T09:00:00Z'));
    grants.clear();
    ({ workers, clients, prefix } = await h.start({ timedKinds: TEST_TIMED_KINDS, clock }));
  });

  const runner = (runnerId = 'runner-a'): TimedRunner =>
    workers.jobs.timedRunner({
      clients,
      roleCheck,
      tracker: workers.jobs.tracker,
      clock,
      log: quietLog,
      runnerId,
    });

  const postsWith = (where: ThreadRef, words: string) =>
    h.slack
      .callsTo('chat.postMessage')
      .filter((call) => call.status === 200 && call.args.thread_ts === where.threadTs)
      .filter((call) => shown(call).includes(words));

  const said = (where: ThreadRef, words: string) =>
    h.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.status === 200 &&
        call.args.thread_ts === where.threadTs &&
        shown(call).includes(words),
    );

  const hq = () => h.sim.deviceUid('asa-hq-01');
  const vlanCreates = () => h.sim.requestLog.list({ operationId: 'createAsaVlanInterface' }).length;
  const vlan = (vlanId: number, at = clock()) =>
    workers.jobs.timed.schedule(vlanKind, {
      profile: 'default',
      at,
      owner: 'U0ALICE',
      payload: { deviceUid: hq(), device: 'asa-hq-01', vlanId },
    });
  const stored = async (ref: { kind: string; key: string }): Promise<TimedItem | undefined> =>
    workers.jobs.timed.get({ ...ref, profile: 'default' });

  it('runs an item once when it is due and not before, and says it in its thread once', async () => {
    const where = thread();
    await workers.jobs.timed.schedule(noteKind, {
      profile: 'default',
      at: clock() + HOUR,
      owner: 'U0ALICE',
      thread: where,
      payload: { note: 'hello' },
    });
    const pass = runner();
    await pass.pass();
    expect((await stored({ kind: 'test-note', key: 'hello' }))?.state).toBe('scheduled');

    clock.advance(HOUR);
    await pass.pass();
    await said(where, 'hello: everyone still holds');
    await pass.pass();
    const item = await stored({ kind: 'test-note', key: 'hello' });
    expect(item).toMatchObject({ state: 'done', summary: 'said', attempts: 1, round: 1 });
    expect(postsWith(where, 'hello:')).toHaveLength(1);
    expect((await workers.jobs.timed.history({ kind: 'test-note' })).map((i) => i.key)).toEqual(['hello']);
  });

  it('keeps one item per thing: scheduling it again while it waits changes nothing', async () => {
    const first = await vlan(301, clock() + HOUR);
    const again = await vlan(301, clock() + 5 * HOUR);
    expect(first.scheduled).toBe(true);
    expect(again).toMatchObject({ scheduled: false, item: { dueAt: clock() + HOUR } });
    expect(await workers.jobs.timed.list({ kind: 'test-vlan' })).toHaveLength(1);

    clock.advance(HOUR);
    await runner().pass();
    // Once it ended, the same thing scheduled again is a new item, in a round of its own.
    const later = await vlan(301, clock() + HOUR);
    expect(later).toMatchObject({ scheduled: true, item: { state: 'scheduled', round: 1 } });
  });

  it('refuses a cancel once the run has claimed the item, and runs nothing once it is cancelled', async () => {
    const store = new TimedStore(redis, new RedisKeys(normalisePrefix(prefix)), HOUR);
    const claimedFirst = (await vlan(390)).item;
    expect(await store.claim(claimedFirst.id, 'runner-x', clock(), 60_000)).toMatchObject({ claimed: true });
    expect(await workers.jobs.timed.cancel(claimedFirst, 'U0BOB')).toMatchObject({
      outcome: 'refused',
      state: 'running',
    });
    const cancelledFirst = (await vlan(391)).item;
    expect(await workers.jobs.timed.cancel(cancelledFirst, 'U0BOB', 'not needed')).toMatchObject({
      outcome: 'cancelled',
      item: { state: 'cancelled', summary: 'not needed' },
    });
    expect(await store.claim(cancelledFirst.id, 'runner-y', clock(), 60_000)).toEqual({
      claimed: false,
      state: 'cancelled',
    });
    await runner().pass();
    expect(vlanCreates()).toBe(0);
  });

  it('lets exactly one of a cancel and a run win, for every item, when they come at once', async () => {
    const items = await Promise.all(Array.from({ length: 20 }, (_, i) => vlan(400 + i)));
    const [a, b] = [runner('runner-a'), runner('runner-b')];
    const [cancels] = await Promise.all([
      Promise.all(items.map(({ item }) => workers.jobs.timed.cancel(item, 'U0BOB', 'not needed'))),
      a.pass(),
      b.pass(),
    ]);
    const cancelled = cancels.filter((c) => c.outcome === 'cancelled').length;
    const ended = await Promise.all(items.map(({ item }) => stored(item)));
    expect(ended.filter((i) => i?.state === 'cancelled')).toHaveLength(cancelled);
    expect(ended.filter((i) => i?.state === 'done')).toHaveLength(20 - cancelled);
    expect(vlanCreates()).toBe(20 - cancelled);
    // A cancel that lost says why: the item ran (or runs).
    for (const refused of cancels.filter((c) => c.outcome === 'refused'))
      expect(['running', 'done']).toContain(refused.state);
  });

  it('moves a waiting item to a later time, and refuses to move one that ran', async () => {
    const { item } = await vlan(310, clock() + HOUR);
    expect(await workers.jobs.timed.reschedule(item, clock() + 3 * HOUR)).toMatchObject({
      outcome: 'rescheduled',
      item: { dueAt: clock() + 3 * HOUR },
    });
    clock.advance(HOUR);
    await runner().pass();
    expect(vlanCreates()).toBe(0);
    clock.advance(2 * HOUR);
    await runner().pass();
    expect(vlanCreates()).toBe(1);
    expect(await workers.jobs.timed.reschedule(item, clock() + HOUR)).toMatchObject({
      outcome: 'refused',
      state: 'done',
    });
    expect(await workers.jobs.timed.cancel(item, 'U0BOB')).toMatchObject({
      outcome: 'refused',
      state: 'done',
    });
  });

  it('lists waiting items by kind, owner and device, soonest first, and what happened to the others', async () => {
    await vlan(320, clock() + 2 * HOUR);
    await vlan(321, clock() + HOUR);
    await workers.jobs.timed.schedule(noteKind, {
      profile: 'default',
      at: clock() + HOUR,
      owner: 'U0CAROL',
      payload: { note: 'carol' },
    });
    await workers.jobs.timed.schedule(refusingKind, {
      profile: 'default',
      at: clock(),
      owner: 'U0CAROL',
      payload: { name: 'no' },
    });
    await runner().pass();
    expect((await workers.jobs.timed.list({ kind: 'test-vlan' })).map((i) => i.what)).toEqual([
      'VLAN 321 on asa-hq-01',
      'VLAN 320 on asa-hq-01',
    ]);
    expect((await workers.jobs.timed.list({ owner: 'U0CAROL' })).map((i) => i.key)).toEqual(['carol']);
    expect(await workers.jobs.timed.list({ deviceUid: hq() })).toHaveLength(2);
    expect(await workers.jobs.timed.list({ deviceUid: h.sim.deviceUid('asa-branch-02') })).toHaveLength(0);
    expect(await workers.jobs.timed.history({ owner: 'U0CAROL' })).toMatchObject([
      { kind: 'test-refusing', state: 'failed', summary: 'the device said no.' },
    ]);
  });

  it('runs each of fifty items exactly once with two processes passing at once', async () => {
    const items = await Promise.all(Array.from({ length: 50 }, (_, i) => vlan(500 + i)));
    const [a, b] = [runner('runner-a'), runner('runner-b')];
    for (let i = 0; i < 3; i += 1) await Promise.all([a.pass(), b.pass(), a.pass(), b.pass()]);
    const ended = await Promise.all(items.map(({ item }) => stored(item)));
    expect(ended.every((i) => i?.state === 'done' && i.attempts === 1)).toBe(true);
    expect(vlanCreates()).toBe(50);
  });

  it('holds an item until its change window opens, says when once, and runs it then', async () => {
    const where = thread();
    // Open 10:00–11:00 UTC every day; it is 09:00.
    const window = {
      timeZone: 'UTC',
      open: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '10:00', to: '11:00' }],
    };
    await workers.jobs.timed.schedule(noteKind, {
      profile: 'default',
      at: clock(),
      owner: 'U0ALICE',
      thread: where,
      payload: { note: 'windowed', window },
    });
    await runner().pass();
    await said(where, 'waits for the change window');
    expect(await stored({ kind: 'test-note', key: 'windowed' })).toMatchObject({
      state: 'scheduled',
      dueAt: Date.parse('2031-03-04T10:00:00Z'),
    });
    clock.advance(30 * 60_000);
    await runner().pass();
    expect((await stored({ kind: 'test-note', key: 'windowed' }))?.state).toBe('scheduled');
    clock.advance(30 * 60_000);
    await runner().pass();
    await said(where, 'windowed: everyone still holds');
    expect(postsWith(where, 'waits for the change window')).toHaveLength(1);
  });

  it('retries what SCC fails for now, with backoff, and runs it once', async () => {
    h.sim.faults.add({
      path: '/v1/inventory/devices/asas/*/vlaninterfaces',
      method: 'POST',
      status: 503,
      times: 2,
    });
    const { item } = await vlan(330);
    await runner().pass();
    expect(await stored(item)).toMatchObject({
      state: 'scheduled',
      summary: expect.stringMatching(/^retrying: 503/),
    });
    for (let i = 0; i < 10 && (await stored(item))?.state !== 'done'; i += 1) {
      clock.advance(1_000);
      await runner().pass();
    }
    expect(await stored(item)).toMatchObject({ state: 'done' });
    // The two refused creations reached the simulator; one took effect.
    expect(vlanCreates()).toBe(3);
    expect(h.sim.state.interfaces.size).toBeGreaterThan(0);
  });

  it('fails an item the work refuses and tells its thread why', async () => {
    const where = thread();
    await workers.jobs.timed.schedule(refusingKind, {
      profile: 'default',
      at: clock(),
      owner: 'U0ALICE',
      thread: where,
      payload: { name: 'x' },
    });
    await runner().pass();
    await said(where, 'refusing x: the device said no.');
    expect(await stored({ kind: 'test-refusing', key: 'x' })).toMatchObject({ state: 'failed' });
  });

  it('comes round again: a periodic item runs each round, and each round says its words once', async () => {
    const where = thread();
    await workers.jobs.timed.schedule(periodicKind, {
      profile: 'default',
      at: clock(),
      owner: 'U0ALICE',
      thread: where,
      payload: { name: 'recert', everyMs: 24 * HOUR, rounds: 3 },
    });
    for (let round = 1; round <= 3; round += 1) {
      await runner().pass();
      await runner().pass();
      await said(where, `round ${round} of recert`);
      clock.advance(24 * HOUR);
    }
    expect(await stored({ kind: 'test-periodic', key: 'recert' })).toMatchObject({
      state: 'done',
      round: 3,
    });
    for (const round of [1, 2, 3]) expect(postsWith(where, `round ${round} of`)).toHaveLength(1);
  });

  describe('a run whose process died after its point of no return', () => {
    /** Claims the item as a process that then dies right after `committing`. */
    async function dieWhileChanging(id: string) {
      const store = new TimedStore(redis, new RedisKeys(normalisePrefix(prefix)), HOUR);
      const claim = await store.claim(id, 'dead-runner', clock(), 60_000);
      expect(claim.claimed).toBe(true);
      expect(await store.renew(id, 'dead-runner', clock(), 60_000, 'changing')).toBe(true);
    }

    it('runs it again when the look says it did not take effect', async () => {
      const { item } = await vlan(340);
      await dieWhileChanging(item.id);
      await runner().pass();
      expect(vlanCreates()).toBe(0);
      clock.advance(60_000);
      await runner().pass();
      expect(vlanCreates()).toBe(1);
      expect(await stored(item)).toMatchObject({ state: 'done', summary: 'VLAN 340 created', attempts: 2 });
    });

    it('runs nothing again when the look says it took effect', async () => {
      const { item } = await vlan(341);
      await dieWhileChanging(item.id);
      // The dead process's call had reached SCC.
      await clients.get('default').call('createAsaVlanInterface', {
        path: { deviceUid: hq() },
        body: { vlanId: 341 },
      });
      clock.advance(60_000);
      await runner().pass();
      expect(vlanCreates()).toBe(1);
      expect(await stored(item)).toMatchObject({
        state: 'done',
        summary: 'it took effect before fwbot restarted',
      });
    });
  });

  it('re-checks people when it runs, and names who lost a grant', async () => {
    const where = thread();
    grants.add('U0ALICE:operator');
    await workers.jobs.timed.schedule(noteKind, {
      profile: 'default',
      at: clock(),
      owner: 'U0ALICE',
      thread: where,
      payload: {
        note: 'roles',
        people: [
          { userId: 'U0ALICE', role: 'operator', channelId: where.channelId },
          // Either side of a request that needs both: one of them is enough; Bob holds neither.
          [
            { userId: 'U0BOB', role: 'approver', channelId: where.channelId },
            { userId: 'U0BOB', role: 'admin', channelId: where.channelId },
          ],
        ],
      },
    });
    await runner().pass();
    await said(where, `roles: <@U0BOB> no longer holds the approver role in <#${where.channelId}>.`);
  });

  it('keeps the item id readable and apart: kind, profile and key', () => {
    expect(timedItemId('shun-expiry', 'eu~prod', '198.51.100.7')).toBe('shun-expiry~eu%7Eprod~198.51.100.7');
  });
});
