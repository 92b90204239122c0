// Governed secrets and typed credentials on the assembled bot (src/app/bot.ts, HTTP mode, signed requests,
// real Redis, the simulator behind the real client), as an outside attacker found them:
// - an approved token is not revealed once its approver has lost the approver role (the bot restarted with
//   another policy between the approval and the click);
// - `approvals.operations: { tenants.token: admin }` lets admins mint alone and sends operators to an
//   approver, as the README says, instead of refusing them;
// - a value typed as `token=…` in a command reaches neither the log nor Redis (the Home's last commands,
//   the finished command job), only [REDACTED].
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/bot.js';
import { loadConfig } from '../../src/config.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../support/fakeSlack.js';
import { freePort } from '../support/redisServer.js';
import { interactionBody, postSigned, slashCommandBody } from '../support/slackRequests.js';
import { connectRedis, redisUrl, uniquePrefix } from '../support/testRedis.js';
import { buttonsOf, newTriggerId, textOf } from './support/harness.js';

const OPERATOR = 'U0OPERATOR1';
const APPROVER = 'U0APPROVER1';
const ADMIN = 'U0ADMIN0001';
const CHANNEL = 'C0OPS000001';
const SIGNING_SECRET = 'governed-secrets-signing-secret';
const TYPED_SECRET = 'hunter2-typed-in-the-open';

function profiles(approvers: string[]): string {
  return [
    'policy:',
    '  workspace:',
    '    viewer: "*"',
    `    operator: [${OPERATOR}]`,
    `    approver: [${approvers.join(', ')}]`,
    `    admin: [${ADMIN}]`,
    'approvals:',
    '  operations:',
    '    tenants.token: admin',
    '',
  ].join('\n');
}

describe('governed secrets and typed credentials (assembled bot, HTTP mode)', () => {
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let bot: RunningBot | undefined;
  let eventsUrl = '';
  let prefix = '';
  let dir = '';
  const logged: string[] = [];

  async function start(approvers: string[]): Promise<void> {
    const file = join(dir, `profiles-${approvers.length}.yml`);
    await writeFile(file, profiles(approvers));
    const port = await freePort();
    eventsUrl = `http://127.0.0.1:${port}/slack/events`;
    const config = loadConfig(
      {
        SLACK_BOT_TOKEN: 'xoxb-governed-secrets-test',
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        SCC_API_TOKEN: sim.tokens.superAdmin,
        SCC_BASE_URL: sim.url,
        REDIS_URL: redisUrl(),
        PORT: String(port),
        LOG_LEVEL: 'debug',
        FWBOT_PROFILES: file,
      },
      { require: { slack: true, scc: true } },
    );
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    bot = await startBot(config, pino({ level: 'debug' }, sink), { redisPrefix: prefix });
  }

  beforeAll(async () => {
    slack = await startFakeSlack();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    dir = await mkdtemp(join(tmpdir(), 'fwbot-governed-secrets-'));
    prefix = uniquePrefix('governed-secrets').slice(0, -1);
    await start([APPROVER]);
  });

  afterAll(async () => {
    await bot?.stop();
    await sim.stop();
    await slack.stop();
  });

  function apiUser(tenant: string): string {
    const user = sim.state.tenants.get(sim.tenantUid(tenant))?.users.find((u) => u.apiOnly);
    if (!user) throw new Error(`no API-only user in ${tenant}`);
    return user.uid;
  }

  async function command(text: string, userId: string): Promise<string> {
    const responseUrl = slack.responseUrl();
    const body = slashCommandBody({
      text,
      responseUrl,
      userId,
      channelId: CHANNEL,
      triggerId: newTriggerId(),
    });
    expect((await postSigned(eventsUrl, SIGNING_SECRET, body)).status).toBe(200);
    return responseUrl;
  }

  async function click(
    button: { actionId: string; value?: string },
    userId: string,
    where: { container: Record<string, unknown>; message?: Record<string, unknown> },
  ): Promise<void> {
    const payload = {
      type: 'block_actions',
      user: { id: userId },
      team: { id: 'T0FAKE' },
      api_app_id: 'A0FWBOT',
      channel: { id: CHANNEL },
      trigger_id: newTriggerId(),
      response_url: slack.responseUrl(),
      ...where,
      actions: [
        { action_id: button.actionId, block_id: 'b', type: 'button', value: button.value, action_ts: '1' },
      ],
    };
    expect((await postSigned(eventsUrl, SIGNING_SECRET, interactionBody(payload))).status).toBe(200);
  }

  /** The first post to a response URL this test handed out. */
  function replyTo(responseUrl: string): Promise<RecordedCall> {
    const id = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
    return slack.waitFor((c) => c.method === 'response_url' && c.args.responseUrlId === id, 15_000);
  }

  const from = (since: number, test: (call: RecordedCall) => boolean) => (call: RecordedCall) =>
    slack.calls.indexOf(call) >= since && test(call);

  /** The operator asks for a token; the card posted in the channel, with its ts and buttons. */
  async function askForToken(): Promise<{ ts: string; call: RecordedCall }> {
    const since = slack.calls.length;
    await command(`tenants token contoso-eu ${apiUser('contoso-eu')}`, OPERATOR);
    const call = await slack.waitFor(
      from(
        since,
        (c) =>
          c.method === 'chat.postMessage' &&
          buttonsOf(c.args).some((b) => b.actionId.startsWith('fw.approval.approve')),
      ),
      15_000,
    );
    // The newest message with the card's text: earlier tests posted cards with the same words.
    const entry = [...slack.messages().entries()]
      .filter(([, m]) => m.text === call.args.text && !m.thread_ts)
      .at(-1);
    return { ts: entry?.[0].split('/')[1] ?? '', call };
  }

  it('sends an operator to an approver when the policy lets only admins mint tokens alone', async () => {
    const { call } = await askForToken();
    expect(textOf(call.args)).toContain('asks to *generate a new API token');
    expect(sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
  });

  it('offers an admin the Reveal button at once, with no card', async () => {
    const since = slack.calls.length;
    const reply = await replyTo(await command(`tenants token contoso-eu ${apiUser('contoso-eu')}`, ADMIN));
    expect(buttonsOf(reply.args).map((b) => b.label)).toContain('Reveal token');
    expect(
      slack.calls.filter((c) => slack.calls.indexOf(c) >= since && c.method === 'chat.postMessage'),
    ).toEqual([]);
  });

  it('generates nothing when the approver lost the approver role before the requester pressed Reveal', async () => {
    const card = await askForToken();
    const approve = buttonsOf(card.call.args).find((b) => b.actionId.startsWith('fw.approval.approve'));
    if (!approve) throw new Error('the card has no Approve button');
    const since = slack.calls.length;
    await click(approve, APPROVER, {
      container: { type: 'message', message_ts: card.ts, channel_id: CHANNEL },
      message: { ts: card.ts, text: card.call.args.text, blocks: card.call.args.blocks },
    });
    const offer = await slack.waitFor(
      from(
        since,
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          buttonsOf(c.args).some((b) => b.label === 'Reveal token'),
      ),
      15_000,
    );
    const reveal = buttonsOf(offer.args).find((b) => b.label === 'Reveal token');
    if (!reveal) throw new Error('no Reveal button in the thread');

    // An admin edits the profiles file and restarts fwbot: the approver is no longer one.
    await bot?.stop();
    bot = undefined;
    await start([]);

    const clicked = slack.calls.length;
    await click(reveal, OPERATOR, {
      container: { type: 'message', message_ts: card.ts, thread_ts: card.ts },
    });
    const refused = await slack.waitFor(
      from(clicked, (c) => c.method === 'views.update' && textOf(c.args).includes('Nothing was generated')),
      15_000,
    );
    expect(textOf(refused.args)).toContain(`<@${APPROVER}>, who approved, no longer holds the approver role`);
    expect(sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
    const redis = connectRedis();
    try {
      const entries = await redis.xrange(`${prefix}:audit`, '-', '+');
      const actions = entries.map(([, fields]) => fields[fields.indexOf('action') + 1]);
      expect(actions).toContain('aborted');
    } finally {
      await redis.quit();
    }
  });

  it('keeps a value typed as token=… out of the log and out of Redis', async () => {
    await replyTo(await command(`devices token=${TYPED_SECRET}`, OPERATOR));
    const redis = connectRedis();
    try {
      // The Home's last commands keep the command, redacted.
      const recent = await redis.lrange(`${prefix}:home:recent:${OPERATOR}`, 0, -1);
      expect(recent.join('\n')).toContain('token=[REDACTED]');
      // No key of this deployment holds the value anywhere (lists, hashes of finished jobs, streams); the
      // finished command job is redacted right after its reply, so this waits for it.
      await vi.waitFor(async () => expect(await keysHolding(redis, TYPED_SECRET)).toEqual([]), {
        timeout: 15_000,
        interval: 100,
      });
    } finally {
      await redis.quit();
    }
    expect(logged.join('')).toContain('token=[REDACTED]');
    expect(logged.join('')).not.toContain(TYPED_SECRET);
  });

  async function keysHolding(redis: ReturnType<typeof connectRedis>, secret: string): Promise<string[]> {
    const found: string[] = [];
    for (const key of await redis.keys(`${prefix}*`)) {
      const type = await redis.type(key);
      const values =
        type === 'string'
          ? [(await redis.get(key)) ?? '']
          : type === 'list'
            ? await redis.lrange(key, 0, -1)
            : type === 'hash'
              ? Object.values(await redis.hgetall(key))
              : type === 'stream'
                ? (await redis.xrange(key, '-', '+')).flatMap(([, fields]) => fields)
                : [];
      if (values.some((value) => value.includes(secret))) found.push(key);
    }
    return found;
  }
});
