import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveSchedule } from '../../src/jobs/schedule.js';
import { metadataKey, type PostRequest, RetryLater, SlackNotifier } from '../../src/jobs/slackNotifier.js';
import { normalisePrefix, RedisKeys } from '../../src/redis/keys.js';
import { SlackChat } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { SlackRefused } from '../../src/slackApi/errors.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { quietLog, TEST_SCHEDULE } from './support/harness.js';

describe('posting into Slack exactly once', () => {
  const redis = connectRedis();
  let slack: FakeSlack;
  let keys: RedisKeys;
  let notifier: SlackNotifier;
  const schedule = resolveSchedule({
    ...TEST_SCHEDULE,
    slack: { ...TEST_SCHEDULE.slack, postIntervalMs: 0 },
  });

  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  beforeEach(() => {
    slack.reset();
    keys = new RedisKeys(normalisePrefix(uniquePrefix('notify')));
    notifier = new SlackNotifier(
      new SlackChat(createWorkerSlackClient('xoxb-test', slack.apiUrl), quietLog),
      redis,
      keys,
      schedule,
      quietLog,
    );
  });
  afterAll(async () => {
    await slack.stop();
    await redis.quit();
  });

  const request = (key: string, threadTs = '1690000000.000001'): PostRequest => ({
    key,
    channelId: 'C0NOTIFY1',
    threadTs,
    text: `message ${key}`,
    eventType: 'fwbot_outcome',
  });
  const accepted = () => slack.callsTo('chat.postMessage').filter((call) => call.status === 200);

  it('posts with metadata that names the notification, and never twice', async () => {
    const first = await notifier.postOnce(request('k1'));
    const second = await notifier.postOnce(request('k1'));

    expect(first.posted).toBe(true);
    expect(second).toEqual({ ts: first.ts, posted: false });
    expect(accepted()).toHaveLength(1);
    expect(accepted()[0]?.args.metadata).toEqual({
      event_type: 'fwbot_outcome',
      event_payload: { key: metadataKey('k1') },
    });
  });

  it('finds a post Slack accepted before the worker could record it, and does not post again', async () => {
    // The crash window: Slack holds the message, Redis has only the "posting" mark.
    slack.holdResponses('chat.postMessage', 1);
    const interrupted = notifier.postOnce(request('k2'));
    await slack.waitFor((call) => call.method === 'chat.postMessage');
    const fresh = new SlackNotifier(
      new SlackChat(createWorkerSlackClient('xoxb-test', slack.apiUrl), quietLog),
      redis,
      keys,
      schedule,
      quietLog,
    );
    await redis.del(keys.notifyLock('k2')); // the first worker "died" holding the lock

    const result = await fresh.postOnce(request('k2'));
    slack.releaseHeld();
    await interrupted.catch(() => undefined);

    expect(result.posted).toBe(false);
    expect(accepted()).toHaveLength(1);
    expect(String(slack.callsTo('conversations.replies')[0]?.args.include_all_metadata)).toBe('true');
    expect(await redis.get(keys.posted('k2'))).toBe(result.ts);
  });

  it('posts when an interrupted attempt never reached Slack', async () => {
    await redis.set(keys.posting('k3'), String(Date.now()));

    const result = await notifier.postOnce(request('k3'));

    expect(result.posted).toBe(true);
    expect(slack.callsTo('conversations.replies')).toHaveLength(1);
    expect(accepted()).toHaveLength(1);
  });

  it('reads a channel back (not a thread) for a message at the top of a channel', async () => {
    await redis.set(keys.posting('k4'), String(Date.now()));
    const top: PostRequest = {
      key: 'k4',
      channelId: 'C0NOTIFY2',
      text: 'announcement',
      eventType: 'fwbot_watch',
    };

    await notifier.postOnce(top);

    expect(slack.callsTo('conversations.history')).toHaveLength(1);
    expect(accepted()[0]?.args.thread_ts).toBeUndefined();
  });

  it('turns a 429 into "retry later" after Retry-After, and clears the mark: nothing was posted', async () => {
    slack.rateLimit('chat.postMessage', 1, 3);

    const error = await notifier.postOnce(request('k5')).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RetryLater);
    expect((error as RetryLater).delayMs).toBe(3_000);
    expect(await redis.exists(keys.posting('k5'))).toBe(0);
    // The whole channel waits, not only this message.
    const other = await notifier.postOnce(request('k6')).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(RetryLater);
  });

  it('stops at once when Slack refuses for good', async () => {
    const refused = await notifier
      .postOnce({ ...request('k7'), channelId: '' as string })
      .catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(SlackRefused);
    expect((refused as SlackRefused).slackError).toBe('channel_not_found');
  });

  it('paces posts into one channel', async () => {
    const paced = new SlackNotifier(
      new SlackChat(createWorkerSlackClient('xoxb-test', slack.apiUrl), quietLog),
      redis,
      keys,
      resolveSchedule({ ...TEST_SCHEDULE, slack: { ...TEST_SCHEDULE.slack, postIntervalMs: 60_000 } }),
      quietLog,
    );
    await paced.postOnce(request('p1'));

    const second = await paced.postOnce(request('p2')).catch((e: unknown) => e);

    expect(second).toBeInstanceOf(RetryLater);
    expect((second as RetryLater).delayMs).toBeGreaterThan(50_000);
    expect(accepted()).toHaveLength(1);
  });

  it('edits a progress message only when its text changes, keeping its metadata', async () => {
    await notifier.postStatus({ ...request('s1'), eventType: 'fwbot_status', text: '10%' });
    await notifier.editStatus('s1', 'C0NOTIFY1', '10%', 'progress');
    await notifier.editStatus('s1', 'C0NOTIFY1', '50%', 'progress');

    const updates = slack.callsTo('chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args.text).toBe('50%');
    expect(updates[0]?.args.metadata).toEqual({
      event_type: 'fwbot_status',
      event_payload: { key: metadataKey('s1') },
    });
  });

  it('skips a progress edit Slack rate-limits, but a settling edit must wait and land', async () => {
    await notifier.postStatus({ ...request('s2'), eventType: 'fwbot_status', text: '10%' });
    slack.rateLimit('chat.update', 1, 1);

    await notifier.editStatus('s2', 'C0NOTIFY1', '20%', 'progress');
    const settle = await notifier.editStatus('s2', 'C0NOTIFY1', '100%', 'settle').catch((e: unknown) => e);

    expect(settle).toBeInstanceOf(RetryLater);
    expect(slack.callsTo('chat.update').filter((call) => call.status === 200)).toHaveLength(0);
  });
});
