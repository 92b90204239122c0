// Incidents are posted in the workspace of their channel (issue 29, OAuth mode): a channel subscribed from
// a customer's own workspace hears its incidents (posts, edits and thread replies) with that workspace's
// installation's token; a channel whose subscriptions name no workspace (made before there were others)
// is the home workspace's.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlertEvent } from '../../../src/alerts/model.js';
import { slackClientsOf } from '../../../src/app/surface.js';
import { serveChannel } from '../../../src/jobs/alerts/deskWorker.js';
import { RedisAlertSubscriptions } from '../../../src/jobs/alerts/subscriptions.js';
import { createJobsCore, type JobsCore } from '../../../src/jobs/core.js';
import { RetryLater, SlackNotifier } from '../../../src/jobs/slackNotifier.js';
import { SlackChat } from '../../../src/slack/chat.js';
import { installedWorkspaceClients } from '../../../src/slackApi/clientsByTeam.js';
import { type FakeSlack, startFakeSlack } from '../../support/fakeSlack.js';
import { MemoryInstallations } from '../../support/memoryInstallations.js';
import { redisUrl, uniquePrefix } from '../../support/testRedis.js';
import { quietLog, TEST_SCHEDULE } from '../support/harness.js';

const HOME = 'T0HOME001';
const CUSTOMER = 'T0CUSTOMR1';
const T0 = Date.parse('2026-11-26T14:00:00Z');

/** A device going offline (open) or back (close) in a channel, as the scan hands it over. */
function connectivity(channelId: string, phase: 'open' | 'close', minutes: number): AlertEvent {
  const at = new Date(T0 + minutes * 60_000).toISOString();
  const state = phase === 'open' ? 'UNREACHABLE' : 'ONLINE';
  return {
    key: `connectivity:prod:asa-1:${channelId}:${state}:${at}`,
    kind: 'connectivity',
    profile: 'prod',
    subject: { type: 'device', uid: 'uid-asa-1', name: 'asa-1' },
    incidentKey: 'connectivity:prod:uid-asa-1',
    phase,
    state,
    headline: `*asa-1* is ${state}`,
    details: [`connectivityState: ${state}`],
    at,
    channels: [channelId],
    actions: [],
  };
}

describe('incidents by workspace', () => {
  let slack: FakeSlack;
  let core: JobsCore;
  let notifier: SlackNotifier;
  let subscriptions: RedisAlertSubscriptions;

  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  beforeEach(() => {
    slack.reset();
    core = createJobsCore({
      redisUrl: redisUrl(),
      prefix: uniquePrefix('desk-ws'),
      schedule: {
        ...TEST_SCHEDULE,
        slack: { ...TEST_SCHEDULE.slack, postIntervalMs: 0, updateIntervalMs: 0 },
      },
      logger: quietLog,
    });
    const installations = new MemoryInstallations();
    installations.install({ teamId: HOME }, 'xoxb-home');
    installations.install({ teamId: CUSTOMER }, 'xoxb-customer');
    const byTeam = installedWorkspaceClients({
      tokens: installations,
      home: { teamId: HOME },
      make: (token) => slackClientsOf(token, slack.apiUrl),
    });
    notifier = new SlackNotifier(
      (team) => new SlackChat(byTeam.forTeam(team, 'workers'), quietLog),
      core.redis,
      core.keys,
      core.schedule,
      quietLog,
    );
    subscriptions = new RedisAlertSubscriptions(core);
  });
  afterEach(async () => {
    await core.close();
  });
  afterAll(async () => {
    await slack.stop();
  });

  /** Serves the channel until nothing waits any more (the desk worker's job, run in line). */
  async function serve(channelId: string, events: AlertEvent[]): Promise<void> {
    for (let waits = 0; ; waits += 1) {
      try {
        await serveChannel({ core, notifier, log: quietLog }, channelId, events);
        return;
      } catch (error) {
        if (!(error instanceof RetryLater) || waits > 50) throw error;
      }
    }
  }

  /** The tokens of every call fwbot made into the channel that Slack accepted (posts, edits, replies). */
  const tokensIn = (channelId: string) =>
    slack.calls
      .filter((call) => call.args.channel === channelId && call.status === 200)
      .map((call) => `${call.method} ${call.token}`);

  it("posts, edits and replies in a customer workspace's channel with that workspace's token", async () => {
    await subscriptions.subscribe({
      channelId: 'C0CUSTCH01',
      profile: 'prod',
      kinds: ['connectivity'],
      scope: { kind: 'profile' },
      createdBy: 'U0CUST0001',
      teamId: CUSTOMER,
    });
    await serve('C0CUSTCH01', [connectivity('C0CUSTCH01', 'open', 0)]);
    await serve('C0CUSTCH01', [connectivity('C0CUSTCH01', 'close', 5)]);

    const calls = tokensIn('C0CUSTCH01');
    expect(calls).toContain('chat.postMessage xoxb-customer');
    expect(calls).toContain('chat.update xoxb-customer');
    expect(calls.filter((call) => !call.endsWith(' xoxb-customer'))).toEqual([]);
  });

  it('posts in the home workspace for a channel whose subscriptions name no workspace', async () => {
    await subscriptions.subscribe({
      channelId: 'C0MSPOPS01',
      profile: 'prod',
      kinds: ['connectivity'],
      scope: { kind: 'profile' },
      createdBy: 'U0MSPOPS01',
    });
    await serve('C0MSPOPS01', [connectivity('C0MSPOPS01', 'open', 0)]);

    expect(tokensIn('C0MSPOPS01')).toEqual(['chat.postMessage xoxb-home']);
  });
});
