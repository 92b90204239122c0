// A scheduled deploy across a Redis Sentinel failover at its scheduled minute, end to end: two bot
// processes and fwbot's tracking workers on Redis behind Sentinel (a primary, two replicas, three
// sentinels on loopback), a deploy asked for `--at` a time and approved, held. At that minute the primary
// is killed; once the sentinels have promoted a replica both processes run their recovery passes at once:
// the simulator receives exactly one deploy, the change reaches the device, and the thread hears one outcome.
// Real Redis processes, signed requests into real Bolt apps, the simulator's manual clock, a driven clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Workers } from '../../src/jobs/workers.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { simClients, startTestWorkers } from '../jobs/support/harness.js';
import { driveClock } from '../support/driveClock.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { type SentinelTopology, startSentinelTopology } from '../support/redisTopologies.js';
import { uniquePrefix } from '../support/testRedis.js';
import { type Bot, startBot } from './support/bot.js';
import { type ManualClock, manualClock, sccCalls } from './support/env.js';
import { SlackDriver } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const DEPLOY = 'deployChangesToMultipleAsaDevices';
const HOUR = 3_600_000;
/** How long the sentinels may take to promote a replica, and the passes to get through, at most. */
const FAILOVER_BOUND_MS = 60_000;

describe('a scheduled deploy across a Sentinel failover at its minute', () => {
  let topology: SentinelTopology;
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let clients: ReturnType<typeof simClients>;
  let workers: Workers;
  let clock: ManualClock;
  const bots: Bot[] = [];
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(sim.clock, work);

  beforeAll(async () => {
    topology = await startSentinelTopology({ replicas: 2 });
    const config = loadConfig({
      REDIS_SENTINELS: topology.sentinelList,
      REDIS_SENTINEL_MASTER: topology.masterName,
    });
    // Every transition is acknowledged by a replica before fwbot acts on it (Sentinel's default).
    expect(config.redis.waitReplicas).toBe(1);
    slack = await startFakeSlack();
    sim = await startSimulator({ port: 0, clock: 'manual' });
    clients = simClients(sim, { default: sim.tokens.superAdmin });
    const prefix = uniquePrefix('sentinel-deploy');
    workers = await startTestWorkers(clients, slack.apiUrl, prefix, { redisUrl: config.redis });
    clock = manualClock();
    for (let i = 0; i < 2; i += 1)
      bots.push(
        await startBot({
          redisUrl: config.redis,
          prefix,
          slackApiUrl: slack.apiUrl,
          sccBaseUrl: sim.url,
          sccToken: sim.tokens.superAdmin,
          clock,
          tracking: workers.jobs.tracker,
          snapshots: workers.jobs.snapshots,
        }),
      );
  }, 60_000);

  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    await workers?.close();
    await clients?.close();
    await sim?.stop();
    await slack?.stop();
    await topology?.stop();
  });

  it('runs exactly once when the primary dies at the scheduled minute, with two processes alive', async () => {
    const [first, second] = bots;
    if (!first || !second) throw new Error('two bots were started');
    const driver = new SlackDriver(slack);
    const deviceUid = sim.deviceUid('asa-branch-02');
    const vlan = [...sim.state.interfaces.values()].find(
      (i) => i.deviceUid === deviceUid && i.hardwareName === 'Vlan30',
    );
    if (!vlan) throw new Error('no Vlan30 on asa-branch-02');
    await first.scc.call('deleteAsaVlanInterface', { path: { deviceUid, interfaceUid: vlan.uid } });

    const runAt = Math.floor((clock() + 2 * HOUR) / 60_000) * 60_000;
    const card = await driving(
      driver.ask(first.eventsUrl, `deploy asa-branch-02 --at ${new Date(runAt).toISOString()}`, USERS.alice),
    );
    await driving(driver.click(first.eventsUrl, 'approve', USERS.bob, card));
    await driver.threadReply(card, (t) => t.includes('scheduled for'));
    expect(await sccCalls(sim.url, DEPLOY)).toBe(0);

    // The scheduled minute: the primary dies and the sentinels promote a replica; both processes follow
    // them to it (a command waits meanwhile) and run their recovery passes at once.
    clock.advance(runAt - clock());
    const primary = await topology.primaryPort();
    await topology.crash(primary);
    const deadline = Date.now() + FAILOVER_BOUND_MS;
    while ((await topology.primaryPort()) === primary && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([first.redis.ping(), second.redis.ping()]);
    // A pass may fail while no replica can acknowledge yet; the sweeper's next pass is the next iteration.
    while ((await sccCalls(sim.url, DEPLOY)) === 0 && Date.now() < deadline)
      await driving(Promise.allSettled([first.approvals.recover(), second.approvals.recover()]));
    expect(await topology.primaryPort()).not.toBe(primary);
    expect(await sccCalls(sim.url, DEPLOY)).toBe(1);

    // The tracking workers, on the promoted primary, follow the run and tell the thread.
    const reply = await driving(
      slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /deployed:|deploy failed/.test(String(c.args.text ?? '')),
        FAILOVER_BOUND_MS,
      ),
    );
    expect(String(reply.args.text)).toMatch(
      /deploy to asa-branch-02\*: deployed: the changes are on the devices now/,
    );
    const { data: device } = await first.scc.call('getDevice', { path: { deviceUid } });
    expect(device.configState).toBe('SYNCED');

    // More passes of both processes, a minute on: still one deploy, one run said, one outcome.
    clock.advance(60_000);
    await driving(Promise.all([first.approvals.recover(), second.approvals.recover()]));
    expect(await sccCalls(sim.url, DEPLOY)).toBe(1);
    const thread = driver.threadReplies(card).map((c) => String(c.args.text ?? ''));
    expect(thread.filter((t) => /deployed:|deploy failed/.test(t))).toHaveLength(1);
    expect(
      thread.filter((t) => t.includes('asked to deploy the staged changes of asa-branch-02')),
    ).toHaveLength(1);
  }, 120_000);
});
