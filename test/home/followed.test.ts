// The work a person follows, as their Home reads it (real Redis, real queues): every follow is noted for
// the requester and says their Home changed; its state is the tracking job's last status while it runs
// and the recorded outcome once it ended; the end itself tells the requesters' Homes; the person's last
// commands are a bounded list.
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TrackRequest } from '../../src/catalogue/operation.js';
import type { ThreadRef } from '../../src/dispatch/ports.js';
import { FollowedIndex, FollowedStates, homeAwareTracker } from '../../src/home/followed.js';
import { RECENT_COMMANDS, RecentCommands } from '../../src/home/recentCommands.js';
import { resolveSchedule } from '../../src/jobs/schedule.js';
import { Subscriptions } from '../../src/jobs/subscriptions.js';
import { normalisePrefix, QUEUE, RedisKeys, trackJobId } from '../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';

const ALICE = 'U0ALICE0001';
const BOB = 'U0BOB000001';
const NOW = Date.parse('2025-06-02T09:30:00Z');

const thread = (requesterId: string, threadTs = '1.0'): ThreadRef => ({
  channelId: 'C0OPS000001',
  threadTs,
  requesterId,
  profile: 'default',
});

describe('followed work on the Home', () => {
  let redis: Redis;
  let prefix: string;
  let keys: RedisKeys;
  let trackQueue: Queue;
  let notifyQueue: Queue;
  let clock: { now: number };

  beforeEach(() => {
    redis = connectRedis();
    prefix = normalisePrefix(uniquePrefix('followed'));
    keys = new RedisKeys(prefix);
    trackQueue = new Queue(QUEUE.track, { connection: redis, prefix });
    notifyQueue = new Queue(QUEUE.notify, { connection: redis, prefix });
    clock = { now: NOW };
  });

  afterEach(async () => {
    await trackQueue.close();
    await notifyQueue.close();
    await redis.quit();
  });

  it('notes each follow for the requester, once per followed thing, and says their Home changed', async () => {
    const index = new FollowedIndex(redis, prefix, () => clock.now);
    const inner: TrackRequest[] = [];
    const changed: string[] = [];
    const tracker = homeAwareTracker(
      { follow: async (request) => void inner.push(request), speakIn: async () => undefined },
      index,
      (userId) => changed.push(userId),
    );
    const deploy: TrackRequest = { kind: 'deployment', transactionUid: 'tx-1', label: 'Deploy to asa-hq-01' };
    await tracker.follow(deploy, thread(ALICE));
    await tracker.follow(deploy, thread(ALICE, '2.0'));
    await tracker.follow(
      { kind: 'staged', deviceUid: 'dev-1', deviceName: 'asa-hq-01', stagedAt: 5, label: 'staged' },
      thread(ALICE),
    );

    expect(inner).toHaveLength(3);
    expect(changed).toEqual([ALICE, ALICE, ALICE]);
    const noted = await index.of(ALICE);
    expect(noted.map((entry) => entry.kind)).toEqual(['staged', 'deployment']);
    expect(noted[0]?.device).toBe('asa-hq-01');
    expect(noted[1]?.trackId).toBe(trackJobId('default', 'deployment', 'tx-1'));
    expect(await index.of(BOB)).toEqual([]);
  });

  it('reads a running job’s last status, an ended one’s outcome, and drops what is forgotten, quiet or old', async () => {
    const index = new FollowedIndex(redis, prefix, () => clock.now);
    const running: TrackRequest = { kind: 'upgradeRun', transactionUid: 'tx-run', label: 'Upgrade run' };
    const ended: TrackRequest = { kind: 'transaction', transactionUid: 'tx-done', label: 'Enable MCD' };
    const forgotten: TrackRequest = { kind: 'transaction', transactionUid: 'tx-gone', label: 'Gone' };
    const deployed: TrackRequest = {
      kind: 'staged',
      deviceUid: 'dev-1',
      deviceName: 'asa-hq-01',
      stagedAt: 7,
      label: 'staged on asa-hq-01',
    };
    for (const request of [deployed, forgotten, ended, running]) await index.note(request, thread(ALICE));
    // Deployed before its reminder: ended with nothing to tell, so no longer pending.
    await redis.set(
      keys.outcome(trackJobId('default', 'staged', 'dev-1:7')),
      JSON.stringify({ status: 'succeeded', text: 'deployed.', quiet: true }),
    );
    await trackQueue.add(
      'upgradeRun',
      {
        profile: 'default',
        request: running,
        state: { step: 3, failures: 0, startedAt: NOW, legStartedAt: NOW, lastStatus: 'IN_PROGRESS' },
      },
      { jobId: trackJobId('default', 'upgradeRun', 'tx-run'), delay: 60_000 },
    );
    await redis.set(
      keys.outcome(trackJobId('default', 'transaction', 'tx-done')),
      // Outcomes are stored as the mrkdwn the thread got: escaped once already.
      JSON.stringify({ status: 'succeeded', text: 'is done: R&amp;D &lt;lab&gt; `x`.\nMore detail.' }),
    );
    const states = new FollowedStates(redis, keys, trackQueue);

    const now = await states.of(await index.of(ALICE), NOW);
    expect(now.map(({ label, state, status }) => ({ label, state, status }))).toEqual([
      { label: 'Upgrade run', state: 'running', status: 'last seen IN_PROGRESS' },
      { label: 'Enable MCD', state: 'succeeded', status: 'is done: R&D <lab> `x`.' },
    ]);
    // A day on, the ended one is no longer shown; the running one still is.
    const later = await states.of(await index.of(ALICE), NOW + 25 * 60 * 60_000);
    expect(later.map((work) => work.label)).toEqual(['Upgrade run']);
  });

  it('tells the requesters’ Homes when a followed thing ends', async () => {
    const settled: string[][] = [];
    const subscriptions = new Subscriptions(
      redis,
      keys,
      notifyQueue,
      resolveSchedule(),
      pino({ level: 'silent' }),
      (ids) => settled.push(ids),
    );
    const trackId = trackJobId('default', 'transaction', 'tx-1');
    await subscriptions.subscribe(trackId, { thread: thread(ALICE), label: 'MCD' });
    await subscriptions.subscribe(trackId, { thread: thread(ALICE, '2.0'), label: 'MCD' });
    await subscriptions.subscribe(trackId, { thread: thread(BOB, '3.0'), label: 'MCD' });

    await subscriptions.settle(trackId, { status: 'succeeded', text: 'is done.' });

    expect(settled).toHaveLength(1);
    expect([...(settled[0] ?? [])].sort()).toEqual([ALICE, BOB]);
  });

  it('keeps a person’s last ten commands, newest first, cleaned, and says their Home changed', async () => {
    const changed: string[] = [];
    const recent = new RecentCommands({
      redis,
      prefix,
      clock: () => clock.now,
      clean: (text) => text.replace(/secret/g, '[REDACTED]'),
      changed: (userId) => changed.push(userId),
    });
    for (let n = 1; n <= 25; n += 1) {
      clock.now = NOW + n;
      await recent.note({ userId: ALICE, text: `/fw devices ${n} secret`, outcome: 'ran', detail: 'ok' });
    }
    const kept = await recent.of(ALICE);
    expect(kept).toHaveLength(RECENT_COMMANDS);
    expect(kept[0]?.text).toBe('/fw devices 25 [REDACTED]');
    expect(kept.at(-1)?.text).toBe('/fw devices 16 [REDACTED]');
    expect(await redis.llen(recent.key(ALICE))).toBe(RECENT_COMMANDS);
    expect(await redis.pttl(recent.key(ALICE))).toBeGreaterThan(0);
    expect(changed).toHaveLength(25);
    expect(await recent.of(BOB)).toEqual([]);
  });
});
