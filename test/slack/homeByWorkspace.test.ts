// The App Home per workspace (issue 29, OAuth mode), on the bot `npm start` assembles: a person of a
// second workspace opens their Home there; it is published with that workspace's own token, and lists
// only what they hold a role for in that workspace's policy (`workspaces.<team>.policy`), not what the
// home workspace's policy grants. A home-workspace person's Home is still the home workspace's.
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/app/bot.js';
import { createJobs, type Jobs } from '../../src/jobs/workers.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { RedisInstallations } from '../../src/slack/installations.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../support/fakeSlack.js';
import { postSigned } from '../support/slackRequests.js';
import { connectRedis, redisUrl } from '../support/testRedis.js';
import { startOAuthBot } from './support/oauthBot.js';

const SIGNING_SECRET = 'home-by-workspace-signing-secret';
const HOME = 'T0MSPHOME1';
const CUSTOMER = 'T0CUSTOMR1';
const HOME_TOKEN = 'xoxb-home-workspace-5a6b';
const CUSTOMER_TOKEN = 'xoxb-customer-workspace-3c4d';
const MSP_PERSON = 'U0MSPOPS01';
const CUSTOMER_PERSON = 'U0CUST0001';
const MSP_CHANNEL = 'C0MSPOPS01';
const CUSTOMER_CHANNEL = 'C0CUSTCH01';

describe('OAuth mode: each workspace’s people get their Home from their own workspace', () => {
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let bot: RunningBot;
  let redis: Redis;
  let jobs: Jobs;
  let eventsUrl = '';

  beforeAll(async () => {
    slack = await startFakeSlack({ teamId: HOME });
    slack.serve('views.publish', (args) => ({
      ok: true,
      view: { ...(args.view as Record<string, unknown>), id: `V0${String(args.user_id)}` },
    }));
    // Both people are in both channels (a Slack Connect channel and the MSP's own, as Slack would say).
    slack.serve('users.conversations', () => ({
      ok: true,
      channels: [{ id: MSP_CHANNEL }, { id: CUSTOMER_CHANNEL }],
    }));
    sim = await startSimulator({ port: 0, clock: 'manual' });
    redis = connectRedis();
    const started = await startOAuthBot({
      slack,
      sim,
      home: HOME,
      signingSecret: SIGNING_SECRET,
      profiles: [
        'channels:',
        `  ${MSP_CHANNEL}: msp`,
        'policy:',
        "  workspace: { viewer: '*' }",
        'workspaces:',
        `  ${CUSTOMER}:`,
        '    profile: msp',
        '    policy:',
        '      channels:',
        `        ${CUSTOMER_CHANNEL}: { viewer: [${CUSTOMER_PERSON}] }`,
      ],
      log: pino({ level: 'silent' }),
      name: 'home-by-workspace',
    });
    ({ bot } = started);
    const { prefix } = started;
    eventsUrl = `${started.base}/slack/events`;
    // Both workspaces installed fwbot (through /slack/install): their records, as the bot keeps them.
    const installations = new RedisInstallations({
      redis,
      prefix,
      key: started.installKey,
      log: pino({ level: 'silent' }),
    });
    for (const [teamId, token] of [
      [HOME, HOME_TOKEN],
      [CUSTOMER, CUSTOMER_TOKEN],
    ] as const) {
      await installations.storeInstallation({
        team: { id: teamId, name: teamId },
        enterprise: undefined,
        user: { id: 'U0INSTALL01', token: undefined, scopes: undefined },
        bot: { token, scopes: ['commands', 'chat:write'], id: 'B0FWBOT', userId: 'U0FWBOT' },
        isEnterpriseInstall: false,
        authVersion: 'v2',
      });
    }
    // An upgrade watch in each channel: the Home lists those of channels where the person holds a role.
    jobs = createJobs({ redisUrl: redisUrl(), prefix, logger: pino({ level: 'silent' }) });
    for (const channelId of [MSP_CHANNEL, CUSTOMER_CHANNEL])
      await jobs.watches.watch({
        channelId,
        profile: 'msp',
        createdBy: MSP_PERSON,
        createdAt: new Date().toISOString(),
      });
  });
  afterAll(async () => {
    await jobs?.close();
    await bot?.stop();
    await redis?.quit();
    await sim?.stop();
    await slack?.stop();
  });

  /** app_home_opened as Slack delivers it for a workspace's installation. */
  async function openHome(teamId: string, userId: string): Promise<RecordedCall> {
    const callback = {
      token: 'deprecated-verification-token',
      team_id: teamId,
      api_app_id: 'A0FWBOT',
      event: { type: 'app_home_opened', user: userId, channel: `D0${userId}`, tab: 'home' },
      type: 'event_callback',
      event_id: `Ev${teamId}${userId}${Date.now()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: teamId, user_id: 'U0FWBOT', is_bot: true, is_enterprise_install: false }],
    };
    const answer = await postSigned(eventsUrl, SIGNING_SECRET, JSON.stringify(callback), {
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    return slack.waitFor((call) => call.method === 'views.publish' && call.args.user_id === userId, 15_000);
  }

  it("publishes a second workspace's person's Home with its token, listing only what its policy lets them see", async () => {
    const published = await openHome(CUSTOMER, CUSTOMER_PERSON);
    const view = JSON.stringify(published.args.view);

    expect(published.token).toBe(CUSTOMER_TOKEN);
    // A viewer in the customer channel by the customer workspace's policy; nothing in the MSP's channel,
    // though the home workspace's policy makes everyone there a viewer.
    expect(view).toContain(`<#${CUSTOMER_CHANNEL}>`);
    expect(view).not.toContain(`<#${MSP_CHANNEL}>`);
    // Its channels were asked of its own workspace.
    const asked = slack.callsTo('users.conversations').filter((call) => call.args.user === CUSTOMER_PERSON);
    expect(asked.map((call) => call.token)).toEqual([CUSTOMER_TOKEN]);
  });

  it("publishes a home-workspace person's Home with the home workspace's token and policy", async () => {
    const published = await openHome(HOME, MSP_PERSON);

    expect(published.token).toBe(HOME_TOKEN);
    expect(JSON.stringify(published.args.view)).toContain(`<#${MSP_CHANNEL}>`);
  });
});
