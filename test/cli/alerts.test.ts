// `fwbot alerts …` over the bot's Redis: the CLI, in no channel, subscribes a channel it names, lists every
// subscription of the profile with its id (the bot sees the same ones: same Redis, same key prefix) and
// ends one by its id; without a Redis configured, `fwbot alerts` is one sentence, not an unknown command.
// Against the simulator and the run's redis-server; one run goes through the real `bin/fwbot.js` process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IncidentDesk, OpenIncident } from '../../src/alerts/model.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import type { OperationServices } from '../../src/catalogue/operation.js';
import { EXIT } from '../../src/cli/cli.js';
import { createJobs, type Jobs } from '../../src/jobs/workers.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { useSimulator } from '../catalogue/harness.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { runCaptured } from './support.js';

const cliCatalogue = createCatalogue({ command: 'fwbot', services: ['alerts'] });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('fwbot alerts', () => {
  let sim: SimulatorHandle;
  let prefix: string;
  /** The bot's side of the same Redis and prefix. */
  let bot: Jobs;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => {
    sim.reset();
    prefix = uniquePrefix('cli-alerts');
    bot = createJobs({ redisUrl: redisUrl(), prefix, logger: pino({ level: 'silent' }) });
  });
  afterEach(() => bot.close());
  afterAll(async () => {
    await sim.stop();
  });

  const fwbot = (argv: string[], extra: Record<string, string | undefined> = {}): Promise<Run> =>
    runCaptured(argv, {
      env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, REDIS_URL: redisUrl(), ...extra },
      redisPrefix: prefix,
    });

  it('subscribes a channel named by its id, lists the profile’s subscriptions with ids, and unsubscribes by id', async () => {
    const subscribed = await fwbot(['alerts', 'subscribe', 'connectivity', 'C0ALERTS1']);
    expect(subscribed.stderr).toBe('');
    expect(subscribed.code).toBe(EXIT.ok);
    const [subscription] = await bot.alerts.subscriptions.list({ channelId: 'C0ALERTS1' });
    expect(subscription).toMatchObject({
      channelId: 'C0ALERTS1',
      profile: 'default',
      kinds: ['connectivity'],
    });
    const id = subscription?.id ?? '';
    expect(subscribed.stdout).toContain(`Subscription \`${id}\`.`);

    const listed = await fwbot(['alerts']);
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.stdout).toContain('Alerts of profile default');
    expect(listed.stdout).toMatch(new RegExp(`${id}\\W+#?C0ALERTS1\\W+connectivity of profile`));
    expect(listed.stdout).toContain('No open incident.');

    const ended = await fwbot(['alerts', 'unsubscribe', id]);
    expect(ended.code).toBe(EXIT.ok);
    expect(ended.stdout).toContain(`(subscription \`${id}\` ended)`);
    expect(await bot.alerts.subscriptions.list({ channelId: 'C0ALERTS1' })).toEqual([]);
    expect((await fwbot(['alerts'])).stdout).toContain('Profile `default` has no alert subscription.');

    const again = await fwbot(['alerts', 'unsubscribe', id]);
    expect(again.code).toBe(EXIT.usage);
    expect(again.stderr).toContain(`Profile \`default\` has no alert subscription \`${id}\``);
  });

  it('needs the channel to subscribe, since the command line is in no channel', async () => {
    const run = await fwbot(['alerts', 'subscribe', 'connectivity']);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toMatch(/Name the channel to tell by its id .*the command line is in no channel\./);
    expect(await bot.alerts.subscriptions.list()).toEqual([]);
  });

  /** The real `fwbot` process (bin/fwbot.js), with the simulator's URL and token and `extra` in its env. */
  async function fwbotProcess(argv: string[], extra: Record<string, string> = {}): Promise<Run> {
    const bin = fileURLToPath(new URL('../../bin/fwbot.js', import.meta.url));
    const child = spawn(process.execPath, [bin, ...argv], {
      env: { PATH: process.env.PATH, SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // 'close', not 'exit': both streams are read to their end by then.
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code: code ?? -1, stdout, stderr };
  }

  it('says in one sentence that `fwbot alerts` needs the bot’s Redis when none is configured (a real process)', async () => {
    const run = await fwbotProcess(['alerts']);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(
      '`fwbot alerts` needs the Redis the bot uses: set REDIS_URL (or REDIS_SENTINELS or REDIS_CLUSTER_NODES) as the bot has it.',
    );
  });

  it('lists what the bot’s channels subscribed to, under the bot’s own key prefix, and exits (a real process)', async () => {
    // A database of its own on the run's server: the real process uses the bot's default prefix.
    const url = `${redisUrl()}/7`;
    const theBot = createJobs({ redisUrl: url, logger: pino({ level: 'silent' }) });
    try {
      const { subscription } = await theBot.alerts.subscriptions.subscribe({
        channelId: 'C0NETOPS1',
        profile: 'default',
        kinds: ['connectivity', 'ha'],
        scope: { kind: 'profile' },
        createdBy: 'U0ENGINEER',
      });
      const run = await fwbotProcess(['alerts'], { REDIS_URL: url });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(EXIT.ok);
      expect(run.stdout).toMatch(new RegExp(`${subscription.id}\\W+#C0NETOPS1: connectivity, ha of profile`));
      expect(await theBot.alerts.subscriptions.unsubscribe('C0NETOPS1', subscription.id)).toBeDefined();
    } finally {
      await theBot.close();
    }
  });
});

// What the CLI runs, at the operations' level: an actor in no channel, incidents in memory (the desk's own
// tests are test/jobs/alerts/desk*.test.ts), subscriptions in the run's Redis.
describe('the alerts operations for an actor in no channel', () => {
  const h = useSimulator();
  const CLI = { userId: 'cli:ops', channelId: 'cli', noChannel: true } as const;
  let jobs: Jobs;
  let incidents: OpenIncident[];
  let mutes: Parameters<IncidentDesk['mute']>[0][];
  let services: OperationServices;
  const incident = (id: string, channelId: string, profile = 'default'): OpenIncident => ({
    id,
    channelId,
    kind: 'connectivity',
    profile,
    subject: { type: 'device', uid: h.sim.deviceUid('asa-hq-01'), name: 'asa-hq-01' },
    headline: 'asa-hq-01 is UNREACHABLE',
    openedAt: '2026-11-26T10:00:00.000Z',
    flaps: 0,
  });
  beforeEach(async () => {
    jobs = createJobs({
      redisUrl: redisUrl(),
      prefix: uniquePrefix('cli-alerts-ops'),
      logger: pino({ level: 'silent' }),
    });
    incidents = [];
    mutes = [];
    const desk: IncidentDesk = {
      acknowledge: async (id, userId) => {
        const open = incidents.find((i) => i.id === id);
        if (open) open.acknowledgedBy ??= userId;
        return open;
      },
      mute: async (mute) => {
        mutes.push(mute);
      },
      openIncidents: async (channels) => incidents.filter((i) => channels.includes(i.channelId)),
      find: async (channels, id) => incidents.find((i) => i.id === id && channels.includes(i.channelId)),
    };
    services = {
      alerts: {
        subscriptions: jobs.alerts.subscriptions,
        incidents: desk,
        startFromNow: jobs.alerts.startFromNow,
      },
    };
    for (const channelId of ['C0NETOPS1', 'C0BRANCH1'])
      await jobs.alerts.subscriptions.subscribe({
        channelId,
        profile: 'default',
        kinds: ['connectivity'],
        scope: { kind: 'profile' },
        createdBy: 'U0ENGINEER',
      });
    await jobs.alerts.subscriptions.subscribe({
      channelId: 'C0OTHERP1',
      profile: 'other',
      kinds: ['connectivity'],
      scope: { kind: 'profile' },
      createdBy: 'U0ENGINEER',
    });
    incidents.push(incident('inc0net1', 'C0NETOPS1'), incident('inc0brn1', 'C0BRANCH1'));
    incidents.push(incident('inc0oth1', 'C0OTHERP1', 'other'));
  });
  afterEach(() => jobs.close());

  async function run(text: string) {
    const { op, raw } = cliCatalogue.parse(text);
    return op.execute({ ...h.context(), actor: CLI, services }, raw);
  }

  it('lists the profile’s channels’ subscriptions and open incidents, not another profile’s', async () => {
    const { view } = await run('alerts');
    expect(view.summary).toBe('2 alert subscriptions and 2 open incidents of profile default');
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('inc0net1');
    expect(text).toContain('inc0brn1');
    expect(text).not.toContain('inc0oth1');
    expect(text).not.toContain('C0OTHERP1');
  });

  it('acknowledges an incident of any of the profile’s channels, and mutes a device where it has open incidents', async () => {
    await run('alerts ack inc0brn1');
    expect(incidents.find((i) => i.id === 'inc0brn1')?.acknowledgedBy).toBe(CLI.userId);
    await expect(run('alerts ack inc0oth1')).rejects.toThrow(
      'Profile `default` has no open incident `inc0oth1`',
    );

    const muted = await run('alerts mute asa-hq-01 1h');
    expect(mutes.map((m) => m.channelId).sort()).toEqual(['C0BRANCH1', 'C0NETOPS1']);
    expect(muted.view.summary).toContain('no new incident of it is posted there until then');
    await expect(run('alerts mute asa-dc-03 1h')).rejects.toThrow(
      /has no open incident on profile `default`: from the command line a device is muted in the channels of its open incidents/,
    );
    expect(mutes).toHaveLength(2);
  });
});
