// When Homes are published, on a real Redis with a manual clock: only opened Homes get updates, a burst
// of changes is one publish, no Home is published twice within the interval, the last change of a burst
// is never lost (even when it comes while the publish is under way), two processes agree, and a 429
// puts the publish back instead of dropping it. Scheduled publishes are read from the queue, and run by
// calling the job's own entry (runDue) at the clock's time: nothing here waits on a timer.
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HomeData } from '../../src/home/model.js';
import { HOME_QUEUE, HomePublisher } from '../../src/home/publisher.js';
import type { View } from '../../src/model/view.js';
import { normalisePrefix, RedisKeys } from '../../src/redis/keys.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { NOW } from './fixtures.js';

const ALICE = 'U0ALICE0001';
const BOB = 'U0BOB000001';
const TIMING = { debounceMs: 1_000, intervalMs: 5_000, openTtlMs: 60 * 60_000, lostAfterMs: 60_000 };

class RecordingTab {
  readonly published: { userId: string; blocks: number }[] = [];
  failNext: unknown[] = [];
  async publish(userId: string, view: View): Promise<void> {
    const failure = this.failNext.shift();
    if (failure) throw failure;
    this.published.push({ userId, blocks: view.blocks.length });
  }
  count(userId: string): number {
    return this.published.filter((p) => p.userId === userId).length;
  }
}

/** Reads made by the publisher: each is one fresh look at the person's data. */
class CountingSources {
  reads = 0;
  async read(userId: string): Promise<HomeData> {
    this.reads += 1;
    return {
      userId,
      now: NOW,
      toDecide: [],
      myRequests: [],
      followed: [],
      watches: [],
      incidents: [],
      recent: [],
    };
  }
}

describe('publishing App Homes', () => {
  let redis: Redis;
  let prefix: string;
  let clock: { now: number };
  let slack: RecordingTab;
  let sources: CountingSources;
  const publishers: HomePublisher[] = [];
  let queue: Queue;

  function publisher(connection: Redis = redis, spacingMs = 0): HomePublisher {
    const made = new HomePublisher({
      redis: connection,
      prefix,
      keys: new RedisKeys(prefix),
      tab: slack,
      sources,
      log: pino({ level: 'silent' }),
      clock: () => clock.now,
      timing: TIMING,
      spacingMs,
    });
    publishers.push(made);
    return made;
  }

  /** The publishes waiting in the queue: person and due time (from the job id). */
  async function scheduled(): Promise<string[]> {
    const jobs = await queue.getJobs(['delayed', 'waiting']);
    return jobs.map((job) => String(job.id)).sort();
  }

  beforeEach(async () => {
    redis = connectRedis();
    prefix = normalisePrefix(uniquePrefix('home'));
    clock = { now: NOW };
    slack = new RecordingTab();
    sources = new CountingSources();
    queue = new Queue(HOME_QUEUE, { connection: redis, prefix });
  });

  afterEach(async () => {
    for (const made of publishers.splice(0)) await made.close();
    await queue.close();
    await redis.quit();
  });

  it('costs nothing for someone who never opened their Home', async () => {
    const home = publisher();
    expect(await home.mark([ALICE])).toEqual([]);
    expect(await home.mark('everyone')).toEqual([]);
    expect(await scheduled()).toEqual([]);
    expect(await redis.keys(`${prefix}:home:*`)).toEqual([]);
    expect(slack.published).toEqual([]);
  });

  it('publishes at once when the Home is opened, and remembers it was opened', async () => {
    const home = publisher();
    expect(await home.opened(ALICE)).toBe('published');
    expect(slack.count(ALICE)).toBe(1);
    expect(await home.changes.isOpen(ALICE, clock.now)).toBe(true);
    expect(await home.changes.isOpen(ALICE, clock.now + TIMING.openTtlMs + 1)).toBe(false);
  });

  it('turns a burst of changes into one publish, after the debounce', async () => {
    const home = publisher();
    await home.opened(ALICE);
    clock.now += 10_000;
    const burst = [];
    for (let i = 0; i < 100; i += 1) burst.push(home.mark([ALICE]));
    const made = (await Promise.all(burst)).flat();
    expect(made).toEqual([{ userId: ALICE, at: clock.now + TIMING.debounceMs }]);
    expect(await scheduled()).toEqual([`home~${ALICE}~${clock.now + TIMING.debounceMs}`]);

    // The job runs at its time: one publish for the hundred changes.
    clock.now += TIMING.debounceMs;
    expect(await home.runDue(ALICE)).toBe('published');
    expect(await home.runDue(ALICE)).toBe('nothing');
    expect(slack.count(ALICE)).toBe(2); // the opening, and the burst
  });

  it('publishes a Home at most once per interval, and keeps the last change of a burst', async () => {
    const home = publisher();
    await home.opened(ALICE); // published at NOW
    const opened = clock.now;
    clock.now += 100;
    const [first] = await home.mark([ALICE]);
    // Not before the interval since the last publish, whatever the debounce says.
    expect(first?.at).toBe(opened + TIMING.intervalMs);

    clock.now = opened + TIMING.intervalMs;
    // The job claims the mark; a change arrives while the publish is under way (after the data is read).
    const claim = await home.changes.claim(ALICE, clock.now);
    expect(claim).toEqual({ kind: 'publish' });
    const late = await home.mark([ALICE]);
    // That change is not lost: it is due one interval after this publish.
    expect(late).toEqual([{ userId: ALICE, at: clock.now + TIMING.intervalMs }]);

    // The job of the late change, run too early (a timer firing before its time), waits instead.
    clock.now += 1_000;
    expect(await home.runDue(ALICE)).toBe('waiting');
    clock.now = opened + 2 * TIMING.intervalMs;
    expect(await home.runDue(ALICE)).toBe('published');
  });

  it('agrees across processes: two publishers on their own connections publish a burst once', async () => {
    const other = connectRedis();
    try {
      const one = publisher(redis);
      const two = publisher(other);
      await one.opened(ALICE);
      await one.opened(BOB);
      clock.now += 10_000;
      await Promise.all([one.mark([ALICE]), two.mark([ALICE]), two.mark('everyone'), one.mark([BOB])]);
      expect(await scheduled()).toHaveLength(2);
      clock.now += TIMING.debounceMs;
      const runs = await Promise.all([
        one.runDue(ALICE),
        two.runDue(ALICE),
        one.runDue(BOB),
        two.runDue(BOB),
      ]);
      expect(runs.filter((run) => run === 'published')).toHaveLength(2);
      expect(slack.count(ALICE)).toBe(2);
      expect(slack.count(BOB)).toBe(2);
    } finally {
      await other.quit();
    }
  });

  it('schedules again a mark whose publish job was lost with its process', async () => {
    const home = publisher();
    await home.opened(ALICE);
    clock.now += 10_000;
    await home.mark([ALICE]);
    await queue.obliterate({ force: true }); // the job is gone; the mark stays
    clock.now += TIMING.lostAfterMs + TIMING.debounceMs + 1;
    const again = await home.mark([ALICE]);
    expect(again).toEqual([{ userId: ALICE, at: clock.now + TIMING.debounceMs }]);
  });

  it('puts a rate-limited publish back, due after Slack’s Retry-After, and holds every process off', async () => {
    const home = publisher();
    await home.opened(ALICE);
    clock.now += 10_000;
    await home.mark([ALICE]);
    clock.now += TIMING.debounceMs;
    slack.failNext.push({ code: 'slack_webapi_rate_limited_error', retryAfter: 30 });
    expect(await home.runDue(ALICE)).toBe('waiting');
    expect(slack.count(ALICE)).toBe(1);
    // Due again 30 s on, with a job for it.
    expect(await scheduled()).toContain(`home~${ALICE}~${clock.now + 30_000}`);
    // Slack's pace is shared: another process's publish waits too (the hold is in Redis).
    const pace = await redis.pttl(new RedisKeys(prefix).slackPace('views.publish', 'workspace'));
    expect(pace).toBeGreaterThan(25_000);
    clock.now += 30_000;
    const other = publisher(redis);
    await other.opened(BOB);
    expect(slack.count(BOB)).toBe(0);
    expect(await other.changes.isOpen(BOB, clock.now)).toBe(true);
  });

  it('spaces publishes workspace-wide: one that must wait is marked due again, not dropped', async () => {
    const home = publisher(redis, 60_000);
    expect(await home.opened(ALICE)).toBe('published');
    expect(await home.opened(BOB)).toBe('waiting');
    const jobs = await scheduled();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatch(new RegExp(`^home~${BOB}~\\d+$`));
    expect(slack.count(BOB)).toBe(0);
  });
});
