// The generic queue of operations that must be paced or serialised (src/jobs/operationQueue.ts), with
// tenant creation as its case (SCC creates at most one tenant every 30 seconds) and a second, test-only
// queue declared here: what a paced operation costs is its declaration.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineOperation,
  type Operation,
  type Role,
  type TrackRequest,
} from '../../src/catalogue/operation.js';
import { tenantsCreate } from '../../src/catalogue/tenants.js';
import type { ThreadRef, Tracker } from '../../src/dispatch/ports.js';
import { createJobsCore, type JobsCore } from '../../src/jobs/core.js';
import { callJobId, KEY_RESERVED_MS, placeInQueue } from '../../src/jobs/operationQueue.js';
import { createJobs, type QueuedCallsDeps } from '../../src/jobs/workers.js';
import { AccessControl } from '../../src/policy/access.js';
import type { FakeSlack, RecordedCall } from '../support/fakeSlack.js';
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

/**
 * A paced read declared only here: at most one call per 300 ms per profile, one call per tenant at a time,
 * and after an interruption a person checks. Nothing in src/ knows it.
 */
const pacedRead = defineOperation({
  id: 'test.paced.read',
  words: ['test', 'paced', 'read'],
  area: 'tenants',
  summary: 'Count the tenants, paced (a test-only operation)',
  failure: 'Could not count the tenants',
  params: [{ name: 'tenant', kind: 'word', description: 'a tenant name' }],
  args: z.object({ tenant: z.string().min(1) }),
  role: 'viewer',
  approval: 'never',
  scc: ['getMspManagedTenants'],
  queue: {
    name: 'paced-reads',
    limit: { max: 1, perMs: 300 },
    key: {
      of: (args) => args.tenant,
      compare: 'exact',
      taken: (args) => `A paced read for \`${args.tenant}\` is already waiting.`,
      heldAfterAcceptMs: 1_000,
    },
    afterInterruption: 'ask-a-person',
    words: {
      call: (args) => `the paced read for *${args.tenant}*`,
      pace: 'Paced reads run one every 300 ms',
      check: 'Check the tenant list',
    },
    announce: (args) => ({
      summary: `paced read for ${args.tenant}`,
      blocks: [{ kind: 'text', text: `A paced read for *${args.tenant}* is queued.` }],
      visibility: 'in_channel',
    }),
  },
  run: async (ctx) => (await ctx.scc.call('getMspManagedTenants', { query: {} })).data.count ?? 0,
  render: (count, args) => ({
    summary: `${count} tenants (paced read for ${args.tenant})`,
    blocks: [{ kind: 'text', text: `The portal has *${count}* tenants (paced read for ${args.tenant}).` }],
    visibility: 'in_channel',
  }),
});

const OPERATIONS: readonly Operation[] = [tenantsCreate, pacedRead];

/** Roles as the policy would answer, with some taken away by the test. */
class Roles {
  readonly revoked = new Set<string>();
  async holds(userId: string, _channelId: string, role: Role): Promise<boolean> {
    return !this.revoked.has(`${userId}/${role}`);
  }
}

function queuedCalls(extra: Partial<QueuedCallsDeps> = {}): QueuedCallsDeps {
  return {
    operations: OPERATIONS,
    lookup: (id) => OPERATIONS.find((op) => op.id === id),
    access: new Roles(),
    ...extra,
  };
}

/** A call of `op` as the dispatcher queues it: asked by the thread's requester, in its channel. */
function call(where: ThreadRef, raw: Record<string, string>, requestId: string = randomUUID()) {
  return {
    raw,
    requester: { userId: where.requesterId, channelId: where.channelId },
    thread: where,
    requestId,
  };
}

/** The text of a post's blocks (sections and context), joined: what a person reads. */
function blocksText(args: Record<string, unknown>): string {
  const blocks = Array.isArray(args.blocks) ? (args.blocks as Record<string, unknown>[]) : [];
  return blocks
    .flatMap((block) => [block.text, ...(Array.isArray(block.elements) ? block.elements : [])])
    .map((part) => (part as { text?: unknown } | undefined)?.text)
    .filter((part): part is string => typeof part === 'string')
    .join('\n');
}

/** The outcome's view as posted in the thread: the one post that carries blocks. */
function outcomePosts(slack: FakeSlack, where: ThreadRef): RecordedCall[] {
  return postsIn(slack, where).filter((post) => Array.isArray(post.args.blocks));
}

function waitForOutcome(slack: FakeSlack, where: ThreadRef): Promise<RecordedCall> {
  return slack.waitFor(
    (post) =>
      post.method === 'chat.postMessage' &&
      post.status === 200 &&
      post.args.thread_ts === where.threadTs &&
      Array.isArray(post.args.blocks),
  );
}

/** When each completed job of a queue began (BullMQ's processedOn), in order. */
async function starts(core: JobsCore, queue: string, profile: string): Promise<number[]> {
  const jobs = await core.callQueue(queue, profile).getJobs(['completed']);
  return jobs.map((job) => job.processedOn ?? 0).sort((a, b) => a - b);
}

describe('the operation queue, with tenant creation as its case', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  async function start(extra: Partial<QueuedCallsDeps> = {}, schedule = TEST_SCHEDULE) {
    const started = await h.start({ schedule });
    await started.workers.runQueuedCalls(queuedCalls(extra));
    return started;
  }

  it('tells queued requests their place and expected start, then creates one per window, in order', async () => {
    const prefix = uniquePrefix('tenants');
    const jobs = createJobs({ redisUrl: redisUrl(), prefix, schedule: TEST_SCHEDULE, logger: quietLog });
    const threads = [thread(), thread(), thread()];
    const names = ['alpha-one', 'alpha-two', 'alpha-three'];
    const before = Date.now();
    const queued = [];
    for (const [i, name] of names.entries()) {
      queued.push(await jobs.queue.enqueue(tenantsCreate, call(threads[i] ?? thread(), { name })));
    }
    await jobs.close();

    const interval = TEST_SCHEDULE.queues?.['tenant-creation']?.perMs ?? 0;
    expect(queued.map((q) => q.place)).toEqual([1, 2, 3]);
    for (const [i, q] of queued.entries()) {
      expect(q.expectedStart.getTime()).toBeGreaterThanOrEqual(before + i * interval);
      expect(q.expectedStart.getTime()).toBeLessThan(Date.now() + i * interval + 50);
    }

    const { clients, workers } = await h.start({ prefix });
    await workers.runQueuedCalls(queuedCalls());
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
    // One start per window, read from the jobs themselves: when each began (BullMQ's processedOn).
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    try {
      const began = await starts(core, 'tenant-creation', threads[0]?.profile ?? 'default');
      expect(began).toHaveLength(3);
      expect((began[1] ?? 0) - (began[0] ?? 0)).toBeGreaterThanOrEqual(interval * 0.75);
      expect((began[2] ?? 0) - (began[1] ?? 0)).toBeGreaterThanOrEqual(interval * 0.75);
    } finally {
      await core.close();
    }
    // Each thread gets the outcome's view once: who asked for what, and the transaction followed.
    for (const [i, where] of threads.entries()) {
      const posted = outcomePosts(h.slack, where);
      expect(posted).toHaveLength(1);
      expect(blocksText(posted[0]?.args ?? {})).toContain(`<@U0ALICE> asked to create tenant *${names[i]}*.`);
      expect(posted[0] && eventType(posted[0])).toBe('fwbot_note');
    }
    const started = threads.map((where) => outcomePosts(h.slack, where)[0]?.at ?? 0);
    expect([...started].sort((a, b) => a - b)).toEqual(started);
    // The first starts at once and is not told to wait; the others are, before they start.
    expect(postsIn(h.slack, threads[0] ?? thread()).map((post) => text(post).slice(0, 30))).not.toContain(
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
    const schedule = { ...TEST_SCHEDULE, queues: { 'tenant-creation': { perMs: 30_000 } } };
    const { prefix } = await start({}, schedule);
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, schedule, logger: quietLog });
    const where = thread();
    const requestId = randomUUID();

    const jobs = createJobs({ redisUrl: redisUrl(), prefix, schedule, logger: quietLog });
    const queued = await jobs.queue.enqueue(tenantsCreate, call(where, { name: 'acme-first' }, requestId));
    await jobs.close();
    await waitForOutcome(h.slack, where);
    const declared = tenantsCreate.queue;
    if (!declared) throw new Error('tenant creation declares its queue');
    const later = await placeInQueue(core, declared, 'default', callJobId(requestId));
    await core.close();

    // Whether the worker took the job before or after the place was read, its start is not in the future.
    expect(queued.place).toBe(1);
    expect(queued.expectedStart.getTime()).toBeLessThanOrEqual(Date.now());
    expect(later.expectedStart.getTime()).toBeLessThanOrEqual(Date.now());
    expect(postsIn(h.slack, where).map((post) => text(post))).not.toContainEqual(
      expect.stringMatching(/is queued/),
    );
  });

  it("reports SCC's refusal (a duplicate name) in the thread and does not retry", async () => {
    const { workers } = await start();
    const where = thread();

    const queued = await workers.jobs.queue.enqueue(tenantsCreate, call(where, { name: 'globex-apj' }));
    const reply = await finalReply(h.slack, where);

    expect(queued.place).toBe(1);
    expect(text(reply)).toMatch(
      /^<@U0ALICE> The creation of tenant \*globex-apj\*: not done\. SCC refused \(409 CONFLICT/,
    );
    expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(1);
  });

  it('holds a name for one request at a time, lets go of it when SCC refuses, keeps it a while when SCC accepts', async () => {
    const { workers, prefix } = await start();
    const { queue } = workers.jobs;
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    const nameKey = (profile: string, name: string) => core.keys.queueKey('tenant-creation', profile, name);
    try {
      const held = await queue.reserve(tenantsCreate, 'default', { name: 'Globex-APJ' });
      expect(held).toBeDefined();
      // Reserved briefly while the request is announced (a failed post must not hold it for days).
      expect(await core.redis.pttl(nameKey('default', 'globex-apj'))).toBeLessThanOrEqual(KEY_RESERVED_MS);
      // Another request for the name, in any case, is refused while it is held; another profile is not.
      expect(await queue.reserve(tenantsCreate, 'default', { name: 'globex-apj' })).toBeUndefined();
      const elsewhere = await queue.reserve(tenantsCreate, 'other', { name: 'globex-apj' });
      expect(elsewhere).toBeDefined();
      // Queued (on a profile no worker here serves, so it waits), it is held as long as a job may wait.
      await queue.enqueue(
        tenantsCreate,
        call(thread('other'), { name: 'globex-apj' }, elsewhere?.requestId ?? 'unset'),
      );
      expect(await core.redis.pttl(nameKey('other', 'globex-apj'))).toBeGreaterThan(KEY_RESERVED_MS);
      // Without a reservation of its own, an enqueue of a held name fails rather than queueing it twice.
      await expect(queue.enqueue(tenantsCreate, call(thread(), { name: 'GLOBEX-apj' }))).rejects.toThrow(
        /already queued or under way/,
      );

      const refused = thread();
      await queue.enqueue(tenantsCreate, call(refused, { name: 'Globex-APJ' }, held?.requestId ?? 'unset'));
      expect(text(await finalReply(h.slack, refused))).toMatch(/not done\. SCC refused \(409 CONFLICT/);
      expect(await core.redis.exists(nameKey('default', 'globex-apj'))).toBe(0);
      expect(await queue.reserve(tenantsCreate, 'default', { name: 'globex-apj' })).toBeDefined();

      const accepted = thread();
      await queue.enqueue(tenantsCreate, call(accepted, { name: 'initech-new' }));
      await waitForOutcome(h.slack, accepted);
      const ttl = await core.redis.pttl(nameKey('default', 'initech-new'));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(
        tenantsCreate.queue?.key({ name: 'initech-new' })?.heldAfterAcceptMs ?? 0,
      );
    } finally {
      await core.close();
    }
  });

  it('after a worker died mid-call, calls tenant creation again and reads SCC’s 409 as the earlier attempt’s effect', async () => {
    const { workers, prefix } = await start();
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    const where = thread();
    const requestId = randomUUID();
    try {
      // What a worker killed during createTenant leaves: the mark that the call may have reached SCC.
      await core.redis.set(core.keys.queuedCall('tenant-creation', requestId), 'calling');
      await workers.jobs.queue.enqueue(tenantsCreate, call(where, { name: 'globex-apj' }, requestId));
      expect(text(await finalReply(h.slack, where))).toMatch(
        /^<@U0ALICE> The creation of tenant \*globex-apj\*: probably done\. SCC refused \(409 CONFLICT: .*\)\. An earlier attempt of this same request probably made it before fwbot restarted\. Check `\/fw tenants list`\.$/,
      );
      expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(1);
    } finally {
      await core.close();
    }
  });

  it('a call whose requester lost the role before its turn is not made, and the thread says why', async () => {
    const roles = new Roles();
    const { workers, prefix } = await start({ access: roles });
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    const where = thread();
    try {
      const held = await workers.jobs.queue.reserve(tenantsCreate, 'default', { name: 'acme-revoked' });
      // Between the announcement and the turn, an admin takes the operator role away.
      roles.revoked.add('U0ALICE/operator');
      await workers.jobs.queue.enqueue(
        tenantsCreate,
        call(where, { name: 'acme-revoked' }, held?.requestId ?? 'unset'),
      );
      const reply = await finalReply(h.slack, where);

      expect(text(reply)).toBe(
        '<@U0ALICE> The creation of tenant *acme-revoked*: not done. <@U0ALICE>, who asked, no longer holds the operator role here.',
      );
      expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(0);
      expect(h.sim.requestLog.list({ operationId: 'getMspManagedTenants' })).toHaveLength(0);
      // Its name is free again for whoever may still create it.
      expect(await core.redis.exists(core.keys.queueKey('tenant-creation', 'default', 'acme-revoked'))).toBe(
        0,
      );
    } finally {
      await core.close();
    }
  });

  it('checks an external requester and an external approver again as the external people they are (Slack Connect)', async () => {
    // Every home person may create tenants and approve; in the shared channel, external people only read.
    const everyone = { viewer: ['*'], operator: ['*'], approver: ['*'], admin: [] };
    const policy = new AccessControl({
      policy: {
        workspace: everyone,
        channels: new Map(),
        external: new Map([['C0SHARED01', { viewer: ['*'], operator: [], approver: ['*'], admin: [] }]]),
      },
      channels: new Map(),
      profiles: ['default'],
    });
    const { workers, prefix } = await start({ access: policy });
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    const asked = thread('default', 'C0SHARED01', 'U0CUST0001');
    const approved = thread('default', 'C0SHARED01', 'U0MSPOPS01');
    try {
      const external = { ...call(asked, { name: 'cust-external' }) };
      await workers.jobs.queue.enqueue(tenantsCreate, {
        ...external,
        requester: { ...external.requester, external: true, userTeamId: 'T0CUSTOMR1' },
      });
      expect(text(await finalReply(h.slack, asked))).toBe(
        '<@U0CUST0001> The creation of tenant *cust-external*: not done. <@U0CUST0001>, who asked, no longer holds the operator role here.',
      );
      // A home requester, approved by an external person where external approvers are not allowed.
      await workers.jobs.queue.enqueue(tenantsCreate, {
        ...call(approved, { name: 'cust-approved' }),
        approval: { id: 'ap-external-1', approvedBy: 'U0CUSTLEAD', external: true },
        audited: 'approved',
      });
      expect(text(await finalReply(h.slack, approved))).toBe(
        '<@U0MSPOPS01> The creation of tenant *cust-approved*: not done. <@U0CUSTLEAD>, who approved, no longer holds the approver role here.',
      );
      expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(0);
    } finally {
      await core.close();
    }
  });

  it('a job run again after SCC accepted its call only delivers the recorded outcome, once', async () => {
    // The worker fails right after SCC accepted (the tracking queue is unreachable for one call), as a
    // worker killed at that point would: BullMQ runs the job again.
    let failures = 1;
    const follows: TrackRequest[] = [];
    const tracker: { inner?: Tracker } & Tracker = {
      async follow(request, where) {
        if (failures > 0) {
          failures -= 1;
          throw new Error('tracking queue unavailable');
        }
        follows.push(request);
        await tracker.inner?.follow(request, where);
      },
      speakIn: async () => undefined,
    };
    const { workers } = await h.start();
    tracker.inner = workers.jobs.tracker;
    await workers.runQueuedCalls(queuedCalls({ tracker }));
    const where = thread();

    await workers.jobs.queue.enqueue(tenantsCreate, call(where, { name: 'acme-once' }));
    await driveUntil(h.sim, h.clients, finalReply(h.slack, where), 60_000);

    expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(1);
    expect(outcomePosts(h.slack, where)).toHaveLength(1);
    expect(follows).toEqual([
      { kind: 'transaction', transactionUid: expect.any(String), label: 'create tenant acme-once' },
    ]);
    expect(failures).toBe(0);
  });
});

describe('a second queue, declared by a test-only operation', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  async function start(extra: Parameters<Harness['start']>[0] = {}) {
    const started = await h.start(extra);
    await started.workers.runQueuedCalls(queuedCalls());
    return started;
  }

  it('runs through the same worker at its own pace, one call per key at a time', async () => {
    // Queued before any worker runs, so the second call certainly waits for the first.
    const prefix = uniquePrefix('paced');
    const jobs = createJobs({ redisUrl: redisUrl(), prefix, schedule: TEST_SCHEDULE, logger: quietLog });
    const threads = [thread(), thread()];
    expect(await jobs.queue.reserve(pacedRead, 'default', { tenant: 'acme' })).toBeDefined();
    expect(await jobs.queue.reserve(pacedRead, 'default', { tenant: 'acme' })).toBeUndefined();
    const places = [
      await jobs.queue.enqueue(pacedRead, call(threads[0] ?? thread(), { tenant: 'globex' })),
      await jobs.queue.enqueue(pacedRead, call(threads[1] ?? thread(), { tenant: 'initech' })),
    ];
    await jobs.close();
    expect(places.map((place) => place.place)).toEqual([1, 2]);

    await start({ prefix });
    const replies = await Promise.all(threads.map((where) => finalReply(h.slack, where)));

    // The call that waits is told so first, in the words its queue declares.
    const [note] = postsIn(h.slack, threads[1] ?? thread());
    expect(note && text(note)).toMatch(
      /^The paced read for \*initech\* is queued: place 2 \(1 ahead of it\)\. Paced reads run one every 300 ms, so it should start around \d\d:\d\d:\d\d UTC\.$/,
    );

    // No tracking: the outcome's view is the thread's last word.
    expect(replies.map((reply) => blocksText(reply.args))).toEqual([
      expect.stringMatching(/^The portal has \*\d+\* tenants \(paced read for globex\)\.$/),
      expect.stringMatching(/^The portal has \*\d+\* tenants \(paced read for initech\)\.$/),
    ]);
    expect(h.sim.requestLog.list({ operationId: 'getMspManagedTenants' })).toHaveLength(2);
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    try {
      const began = await starts(core, 'paced-reads', 'default');
      expect(began).toHaveLength(2);
      expect((began[1] ?? 0) - (began[0] ?? 0)).toBeGreaterThanOrEqual(300 * 0.75);
    } finally {
      await core.close();
    }
  });

  it('after a worker died mid-call, asks a person to check instead of calling again, as it declares', async () => {
    const { workers, prefix } = await start();
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    const where = thread();
    const requestId = randomUUID();
    try {
      await core.redis.set(core.keys.queuedCall('paced-reads', requestId), 'calling');
      await workers.jobs.queue.enqueue(pacedRead, call(where, { tenant: 'acme' }, requestId));
      expect(text(await finalReply(h.slack, where))).toBe(
        '<@U0ALICE> The paced read for *acme*: not sent again. fwbot restarted while sending it, so it may have happened. Check the tenant list, then ask again if it did not.',
      );
      expect(h.sim.requestLog.list({ operationId: 'getMspManagedTenants' })).toHaveLength(0);
    } finally {
      await core.close();
    }
  });
});
