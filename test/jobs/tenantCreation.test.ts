import { describe, expect, it } from 'vitest';
import { createJobsCore } from '../../src/jobs/core.js';
import { NAME_HELD_AFTER_ACCEPT_MS, NAME_RESERVED_MS, placeInQueue } from '../../src/jobs/tenantCreation.js';
import { createJobs } from '../../src/jobs/workers.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import {
  driveUntil,
  eventType,
  finalReply,
  type Harness,
  postsIn,
  quietLog,
  TEST_SCHEDULE,
  text,
  thread,
  useHarness,
} from './support/harness.js';

describe('tenant creation behind the limiter', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  it('tells queued requests their place and expected start, then creates one per window, in order', async () => {
    const prefix = uniquePrefix('tenants');
    const jobs = createJobs({ redisUrl: redisUrl(), prefix, schedule: TEST_SCHEDULE, logger: quietLog });
    const threads = [thread(), thread(), thread()];
    const names = ['alpha-one', 'alpha-two', 'alpha-three'];
    const before = Date.now();
    const queued = [];
    for (const [i, name] of names.entries()) {
      queued.push(await jobs.enqueueTenantCreation({ tenantName: name, thread: threads[i] ?? thread() }));
    }
    await jobs.close();

    const interval = TEST_SCHEDULE.tenantCreation?.intervalMs ?? 0;
    expect(queued.map((q) => q.place)).toEqual([1, 2, 3]);
    for (const [i, q] of queued.entries()) {
      expect(q.expectedStart.getTime()).toBeGreaterThanOrEqual(before + i * interval);
      expect(q.expectedStart.getTime()).toBeLessThan(Date.now() + i * interval + 50);
    }

    const { clients } = await h.start({ prefix });
    const calls: number[] = [];
    // SCC's own rule is in simulated time: let 30 s pass after each creation it accepts.
    clients.calls.on('call', (event) => {
      if (event.operationId !== 'createTenant') return;
      calls.push(Date.now());
      h.sim.clock.advance(30_000);
    });
    const replies = await driveUntil(
      h.sim,
      clients,
      Promise.all(threads.map((where) => finalReply(h.slack, where))),
      60_000,
    );

    for (const [i, reply] of replies.entries()) {
      expect(text(reply)).toMatch(new RegExp(`^<@U0ALICE> \\*create tenant ${names[i]}\\*: done\\.`));
    }
    expect(calls).toHaveLength(3);
    // One start per window, read from the jobs themselves: when each began (BullMQ's processedOn). The
    // SCC calls are not spaced as exactly: a job reads the portal's names before it creates, and on a
    // loaded machine the first one's read can take most of a window while the next one's takes none.
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    try {
      const queue = core.tenantQueue(threads[0]?.profile ?? 'default');
      const jobs = await queue.getJobs(['completed']);
      const starts = jobs.map((job) => job.processedOn ?? 0).sort((a, b) => a - b);
      expect(starts).toHaveLength(3);
      expect((starts[1] ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(interval * 0.75);
      expect((starts[2] ?? 0) - (starts[1] ?? 0)).toBeGreaterThanOrEqual(interval * 0.75);
    } finally {
      await core.close();
    }
    const started = threads.map(
      (where) =>
        postsIn(h.slack, where).find((call) => text(call).startsWith('SCC accepted the creation'))?.at ?? 0,
    );
    expect([...started].sort((a, b) => a - b)).toEqual(started);
    // The first starts at once and is not told to wait; the others are, before they start.
    expect(postsIn(h.slack, threads[0] ?? thread()).map((call) => text(call).slice(0, 30))).not.toContain(
      'The creation of tenant *alpha-o',
    );
    const [note] = postsIn(h.slack, threads[2] ?? thread());
    expect(note && eventType(note)).toBe('fwbot_note');
    expect(note && text(note)).toMatch(
      /^The creation of tenant \*alpha-three\* is queued: place 3 \(2 ahead of it\)\. SCC creates at most one tenant every 30 seconds, so it should start around \d\d:\d\d:\d\d UTC\.$/,
    );
  });

  it('does not tell a creation that has started to wait another window (it was 30 s late)', async () => {
    // SCC's real 30 s: the first creation starts at once; a second would have to wait for the window.
    const schedule = { ...TEST_SCHEDULE, tenantCreation: { intervalMs: 30_000 } };
    const { workers, prefix } = await h.start({ schedule });
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, schedule, logger: quietLog });
    const where = thread();

    const queued = await workers.jobs.enqueueTenantCreation({ tenantName: 'acme-first', thread: where });
    await h.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && text(call).startsWith('SCC accepted the creation'),
    );
    const later = await placeInQueue(core, 'default', `tenant-${queued.requestId}`);
    await core.close();

    // Whether the worker took the job before or after the place was read, its start is not in the future.
    expect(queued.place).toBe(1);
    expect(queued.expectedStart.getTime()).toBeLessThanOrEqual(Date.now());
    expect(later.expectedStart.getTime()).toBeLessThanOrEqual(Date.now());
    expect(postsIn(h.slack, where).map((call) => text(call))).not.toContainEqual(
      expect.stringMatching(/is queued/),
    );
  });

  it("reports SCC's refusal (a duplicate name) in the thread and does not retry", async () => {
    const { workers } = await h.start();
    const where = thread();

    const queued = await workers.jobs.enqueueTenantCreation({ tenantName: 'globex-apj', thread: where });
    const reply = await finalReply(h.slack, where);

    expect(queued.place).toBe(1);
    expect(text(reply)).toMatch(
      /^<@U0ALICE> \*create tenant globex-apj\*: not created\. SCC refused \(409 CONFLICT/,
    );
    expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(1);
  });

  it('holds a name for one request at a time, lets go of it when SCC refuses, keeps it a while when SCC accepts', async () => {
    const { workers, prefix } = await h.start();
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    try {
      const held = await workers.jobs.reserveTenantName('default', 'Globex-APJ');
      expect(held).toBeDefined();
      // Reserved briefly while the request is announced (a failed post must not hold it for days).
      const nameKey = core.keys.tenantName('default', 'globex-apj');
      expect(await core.redis.pttl(nameKey)).toBeLessThanOrEqual(NAME_RESERVED_MS);
      // Another request for the name, in any case, is refused while it is held; another profile is not.
      expect(await workers.jobs.reserveTenantName('default', 'globex-apj')).toBeUndefined();
      const elsewhere = await workers.jobs.reserveTenantName('other', 'globex-apj');
      expect(elsewhere).toBeDefined();
      // Queued (on a profile no worker here serves, so it waits), it is held as long as a job may wait.
      await workers.jobs.enqueueTenantCreation({
        tenantName: 'globex-apj',
        thread: thread('other'),
        requestId: elsewhere?.requestId,
      });
      expect(await core.redis.pttl(core.keys.tenantName('other', 'globex-apj'))).toBeGreaterThan(
        NAME_RESERVED_MS,
      );
      // Without a reservation of its own, an enqueue of a held name fails rather than queueing it twice.
      await expect(
        workers.jobs.enqueueTenantCreation({ tenantName: 'GLOBEX-apj', thread: thread() }),
      ).rejects.toThrow(/already queued or under way/);

      const refused = thread();
      await workers.jobs.enqueueTenantCreation({
        tenantName: 'Globex-APJ',
        thread: refused,
        requestId: held?.requestId,
      });
      expect(text(await finalReply(h.slack, refused))).toMatch(/not created\. SCC refused \(409 CONFLICT/);
      expect(await core.redis.exists(core.keys.tenantName('default', 'globex-apj'))).toBe(0);
      expect(await workers.jobs.reserveTenantName('default', 'globex-apj')).toBeDefined();

      const accepted = thread();
      await workers.jobs.enqueueTenantCreation({ tenantName: 'initech-new', thread: accepted });
      await h.slack.waitFor(
        (call) =>
          call.method === 'chat.postMessage' &&
          call.args.thread_ts === accepted.threadTs &&
          text(call).startsWith('SCC accepted the creation'),
      );
      const ttl = await core.redis.pttl(core.keys.tenantName('default', 'initech-new'));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(NAME_HELD_AFTER_ACCEPT_MS);
    } finally {
      await core.close();
    }
  });
});
