// The assembled bot (src/app/bot.ts, as `npm start` runs it with SLACK_APP_TOKEN) on Bolt's real Socket
// Mode receiver, against the fake Socket Mode server: commands through the command workers on Redis,
// approval cards decided by someone other than the requester, the reject reason's form, and envelopes
// Slack delivers twice, each with one effect. The SCC simulator and the fake Web API record the effects.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../../src/app/bot.js';
import { REASON_BLOCK, REASON_INPUT } from '../../../src/approvals/card.js';
import { loadConfig } from '../../../src/config.js';
import { type SimulatorHandle, startSimulator } from '../../../src/simulator/index.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../../support/fakeSlack.js';
import { type FakeSocketMode, startFakeSocketMode } from '../../support/fakeSocketMode.js';
import { freePort } from '../../support/redisServer.js';
import { slashCommandBody } from '../../support/slackRequests.js';
import { redisUrl, uniquePrefix } from '../../support/testRedis.js';
import { blocksText, buttonsOf, clickPayload, newTriggerId, textOf } from '../support/harness.js';

// test/slack/fixtures/profiles.yml: everyone reads, one operator, one approver.
const OPERATOR = 'U0OPERATOR1';
const APPROVER = 'U0APPROVER1';
const CHANNEL = 'C0OPS000001';

interface Card {
  ts: string;
  blocks: unknown[];
}

describe('Socket Mode: the assembled bot', () => {
  let slack: FakeSlack;
  let socket: FakeSocketMode;
  let sim: SimulatorHandle;
  let bot: RunningBot;
  const logs: string[] = [];

  beforeAll(async () => {
    slack = await startFakeSlack();
    socket = await startFakeSocketMode(slack);
    sim = await startSimulator({ port: 0, clock: 'manual' });
    const config = loadConfig(
      {
        SLACK_BOT_TOKEN: 'xoxb-socket-mode-test-token',
        SLACK_APP_TOKEN: socket.appToken,
        SLACK_API_URL: slack.apiUrl,
        SCC_API_TOKEN: sim.tokens.superAdmin,
        SCC_BASE_URL: sim.url,
        REDIS_URL: redisUrl(),
        PORT: String(await freePort()),
        LOG_LEVEL: 'warn',
        FWBOT_PROFILES: `${process.cwd()}/test/slack/fixtures/profiles.yml`,
      },
      { require: { slack: true, scc: true } },
    );
    const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
    bot = await startBot(config, log, {
      redisPrefix: uniquePrefix('socket').slice(0, -1),
    });
  });

  afterAll(async () => {
    await bot.stop();
    await socket.stop();
    await sim.stop();
    await slack.stop();
  });

  function fields(text: string, userId: string): Record<string, string> {
    const responseUrl = slack.responseUrl();
    const body = slashCommandBody({
      text,
      responseUrl,
      userId,
      channelId: CHANNEL,
      triggerId: newTriggerId(),
    });
    return Object.fromEntries(new URLSearchParams(body));
  }

  const answersTo = (responseUrl: string) => {
    const id = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
    return (call: RecordedCall) => call.method === 'response_url' && call.args.responseUrlId === id;
  };

  const sccCalls = (operationId: string) => sim.requestLog.list({ operationId }).length;

  async function askFor(text: string): Promise<Card> {
    const posted = slack.calls.length;
    socket.slashCommand(fields(text, OPERATOR));
    const call = await slack.waitFor(
      (c) =>
        slack.calls.indexOf(c) >= posted &&
        c.method === 'chat.postMessage' &&
        buttonsOf(c.args).some((b) => b.actionId.startsWith('fw.approval.approve')),
      10_000,
    );
    const entry = [...slack.messages().entries()].find(([, m]) => m.text === call.args.text && !m.thread_ts);
    if (!entry) throw new Error('the approval card is not among the posted messages');
    return { ts: entry[0].split('/')[1] ?? '', blocks: call.args.blocks as unknown[] };
  }

  /** A click on the card's button as `userId`, as Slack sends it inside an interactive envelope. */
  function click(card: Card, button: 'approve' | 'reject', userId: string): Record<string, unknown> {
    const target = buttonsOf({ blocks: card.blocks }).find((b) =>
      b.actionId.startsWith(`fw.approval.${button}`),
    );
    if (!target) throw new Error(`the card has no ${button} button`);
    return {
      ...clickPayload(target, userId, slack.responseUrl()),
      api_app_id: 'A0FWBOT',
      container: { type: 'message', message_ts: card.ts, channel_id: CHANNEL, is_ephemeral: false },
      message: { type: 'message', ts: card.ts, text: 'Approval needed', blocks: card.blocks },
    };
  }

  const threadReplies = (card: Card) =>
    slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts);

  it('answers /fw sent over the socket, acked at once with an empty payload', async () => {
    const command = fields('devices', OPERATOR);

    const envelope = socket.slashCommand(command);

    expect((await socket.ackOf(envelope.envelope_id)).payload).toEqual({});
    const reply = await slack.waitFor(answersTo(command.response_url ?? ''), 10_000);
    expect(blocksText(reply.args)).toContain('asa-hq-01');
  });

  it('answers a command envelope Slack delivers again once', async () => {
    const command = fields('devices', OPERATOR);
    const devicesBefore = sccCalls('getDevices');

    const envelope = socket.slashCommand(command);
    const again = socket.redeliver(envelope);
    await slack.waitFor(answersTo(command.response_url ?? ''), 10_000);
    // A later, different command gets its own answer: the two deliveries had exactly one between them.
    const later = fields('devices', OPERATOR);
    socket.slashCommand(later);
    await slack.waitFor(answersTo(later.response_url ?? ''), 10_000);

    expect(again.retry_attempt).toBe(1);
    expect(socket.acksOf(envelope.envelope_id)).toHaveLength(2);
    expect(slack.calls.filter(answersTo(command.response_url ?? ''))).toHaveLength(1);
    expect(sccCalls('getDevices') - devicesBefore).toBe(2);
  });

  it('runs a delete once someone else approves its card, once however often the click comes', async () => {
    const card = await askFor('interfaces delete asa-hq-01 guest');
    expect(sccCalls('deleteAsaVlanInterface')).toBe(0);

    const approval = socket.interactive(click(card, 'approve', APPROVER));
    const again = socket.redeliver(approval);
    const reply = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts,
      10_000,
    );
    socket.redeliver(again);
    // A later click, by someone else, gets its own answer ("already approved"); a redelivery that got
    // through would have had one too, before it.
    socket.interactive(click(card, 'approve', OPERATOR));
    await slack.waitFor(
      (c) =>
        c.method === 'chat.postEphemeral' && c.args.user === OPERATOR && /already/.test(String(c.args.text)),
      10_000,
    );

    expect(textOf(reply.args)).toContain(`<@${OPERATOR}> asked, <@${APPROVER}> approved`);
    expect(socket.acksOf(approval.envelope_id).map((ack) => ack.payload)).toEqual([{}, {}, {}]);
    expect(sccCalls('deleteAsaVlanInterface')).toBe(1);
    expect(threadReplies(card).filter((c) => textOf(c.args).includes('approved'))).toHaveLength(1);
    expect(slack.calls.filter((c) => c.method === 'chat.postEphemeral' && c.args.user === APPROVER)).toEqual(
      [],
    );
  });

  it('refuses the requester as approver over the socket too', async () => {
    const card = await askFor('interfaces delete asa-hq-01 iot');
    const before = slack.calls.length;

    socket.interactive(click(card, 'approve', OPERATOR));

    const refusal = await slack.waitFor(
      (c) =>
        slack.calls.indexOf(c) >= before && c.method === 'chat.postEphemeral' && c.args.user === OPERATOR,
      10_000,
    );
    expect(String(refusal.args.text)).toContain('approver role');
    expect(sccCalls('deleteAsaVlanInterface')).toBe(1);
  });

  it('takes a reject reason from its form (a view submission envelope) once', async () => {
    const card = await askFor('interfaces delete asa-dc-03 storage');
    const rejecting = click(card, 'reject', APPROVER);

    socket.interactive(rejecting);
    const opened = await slack.waitFor(
      (c) => c.method === 'views.open' && c.args.trigger_id === rejecting.trigger_id,
      10_000,
    );
    const view = opened.args.view as { callback_id: string; private_metadata: string };
    const submission = socket.interactive({
      type: 'view_submission',
      user: { id: APPROVER, team_id: 'T0FAKE' },
      team: { id: 'T0FAKE', domain: 'fake' },
      api_app_id: 'A0FWBOT',
      trigger_id: newTriggerId(),
      view: {
        id: 'V0REASON',
        type: 'modal',
        team_id: 'T0FAKE',
        callback_id: view.callback_id,
        private_metadata: view.private_metadata,
        hash: 'h1',
        state: {
          values: { [REASON_BLOCK]: { [REASON_INPUT]: { type: 'plain_text_input', value: 'wrong ASA' } } },
        },
      },
    });
    const rejected = await slack.waitFor(
      (c) => c.method === 'chat.update' && c.args.ts === card.ts && textOf(c.args).includes('Rejected by'),
      10_000,
    );
    await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts, 10_000);
    const before = slack.calls.length;
    socket.redeliver(submission);
    // A later click, by someone else, gets its own answer ("already rejected"); a redelivered reason that
    // got through would have had one too, before it.
    socket.interactive(click(card, 'approve', OPERATOR));
    await slack.waitFor(
      (c) =>
        slack.calls.indexOf(c) >= before && c.method === 'chat.postEphemeral' && c.args.user === OPERATOR,
      10_000,
    );

    expect(socket.acksOf(submission.envelope_id).map((ack) => ack.payload)).toEqual([{}, {}]);
    expect(textOf(rejected.args)).toContain(`Rejected by <@${APPROVER}>`);
    expect(textOf(rejected.args)).toContain('wrong ASA');
    expect(threadReplies(card)).toHaveLength(1);
    expect(slack.calls.slice(before).filter((c) => c.args.user === APPROVER)).toEqual([]);
    expect(sccCalls('deleteAsaVlanInterface')).toBe(1);
  });

  it('reconnects at once when Slack asks, and answers a command sent right after', async () => {
    const count = socket.connections.length;

    const asked = socket.askToReconnect('warning');
    const fresh = await socket.connected(count + 1);
    console.info(
      `socket mode (assembled bot): new connection ${fresh.helloAt - (asked.askedToGoAt ?? 0)} ms after disconnect (warning)`,
    );
    const command = fields('devices', OPERATOR);
    const envelope = socket.slashCommand(command);

    expect((await socket.ackOf(envelope.envelope_id)).connection).toBe(fresh.id);
    expect(logs.filter((line) => line.includes('Slack asked for a new connection'))).toHaveLength(1);
    expect(blocksText((await slack.waitFor(answersTo(command.response_url ?? ''), 10_000)).args)).toContain(
      'asa-hq-01',
    );
  });

  it('never writes the app-level token to its log', () => {
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(socket.appToken);
  });
});
