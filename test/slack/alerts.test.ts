// `/fw alerts …` through Slack: signed slash commands into the real Bolt app, the subscriptions and the
// incident desk in the test run's Redis with the workers running (the desk posts to the fake Slack), the
// simulator answering the checks subscribe makes. And the incident message's Acknowledge button pressed,
// as a person would: a signed block_actions payload, run as `alerts ack <id>` with the clicker's roles.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlertEvent } from '../../src/alerts/model.js';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import type { OperationServices } from '../../src/catalogue/operation.js';
import { deliverAlerts } from '../../src/jobs/alerts/desk.js';
import { createJobsCore, type JobsCore } from '../../src/jobs/core.js';
import { startWorkers, type Workers } from '../../src/jobs/workers.js';
import { slackChatOf } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { quietLog, TEST_SCHEDULE } from '../jobs/support/harness.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import {
  blocksText,
  buttonsOf,
  CHANNEL,
  clickPayload,
  type Harness,
  newTriggerId,
  startHarness,
  USERS,
} from './support/harness.js';
import { submissionPayload } from './support/modals.js';

describe('/fw alerts through Slack', () => {
  let h: Harness;
  let workers: Workers;
  let core: JobsCore;
  // Filled once the workers run: the dispatcher reads the services when a command runs.
  const services: OperationServices = {};

  beforeAll(async () => {
    h = await startHarness({ services });
    const prefix = uniquePrefix('slack-alerts');
    workers = await startWorkers({
      redisUrl: redisUrl(),
      prefix,
      clients: sccClientsFrom(h.clients),
      chat: slackChatOf(createWorkerSlackClient('xoxb-test', h.slack.apiUrl), quietLog),
      schedule: TEST_SCHEDULE,
      logger: quietLog,
    });
    services.alerts = workers.jobs.alerts;
    services.watches = workers.jobs.watches;
    core = createJobsCore({ redisUrl: redisUrl(), prefix, schedule: TEST_SCHEDULE, logger: quietLog });
  });
  afterAll(async () => {
    await core.close();
    await workers.close();
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  const posted = (pattern: RegExp) =>
    h.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.status === 200 && pattern.test(blocksText(c.args)),
      10_000,
    );

  it('subscribes the channel, lists it with its id, and unsubscribes it', async () => {
    await h.command('alerts subscribe connectivity ha', { userId: USERS.operator });
    const made = await posted(/now hears about/);
    expect(made.args.channel).toBe(CHANNEL);
    const text = blocksText(made.args);
    expect(text).toContain('connectivity, ha');
    expect(text).toContain('Nothing the channel hears about is wrong right now.');
    const id = /Subscription `?([a-z0-9]{6})`?/.exec(text)?.[1];
    expect(id).toBeDefined();

    const { responseUrl } = await h.command('alerts', { userId: USERS.viewer });
    const listed = await h.reply(responseUrl);
    expect(listed.args.response_type).toBe('ephemeral');
    expect(blocksText(listed.args)).toContain(`${id}`);
    expect(blocksText(listed.args)).toContain('No open incident.');

    // A viewer may read, not subscribe or unsubscribe.
    const refused = await h.command(`alerts unsubscribe ${id}`, { userId: USERS.viewer });
    expect(blocksText((await h.reply(refused.responseUrl)).args)).toMatch(/needs the \*operator\* role/);

    await h.command(`alerts unsubscribe ${id}`, { userId: USERS.operator });
    await posted(/no longer hears about/);
    expect(await workers.jobs.alerts.subscriptions.list({ channelId: CHANNEL })).toEqual([]);
  });

  it('opens a form for `/fw alerts subscribe` alone, the kinds as a multi-select', async () => {
    const triggerId = newTriggerId();
    await h.command('alerts subscribe', { userId: USERS.operator, triggerId });
    const modal = await h.openedModal(triggerId);
    const http = await h.interact(submissionPayload(modal, USERS.operator, { kind: ['ha', 'connectivity'] }));
    expect(http.body).toBe('');
    const made = await posted(/now hears about/);
    expect(blocksText(made.args)).toMatch(/connectivity, ha\*? of profile/);
    const [subscription] = await workers.jobs.alerts.subscriptions.list({ channelId: CHANNEL });
    expect(subscription).toMatchObject({ kinds: ['connectivity', 'ha'], scope: { kind: 'profile' } });
    if (subscription) await workers.jobs.alerts.subscriptions.unsubscribe(CHANNEL, subscription.id);
  });

  it('subscribes nothing when SCC cannot be read for the subscription’s first read, and says why', async () => {
    // Every device list fails while it is made (the fault is cleared by the next test's reset).
    h.sim.faults.add({ path: '/v1/inventory/devices', status: 503 });
    const { responseUrl } = await h.command('alerts subscribe connectivity', { userId: USERS.operator });
    expect(blocksText((await h.reply(responseUrl)).args)).toMatch(
      /^Could not subscribe to the alerts\. SCC could not handle the request \(503 SERVER_ERROR\)/,
    );
    expect(await workers.jobs.alerts.subscriptions.list({ channelId: CHANNEL })).toEqual([]);
  });

  it('refuses a kind that is not one, saying which, before anything runs', async () => {
    const before = h.logs.length;
    const { responseUrl } = await h.command('alerts subscribe connectivity offline', {
      userId: USERS.operator,
    });
    expect(blocksText((await h.reply(responseUrl)).args)).toContain(
      '`offline`, which is not a kind of alert',
    );
    // Refused by the grammar's check: the operation never ran (the workers' scan reads SCC meanwhile).
    const ran = h.logs.slice(before).filter((line) => line.includes('"msg":"running"'));
    expect(ran.filter((line) => line.includes('alerts.subscribe'))).toEqual([]);
  });

  it('acknowledges an incident when its Acknowledge button is pressed, and the message says who', async () => {
    const event: AlertEvent = {
      key: 'connectivity:default:asa-branch-02:connectivityState:ONLINE>UNREACHABLE:2026-11-26T14:00:00Z',
      kind: 'connectivity',
      profile: 'default',
      subject: { type: 'device', uid: h.sim.deviceUid('asa-hq-01'), name: 'asa-hq-01' },
      incidentKey: `connectivity:default:${h.sim.deviceUid('asa-hq-01')}`,
      phase: 'open',
      state: 'UNREACHABLE',
      previous: 'ONLINE',
      headline: '*asa-hq-01* is UNREACHABLE',
      details: ['connectivityState: UNREACHABLE'],
      at: '2026-11-26T14:00:00.000Z',
      channels: [CHANNEL],
      actions: [],
    };
    await deliverAlerts(core, [event]);
    const message = await h.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.status === 200 && /UNREACHABLE/.test(blocksText(c.args)),
      10_000,
    );
    const ack = buttonsOf(message.args).find((b) => b.label === 'Acknowledge');
    expect(ack?.value).toMatch(/^alerts ack [a-z0-9]{8}$/);
    if (!ack) return;

    // A viewer's press is refused with the role it needs; nothing is acknowledged.
    const viewerUrl = h.slack.responseUrl();
    await h.interact(clickPayload(ack, USERS.viewer, viewerUrl));
    expect(blocksText((await h.reply(viewerUrl)).args)).toMatch(/needs the \*operator\* role/);
    expect((await workers.jobs.alerts.incidents.openIncidents([CHANNEL]))[0]?.acknowledgedBy).toBeUndefined();

    const url = h.slack.responseUrl();
    await h.interact(clickPayload(ack, USERS.operator, url));
    const edited = await h.slack.waitFor(
      (c) =>
        c.method === 'chat.update' &&
        c.status === 200 &&
        c.args.channel === CHANNEL &&
        blocksText(c.args).includes('Acknowledged by'),
      10_000,
    );
    expect(blocksText(edited.args)).toContain(USERS.operator);
    // Once acknowledged, the message offers no Acknowledge any more; mute stays.
    expect(buttonsOf(edited.args).map((b) => b.label)).not.toContain('Acknowledge');
    const [incident] = await workers.jobs.alerts.incidents.openIncidents([CHANNEL]);
    expect(incident?.acknowledgedBy).toBe(USERS.operator);
  });

  it('mutes the device when a Mute button is pressed', async () => {
    const uid = h.sim.deviceUid('asa-dc-03');
    await deliverAlerts(core, [
      {
        key: `connectivity:default:${uid}:UNREACHABLE`,
        kind: 'connectivity',
        profile: 'default',
        subject: { type: 'device', uid, name: 'asa-dc-03' },
        incidentKey: `connectivity:default:${uid}`,
        phase: 'open',
        state: 'UNREACHABLE',
        headline: '*asa-dc-03* is UNREACHABLE',
        details: [],
        at: '2026-11-26T15:00:00.000Z',
        channels: [CHANNEL],
        actions: [],
      },
    ]);
    const message = await h.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.status === 200 && /asa-dc-03/.test(blocksText(c.args)),
      10_000,
    );
    const mute = buttonsOf(message.args).find((b) => b.label === 'Mute 8 h');
    const incident = (await workers.jobs.alerts.incidents.openIncidents([CHANNEL])).find(
      (open) => open.subject.uid === uid,
    );
    expect(mute?.value).toBe(`alerts mute ${incident?.id} 8h`);
    if (!mute) return;
    await h.interact(clickPayload(mute, USERS.operator, h.slack.responseUrl()));
    await posted(/muted asa-dc-03 in .* for 8h/);
    expect(await core.redis.exists(core.keys.alertMute(CHANNEL, 'default', uid))).toBe(1);
  });
});
