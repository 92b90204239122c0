import { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlertEvent } from '../../../src/alerts/model.js';
import { deliverAlerts } from '../../../src/jobs/alerts/desk.js';
import { messageKey } from '../../../src/jobs/alerts/deskRecord.js';
import { RedisIncidentDesk } from '../../../src/jobs/alerts/deskService.js';
import { createDeskProcessor, serveChannel } from '../../../src/jobs/alerts/deskWorker.js';
import { createJobsCore, type JobsCore } from '../../../src/jobs/core.js';
import type { ScheduleOverrides } from '../../../src/jobs/schedule.js';
import { RetryLater, SlackNotifier } from '../../../src/jobs/slackNotifier.js';
import { QUEUE } from '../../../src/redis/keys.js';
import { SlackChat } from '../../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../../src/slackApi/clients.js';
import { blockTexts } from '../../support/blockTexts.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../../support/fakeSlack.js';
import { redisUrl, uniquePrefix } from '../../support/testRedis.js';
import { quietLog, TEST_SCHEDULE } from '../support/harness.js';

const CHANNEL = 'C0DESK001';
const T0 = Date.parse('2026-11-26T14:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** A connectivity transition of one device, as the scan would hand it over. */
function connectivity(
  device: string,
  phase: AlertEvent['phase'],
  minutes: number,
  extra: Partial<AlertEvent> = {},
): AlertEvent {
  const offline = phase === 'open' || phase === 'update';
  const state = phase === 'update' ? 'BAD_CREDENTIALS' : offline ? 'UNREACHABLE' : 'ONLINE';
  return {
    key: `connectivity:prod:${device}:connectivityState:${state}:${at(minutes)}`,
    kind: 'connectivity',
    profile: 'prod',
    subject: { type: 'device', uid: `uid-${device}`, name: device },
    incidentKey: `connectivity:prod:uid-${device}`,
    phase,
    state,
    headline: offline ? `*${device}* is ${state}` : `*${device}* is ONLINE again`,
    details: [`connectivityState: ${state}`],
    at: at(minutes),
    channels: [CHANNEL],
    actions: [{ label: 'Show changes', command: `changes ${device}` }],
    ...extra,
  };
}

describe('the incident desk', () => {
  let slack: FakeSlack;
  let core: JobsCore;
  let notifier: SlackNotifier;
  let desk: RedisIncidentDesk;
  let homeSignals: number;

  const start = (schedule: ScheduleOverrides = {}) => {
    core = createJobsCore({
      redisUrl: redisUrl(),
      prefix: uniquePrefix('desk'),
      schedule: {
        ...TEST_SCHEDULE,
        slack: { ...TEST_SCHEDULE.slack, postIntervalMs: 0, updateIntervalMs: 0 },
        ...schedule,
      },
      logger: quietLog,
      onIncidentsChanged: () => {
        homeSignals += 1;
      },
    });
    homeSignals = 0;
    notifier = newNotifier();
    desk = new RedisIncidentDesk(core);
  };
  const newNotifier = () =>
    new SlackNotifier(
      new SlackChat(createWorkerSlackClient('xoxb-test', slack.apiUrl), quietLog),
      core.redis,
      core.keys,
      core.schedule,
      quietLog,
    );
  /** Serves the channel until nothing waits any more (the worker's job, run in line). */
  const serve = async (events: AlertEvent[] = []) => {
    let waits = 0;
    for (;;) {
      try {
        await serveChannel({ core, notifier, log: quietLog }, CHANNEL, events);
        return waits;
      } catch (error) {
        if (!(error instanceof RetryLater) || waits > 50) throw error;
        waits += 1;
      }
    }
  };
  const ok = (method: string) => slack.callsTo(method).filter((call) => call.status === 200);
  const topPosts = () => ok('chat.postMessage').filter((call) => call.args.thread_ts === undefined);
  const replies = () => ok('chat.postMessage').filter((call) => call.args.thread_ts !== undefined);
  const texts = (call: RecordedCall | undefined) => blockTexts(call?.args.blocks).join('\n');

  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  beforeEach(() => {
    slack.reset();
    start();
  });
  afterEach(async () => {
    await core.close();
  });
  afterAll(async () => {
    await slack.stop();
  });

  it('posts one message when an incident opens, with Acknowledge, Mute and the event’s buttons', async () => {
    await serve([connectivity('asa-branch-02', 'open', 0)]);

    expect(topPosts()).toHaveLength(1);
    const post = topPosts()[0];
    expect(post?.args.channel).toBe(CHANNEL);
    expect(texts(post)).toContain('asa-branch-02');
    const values = JSON.stringify(post?.args.blocks);
    const [incident] = await desk.openIncidents([CHANNEL]);
    expect(values).toContain(`alerts ack ${incident?.id}`);
    // By the incident's id: it names the device and the profile (a customer channel refuses --profile).
    expect(values).toContain(`alerts mute ${incident?.id} 1h"`);
    expect(values).toContain(`alerts mute ${incident?.id} 24h"`);
    expect(values).toContain('changes asa-branch-02');
    expect(post?.args.metadata).toMatchObject({ event_type: 'fwbot_alert' });
    // Short details are in the message itself: one message per incident, not two.
    expect(texts(post)).toContain('connectivityState: UNREACHABLE');
    expect(replies()).toHaveLength(0);
  });

  it('puts an opening’s long details in its thread', async () => {
    const details = Array.from({ length: 8 }, (_, i) => `interface ${i}: down`);

    await serve([connectivity('asa-branch-02', 'open', 0, { details })]);

    const [incident] = await desk.openIncidents([CHANNEL]);
    expect(texts(topPosts()[0])).not.toContain('interface 0: down');
    expect(replies()).toHaveLength(1);
    expect(replies()[0]?.args.thread_ts).toBe(incident?.ts);
    expect(texts(replies()[0])).toContain('interface 7: down');
  });

  it('edits the message on an update and tells the details in its thread', async () => {
    await serve([connectivity('asa-branch-02', 'open', 0)]);
    slack.reset();

    await serve([connectivity('asa-branch-02', 'update', 3)]);

    expect(topPosts()).toHaveLength(0);
    expect(ok('chat.update')).toHaveLength(1);
    expect(texts(ok('chat.update')[0])).toContain('BAD_CREDENTIALS');
    expect(replies()).toHaveLength(1);
    expect(texts(replies()[0])).toContain('BAD_CREDENTIALS');
  });

  it('closes the incident by editing its message with how long it lasted', async () => {
    await serve([connectivity('asa-branch-02', 'open', 0)]);
    slack.reset();

    await serve([connectivity('asa-branch-02', 'close', 12)]);

    expect(topPosts()).toHaveLength(0);
    expect(texts(ok('chat.update')[0])).toContain('asa-branch-02* back online after 12 min');
    expect(ok('chat.update')[0]?.args.text).toBe('asa-branch-02 back online after 12 min');
    expect(replies()).toHaveLength(1);
    expect(await desk.openIncidents([CHANNEL])).toEqual([]);
  });

  it('changes nothing when the same events come again (a scan repeated after a crash)', async () => {
    const events = [
      connectivity('asa-branch-02', 'open', 0),
      connectivity('asa-branch-02', 'close', 2),
      connectivity('asa-branch-02', 'open', 4),
    ];
    await serve(events);
    const before = slack.calls.length;

    await serve(events);
    await serve([events[1] as AlertEvent]);

    expect(slack.calls.slice(before).filter((call) => call.method.startsWith('chat.'))).toEqual([]);
    expect(topPosts()).toHaveLength(1);
    const [incident] = await desk.openIncidents([CHANNEL]);
    // Counted once, and still open: the repeated close did not close the reopened incident.
    expect(incident?.flaps).toBe(1);
  });

  it('does not post again when a worker died between Slack’s answer and Redis', async () => {
    slack.holdResponses('chat.postMessage', 1);
    const interrupted = serve([connectivity('asa-branch-02', 'open', 0)]);
    await slack.waitFor((call) => call.method === 'chat.postMessage');
    // The first worker "died": its locks are gone, the job runs again on another worker.
    await core.redis.del(core.keys.deskLock(CHANNEL));
    const [incidentLock] = await core.redis.keys(`${core.keys.notifyLock('*')}`);
    if (incidentLock) await core.redis.del(incidentLock);
    notifier = newNotifier();

    await serve([connectivity('asa-branch-02', 'open', 0)]);
    slack.releaseHeld();
    await interrupted.catch(() => undefined);

    expect(topPosts()).toHaveLength(1);
    expect(slack.callsTo('conversations.history').length).toBeGreaterThan(0);
    const [incident] = await desk.openIncidents([CHANNEL]);
    expect(incident?.ts).toBeDefined();
    expect(await core.redis.get(core.keys.posted(messageKey(incident?.id ?? '')))).toBe(incident?.ts);
  });

  it('collapses flapping into one incident with a count', async () => {
    await serve([
      connectivity('asa-branch-02', 'open', 0),
      connectivity('asa-branch-02', 'close', 2),
      connectivity('asa-branch-02', 'open', 4),
    ]);
    await serve([connectivity('asa-branch-02', 'close', 6)]);
    await serve([connectivity('asa-branch-02', 'open', 8)]);

    expect(topPosts()).toHaveLength(1);
    const [incident] = await desk.openIncidents([CHANNEL]);
    expect(incident?.flaps).toBe(2);
    expect(texts(ok('chat.update').at(-1))).toContain('flapped 2 times');
  });

  it('opens a new incident when the device fails again after the flapping window', async () => {
    await serve([connectivity('asa-branch-02', 'open', 0), connectivity('asa-branch-02', 'close', 2)]);
    await serve([connectivity('asa-branch-02', 'open', 2 + 31)]);

    expect(topPosts()).toHaveLength(2);
  });

  it('tells a burst of 300 in one summary message with a table, edited as they come back, at Slack’s pace', async () => {
    const devices = Array.from({ length: 300 }, (_, i) => `asa-${String(i).padStart(3, '0')}`);
    await serve(devices.map((device) => connectivity(device, 'open', 0)));

    expect(topPosts()).toHaveLength(1);
    expect(texts(topPosts()[0])).toContain('300 devices went offline');
    expect(JSON.stringify(topPosts()[0]?.args.blocks)).toContain('"type":"data_table"');

    await serve(devices.slice(0, 212).map((device) => connectivity(device, 'close', 10)));

    expect(ok('chat.update').some((call) => texts(call).includes('212 of 300 devices back online'))).toBe(
      true,
    );
    // All messages of the burst: the summary and two pages of its table in its thread, no reply per device.
    expect(ok('chat.postMessage').length).toBeLessThanOrEqual(5);
    expect(replies().map((call) => texts(call))).toEqual([
      expect.stringContaining('Devices 101–200 of 300'),
      expect.stringContaining('Devices 201–300 of 300'),
    ]);
    // Every device is in Slack as it is now: the last version of the summary and of each page.
    const shown = [...slack.messages().values()].map((message) => JSON.stringify(message.blocks)).join('\n');
    for (const device of devices) expect(shown).toContain(device);
    const closedRows = (shown.match(/"ONLINE"/g) ?? []).length;
    expect(closedRows).toBe(212);
    const [summary] = await desk.openIncidents([CHANNEL]);
    expect(summary?.subject.name).toBe('300 devices');
    expect(summary?.headline).toBe('*300 devices* went offline at once');
  });

  it('shows a burst member that flapped with its count in its row, since a state between two edits may never be shown', async () => {
    const devices = Array.from({ length: 8 }, (_, i) => `asa-f${i}`);
    await serve(devices.map((device) => connectivity(device, 'open', 0)));
    await serve([connectivity('asa-f3', 'close', 2)]);
    await serve([connectivity('asa-f3', 'open', 4, { key: 'connectivity:prod:asa-f3:again:4' })]);

    expect(topPosts()).toHaveLength(1);
    const summary = [...slack.messages().values()].find((message) => message.ts === topPosts()[0]?.args.ts);
    const shown = JSON.stringify(summary?.blocks ?? ok('chat.update').at(-1)?.args.blocks);
    expect(shown).toContain('UNREACHABLE · flapped 1 time');
  });

  it('starts counting a new window after a burst: the next open is an incident of its own, not a burst of one', async () => {
    await serve(Array.from({ length: 8 }, (_, i) => connectivity(`asa-b${i}`, 'open', 0)));
    expect(topPosts()).toHaveLength(1);
    // The burst's window ends (its key expires); the next device to go is told on its own.
    await core.redis.del(core.keys.deskBurst(CHANNEL, 'connectivity'));
    await serve([connectivity('asa-after', 'open', 5)]);
    expect(topPosts()).toHaveLength(2);
    expect(texts(topPosts()[1])).toContain('*asa-after* is UNREACHABLE');
    expect(texts(topPosts()[1])).not.toContain('at once');
  });

  it('takes batches that arrive out of order without undoing a newer state (a close before its open)', async () => {
    // The close of minute 5 is taken before the open of minute 0 it ends (its batch waited on the lock).
    await serve([connectivity('asa-late', 'close', 5)]);
    await serve([connectivity('asa-late', 'open', 0)]);
    expect(await desk.openIncidents([CHANNEL])).toEqual([]);
    expect(topPosts()).toHaveLength(0);

    // An incident closed at minute 10 is not reopened by an opening of minute 3 that comes after.
    await serve([connectivity('asa-old', 'open', 1)]);
    await serve([connectivity('asa-old', 'close', 10)]);
    await serve([connectivity('asa-old', 'open', 3, { key: 'connectivity:prod:asa-old:again:3' })]);
    expect(await desk.openIncidents([CHANNEL])).toEqual([]);
    expect(texts(ok('chat.update').at(-1))).toContain('back online after');
  });

  it('waits for Slack’s pace between posts into a channel instead of posting at once', async () => {
    await core.close();
    start({ slack: { ...TEST_SCHEDULE.slack, postIntervalMs: 60_000, updateIntervalMs: 60_000 } });

    const first = await serveChannel({ core, notifier, log: quietLog }, CHANNEL, [
      connectivity('asa-a', 'open', 0),
      connectivity('asa-b', 'open', 0),
    ]).catch((error: unknown) => error);

    expect(first).toBeInstanceOf(RetryLater);
    expect((first as RetryLater).delayMs).toBeGreaterThan(50_000);
    expect(ok('chat.postMessage')).toHaveLength(1);
  });

  it('a burst at Slack’s real pace: one post for 300 first, its pages after, and the summary edited no faster than the pace allows', async () => {
    await core.close();
    start({ slack: { ...TEST_SCHEDULE.slack, postIntervalMs: 60_000, updateIntervalMs: 60_000 } });
    const devices = Array.from({ length: 300 }, (_, i) => `asa-${String(i).padStart(3, '0')}`);

    // The summary is posted; the two pages of its table wait for their turn in its thread.
    const pages = await serveChannel(
      { core, notifier, log: quietLog },
      CHANNEL,
      devices.map((d) => connectivity(d, 'open', 0)),
    ).catch((error: unknown) => error);
    expect(pages).toBeInstanceOf(RetryLater);
    // The summary's first edit goes at once (edits have a pace of their own); its pages still wait.
    const stillWaiting = await serveChannel(
      { core, notifier, log: quietLog },
      CHANNEL,
      devices.slice(0, 100).map((d) => connectivity(d, 'close', 5)),
    ).catch((error: unknown) => error);
    expect(stillWaiting).toBeInstanceOf(RetryLater);
    const later = await serveChannel(
      { core, notifier, log: quietLog },
      CHANNEL,
      devices.slice(100, 212).map((d) => connectivity(d, 'close', 9)),
    ).catch((error: unknown) => error);

    // 300 opens: one post (its pages wait their turn); the first edit went, the second waits its turn.
    expect(ok('chat.postMessage')).toHaveLength(1);
    expect(ok('chat.update')).toHaveLength(1);
    expect(texts(ok('chat.update')[0])).toContain('100 of 300 devices back online');
    expect(later).toBeInstanceOf(RetryLater);
    expect((later as RetryLater).delayMs).toBeGreaterThan(50_000);
  });

  it('joins opens of one kind to a burst across batches once the window holds more than the threshold', async () => {
    for (let batch = 0; batch < 4; batch += 1) {
      await serve([
        connectivity(`asa-${batch}a`, 'open', batch),
        connectivity(`asa-${batch}b`, 'open', batch),
      ]);
    }

    // Four incidents on their own (2 + 2 ≤ 5), then the third batch tips the window: one summary for the rest.
    expect(topPosts()).toHaveLength(5);
    const incidents = await desk.openIncidents([CHANNEL]);
    expect(incidents.map((incident) => incident.subject.name)).toContain('4 devices');
  });

  it('tells more notices of one kind than the threshold in one summary, each in its thread', async () => {
    const notices = Array.from({ length: 12 }, (_, i) =>
      connectivity(`user${i}`, 'notice', i, {
        kind: 'audit',
        subject: { type: 'user', uid: `u-${i}`, name: `user${i}@example.com` },
        incidentKey: `audit:prod:u-${i}`,
        headline: `*user${i}@example.com* was added to the tenant`,
        state: 'ROLE_ADMIN',
        actions: [],
      }),
    );

    await serve(notices);
    await serve(notices.slice(0, 3).map((notice) => ({ ...notice, key: `${notice.key}:again` })));

    expect(topPosts()).toHaveLength(1 + 3);
    expect(texts(topPosts()[0])).toContain('12 audit events');
    expect(replies().filter((reply) => texts(reply).includes('user11@example.com'))).toHaveLength(1);
  });

  it('tells what happened while fwbot could not watch as one catch-up summary', async () => {
    const down = Array.from({ length: 12 }, (_, i) =>
      connectivity(`asa-d${i}`, 'open', i, { catchUp: true }),
    );
    const back = Array.from({ length: 3 }, (_, i) =>
      connectivity(`asa-b${i}`, 'close', 20 + i, { catchUp: true }),
    );

    await serve([...down, ...back]);

    expect(topPosts()).toHaveLength(1);
    expect(texts(topPosts()[0])).toContain(
      'While fwbot could not watch (changes since 2026-11-26 14:00 UTC)',
    );
    expect(texts(topPosts()[0])).toContain('12 devices went offline, 3 came back');
    expect(replies()).toHaveLength(1);
  });

  it('posts nothing new for a muted device, but still closes its open incident', async () => {
    await serve([connectivity('asa-open', 'open', 0)]);
    for (const device of ['asa-open', 'asa-muted']) {
      await desk.mute({
        channelId: CHANNEL,
        profile: 'prod',
        deviceUid: `uid-${device}`,
        untilMs: Date.now() + 3_600_000,
        userId: 'U0OPS',
      });
    }
    slack.reset();

    await serve([connectivity('asa-muted', 'open', 1), connectivity('asa-open', 'close', 5)]);

    expect(topPosts()).toHaveLength(0);
    expect(ok('chat.update')).toHaveLength(1);
    expect(texts(ok('chat.update')[0])).toContain('asa-open* back online after 5 min');
  });

  it('shows who acknowledged an incident and when, on its message', async () => {
    await serve([connectivity('asa-branch-02', 'open', 0)]);
    const [incident] = await desk.openIncidents([CHANNEL]);
    slack.reset();

    const acknowledged = await desk.acknowledge(incident?.id ?? '', 'U0ALICE');
    await serve();

    expect(acknowledged?.acknowledgedBy).toBe('U0ALICE');
    expect(texts(ok('chat.update')[0])).toContain('Acknowledged by <@U0ALICE>');
    expect(JSON.stringify(ok('chat.update')[0]?.args.blocks)).not.toContain('alerts ack');
    expect(await desk.acknowledge('nosuch00', 'U0ALICE')).toBeUndefined();
  });

  it('keeps an acknowledgement that lands while the message is being shown, for the next delivery', async () => {
    // The race test/console/alertsFromNow.test.ts once hit on a loaded machine: the message rendered, the
    // Acknowledge click marks it again, and only then is the delivery's mark cleared.
    await serve([connectivity('asa-branch-02', 'open', 0)]);
    const [incident] = await desk.openIncidents([CHANNEL]);
    await serve([connectivity('asa-branch-02', 'update', 3)]);
    slack.reset();
    slack.holdResponses('chat.update', 1);
    const showing = serve([connectivity('asa-branch-02', 'update', 5, { state: 'UNREACHABLE' })]);
    await slack.waitFor((call) => call.method === 'chat.update');

    await desk.acknowledge(incident?.id ?? '', 'U0ALICE');
    slack.releaseHeld();
    await showing;
    expect(texts(ok('chat.update').at(-1))).not.toContain('Acknowledged by');
    await serve();

    expect(texts(ok('chat.update').at(-1))).toContain('Acknowledged by <@U0ALICE>');
    // Shown, the mark is gone: one more delivery changes nothing.
    const before = ok('chat.update').length;
    await serve();
    expect(ok('chat.update')).toHaveLength(before);
  });

  it('takes in the marks a release before versioned marks left in a set', async () => {
    await serve([connectivity('asa-branch-02', 'open', 0)]);
    const [incident] = await desk.openIncidents([CHANNEL]);
    await core.redis.set(
      core.keys.incidentAck(incident?.id ?? ''),
      JSON.stringify({ userId: 'U0ALICE', at: at(1) }),
    );
    // As that release marked it: `<prefix>:desk-dirty:<channel>`, a set of ids.
    await core.redis.sadd(core.keys.legacyDeskDirty(CHANNEL), incident?.id ?? '');
    slack.reset();

    await serve();

    expect(texts(ok('chat.update')[0])).toContain('Acknowledged by <@U0ALICE>');
    expect(await core.redis.exists(core.keys.legacyDeskDirty(CHANNEL), core.keys.deskDirty(CHANNEL))).toBe(0);
  });

  it('tells the Homes when incidents open, close or are acknowledged, not on every update', async () => {
    await serve([connectivity('asa-branch-02', 'open', 0)]);
    expect(homeSignals).toBe(1);
    await serve([connectivity('asa-branch-02', 'update', 1)]);
    expect(homeSignals).toBe(1);
    const [incident] = await desk.openIncidents([CHANNEL]);
    await desk.acknowledge(incident?.id ?? '', 'U0ALICE');
    await serve();
    expect(homeSignals).toBe(2);
    await serve([connectivity('asa-branch-02', 'close', 2)]);
    expect(homeSignals).toBe(3);
  });

  it('takes a batch handed over on the alerts queue once, through a worker', async () => {
    const worker = new Worker(QUEUE.alerts, createDeskProcessor({ core, notifier, log: quietLog }), {
      connection: core.redis.duplicate(),
      prefix: core.prefix,
    });
    const events = [connectivity('asa-q1', 'open', 0), connectivity('asa-q2', 'notice', 0)];

    await deliverAlerts(core, events);
    await deliverAlerts(core, [...events].reverse());
    await slack.waitFor((call) => call.method === 'chat.postMessage' && texts(call).includes('asa-q2'));
    await slack.waitFor((call) => call.method === 'chat.postMessage' && texts(call).includes('asa-q1'));
    const counts = await core.alertsQueue.getJobCounts('completed', 'waiting', 'active', 'delayed');
    await worker.close();

    expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(topPosts()).toHaveLength(2);
  });
  it('tells what was already wrong when the channel subscribed as one summary, each incident in its thread with its buttons', async () => {
    const current = (event: AlertEvent): AlertEvent => ({
      ...event,
      key: `current|sub1|${event.key}`,
      current: true,
    });
    const certificate = connectivity('asa-c3', 'notice', 0, {
      kind: 'certificates',
      incidentKey: 'certificates:prod:uid-asa-c3:management',
      state: '7 days',
      headline: '*asa-c3*: the management certificate expires within 7 days',
      details: [],
      actions: [],
    });
    await serve([
      current(connectivity('asa-c1', 'open', 0)),
      current(connectivity('asa-c2', 'open', 0)),
      current(certificate),
    ]);

    // One message at the channel's top; every incident and notice a message of its own in its thread.
    expect(topPosts()).toHaveLength(1);
    const summary = topPosts()[0];
    expect(texts(summary)).toContain('Right now:* 2 devices offline, 1 certificate expiring or expired');
    expect(JSON.stringify(summary?.args.blocks)).not.toContain('fw.command');
    const members = replies();
    expect(new Set(members.map((call) => call.args.thread_ts)).size).toBe(1);
    for (const name of ['asa-c1', 'asa-c2', 'asa-c3'])
      expect(members.filter((call) => texts(call).includes(name))).toHaveLength(1);
    const open = await desk.openIncidents([CHANNEL]);
    expect(open.map((incident) => incident.subject.name).sort()).toEqual(['asa-c1', 'asa-c2']);
    for (const incident of open) {
      const message = members.find((call) => texts(call).includes(incident.subject.name));
      expect(JSON.stringify(message?.args.blocks)).toContain(`alerts ack ${incident.id}`);
      expect(JSON.stringify(message?.args.blocks)).toContain(`alerts mute ${incident.id} 1h`);
      expect(JSON.stringify(message?.args.blocks)).toContain(`changes ${incident.subject.name}`);
    }

    // The scan finds one of them again (a transition from before the subscription): nothing new is said.
    await serve([connectivity('asa-c1', 'open', 1)]);
    expect(ok('chat.postMessage')).toHaveLength(4);

    // One comes back: its message and the summary's row are edited, and the summary counts it.
    await serve([connectivity('asa-c2', 'close', 5)]);
    const edits = ok('chat.update');
    expect(edits.some((call) => /asa-c2\S* back online after 5 min/.test(texts(call)))).toBe(true);
    expect(edits.some((call) => texts(call).includes('1 of 2 back to normal'))).toBe(true);
    await serve([connectivity('asa-c1', 'close', 9)]);
    expect(
      ok('chat.update').some((call) => texts(call).includes('All 2 incidents back to normal* after 9 min')),
    ).toBe(true);
    expect(topPosts()).toHaveLength(1);
  });

  it('leaves an incident the channel already has open out of the summary', async () => {
    await serve([connectivity('asa-c1', 'open', 0)]);
    await serve([{ ...connectivity('asa-c1', 'open', 1), key: 'current|sub2|asa-c1', current: true }]);
    expect(topPosts()).toHaveLength(1);
    expect(texts(topPosts()[0])).not.toContain('Right now');
  });
});
