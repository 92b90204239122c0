// A scheduled deploy across restarts of the bot as `npm start` assembles it (src/app/bot.ts: the
// configuration from the environment and the profiles file, Bolt in HTTP mode, the queues and their
// workers, the approvals with their start-up recovery pass), not the approvals' test wiring: a deploy asked
// for `--at "sat 22:00"` is approved on a Friday and held; the bot stops; a bot started at 21:59 on
// Saturday leaves it alone; one started at 22:00 runs it from its start-up pass, exactly once, and its
// tracking workers tell the thread how it ended.
// The wall clock is the one thing moved by hand: the bot reads time as Date, so the test process's Date
// is set to the Friday and then to the Saturday (it still advances with real time in between).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/bot.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createSccClient, type SccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { freePort } from '../support/redisServer.js';
import { postSigned, slashCommandBody } from '../support/slackRequests.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { sccCalls } from './support/env.js';
import { type Card, SlackDriver, textOf } from './support/slackDriver.js';
import { CHANNEL, SIGNING_SECRET, TEAM } from './support/world.js';

const DEPLOY = 'deployChangesToMultipleAsaDevices';
/** Friday 6 June 2025, 15:00 UTC, and the Saturday 22:00 after it. */
const FRIDAY_AFTERNOON = Date.UTC(2025, 5, 6, 15, 0);
const SATURDAY_22 = Date.UTC(2025, 5, 7, 22, 0);
/** The profiles file's role policy takes full Slack user ids. */
const ALICE = 'U0ALICE0001';
const BOB = 'U0BOB000001';

describe('a scheduled deploy across restarts of the assembled bot', () => {
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let scc: SccClient;
  let config: Config;
  let dir: string;
  let eventsUrl: string;
  const prefix = uniquePrefix('restart').slice(0, -1);
  const running: RunningBot[] = [];
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(sim.clock, work);

  /** The bot as `npm start` starts it, on the same Redis prefix each time. */
  async function start(): Promise<RunningBot> {
    const bot = await startBot(config, pino({ level: process.env.RESTART_TEST_LOG ?? 'silent' }), {
      redisPrefix: prefix,
    });
    running.push(bot);
    return bot;
  }

  async function stop(bot: RunningBot): Promise<void> {
    await bot.stop();
    running.splice(running.indexOf(bot), 1);
  }

  /** Both clocks, the simulator's and the bot's (Date), to the same moment. */
  function setTime(at: number): void {
    vi.setSystemTime(at);
    sim.clock.advance(Math.max(0, at - sim.clock.now()));
  }

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    slack = await startFakeSlack();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    scc = createSccClient({ baseUrl: sim.url, token: sim.tokens.superAdmin, profile: 'default' });
    dir = await mkdtemp(join(tmpdir(), 'fwbot-restart-'));
    const profiles = join(dir, 'profiles.yml');
    await writeFile(
      profiles,
      [
        'policy:',
        '  workspace:',
        '    viewer: "*"',
        `    operator: [${ALICE}]`,
        `    approver: [${BOB}]`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    config = loadConfig(
      {
        SLACK_BOT_TOKEN: 'xoxb-restart-test-token',
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
    eventsUrl = `http://127.0.0.1:${port}/slack/events`;
    setTime(FRIDAY_AFTERNOON);
  });

  afterAll(async () => {
    for (const bot of [...running]) await bot.stop();
    await scc?.close();
    await sim?.stop();
    await slack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
    vi.useRealTimers();
  });

  /** Sends `/fw <text>` as `user` and returns the approval card the bot posts in the channel. */
  async function ask(text: string, user: string): Promise<Card> {
    const body = slashCommandBody({
      text,
      userId: user,
      channelId: CHANNEL,
      teamId: TEAM,
      responseUrl: slack.responseUrl(),
    });
    expect((await postSigned(eventsUrl, SIGNING_SECRET, body)).status).toBe(200);
    const posted = await driving(
      slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          !c.args.thread_ts &&
          String(c.args.text ?? '').startsWith('Approval needed'),
        20_000,
      ),
    );
    const [key] =
      [...slack.messages().entries()].find(([, message]) => message.text === posted.args.text) ?? [];
    if (!key) throw new Error('the card is not among the messages');
    const blocks = posted.args.blocks as Card['blocks'];
    const approve = blocks
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id?.startsWith('fw.approval.approve'));
    const { id } = JSON.parse(approve?.value ?? '{}') as { id: string };
    return { channel: String(posted.args.channel), ts: key.slice(key.indexOf('/') + 1), id, blocks };
  }

  it('is held by one bot, left alone by a bot started before its time, and run once by one started at it', async () => {
    const deviceUid = sim.deviceUid('asa-branch-02');
    const vlan = [...sim.state.interfaces.values()].find(
      (i) => i.deviceUid === deviceUid && i.hardwareName === 'Vlan30',
    );
    if (!vlan) throw new Error('no Vlan30 on asa-branch-02');
    await scc.call('deleteAsaVlanInterface', { path: { deviceUid, interfaceUid: vlan.uid } });

    const driver = new SlackDriver(slack);
    const first = await start();
    const card = await ask('deploy asa-branch-02 --at "sat 22:00"', ALICE);
    // In the window's words, and in each reader's own zone (Slack's date token, UTC as its fallback).
    const saturday = `<!date^${SATURDAY_22 / 1000}^{date_short_pretty} {time}|Sat 22:00 UTC>`;
    expect(textOf(card.blocks)).toContain(
      `If approved now, it runs Sat 22:00 UTC, in 31 hours (your time: ${saturday})`,
    );
    await driving(driver.click(eventsUrl, 'approve', BOB, card));
    const held = await driver.threadReply(card, (t) => t.includes('scheduled for'));
    expect(held).toContain(
      `Approved; scheduled for Sat 22:00 UTC, in 31 hours (your time: ${saturday}) (the time asked for)`,
    );
    await stop(first);
    expect(await sccCalls(sim.url, DEPLOY)).toBe(0);

    // Restarted a minute early: its start-up pass leaves the held deploy where it is.
    setTime(SATURDAY_22 - 60_000);
    await stop(await driving(start()));
    expect(await sccCalls(sim.url, DEPLOY)).toBe(0);

    // Restarted at the time: the start-up pass (awaited by startBot) runs it; reading the pending commands
    // again is an SCC transaction, so the simulator's clock moves meanwhile.
    setTime(SATURDAY_22);
    await driving(start());
    expect(await sccCalls(sim.url, DEPLOY)).toBe(1);
    const reply = await driving(
      slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /deployed:|deploy failed/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );
    expect(String(reply.args.text)).toMatch(
      /deploy to asa-branch-02\*: deployed: the changes are on the devices now/,
    );
    const { data: device } = await scc.call('getDevice', { path: { deviceUid } });
    expect(device.configState).toBe('SYNCED');

    // Another restart later finds nothing left to run.
    const last = running[0];
    if (last) await stop(last);
    setTime(SATURDAY_22 + 5 * 60_000);
    await driving(start());
    expect(await sccCalls(sim.url, DEPLOY)).toBe(1);
  }, 120_000);
});
