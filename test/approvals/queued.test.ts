// An operation that needs a second person and is paced: once approved, the call is handed to its queue
// (in the card's thread, under the approval's id), whose worker checks both people's roles and the target
// right before the call and records how it ended with the approval's id. The approvals' exactly-once
// guarantee holds across the handover: an approval handed over twice is queued once.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Approvals, createApprovals } from '../../src/approvals/approvals.js';
import { authorizerFrom } from '../../src/approvals/authorizer.js';
import { APPROVE_ACTION, buttonValue } from '../../src/approvals/card.js';
import { ApprovalStore } from '../../src/approvals/store.js';
import { defineOperation, type Operation, type Role } from '../../src/catalogue/operation.js';
import { Dispatcher } from '../../src/dispatch/dispatcher.js';
import { governanceOf } from '../../src/dispatch/governance.js';
import type { ThreadRef } from '../../src/dispatch/ports.js';
import { RedisRevealGrants } from '../../src/dispatch/reveals.js';
import { createJobsCore } from '../../src/jobs/core.js';
import { callJobId } from '../../src/jobs/operationQueue.js';
import { UserError } from '../../src/model/errors.js';
import { SlackApprovalNotifier } from '../../src/slack/approvalNotifier.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { createHarness, finalReply, type Harness, postsIn, quietLog, text } from '../jobs/support/harness.js';
import { redisUrl } from '../support/testRedis.js';
import { CHANNEL, policyAccess, TEAM, USERS } from './support/world.js';

const LEASE_MS = 60_000;

/** A change that always needs a second person and runs at most once per 200 ms: declared only here. */
const pacedChange = defineOperation({
  id: 'test.paced.change',
  words: ['test', 'paced', 'change'],
  area: 'tenants',
  summary: 'Make a paced change that needs a second person (a test-only operation)',
  failure: 'Could not make the paced change',
  params: [{ name: 'tenant', kind: 'word', description: 'a tenant name' }],
  args: z.object({ tenant: z.string().min(1) }),
  role: 'operator',
  approval: 'always',
  scc: ['getMspManagedTenants'],
  target: {
    facts: z.object({ tenant: z.string() }),
    resolve: async (_ctx, args) => ({ facts: { tenant: args.tenant }, raw: { tenant: args.tenant } }),
    reread: async (_ctx, facts) => ({ found: true, facts }),
    compare: () => [],
    describe: (facts) => ({
      action: `make a paced change to ${facts.tenant}`,
      line: `tenant ${facts.tenant}`,
      fields: [{ label: 'Tenant', value: facts.tenant }],
      warnings: [],
    }),
  },
  queue: {
    name: 'paced-changes',
    limit: { max: 1, perMs: 200 },
    key: {
      of: (args) => args.tenant,
      compare: 'exact',
      taken: (args) => `A paced change to \`${args.tenant}\` is already waiting.`,
      heldAfterAcceptMs: 1_000,
    },
    afterInterruption: 'ask-a-person',
    words: {
      call: (args) => `the paced change to *${args.tenant}*`,
      pace: 'paced changes run one every 200 ms',
      check: 'Check the tenant',
    },
    // SCC would refuse this one when its turn came: refused before anyone is asked to approve it.
    check: async (_ctx, args) => {
      if (args.tenant === 'refused') throw new UserError('SCC would refuse a paced change to `refused`.');
    },
    announce: (args) => ({
      summary: `paced change to ${args.tenant}`,
      blocks: [{ kind: 'text', text: `A paced change to *${args.tenant}* is queued.` }],
      visibility: 'in_channel',
    }),
  },
  run: async (ctx) => (await ctx.scc.call('getMspManagedTenants', { query: {} })).data.count ?? 0,
  render: (count, args) => ({
    summary: `paced change to ${args.tenant} made`,
    blocks: [{ kind: 'text', text: `Paced change to *${args.tenant}* made (${count} tenants seen).` }],
    visibility: 'in_channel',
  }),
});

const OPERATIONS: readonly Operation[] = [pacedChange];
const lookup = (id: string) => OPERATIONS.find((op) => op.id === id);

/** The approvals world's policy, with roles the test takes away. */
class Roles {
  readonly revoked = new Set<string>();
  readonly #policy = policyAccess();
  async holds(userId: string, channelId: string, role: Role): Promise<boolean> {
    return !this.revoked.has(`${userId}/${role}`) && this.#policy.holds(userId, channelId, role);
  }
}

describe('an approved call of a paced operation', () => {
  let h: Harness;
  let redis: Redis;
  const running: Approvals[] = [];

  beforeAll(async () => {
    h = await createHarness();
    redis = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    await Promise.all(running.map((approvals) => approvals.close()));
    await h.close();
    redis.disconnect();
  });

  /** Workers on a fresh prefix, the approvals service and a dispatcher over them, as startGovernance wires them. */
  async function setUp(options: { queueWorkers?: boolean } = {}) {
    const { workers, prefix } = await h.start();
    const roles = new Roles();
    let now = Date.now();
    const clock = () => now;
    const approvals = createApprovals({
      redis,
      prefix: `${prefix}:`,
      notifier: new SlackApprovalNotifier(createWorkerSlackClient('xoxb-test', h.slack.apiUrl), quietLog),
      clients: h.clients,
      lookup,
      tracker: workers.jobs.tracker,
      queue: workers.jobs.queue,
      authorizer: authorizerFrom(roles),
      reveals: new RedisRevealGrants(redis, `${prefix}:`),
      settings: { executionLeaseMs: LEASE_MS },
      logger: quietLog,
      clock,
    });
    running.push(approvals);
    const dispatcher = new Dispatcher({
      access: policyAccess(),
      scc: h.clients,
      lookup,
      governance: governanceOf(OPERATIONS, {}),
      approvals: approvals.gate,
      reveals: new RedisRevealGrants(redis, `${prefix}:`),
      audit: approvals.audit,
      queue: workers.jobs.queue,
      log: quietLog,
    });
    const runQueuedCalls = () =>
      workers.runQueuedCalls({ operations: OPERATIONS, lookup, access: roles, audit: approvals.audit });
    if (options.queueWorkers !== false) await runQueuedCalls();
    const store = new ApprovalStore({
      redis,
      prefix: `${prefix}:`,
      retentionMs: 86_400_000,
      claimGraceMs: LEASE_MS,
    });

    /** Alice asks; the card is posted; its thread is where the queue reports. */
    async function ask(tenant: string): Promise<{ id: string; thread: ThreadRef }> {
      const asked = await dispatcher.dispatch(
        {
          op: pacedChange,
          raw: { tenant },
          commandText: `/fw test paced change ${tenant}`,
          entry: 'command',
        },
        {
          requestId: `req-${tenant}`,
          actor: { userId: USERS.alice, channelId: CHANNEL, teamId: TEAM },
          log: quietLog,
        },
      );
      if (asked.kind !== 'approval') throw new Error(`expected an approval, got ${asked.kind}`);
      const record = await store.get(asked.approvalId);
      if (!record?.cardChannel || !record.cardTs) throw new Error('the card was not posted');
      const thread = {
        channelId: record.cardChannel,
        threadTs: record.cardTs,
        requesterId: USERS.alice,
        profile: 'default',
      };
      return { id: asked.approvalId, thread };
    }
    const approve = (id: string) =>
      approvals.press(
        { id: APPROVE_ACTION, value: buttonValue(id) },
        { userId: USERS.bob },
        async () => undefined,
      );
    const jobsIn = async () => {
      const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
      try {
        return await core
          .callQueue('paced-changes', 'default')
          .getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
      } finally {
        await core.close();
      }
    };
    return {
      workers,
      roles,
      approvals,
      store,
      ask,
      approve,
      jobsIn,
      runQueuedCalls,
      advance: (ms: number) => {
        now += ms;
      },
      clock,
    };
  }

  const sccCalls = () => h.sim.requestLog.list({ operationId: 'getMspManagedTenants' }).length;

  it('is handed to its queue in the card’s thread, runs once at its turn, and is audited with the approval', async () => {
    const { ask, approve, approvals, jobsIn } = await setUp();
    const { id, thread } = await ask('acme');
    expect(sccCalls()).toBe(0);

    expect(await approve(id)).toBeUndefined();
    const reply = await finalReply(h.slack, thread);

    expect(JSON.stringify(reply.args.blocks)).toContain('Paced change to *acme* made');
    expect(sccCalls()).toBe(1);
    const handedOver = postsIn(h.slack, thread).find((post) =>
      JSON.stringify(post.args.blocks ?? '').includes('Approved and queued'),
    );
    expect(JSON.stringify(handedOver?.args.blocks)).toContain(
      'Approved and queued (place 1): paced changes run one every 200 ms, so the paced change to *acme* waits its turn.',
    );
    expect((await jobsIn()).map((job) => job.id)).toEqual([callJobId(id)]);
    const audit = (await approvals.audit.latest(10)).filter((record) => record.approvalId === id);
    expect(audit.map((record) => [record.action, record.actor])).toEqual(
      expect.arrayContaining([
        ['requested', USERS.alice],
        ['approved', USERS.bob],
        ['queued', USERS.bob],
        ['executed', USERS.bob],
      ]),
    );
    expect(audit.find((record) => record.action === 'executed')?.outcome).toBe(
      'approved: paced change to acme made',
    );
  });

  it('is refused before anyone is asked to approve when its queue’s check says SCC would refuse it', async () => {
    const { ask } = await setUp();
    const cards = h.slack.callsTo('chat.postMessage').length;

    await expect(ask('refused')).rejects.toThrow('SCC would refuse a paced change to `refused`.');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(cards);
  });

  it('is not made when the approver lost the role before its turn, and the thread says who', async () => {
    const { ask, approve, approvals, roles, runQueuedCalls, jobsIn } = await setUp({ queueWorkers: false });
    const { id, thread } = await ask('globex');
    expect(await approve(id)).toBeUndefined();
    expect((await jobsIn()).map((job) => job.id)).toEqual([callJobId(id)]);

    // Between the handover and the turn, Bob stops being an approver.
    roles.revoked.add(`${USERS.bob}/approver`);
    await runQueuedCalls();
    const reply = await finalReply(h.slack, thread);

    expect(text(reply)).toBe(
      `<@${USERS.alice}> The paced change to *globex*: not done. <@${USERS.bob}>, who approved, no longer holds the approver role here.`,
    );
    expect(sccCalls()).toBe(0);
    const aborted = (await approvals.audit.latest(10)).find(
      (record) => record.approvalId === id && record.action === 'aborted',
    );
    expect(aborted?.outcome).toContain('who approved, no longer holds the approver role here');
  });

  it('is queued once when a process that handed it over died and another takes the approval over', async () => {
    const { ask, approvals, store, workers, advance, clock, jobsIn } = await setUp();
    const { id, thread } = await ask('initech');
    const record = await store.get(id);
    if (!record?.request) throw new Error('no request');
    // What a process leaves when it dies right after handing the call over: approved, claimed, past the point
    // of no return, the call queued under the approval's id.
    expect((await store.decide(id, 'approved', clock(), USERS.bob)).outcome).toBe('decided');
    expect((await store.claim(id, 'dead-process', clock(), LEASE_MS)).claimed).toBe(true);
    expect(await store.hold(id, 'dead-process', clock(), LEASE_MS, 'calling')).toBe(true);
    await workers.jobs.queue.enqueue(pacedChange, {
      raw: { tenant: 'initech' },
      requester: { userId: USERS.alice, channelId: CHANNEL, teamId: TEAM },
      thread,
      requestId: id,
      target: { facts: { tenant: 'initech' }, line: 'tenant initech' },
      approval: { id, approvedBy: USERS.bob },
      audited: 'approved',
    });
    await finalReply(h.slack, thread);

    // Its lease runs out; a recovery pass takes the approval over and hands it over again.
    advance(LEASE_MS);
    await approvals.recover();

    expect((await store.get(id))?.state).toBe('done');
    expect((await jobsIn()).map((job) => job.id)).toEqual([callJobId(id)]);
    expect(sccCalls()).toBe(1);
    expect(
      postsIn(h.slack, thread).filter((post) =>
        JSON.stringify(post.args.blocks ?? '').includes('Paced change to *initech* made'),
      ),
    ).toHaveLength(1);
  });
});
