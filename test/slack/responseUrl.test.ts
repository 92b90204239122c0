// fwbot posts to a payload's response_url only when it is a Slack address (or the configured Slack API's
// origin, where the fake Slack serves them): issue 12, item 9. Signed requests whose response_url points
// at another host are refused before any listener runs, and that host hears nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { responseUrlCheck } from '../../src/slack/responseUrl.js';
import { postSigned, slashCommandBody } from '../support/slackRequests.js';
import {
  buttonsOf,
  CHANNEL,
  clickPayload,
  type Harness,
  newTriggerId,
  SIGNING_SECRET,
  startHarness,
  USERS,
} from './support/harness.js';

describe('which response URLs fwbot posts to', () => {
  const slackOnly = responseUrlCheck('https://slack.com/api/');

  it.each([
    'https://hooks.slack.com/commands/T0FAKE/123/abc',
    'https://hooks.slack.com/actions/T0FAKE/123/abc',
    'https://slack.com/anything',
    'https://HOOKS.Slack.com/commands/x',
  ])('accepts Slack over https: %s', (url) => {
    expect(slackOnly(url)).toBe(true);
  });

  it.each([
    'http://hooks.slack.com/commands/x',
    'https://hooks.slack.com.attacker.example/commands/x',
    'https://attackerslack.com/commands/x',
    'https://hooks.slack.com:8443/commands/x',
    'https://someone@hooks.slack.com/commands/x',
    'https://attacker.example/hooks.slack.com',
    'https://127.0.0.1/commands/x',
    'not a URL',
    '',
  ])('refuses anything else: %s', (url) => {
    expect(slackOnly(url)).toBe(false);
  });

  it('accepts the configured Slack API origin (a fake Slack), and only that origin', () => {
    const fake = responseUrlCheck('http://127.0.0.1:5005/api/');
    expect(fake('http://127.0.0.1:5005/response/abc')).toBe(true);
    expect(fake('https://hooks.slack.com/commands/x')).toBe(true);
    expect(fake('http://127.0.0.1:5006/response/abc')).toBe(false);
    expect(fake('http://localhost:5005/response/abc')).toBe(false);
    expect(fake('https://127.0.0.1:5005/response/abc')).toBe(false);
  });
});

describe('a signed request whose response_url is not Slack', () => {
  let h: Harness;
  let attacker: Server;
  let attackerUrl: string;
  const stolen: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    attacker = createServer((req, res) => {
      stolen.push(`${req.method} ${req.url}`);
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await h.stop();
    await new Promise<void>((resolve) => attacker.close(() => resolve()));
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
    stolen.length = 0;
  });

  /** Slack calls besides Bolt's own start-up check of the token. */
  const slackCalls = () => h.slack.calls.filter((call) => call.method !== 'auth.test');

  /** Waits for a normal command's answer: every earlier request has been dealt with by then. */
  async function afterwardsAnOrdinaryCommandIsAnswered(): Promise<void> {
    const ordinary = await h.command('help', { userId: USERS.viewer });
    await h.reply(ordinary.responseUrl);
  }

  it('is a slash command that is acknowledged and refused: nothing runs, the host hears nothing', async () => {
    const body = slashCommandBody({
      text: 'devices',
      userId: USERS.viewer,
      channelId: CHANNEL,
      triggerId: newTriggerId(),
      responseUrl: attackerUrl,
    });

    const http = await postSigned(h.eventsUrl, SIGNING_SECRET, body);

    expect(http.status).toBe(200);
    const warning = JSON.parse(await h.waitForLog('response_url is not a Slack address'));
    expect(warning).toMatchObject({ host: new URL(attackerUrl).host, kind: 'command' });
    expect(JSON.stringify(warning)).not.toContain('/hook');
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls()).toEqual([]);
    await afterwardsAnOrdinaryCommandIsAnswered();
    expect(stolen).toEqual([]);
    expect(h.sim.requestLog.list()).toEqual([]);
  });

  it('is a button click that is refused the same way', async () => {
    const { responseUrl } = await h.command('devices', { userId: USERS.viewer });
    const share = buttonsOf((await h.reply(responseUrl)).args).find((b) => b.label === 'Share in channel');
    expect(share).toBeDefined();
    h.sim.reset();
    h.slack.reset();

    const http = await h.interact(clickPayload(share ?? { actionId: '' }, USERS.viewer, attackerUrl));

    expect(http.status).toBe(200);
    expect(JSON.parse(await h.waitForLog('"kind":"block_actions"'))).toMatchObject({
      msg: expect.stringContaining('response_url is not a Slack address'),
    });
    await afterwardsAnOrdinaryCommandIsAnswered();
    expect(stolen).toEqual([]);
    // Only the ordinary command's answer: the share ran nothing against SCC and posted nothing.
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls().map((call) => call.method)).toEqual(['response_url']);
  });
});
