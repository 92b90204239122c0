// The open incidents on a person's Home (real Redis, the desk's own records, the fake Slack Web API): those
// of the channels the person is in and holds a role in, each with a link to its message; closed ones leave
// the Home. The same role rule keeps a customer's person to their customer channels' watches and work.
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlertEvent } from '../../src/alerts/model.js';
import type { TrackRequest } from '../../src/catalogue/operation.js';
import { createHome, type Home } from '../../src/home/service.js';
import { serveChannel } from '../../src/jobs/alerts/deskWorker.js';
import { createJobsCore, type JobsCore } from '../../src/jobs/core.js';
import { SlackNotifier } from '../../src/jobs/slackNotifier.js';
import { trackJobId } from '../../src/redis/keys.js';
import { renderText } from '../../src/render/text.js';
import { SlackChat } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

const quiet = pino({ level: 'silent' });
const MINE = 'C0MINE00001';
const OTHERS = 'C0OTHER0001';
const ALICE = 'U0ALICE0001';
/** A customer channel of contoso-eu, and one of another customer. */
const CONTOSO = 'C0CONTOSO01';
const FABRIKAM = 'C0FABRIKAM1';

function offline(device: string, channelId: string, phase: AlertEvent['phase'] = 'open'): AlertEvent {
  return {
    key: `connectivity:prod:${device}:${phase}`,
    kind: 'connectivity',
    profile: 'prod',
    subject: { type: 'device', uid: `uid-${device}`, name: device },
    incidentKey: `connectivity:prod:uid-${device}`,
    phase,
    state: phase === 'close' ? 'ONLINE' : 'UNREACHABLE',
    headline: `*${device}* is ${phase === 'close' ? 'ONLINE again' : 'UNREACHABLE'}`,
    details: [],
    at: phase === 'close' ? '2026-11-26T14:10:00Z' : '2026-11-26T14:00:00Z',
    channels: [channelId],
    actions: [],
  };
}

describe('open incidents on the Home', () => {
  let slack: FakeSlack;
  let core: JobsCore;
  let home: Home;
  let notifier: SlackNotifier;
  /** The channels Alice is in, and those she holds a role in (every one, unless a test says otherwise). */
  let aliceIn: string[];
  let roleIn: (channelId: string) => boolean;
  const watched: { channelId: string; profile: string; createdBy: string }[] = [];

  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  beforeEach(() => {
    aliceIn = [MINE];
    roleIn = () => true;
    watched.length = 0;
    core = createJobsCore({
      redisUrl: redisUrl(),
      prefix: uniquePrefix('home-incidents'),
      schedule: { slack: { postIntervalMs: 0, updateIntervalMs: 0 } },
      logger: quiet,
    });
    notifier = new SlackNotifier(
      new SlackChat(createWorkerSlackClient('xoxb-test', slack.apiUrl), quiet),
      core.redis,
      core.keys,
      core.schedule,
      quiet,
    );
    home = createHome({
      redis: core.redis,
      prefix: core.prefix,
      tab: { publish: async () => undefined, userChannels: async () => [] },
      pending: async () => [],
      authorizer: async ({ userId, role, channelId }) =>
        userId === ALICE && role === 'viewer' && roleIn(channelId),
      allowSelfApproval: false,
      watches: {
        list: async () => watched.map((watch) => ({ ...watch, createdAt: '2026-11-26T14:00:00Z' })),
        watch: async () => ({ created: true }),
        unwatch: async () => ({ removed: false }),
      },
      channelsOf: async (userId) => (userId === ALICE ? aliceIn : undefined),
      log: quiet,
    });
  });
  afterEach(async () => {
    await home.close();
    await core.close();
  });
  afterAll(async () => {
    await slack.stop();
  });

  const serve = (channelId: string, events: AlertEvent[]) =>
    serveChannel({ core, notifier, log: quiet }, channelId, events);

  it('shows the open incidents of the person’s channels with a link to the message, and not others’', async () => {
    await serve(MINE, [offline('asa-mine', MINE)]);
    await serve(OTHERS, [offline('asa-theirs', OTHERS)]);
    const ts = slack.callsTo('chat.postMessage').find((call) => call.args.channel === MINE);

    const text = renderText(await home.view(ALICE));

    expect(text).toContain('Open incidents in your channels');
    expect(text).toContain('asa-mine is UNREACHABLE');
    expect(text).not.toContain('asa-theirs');
    expect(ts).toBeDefined();
    expect(text).toContain(`https://slack.com/archives/${MINE}/p`);
  });

  it('drops an incident from the Home once it closes', async () => {
    await serve(MINE, [offline('asa-mine', MINE)]);
    await serve(MINE, [offline('asa-mine', MINE, 'close')]);

    const text = renderText(await home.view(ALICE));

    expect(text).not.toContain('asa-mine');
    expect(text).toContain('No open incidents in your channels');
  });

  it('shows only what belongs to channels where the person holds a role: one customer’s, nobody else’s', async () => {
    // Alice is in the MSP's channel and two customers' channels, and holds a role only in contoso-eu's.
    aliceIn = [MINE, CONTOSO, FABRIKAM];
    roleIn = (channelId) => channelId === CONTOSO;
    await serve(MINE, [offline('asa-msp', MINE)]);
    await serve(CONTOSO, [offline('contoso-asa', CONTOSO)]);
    await serve(FABRIKAM, [offline('fabrikam-asa', FABRIKAM)]);
    watched.push(
      { channelId: CONTOSO, profile: 'contoso', createdBy: ALICE },
      { channelId: FABRIKAM, profile: 'fabrikam', createdBy: ALICE },
    );
    // Work she started in both customers' channels (ended, so its outcome is what the Home reads).
    const tracker = home.tracker({ follow: async () => undefined, speakIn: async () => undefined });
    for (const [channelId, profile] of [
      [CONTOSO, 'contoso'],
      [FABRIKAM, 'fabrikam'],
    ] as const) {
      const request: TrackRequest = {
        kind: 'transaction',
        transactionUid: `tx-${profile}`,
        label: `${profile} change`,
      };
      await tracker.follow(request, { channelId, threadTs: '1.0', requesterId: ALICE, profile });
      await core.redis.set(
        core.keys.outcome(trackJobId(profile, 'transaction', `tx-${profile}`)),
        JSON.stringify({ status: 'succeeded', text: 'is done.' }),
      );
    }

    const text = renderText(await home.view(ALICE));

    expect(text).toContain('contoso-asa is UNREACHABLE');
    expect(text).toContain('contoso change');
    expect(text).toContain('runs of `contoso` end');
    for (const other of ['asa-msp', 'fabrikam-asa', 'fabrikam change', '`fabrikam`', FABRIKAM, MINE])
      expect(text).not.toContain(other);
  });

  it('says when it cannot tell which channels are the person’s', async () => {
    const text = renderText(await home.view('U0NOBODY001'));

    expect(text).toContain('fwbot could not read which channels you are in just now.');
  });
});
