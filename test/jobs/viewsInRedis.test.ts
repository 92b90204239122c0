// What the workers keep in Redis until Slack has it is a View, never Block Kit (issue 35): a queued call's
// outcome, its notification, an incident's thread reply. Slack's side makes Block Kit of it when it posts
// (src/slack/chat.ts), exactly what the renderer makes of the view. And at the upgrade, what an older fwbot
// kept in Redis as Block Kit — a notification waiting in its queue, a queued call's recorded outcome, an
// incident's thread reply waiting for its parent — is posted by the new workers as it was rendered
// (src/jobs/legacyBlocks.ts). All on real Redis, with the real workers, the simulator and the fake Slack.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { tenantsCreate } from '../../src/catalogue/tenants.js';
import type { ThreadRef } from '../../src/dispatch/ports.js';
import { redeliver } from '../../src/jobs/alerts/desk.js';
import { messageKey } from '../../src/jobs/alerts/deskRecord.js';
import { createJobsCore, type JobsCore } from '../../src/jobs/core.js';
import type { QueuedCallsDeps } from '../../src/jobs/operationQueue.js';
import type { View } from '../../src/model/view.js';
import { notificationJobId } from '../../src/redis/keys.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { outgoingMessage } from '../../src/slackApi/outgoing.js';
import type { FakeSlack, RecordedCall } from '../support/fakeSlack.js';
import { redisUrl } from '../support/testRedis.js';
import { type Harness, quietLog, thread, useHarness } from './support/harness.js';

/** What an older fwbot rendered and kept: a view with a native table, a field, a button. */
const OLD_VIEW: View = {
  summary: 'Tenant created: acme-old',
  visibility: 'in_channel',
  blocks: [
    { kind: 'text', text: '*acme-old* was created <as asked>' },
    { kind: 'fields', fields: [{ label: 'Region', value: 'us' }] },
    { kind: 'table', columns: ['Tenant', 'Devices'], rows: [['acme-old', '0']], numeric: [1] },
    { kind: 'actions', buttons: [{ label: 'Show it', action: { id: 'fw.command', value: 'tenants show' } }] },
  ],
};
/** As the previous release's workers wrote it into Redis: the renderer's text and blocks. */
const OLD = renderBlocks(OLD_VIEW);
/** What Slack must receive for it: the same blocks and text, through the one door. */
const OLD_SHOWN = outgoingMessage({ text: OLD.text, blocks: OLD.blocks });

const queuedCalls: QueuedCallsDeps = {
  operations: [tenantsCreate],
  lookup: (id) => (id === tenantsCreate.id ? tenantsCreate : undefined),
  access: { holds: async () => true },
};

function call(where: ThreadRef, name: string, requestId: string) {
  return {
    raw: { name },
    requester: { userId: where.requesterId, channelId: where.channelId },
    thread: where,
    requestId,
  };
}

/** The first accepted post in a thread that carries blocks. */
function postWithBlocks(slack: FakeSlack, threadTs: string): Promise<RecordedCall> {
  return slack.waitFor(
    (post) =>
      post.method === 'chat.postMessage' &&
      post.status === 200 &&
      post.args.thread_ts === threadTs &&
      Array.isArray(post.args.blocks),
  );
}

describe('what the workers keep in Redis', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  it('keeps a queued call’s outcome and its notification as the View, and Slack gets the Block Kit of it', async () => {
    const { workers, prefix } = await h.start();
    await workers.runQueuedCalls(queuedCalls);
    const core = createJobsCore({ redisUrl: redisUrl(), prefix, logger: quietLog });
    const where = thread();
    const requestId = randomUUID();
    try {
      await workers.jobs.queue.enqueue(tenantsCreate, call(where, 'acme-views', requestId));
      const posted = await postWithBlocks(h.slack, where.threadTs);

      const recorded = JSON.parse(
        (await core.redis.get(core.keys.queuedCall('tenant-creation', requestId))) ?? '{}',
      );
      expect(Object.keys(recorded).sort()).toEqual(['summary', 'track', 'view']);
      const job = await core.notifyQueue.getJob(notificationJobId(`queue~${requestId}|outcome`));
      expect(job?.data).not.toHaveProperty('blocks');
      const view = job?.data.view as View;
      expect(view).toEqual(recorded.view);
      expect(JSON.stringify(view)).toContain('acme-views');

      const rendered = outgoingMessage(renderBlocks(view));
      expect(posted.args.blocks).toEqual(rendered.blocks);
      expect(posted.args.text).toBe(rendered.text);
    } finally {
      await core.close();
    }
  });
});

describe('at the upgrade: Block Kit an older fwbot kept in Redis', () => {
  let h: Harness;
  let core: JobsCore | undefined;
  useHarness((created) => {
    h = created;
  });

  async function start() {
    const started = await h.start();
    await started.workers.runQueuedCalls(queuedCalls);
    core = createJobsCore({ redisUrl: redisUrl(), prefix: started.prefix, logger: quietLog });
    return { ...started, core };
  }

  function expectOldMessage(posted: RecordedCall): void {
    expect(posted.args.blocks).toEqual(OLD_SHOWN.blocks);
    expect(posted.args.text).toBe(OLD_SHOWN.text);
  }

  it('posts a notification queued with Block Kit in it, as it was rendered', async () => {
    const { core } = await start();
    const where = thread();
    const key = `queue~${randomUUID()}|outcome`;
    try {
      const old = {
        key,
        channelId: where.channelId,
        threadTs: where.threadTs,
        text: OLD.text,
        blocks: OLD.blocks,
        eventType: 'fwbot_outcome',
      };
      await core.notifyQueue.add('fwbot_outcome', old, { jobId: notificationJobId(key), attempts: 3 });
      expectOldMessage(await postWithBlocks(h.slack, where.threadTs));
    } finally {
      await core.close();
    }
  });

  it('delivers a queued call’s outcome recorded as Block Kit, as it was rendered, without calling SCC', async () => {
    const { workers, core } = await start();
    const where = thread();
    const requestId = randomUUID();
    try {
      // A worker of the previous release had SCC accept the call and recorded its outcome, then died.
      const recorded = { summary: OLD_VIEW.summary, text: OLD.text, blocks: OLD.blocks, track: [] };
      await core.redis.set(core.keys.queuedCall('tenant-creation', requestId), JSON.stringify(recorded));
      await workers.jobs.queue.enqueue(tenantsCreate, call(where, 'acme-old', requestId));
      expectOldMessage(await postWithBlocks(h.slack, where.threadTs));
      expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(0);
    } finally {
      await core.close();
    }
  });

  it('posts an incident’s thread reply kept as Block Kit under its parent, as it was rendered', async () => {
    const { core } = await start();
    const channel = 'C0DESKOLD1';
    const parentTs = '1690000000.000777';
    try {
      // The parent's message is in Slack; its reply waits in the desk's list, rendered.
      await core.redis.set(core.keys.posted(messageKey('oldparent')), parentTs);
      const reply = { key: 'alert-reply:oldparent:0123456789abcdef01234567', parentId: 'oldparent' };
      await core.redis.rpush(
        core.keys.deskReplies(channel),
        JSON.stringify({ ...reply, text: OLD.text, blocks: OLD.blocks }),
      );
      await redeliver(core, [channel], 'the upgrade test');
      const posted = await postWithBlocks(h.slack, parentTs);
      expect(posted.args.channel).toBe(channel);
      expectOldMessage(posted);
      // Taken from the list once posted: the worker lets go of it right after Slack accepted it.
      await vi.waitFor(async () => expect(await core.redis.llen(core.keys.deskReplies(channel))).toBe(0), {
        timeout: 10_000,
      });
    } finally {
      await core.close();
    }
  });
});
