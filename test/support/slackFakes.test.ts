import { App, HTTPReceiver } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from './fakeSlack.js';
import { freePort } from './redisServer.js';
import { interactionBody, postSigned, slashCommandBody } from './slackRequests.js';

const signingSecret = 'test-signing-secret';

describe('Slack fakes with a real Bolt app in HTTP mode', () => {
  let slack: FakeSlack;
  let app: App;
  let eventsUrl: string;

  beforeAll(async () => {
    slack = await startFakeSlack();
    const port = await freePort();
    const receiver = new HTTPReceiver({ signingSecret });
    app = new App({
      token: 'xoxb-test-token',
      receiver,
      clientOptions: { slackApiUrl: slack.apiUrl },
    });
    app.command('/fw', async ({ ack, respond, command, client }) => {
      await ack();
      await respond({ text: `echo ${command.text}` });
      await client.chat.postMessage({ channel: command.channel_id, text: 'posted' });
    });
    app.action('fw.test', async ({ ack }) => {
      await ack();
    });
    await app.start(port);
    eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  });

  afterAll(async () => {
    await app.stop();
    await slack.stop();
  });

  it('delivers a signed slash command and records the Web API calls it makes', async () => {
    const responseUrl = slack.responseUrl();
    const res = await postSigned(eventsUrl, signingSecret, slashCommandBody({ text: 'help', responseUrl }));
    expect(res.status).toBe(200);
    const reply = await slack.waitFor((c) => c.method === 'response_url');
    expect(reply.args.text).toBe('echo help');
    const post = await slack.waitFor((c) => c.method === 'chat.postMessage');
    expect(post.args).toMatchObject({ channel: 'C0OPS', text: 'posted' });
    expect(post.token).toBe('xoxb-test-token');
  });

  it('refuses forged, unsigned and stale requests', async () => {
    const body = slashCommandBody({ text: 'help', responseUrl: slack.responseUrl() });
    const forged = await postSigned(eventsUrl, 'wrong-secret', body);
    const unsigned = await postSigned(eventsUrl, signingSecret, body, { signature: null });
    const stale = await postSigned(eventsUrl, signingSecret, body, {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect([forged.status, unsigned.status, stale.status]).toEqual([401, 401, 401]);
  });

  it('accepts signed interaction payloads', async () => {
    const res = await postSigned(
      eventsUrl,
      signingSecret,
      interactionBody({
        type: 'block_actions',
        user: { id: 'U0ALICE' },
        team: { id: 'T0FAKE' },
        channel: { id: 'C0OPS' },
        trigger_id: 't',
        response_url: slack.responseUrl(),
        actions: [{ action_id: 'fw.test', block_id: 'b', type: 'button', value: 'v', action_ts: '1' }],
      }),
    );
    expect(res.status).toBe(200);
  });

  it('answers 429 with Retry-After when told to', async () => {
    slack.rateLimit('chat.postMessage', 1, 7);
    const res = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-x' },
      body: JSON.stringify({ channel: 'C1', text: 'x' }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
  });
});
