// The App Home end to end, on the assembled bot (src/app/bot.ts) in both of Slack's modes: signed HTTP
// requests at /slack/events, and envelopes from the fake Socket Mode server. Opening the Home publishes
// it; a request for approval shows up on an approver's Home with the card's own buttons; Approve and
// Reject pressed on the Home (a view: no channel, no message, no response_url) decide exactly as on the
// card, update the card in its channel, and the Homes follow. Waits are polls for the awaited call.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/bot.js';
import { REASON_BLOCK, REASON_INPUT } from '../../src/approvals/card.js';
import { loadConfig } from '../../src/config.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../support/fakeSlack.js';
import { type FakeSocketMode, startFakeSocketMode } from '../support/fakeSocketMode.js';
import { freePort } from '../support/redisServer.js';
import { interactionBody, postSigned, slashCommandBody } from '../support/slackRequests.js';
import { connectRedis, redisUrl, uniquePrefix } from '../support/testRedis.js';
import { buttonsOf, newTriggerId, textOf } from './support/harness.js';

// test/slack/fixtures/profiles.yml: everyone reads, one operator, one approver.
const OPERATOR = 'U0OPERATOR1';
const APPROVER = 'U0APPROVER1';
const VIEWER = 'U0VIEWER001';
const CHANNEL = 'C0OPS000001';
const SIGNING_SECRET = 'home-test-signing-secret';
const HOME_VIEW_ID = 'V0HOME00001';

type Mode = 'http' | 'socket';

describe.each<Mode>(['http', 'socket'])('the App Home (%s mode)', (mode) => {
  let slack: FakeSlack;
  let socket: FakeSocketMode | undefined;
  let sim: SimulatorHandle;
  let bot: RunningBot;
  let eventsUrl = '';
  let prefix = '';

  beforeAll(async () => {
    slack = await startFakeSlack();
    slack.serve('views.publish', (args) => ({
      ok: true,
      view: { ...(args.view as Record<string, unknown>), id: HOME_VIEW_ID },
    }));
    // Everyone here is in the ops channel.
    slack.serve('users.conversations', () => ({ ok: true, channels: [{ id: CHANNEL }] }));
    socket = mode === 'socket' ? await startFakeSocketMode(slack) : undefined;
    sim = await startSimulator({ port: 0, clock: 'manual' });
    const port = await freePort();
    eventsUrl = `http://127.0.0.1:${port}/slack/events`;
    const config = loadConfig(
      {
        SLACK_BOT_TOKEN: 'xoxb-home-test-token',
        ...(socket ? { SLACK_APP_TOKEN: socket.appToken } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
        SLACK_API_URL: slack.apiUrl,
        SCC_API_TOKEN: sim.tokens.superAdmin,
        SCC_BASE_URL: sim.url,
        REDIS_URL: redisUrl(),
        PORT: String(port),
        LOG_LEVEL: 'warn',
        FWBOT_PROFILES: `${process.cwd()}/test/slack/fixtures/profiles.yml`,
      },
      { require: { slack: true, scc: true } },
    );
    prefix = uniquePrefix(`home-${mode}`).slice(0, -1);
    bot = await startBot(config, pino({ level: 'silent' }), {
      redisPrefix: prefix,
      homeTiming: { debounceMs: 50, intervalMs: 300 },
    });
  });

  afterAll(async () => {
    await bot.stop();
    await socket?.stop();
    await sim.stop();
    await slack.stop();
  });

  async function deliverEvent(event: Record<string, unknown>): Promise<void> {
    const callback = {
      token: 'deprecated-verification-token',
      team_id: 'T0FAKE',
      api_app_id: 'A0FWBOT',
      type: 'event_callback',
      event_id: `Ev${newTriggerId().replace(/\W/g, '')}`,
      event_time: Math.floor(Date.now() / 1000),
      event,
    };
    if (socket) {
      const envelope = socket.event(callback);
      expect((await socket.ackOf(envelope.envelope_id)).payload ?? {}).toEqual({});
      return;
    }
    const answer = await postSigned(eventsUrl, SIGNING_SECRET, JSON.stringify(callback), {
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
  }

  const openHome = (userId: string, tab = 'home') =>
    deliverEvent({ type: 'app_home_opened', user: userId, channel: 'D0FWBOT0001', tab, event_ts: '1.0' });

  async function command(text: string, userId: string): Promise<void> {
    const body = slashCommandBody({
      text,
      responseUrl: slack.responseUrl(),
      userId,
      channelId: CHANNEL,
      triggerId: newTriggerId(),
    });
    if (socket) {
      socket.slashCommand(Object.fromEntries(new URLSearchParams(body)));
      return;
    }
    expect((await postSigned(eventsUrl, SIGNING_SECRET, body)).status).toBe(200);
  }

  async function interact(payload: Record<string, unknown>): Promise<void> {
    if (socket) {
      socket.interactive(payload);
      return;
    }
    expect((await postSigned(eventsUrl, SIGNING_SECRET, interactionBody(payload))).status).toBe(200);
  }

  /** The next views.publish for this person (after `since` calls) whose view passes `test`. */
  function published(
    userId: string,
    since: number,
    test: (view: { type?: string; blocks: unknown[] }) => boolean = () => true,
  ): Promise<RecordedCall> {
    return slack.waitFor(
      (call) =>
        slack.calls.indexOf(call) >= since &&
        call.method === 'views.publish' &&
        call.status === 200 &&
        call.args.user_id === userId &&
        test(call.args.view as { blocks: unknown[] }),
      15_000,
    );
  }

  const viewOf = (call: RecordedCall) => call.args.view as { type: string; blocks: unknown[] };
  const says = (text: string) => (view: { blocks: unknown[] }) =>
    textOf({ blocks: view.blocks }).includes(text);

  /** A click on a Home button, as Slack sends it: a view container, no channel, no response_url. */
  function homeClick(
    view: { blocks: unknown[] },
    userId: string,
    which: (button: { actionId: string; value?: string }) => boolean,
  ): Record<string, unknown> {
    const button = buttonsOf({ blocks: view.blocks }).find(which);
    if (!button) throw new Error('the Home has no such button');
    return {
      type: 'block_actions',
      user: { id: userId },
      team: { id: 'T0FAKE' },
      api_app_id: 'A0FWBOT',
      container: { type: 'view', view_id: HOME_VIEW_ID },
      view: { id: HOME_VIEW_ID, type: 'home', blocks: view.blocks },
      trigger_id: newTriggerId(),
      actions: [
        { action_id: button.actionId, block_id: 'b', type: 'button', value: button.value, action_ts: '1' },
      ],
    };
  }

  /** The approval card the operator's command posts in the channel (its ts, from the fake's messages). */
  async function askFor(text: string): Promise<{ ts: string; id: string }> {
    const since = slack.calls.length;
    await command(text, OPERATOR);
    const call = await slack.waitFor(
      (c) =>
        slack.calls.indexOf(c) >= since &&
        c.method === 'chat.postMessage' &&
        buttonsOf(c.args).some((b) => b.actionId.startsWith('fw.approval.approve')),
      15_000,
    );
    const entry = [...slack.messages().entries()].find(([, m]) => m.text === call.args.text && !m.thread_ts);
    const approve = buttonsOf(call.args).find((b) => b.actionId.startsWith('fw.approval.approve'));
    const id = (JSON.parse(approve?.value ?? '{}') as { id?: string }).id ?? '';
    return { ts: entry?.[0].split('/')[1] ?? '', id };
  }

  it('publishes the Home when it is opened, and nothing for the Messages tab', async () => {
    const since = slack.calls.length;
    await openHome(VIEWER, 'messages');
    await openHome(VIEWER);
    const call = await published(VIEWER, since);
    const view = viewOf(call);
    expect(view.type).toBe('home');
    expect(textOf({ blocks: view.blocks })).toContain('No requests are waiting for you.');
    expect(slack.calls.filter((c) => c.method === 'views.publish' && c.args.user_id === VIEWER)).toHaveLength(
      1,
    );
  });

  it('shows a new request on the approver’s Home; Approve there decides it and updates the card', async () => {
    const since = slack.calls.length;
    await openHome(APPROVER);
    await published(APPROVER, since);
    const card = await askFor('interfaces delete asa-hq-01 guest');

    // The approval's audit record refreshes every opened Home: the approver's now offers the buttons.
    const withRequest = viewOf(await published(APPROVER, since, says(`request ${card.id}`)));
    const clicked = slack.calls.length;
    await interact(homeClick(withRequest, APPROVER, (b) => b.actionId.startsWith('fw.approval.approve')));

    // The card in the channel is updated as if the click had been on it, and the outcome is in its thread.
    const update = await slack.waitFor(
      (c) =>
        slack.calls.indexOf(c) >= clicked &&
        c.method === 'chat.update' &&
        c.args.ts === card.ts &&
        textOf(c.args).includes(`Approved by <@${APPROVER}>`),
      15_000,
    );
    expect(update.args.channel).toBe(CHANNEL);
    await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts, 15_000);
    expect(sim.requestLog.list({ operationId: 'deleteAsaVlanInterface' })).toHaveLength(1);
    // The same audit record as a click on the card: the approver approved this request.
    const redis = connectRedis();
    try {
      const entries = await redis.xrange(`${prefix}:audit`, '-', '+');
      const approved = entries
        .map(([, fields]) =>
          Object.fromEntries(fields.flatMap((_, i) => (i % 2 === 0 ? [[fields[i], fields[i + 1]]] : []))),
        )
        .filter((entry) => entry.action === 'approved' && entry.approvalId === card.id);
      expect(approved.map((entry) => entry.actor)).toEqual([APPROVER]);
    } finally {
      await redis.quit();
    }
    // And the approver's Home no longer offers it.
    await published(APPROVER, clicked, (view) => !says(`request ${card.id}`)(view));
    // Nothing was said privately: the approval went through.
    expect(
      slack.calls.filter(
        (c) =>
          slack.calls.indexOf(c) >= clicked && c.method === 'chat.postEphemeral' && c.args.user === APPROVER,
      ),
    ).toEqual([]);
  });

  it('keeps the requester’s own request, with Cancel, and their last commands on their Home', async () => {
    const card = await askFor('interfaces delete asa-hq-01 iot');
    const since = slack.calls.length;
    await openHome(OPERATOR);
    const home = viewOf(await published(OPERATOR, since, says(`request ${card.id}`)));
    const text = textOf({ blocks: home.blocks });
    expect(text).toContain('Your requests');
    expect(text).toContain('`/fw interfaces delete asa-hq-01 iot`');
    expect(text).toContain('sent for approval');
    // The requester sees Cancel, not Approve, for their own request.
    const buttons = buttonsOf({ blocks: home.blocks }).map((b) => b.actionId.replace(/:\d+$/, ''));
    expect(buttons).toContain('fw.approval.cancel');
    expect(buttons).not.toContain('fw.approval.approve');

    // Cancel pressed on the Home: the card says so in its channel.
    const clicked = slack.calls.length;
    await interact(homeClick(home, OPERATOR, (b) => b.actionId.startsWith('fw.approval.cancel')));
    await slack.waitFor(
      (c) =>
        slack.calls.indexOf(c) >= clicked &&
        c.method === 'chat.update' &&
        c.args.ts === card.ts &&
        textOf(c.args).includes('Cancelled by'),
      15_000,
    );
  });

  it('opens the reject form from the Home and rejects with the reason, on the card', async () => {
    const since = slack.calls.length;
    await openHome(APPROVER);
    const card = await askFor('interfaces delete asa-dc-03 storage');
    const home = viewOf(await published(APPROVER, since, says(`request ${card.id}`)));
    const click = homeClick(home, APPROVER, (b) => b.actionId.startsWith('fw.approval.reject'));
    await interact(click);
    const opened = await slack.waitFor(
      (c) => c.method === 'views.open' && c.args.trigger_id === click.trigger_id,
      15_000,
    );
    const form = opened.args.view as { callback_id: string; private_metadata: string };
    // The form knows the card's channel although the click had none.
    expect(JSON.parse(form.private_metadata)).toMatchObject({ id: card.id, channel: CHANNEL });
    const submitted = slack.calls.length;
    await interact({
      type: 'view_submission',
      user: { id: APPROVER },
      team: { id: 'T0FAKE' },
      api_app_id: 'A0FWBOT',
      trigger_id: newTriggerId(),
      view: {
        id: 'V0REJECT001',
        callback_id: form.callback_id,
        private_metadata: form.private_metadata,
        state: {
          values: {
            // fwbot's own mention marks around an id (render/mrkdwn.ts): dropped where Slack's payload enters.
            [REASON_BLOCK]: {
              [REASON_INPUT]: { type: 'plain_text_input', value: '\uE000<@U0VICTIM>\uE001 not today' },
            },
          },
        },
      },
    });
    const update = await slack.waitFor(
      (c) =>
        slack.calls.indexOf(c) >= submitted &&
        c.method === 'chat.update' &&
        c.args.ts === card.ts &&
        textOf(c.args).includes('not today'),
      15_000,
    );
    expect(textOf(update.args)).toContain(': &lt;@U0VICTIM&gt; not today');
    expect(textOf(update.args)).not.toContain('<@U0VICTIM>');
    // What the approvals recorded is the text as typed, without the marks (the audit trail keeps the reason).
    const redis = connectRedis();
    try {
      const entries = await redis.xrange(`${prefix}:audit`, '-', '+');
      const rejected = entries
        .map(([, fields]) =>
          Object.fromEntries(fields.flatMap((_, i) => (i % 2 === 0 ? [[fields[i], fields[i + 1]]] : []))),
        )
        .filter((entry) => entry.action === 'rejected' && entry.approvalId === card.id);
      expect(rejected.map((entry) => entry.outcome)).toEqual(['<@U0VICTIM> not today']);
    } finally {
      await redis.quit();
    }
  });
});
