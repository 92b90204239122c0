// Installing fwbot in a second workspace, end to end on the bot `npm start` assembles (OAuth mode, HTTP,
// the simulator, the fake Slack, a real Redis): /slack/install sends the browser to Slack with a state;
// Slack's redirect back to /slack/oauth_redirect with that state and a code stores the workspace's
// installation, encrypted (its token is nowhere in Redis in clear); its people's commands are answered
// with its own token; app_uninstalled deletes what was stored and its requests are no longer served. A
// callback with a forged or replayed state is refused, stores nothing, and is in the audit trail.
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/app/bot.js';
import { AuditTrail } from '../../src/approvals/audit.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { postSigned, slashCommandBody } from '../support/slackRequests.js';
import { connectRedis } from '../support/testRedis.js';
import { OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET, startOAuthBot } from './support/oauthBot.js';

const SIGNING_SECRET = 'install-test-signing-secret';
const CLIENT_ID = OAUTH_CLIENT_ID;
const CLIENT_SECRET = OAUTH_CLIENT_SECRET;
const HOME = 'T0MSPHOME1';
const CUSTOMER = 'T0CUSTOMR1';
const CUSTOMER_TOKEN = 'xoxb-customer-workspace-token-7f3a';
const CUSTOMER_USER = 'U0CUST0001';
const CUSTOMER_CHANNEL = 'C0CUSTCH01';

describe('OAuth mode: a second workspace installs, works with its own token, uninstalls', () => {
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let bot: RunningBot;
  let redis: Redis;
  let base: string;
  let prefix: string;
  const logs: string[] = [];

  beforeAll(async () => {
    slack = await startFakeSlack({ teamId: HOME });
    sim = await startSimulator({ port: 0, clock: 'manual' });
    redis = connectRedis();
    const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
    ({ bot, base, prefix } = await startOAuthBot({
      slack,
      sim,
      home: HOME,
      signingSecret: SIGNING_SECRET,
      profiles: [
        'workspaces:',
        `  ${CUSTOMER}:`,
        '    profile: msp',
        '    policy:',
        `      workspace: { viewer: '*', operator: [${CUSTOMER_USER}] }`,
      ],
      log,
      name: 'install',
    }));
  });
  afterAll(async () => {
    await bot?.stop();
    await redis?.quit();
    await sim?.stop();
    await slack?.stop();
  });

  /** GET /slack/install as a browser: Slack's consent page it is sent to, and the state cookie it got. */
  async function startInstall(): Promise<{ state: string; cookie: string; location: URL }> {
    const answer = await fetch(`${base}/slack/install`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return { state: location.searchParams.get('state') ?? '', cookie, location };
  }

  /** Slack's redirect back, with the code Slack issued for the install and the state it was given. */
  function callback(code: string, state: string, cookie: string): Promise<Response> {
    const query = new URLSearchParams({ code, state });
    return fetch(`${base}/slack/oauth_redirect?${query}`, { headers: { cookie }, redirect: 'manual' });
  }

  const installKey = () => `${prefix}:slack:installation:team:${CUSTOMER}`;
  const audit = () => new AuditTrail({ redis, prefix: `${prefix}:`, retentionDays: 1, clock: Date.now });

  async function command(text: string, triggerId?: string): Promise<string> {
    const responseUrl = slack.responseUrl();
    const body = slashCommandBody({
      text,
      responseUrl,
      teamId: CUSTOMER,
      userId: CUSTOMER_USER,
      channelId: CUSTOMER_CHANNEL,
      ...(triggerId ? { triggerId } : {}),
    });
    expect((await postSigned(`${base}/slack/events`, SIGNING_SECRET, body)).status).toBe(200);
    return responseUrl;
  }

  it('installs through Slack, keeps the token encrypted, and answers the workspace with its own token', async () => {
    const { state, cookie, location } = await startInstall();
    expect(location.origin + location.pathname).toBe('https://slack.com/oauth/v2/authorize');
    expect(location.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(location.searchParams.get('scope')).toContain('commands');
    expect(state).toMatch(/^[\w-]{43}$/);

    const code = slack.grantInstall({
      teamId: CUSTOMER,
      botToken: CUSTOMER_TOKEN,
      userId: CUSTOMER_USER,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });
    const installed = await callback(code, state, cookie);
    expect(installed.status).toBe(200);
    expect(await installed.text()).toContain(`fwbot is installed in workspace ${CUSTOMER}`);

    // Stored, and not in clear: no token anywhere under the deployment's keys.
    const raw = await redis.get(installKey());
    expect(raw).not.toBeNull();
    expect(raw).not.toContain(CUSTOMER_TOKEN);
    for (const key of await redis.keys(`${prefix}:*`)) {
      if ((await redis.type(key)) !== 'string') continue;
      expect(await redis.get(key)).not.toContain(CUSTOMER_TOKEN);
    }
    expect(logs.join('\n')).not.toContain(CUSTOMER_TOKEN);
    const records = await audit().latest(20);
    expect(records.some((r) => r.operationId === 'slack:install' && r.action === 'executed')).toBe(true);

    // A command of that workspace: a form opens, with that workspace's own token.
    const triggerId = `trigger-install-${Date.now()}`;
    await command('alerts subscribe', triggerId);
    const opened = await slack.waitFor(
      (call) => call.method === 'views.open' && call.args.trigger_id === triggerId,
      15_000,
    );
    expect(opened.token).toBe(CUSTOMER_TOKEN);
    // And a read is answered (on its response URL) from the workspace's profile.
    const responseUrl = await command('devices');
    const answered = await slack.waitFor(
      (call) => call.method === 'response_url' && responseUrl.endsWith(`/${String(call.args.responseUrlId)}`),
      15_000,
    );
    expect(JSON.stringify(answered.args)).not.toContain('not installed');
  });

  it('refuses a callback whose state it did not issue, or one used already, and audits it', async () => {
    const forged = 'A'.repeat(43);
    const code = slack.grantInstall({
      teamId: 'T0INTRUDER',
      botToken: 'xoxb-intruder',
      userId: 'U0INTRUDE1',
    });
    const refused = await callback(code, forged, `slack-app-oauth-state=${forged}`);
    expect(refused.status).toBe(400);
    expect(await redis.exists(`${prefix}:slack:installation:team:T0INTRUDER`)).toBe(0);

    // A real state, taken once by a callback, then replayed.
    const { state, cookie } = await startInstall();
    const first = slack.grantInstall({ teamId: 'T0SECONDWS', botToken: 'xoxb-second', userId: 'U0SECOND01' });
    expect((await callback(first, state, cookie)).status).toBe(200);
    const replayCode = slack.grantInstall({
      teamId: 'T0INTRUDER',
      botToken: 'xoxb-intruder',
      userId: 'U0INTRUDE1',
    });
    expect((await callback(replayCode, state, cookie)).status).toBe(400);
    expect(await redis.exists(`${prefix}:slack:installation:team:T0INTRUDER`)).toBe(0);

    const refusals = (await audit().latest(50)).filter(
      (r) => r.operationId === 'slack:install' && r.action === 'refused',
    );
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    expect(refusals[0]?.outcome).toContain('the state is not one fwbot issued');
    expect(JSON.stringify(refusals)).not.toContain(forged);
  });

  it('deletes the installation when the workspace uninstalls, and serves it no more', async () => {
    expect(await redis.exists(installKey())).toBe(1);
    const event = JSON.stringify({
      token: 'deprecated-verification-token',
      team_id: CUSTOMER,
      api_app_id: 'A0FWBOT',
      event: { type: 'app_uninstalled' },
      type: 'event_callback',
      event_id: `Ev${Date.now()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: CUSTOMER, user_id: 'U0FWBOT', is_bot: true, is_enterprise_install: false }],
    });
    const http = await postSigned(`${base}/slack/events`, SIGNING_SECRET, event, {
      headers: { 'content-type': 'application/json' },
    });
    expect(http.status).toBe(200);
    await expect.poll(() => redis.exists(installKey()), { timeout: 15_000 }).toBe(0);
    // Audited just after the deletion: polled too, as a loaded machine may read between the two.
    const uninstallAudited = async () =>
      (await audit().latest(50)).some(
        (r) => r.operationId === 'slack:uninstall' && r.target.includes(CUSTOMER),
      );
    await expect.poll(uninstallAudited, { timeout: 15_000 }).toBe(true);

    await command('devices');
    await expect
      .poll(
        () =>
          logs.some((line) => line.includes('a Slack request from a workspace fwbot is not installed in')),
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
  });
});
