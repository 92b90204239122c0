// The bot as `npm start` runs it: configuration from the environment (every problem at once, exit 2),
// then the whole assembly — Bolt in HTTP mode, the real tracking queue with its workers on Redis, the
// approval service — answering signed requests against the simulator and the fake Slack.
import { spawn } from 'node:child_process';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/bot.js';
import { loadConfig } from '../../src/config.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { freePort } from '../support/redisServer.js';
import { postSigned, slashCommandBody } from '../support/slackRequests.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { blocksText, buttonsOf } from './support/harness.js';

const SIGNING_SECRET = 'main-test-signing-secret';
const OPERATOR = 'U0OPERATOR1';

function run(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/entry/bot.ts'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('npm start', () => {
  it('refuses to start with a broken configuration, listing every problem and no secret', async () => {
    const { code, stderr } = await run({
      SLACK_BOT_TOKEN: 'xoxb-1111-2222-secretpart',
      SCC_REGION: 'mars',
      PORT: 'eighty',
    });
    expect(code).toBe(2);
    for (const variable of ['SCC_API_TOKEN', 'SCC_REGION', 'SLACK_SIGNING_SECRET', 'PORT']) {
      expect(stderr).toContain(`- ${variable}:`);
    }
    expect(stderr).not.toContain('secretpart');
  });
});

describe('the assembled bot', () => {
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let bot: RunningBot;
  let eventsUrl: string;
  let port: number;

  beforeAll(async () => {
    slack = await startFakeSlack();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    port = await freePort();
    const profiles = `${process.cwd()}/test/slack/fixtures/profiles.yml`;
    const config = loadConfig(
      {
        SLACK_BOT_TOKEN: 'xoxb-main-test-token',
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        SCC_API_TOKEN: sim.tokens.superAdmin,
        SCC_BASE_URL: sim.url,
        REDIS_URL: redisUrl(),
        PORT: String(port),
        LOG_LEVEL: 'warn',
        FWBOT_PROFILES: profiles,
      },
      { require: { slack: true, scc: true } },
    );
    bot = await startBot(config, pino({ level: 'silent' }), {
      redisPrefix: uniquePrefix('main').slice(0, -1),
    });
    eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  });

  afterAll(async () => {
    await bot.stop();
    await sim.stop();
    await slack.stop();
  });

  async function command(text: string): Promise<string> {
    const responseUrl = slack.responseUrl();
    const body = slashCommandBody({ text, responseUrl, userId: OPERATOR, channelId: 'C0OPS000001' });
    const res = await postSigned(eventsUrl, SIGNING_SECRET, body);
    expect(res.status).toBe(200);
    return responseUrl;
  }

  it('serves /healthz and refuses unsigned requests', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const unsigned = await postSigned(eventsUrl, SIGNING_SECRET, 'text=help', { signature: null });
    expect(unsigned.status).toBe(401);
  });

  it('answers a read privately', async () => {
    const url = await command('devices');
    const id = url.slice(url.lastIndexOf('/') + 1);
    const reply = await slack.waitFor((c) => c.method === 'response_url' && c.args.responseUrlId === id);
    expect(blocksText(reply.args)).toContain('asa-hq-01');
  });

  it('announces a change and the tracking queue reports its end in the thread', async () => {
    await command('tenants mcd enable globex-apj');
    const announcement = await slack.waitFor((c) => c.method === 'chat.postMessage' && !c.args.thread_ts);
    const ts = [...slack.messages().entries()]
      .find(([, m]) => m.text === announcement.args.text)?.[0]
      .split('/')[1];
    expect(ts).toBeDefined();
    sim.clock.advance(10 * 60_000);
    const reply = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts,
      20_000,
    );
    expect(String(reply.args.text)).toMatch(
      new RegExp(
        `^<@${OPERATOR}> \\*enable Multicloud Defense for globex-apj\\*: done\\. SCC finished transaction`,
      ),
    );
  });

  it('queues a tenant creation behind SCC’s limit and posts its outcome in the announcement’s thread', async () => {
    await command('tenants create acme-main');
    const announcement = await slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' && String(c.args.text).includes('acme-main') && !c.args.thread_ts,
    );
    const ts = [...slack.messages().entries()]
      .find(([, m]) => m.text === announcement.args.text)?.[0]
      .split('/')[1];
    // Its turn: the operation's own outcome (who asked, the transaction SCC started) in the thread.
    const started = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && Array.isArray(c.args.blocks),
      20_000,
    );
    expect(blocksText(started.args)).toContain('asked to create tenant *acme-main*');
    expect(sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(1);
  });

  it('turns a destructive command into an approval card', async () => {
    await command('tenants remove hooli-uae');
    const card = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && buttonsOf(c.args).some((b) => /approve/i.test(b.label)),
      10_000,
    );
    expect(blocksText(card.args)).toContain('hooli-uae');
    expect(sim.requestLog.list({ operationId: 'removeTenantFromMspPortal' })).toHaveLength(0);
  });
});
