// Slash commands through Redis (src/jobs/commandQueue.ts, running what src/jobs/queuedCommands.ts says): the
// real Bolt front acks, reads the text once and queues what it read; command workers on the run's
// redis-server hand it to the dispatcher against the simulator and answer on response_url (fake Slack), and
// still run what an older fwbot queued as text. Also what must never happen: a command run twice, a change
// re-run after a worker died on it, a token written to Redis, a command lost without a word when Redis is away.
import { Queue, Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { commandHandling } from '../../src/app/assemble.js';
import { createLogger } from '../../src/app/logger.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import { readCommandLine } from '../../src/dispatch/commandLine.js';
import {
  type CommandIntake,
  type CommandWorkers,
  commandJobId,
  createCommandIntake,
  startCommandWorkers,
} from '../../src/jobs/commandQueue.js';
import type { LegacyQueuedCommand } from '../../src/jobs/legacyCommand.js';
import type { QueuedCommand } from '../../src/jobs/payloads.js';
import { commandRunner, queuedCall, shownText } from '../../src/jobs/queuedCommands.js';
import { observeQueues } from '../../src/jobs/queueMetrics.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { QUEUE } from '../../src/redis/keys.js';
import {
  blocksText,
  CHANNEL,
  type Harness,
  newTriggerId,
  startHarness,
  USERS,
} from '../slack/support/harness.js';
import { startRedisServer } from '../support/redisServer.js';
import { connectRedis, redisUrl, uniquePrefix } from '../support/testRedis.js';

const quiet = createLogger('silent');
const catalogue = createCatalogue();

/** `/fw <text>` typed by `userId`, queued as the front queues it: read once with the grammar. */
function command(
  text = 'devices',
  { userId = USERS.viewer, ...overrides }: Partial<QueuedCommand> & { userId?: string } = {},
): QueuedCommand {
  return {
    call: queuedCall(readCommandLine(catalogue, text), (error) => String(error)),
    requester: { userId, channelId: CHANNEL },
    triggerId: newTriggerId(),
    responseUrl: 'http://127.0.0.1:9/response/x',
    receivedAt: Date.now(),
    ...overrides,
  };
}

/** `/fw <text>` as an fwbot from before issue 35 queued it: the slash command's text, for the worker to parse. */
function legacyCommand(text: string, overrides: Partial<LegacyQueuedCommand> = {}): LegacyQueuedCommand {
  return {
    text,
    withheld: false,
    userId: USERS.viewer,
    channelId: CHANNEL,
    triggerId: newTriggerId(),
    responseUrl: 'http://127.0.0.1:9/response/x',
    receivedAt: Date.now(),
    ...overrides,
  };
}

describe('the command intake (front side)', () => {
  let prefix: string;
  let intake: CommandIntake;
  let queue: Queue;
  beforeEach(async () => {
    prefix = uniquePrefix('intake').slice(0, -1);
    intake = createCommandIntake({ redisUrl: redisUrl(), prefix, log: quiet });
    await intake.ready();
    queue = new Queue(QUEUE.commandIntake, { connection: connectRedis(), prefix });
  });
  afterEach(async () => {
    await intake.close();
    await queue.close();
  });

  it('writes the commands of one batching window as one intake job', async () => {
    const commands = Array.from({ length: 25 }, () => command());
    await Promise.all(commands.map((c) => intake.submit(c)));
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.data.commands.map((c: QueuedCommand) => c.triggerId)).toEqual(
      commands.map((c) => c.triggerId),
    );
  });

  it('hands over commands submitted just before it closes', async () => {
    const submitted = intake.submit(command());
    await intake.close();
    await submitted;
    expect(await queue.getJobCountByTypes('waiting')).toBe(1);
    intake = createCommandIntake({ redisUrl: redisUrl(), prefix, log: quiet });
  });

  it('fails at once when Redis has gone away, instead of holding the command for later', async () => {
    const own = await startRedisServer();
    const front = createCommandIntake({ redisUrl: own.url, prefix, log: quiet });
    await front.ready();
    await front.submit(command());
    await own.stop();
    const started = Date.now();
    await expect(front.submit(command())).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    await front.close();
  });
});

describe('the command workers (with any handler)', () => {
  let prefix: string;
  let intake: CommandIntake;
  const ran: string[] = [];
  const told: string[] = [];
  const startWorkers = () =>
    startCommandWorkers({
      redisUrl: redisUrl(),
      prefix,
      handler: {
        run: async (queued) => {
          ran.push(shownText(queued.call));
        },
        safeToRunAgain: (queued) => shownText(queued.call).startsWith('/fw read'),
        tellInterrupted: async (queued) => {
          told.push(shownText(queued.call));
        },
      },
      catalogue,
      concurrency: 2,
      lockDurationMs: 1_000,
      stalledIntervalMs: 500,
      log: quiet,
    });

  beforeEach(async () => {
    prefix = uniquePrefix('command-workers').slice(0, -1);
    intake = createCommandIntake({ redisUrl: redisUrl(), prefix, log: quiet });
    await intake.ready();
    ran.length = 0;
    told.length = 0;
  });
  afterEach(async () => {
    await intake.close();
  });

  it('runs what the intake takes through the handler, and counts both queues like the others', async () => {
    const metrics = createMetrics();
    const observer = observeQueues({ redisUrl: redisUrl(), prefix, profiles: [], metrics, log: quiet });
    await observer.ready();
    const workers = await startWorkers();
    try {
      await Promise.all([intake.submit(command('one')), intake.submit(command('two'))]);
      await vi.waitFor(
        async () => {
          const text = await metrics.text();
          expect(text).toMatch(/fwbot_job_outcomes_total\{queue="commands",outcome="ran"\} 2/);
          expect(text).toMatch(/fwbot_job_outcomes_total\{queue="commands-intake",outcome="completed"\} 1/);
        },
        { timeout: 10_000 },
      );
      expect(ran.sort()).toEqual(['/fw one', '/fw two']);
      const depth = await metrics.text();
      expect(depth).toMatch(/fwbot_queue_jobs\{queue="commands",state="waiting"\} 0/);
      expect(depth).toMatch(/fwbot_queue_jobs\{queue="commands-intake",state="waiting"\} 0/);
    } finally {
      await workers.close();
      await observer.close();
    }
  });

  it('asks the handler whether a command a dead worker held may run again, and says which ended how', async () => {
    const metrics = createMetrics();
    const observer = observeQueues({ redisUrl: redisUrl(), prefix, profiles: [], metrics, log: quiet });
    await observer.ready();
    const connection = connectRedis();
    const queue = new Queue(QUEUE.commands, { connection, prefix });
    const read = command('read things');
    const change = command('change things');
    for (const queued of [read, change])
      await queue.add('command', queued, { jobId: commandJobId(queued.triggerId), attempts: 1 });
    const dying = new Worker(QUEUE.commands, null, {
      connection: connectRedis(),
      prefix,
      lockDuration: 1_000,
    });
    await dying.getNextJob('dying-1');
    await dying.getNextJob('dying-2');
    await dying.disconnect();
    const workers = await startWorkers();
    try {
      await vi.waitFor(
        async () => {
          const text = await metrics.text();
          expect(text).toMatch(/fwbot_job_outcomes_total\{queue="commands",outcome="ran"\} 1/);
          expect(text).toMatch(/fwbot_job_outcomes_total\{queue="commands",outcome="interrupted"\} 1/);
        },
        { timeout: 10_000 },
      );
      expect(ran).toEqual(['/fw read things']);
      expect(told).toEqual(['/fw change things']);
    } finally {
      await workers.close();
      await observer.close();
      await queue.close();
      connection.disconnect();
    }
  });
});

describe('queued /fw commands through the real Bolt front', () => {
  let h: Harness;
  let prefix: string;
  let intake: CommandIntake;
  let workers: CommandWorkers;
  // Short locks: a worker that dies on a command is noticed within about a second.
  const startWorkers = () =>
    startCommandWorkers({
      redisUrl: redisUrl(),
      prefix,
      ...commandHandling(h.surfaceDeps),
      concurrency: 4,
      lockDurationMs: 1_000,
      stalledIntervalMs: 500,
      log: quiet,
    });

  beforeAll(async () => {
    prefix = uniquePrefix('commands').slice(0, -1);
    intake = createCommandIntake({ redisUrl: redisUrl(), prefix, log: quiet });
    await intake.ready();
    h = await startHarness({ commandIntake: intake });
    workers = await startWorkers();
  });
  afterAll(async () => {
    await intake.close();
    await workers.close();
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  it('acks, and a command worker runs the command and answers on its response_url', async () => {
    const { http, responseUrl } = await h.command('devices', { userId: USERS.viewer });
    expect(http.status).toBe(200);
    const reply = await h.reply(responseUrl);
    expect(reply.args.response_type).toBe('ephemeral');
    expect(blocksText(reply.args)).toContain('asa-hq-01');
    expect(h.sim.requestLog.list().map((entry) => entry.operationId)).toEqual(['getDevices']);
  });

  it('queues what the front read (operation, arguments, who, where), never text to parse again', async () => {
    const triggerId = newTriggerId();
    const { responseUrl } = await h.command('devices asa --profile default', {
      triggerId,
      userId: USERS.admin,
    });
    expect(blocksText((await h.reply(responseUrl)).args)).toContain('asa-hq-01');
    const commands = new Queue(QUEUE.commands, { connection: connectRedis(), prefix });
    const job = await commands.getJob(commandJobId(triggerId));
    await commands.close();
    expect(job?.data).toMatchObject({
      call: {
        kind: 'invocation',
        operationId: 'devices',
        raw: { query: 'asa' },
        commandText: '/fw devices asa --profile default',
        profileOverride: 'default',
      },
      requester: { userId: USERS.admin, channelId: CHANNEL },
      triggerId,
      responseUrl,
    });
    expect(Object.keys(job?.data ?? {})).not.toContain('text');
  });

  it('runs what an older fwbot queued as text, each read once when a worker takes it', async () => {
    // As a front from before issue 35 wrote them: a batch into the intake queue, and a command job.
    const read = legacyCommand('devices', { responseUrl: h.slack.responseUrl() });
    const typo = legacyCommand('devics', { responseUrl: h.slack.responseUrl() });
    const withheld = legacyCommand('', { withheld: true, responseUrl: h.slack.responseUrl() });
    const direct = legacyCommand('tenants show contoso-eu', { responseUrl: h.slack.responseUrl() });
    const connection = connectRedis();
    const intakeQueue = new Queue(QUEUE.commandIntake, { connection, prefix });
    const commandsQueue = new Queue(QUEUE.commands, { connection, prefix });
    await intakeQueue.add('batch', { commands: [read, typo, withheld] });
    await commandsQueue.add('command', direct, { jobId: commandJobId(direct.triggerId), attempts: 1 });

    expect(blocksText((await h.reply(read.responseUrl)).args)).toContain('asa-hq-01');
    expect(blocksText((await h.reply(typo.responseUrl)).args)).toContain('Did you mean `/fw devices`?');
    expect(blocksText((await h.reply(withheld.responseUrl)).args)).toContain(
      'looks like it contains an API token',
    );
    expect(blocksText((await h.reply(direct.responseUrl)).args)).toContain('contoso-eu');
    // The typo and the withheld command reached no SCC operation; each of the others ran once.
    const called = h.sim.requestLog.list().map((entry) => entry.operationId);
    expect(called.filter((id) => id === 'getDevices')).toHaveLength(1);
    expect(called.filter((id) => id === 'getMspManagedTenant')).toHaveLength(1);
    await intakeQueue.close();
    await commandsQueue.close();
    connection.disconnect();
  });

  it('runs a command Slack delivers twice (the same trigger id) once', async () => {
    const triggerId = newTriggerId();
    const first = await h.command('devices', { triggerId });
    const second = await h.command('devices', { triggerId });
    expect([first.http.status, second.http.status]).toEqual([200, 200]);
    await h.reply(first.responseUrl);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = h.slack.calls.filter((call) => call.method === 'response_url');
    expect(answers).toHaveLength(1);
    expect(h.sim.requestLog.list().filter((entry) => entry.operationId === 'getDevices')).toHaveLength(1);
  });

  it('opens a modal in the front, within the trigger id’s 3 seconds, without queueing it', async () => {
    const triggerId = newTriggerId();
    await h.command('tenants add', { triggerId, userId: USERS.admin });
    const { view } = await h.openedModal(triggerId);
    expect(view.type).toBe('modal');
    const commands = new Queue(QUEUE.commands, { connection: connectRedis(), prefix });
    expect(await commands.getJob(commandJobId(triggerId))).toBeUndefined();
    await commands.close();
  });

  it('never writes a token-bearing command’s text to Redis, and still refuses it', async () => {
    const token = `eyJhbGciOiJIUzI1NiJ9.${'a'.repeat(40)}.${'b'.repeat(40)}`;
    const triggerId = newTriggerId();
    const { responseUrl } = await h.command(`tenants add ${token}`, { triggerId, userId: USERS.admin });
    expect(blocksText((await h.reply(responseUrl)).args)).toContain('looks like it contains an API token');
    const redis = connectRedis();
    const keys = await redis.keys(`${prefix}:*`);
    const values = await Promise.all(
      keys.map(async (key) => {
        const type = await redis.type(key);
        if (type === 'hash') return JSON.stringify(await redis.hgetall(key));
        if (type === 'string') return (await redis.get(key)) ?? '';
        return '';
      }),
    );
    expect(values.join('\n')).toContain(triggerId);
    expect(values.join('\n')).not.toContain(token.slice(0, 30));
    await redis.quit();
    expect(h.sim.requestLog.list()).toEqual([]);
  });

  it('tells the requester, and runs nothing, when the queue cannot take the command', async () => {
    const down: CommandIntake = {
      submit: () =>
        Promise.reject(new Error('Stream isn’t writeable and enableOfflineQueue options is false')),
      ready: async () => undefined,
      close: async () => undefined,
    };
    const front = await startHarness({ commandIntake: down });
    try {
      const { http, responseUrl } = await front.command('devices');
      expect(http.status).toBe(200);
      const reply = blocksText((await front.reply(responseUrl)).args);
      expect(reply).toContain('could not take that command');
      expect(reply).toContain('nothing was run');
      expect(front.sim.requestLog.list()).toEqual([]);
    } finally {
      await front.stop();
    }
  });

  it('after a worker died on it, runs a read again but not a change', async () => {
    // A "worker" that takes two commands and dies (stops renewing their locks): the live workers find
    // them stalled and pick them up again.
    const connection = connectRedis();
    const commandsQueue = new Queue(QUEUE.commands, { connection, prefix });
    const read = command('devices', { responseUrl: h.slack.responseUrl() });
    // The change was queued by an older fwbot, as text: read once when a worker takes it, then the same rule.
    const change = legacyCommand('interfaces delete asa-branch-02 printers', {
      userId: USERS.operator,
      responseUrl: h.slack.responseUrl(),
    });
    // Paused workers leave the queued jobs for the dying one.
    await workers.close();
    for (const queued of [read, change])
      await commandsQueue.add('command', queued, { jobId: commandJobId(queued.triggerId), attempts: 1 });
    const dying = new Worker(QUEUE.commands, null, {
      connection: connectRedis(),
      prefix,
      lockDuration: 1_000,
    });
    const taken = [await dying.getNextJob('dying-1'), await dying.getNextJob('dying-2')];
    expect(taken.map((job) => job?.data.triggerId).sort()).toEqual([read.triggerId, change.triggerId].sort());
    await dying.disconnect();
    workers = await startWorkers();
    const readReply = blocksText((await h.reply(read.responseUrl)).args);
    expect(readReply).toContain('asa-hq-01');
    const changeReply = blocksText((await h.reply(change.responseUrl)).args);
    expect(changeReply).toContain('was interrupted');
    expect(changeReply).toContain('did not run it again');
    expect(h.gate.requests).toEqual([]);
    expect(h.sim.requestLog.list().map((entry) => entry.operationId)).toEqual(['getDevices']);
    await commandsQueue.close();
  });
});

describe('which commands may run again after an interruption', () => {
  const runner = commandRunner({
    dispatcher: { dispatch: () => Promise.reject(new Error('not run here')) },
    lookup: (id) => catalogue.get(id),
    answers: {
      to: () => {
        throw new Error('not answered here');
      },
    },
    log: quiet,
  });
  const again = (text: string) => runner.safeToRunAgain(command(text));

  it('reads may, changes may not', () => {
    for (const text of [
      'devices',
      'tenants list',
      'interfaces list asa-hq-01',
      'vpn versions ftd-edge-01',
      'help',
      // The device's command line, with fwbot's read-only templates only: a read like any other.
      'show asa-hq-01 route 8.8.8.8',
      'trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 https',
    ])
      expect(again(text), text).toBe(true);
    for (const text of [
      'interfaces delete asa-hq-01 Vlan20',
      'tenants create acme-new',
      'tenants users add acme alice@example.com',
      'gateway run ftd-edge-01 GET /api/fmc_platform/v1/info/serverversion',
      'deploy asa-hq-01',
    ])
      expect(again(text), text).toBe(false);
  });

  it('is the operation’s own declaration (readsOnly), the rule every surface reads', () => {
    for (const op of catalogue.operations) {
      const queued = command();
      const call = { kind: 'invocation' as const, operationId: op.id, raw: {}, commandText: '/fw x' };
      expect(runner.safeToRunAgain({ ...queued, call }), op.id).toBe(op.readsOnly);
    }
  });

  it('answers again what it only refused: a token withheld, text the grammar did not take', () => {
    expect(
      runner.safeToRunAgain(command(`tenants add eyJhbGciOiJIUzI1NiJ9.${'a'.repeat(40)}.${'b'.repeat(40)}`)),
    ).toBe(true);
    expect(again('devics')).toBe(true);
  });
});
