// What the tracking tests stand on: the SCC simulator with a manual clock, the fake Slack server, SCC
// clients per profile that report every call (so a test can wait for the workers' next poll instead of
// sleeping), and workers started with a millisecond schedule on a prefix of their own.
import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { SccClients, ThreadRef } from '../../../src/dispatch/ports.js';
import { type StartWorkersOptions, startWorkers, type Workers } from '../../../src/jobs/workers.js';
import { createSccClient, type SccCallEvent, type SccClient } from '../../../src/scc/client.js';
import {
  type SimulatorHandle,
  type StartSimulatorOptions,
  startSimulator,
} from '../../../src/simulator/index.js';
import { slackChatOf } from '../../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../../src/slackApi/clients.js';
import { driveClock } from '../../support/driveClock.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../../support/fakeSlack.js';
import { redisUrl, uniquePrefix } from '../../support/testRedis.js';
import { TEST_SCHEDULE } from './schedule.js';

export { TEST_SCHEDULE } from './schedule.js';

export interface SimClients extends SccClients {
  /** Every SCC call the clients make, as it completes. */
  readonly calls: EventEmitter;
  close(): Promise<void>;
}

/** Clients on the simulator: `profiles` maps a profile name to its token. No retries inside the client. */
export function simClients(sim: SimulatorHandle, profiles: Record<string, string>): SimClients {
  const calls = new EventEmitter();
  calls.setMaxListeners(0);
  const clients = new Map<string, SccClient>();
  for (const [name, token] of Object.entries(profiles)) {
    clients.set(
      name,
      createSccClient({
        baseUrl: sim.url,
        token,
        profile: name,
        retry: { maxAttempts: 1 },
        onCall: (event: SccCallEvent) => calls.emit('call', event),
      }),
    );
  }
  return {
    calls,
    names: () => [...clients.keys()],
    get(name) {
      const client = clients.get(name);
      if (!client) throw new Error(`no profile ${name}`);
      return client;
    },
    close: async () => {
      await Promise.all([...clients.values()].map((client) => client.close()));
    },
  };
}

/** Resolves on the next SCC call matching `operationId` (any when omitted). */
export function nextCall(
  clients: SimClients,
  operationId?: string,
  timeoutMs = 10_000,
): Promise<SccCallEvent> {
  return new Promise((resolve, reject) => {
    const onCall = (event: SccCallEvent) => {
      if (operationId && event.operationId !== operationId) return;
      clearTimeout(timer);
      clients.calls.off('call', onCall);
      resolve(event);
    };
    const timer = setTimeout(() => {
      clients.calls.off('call', onCall);
      reject(new Error(`no SCC call ${operationId ?? ''} within ${timeoutMs} ms`));
    }, timeoutMs);
    clients.calls.on('call', onCall);
  });
}

/**
 * Moves simulated time forward `stepMs` at a time, each step after the workers' next poll, until `done`
 * settles: time passes only as fast as the workers look at it, and nothing sleeps.
 */
export async function driveUntil<T>(
  sim: SimulatorHandle,
  clients: SimClients,
  done: Promise<T>,
  stepMs: number,
  maxSteps = 500,
): Promise<T> {
  return driveClock(sim.clock, done, {
    stepMs,
    maxSteps,
    pause: () => nextCall(clients).catch(() => undefined),
  });
}

export const quietLog = pino({ level: process.env.FWBOT_TEST_LOG ?? 'silent' });

export interface HarnessOptions {
  profiles?: (sim: SimulatorHandle) => Record<string, string>;
  /** A real clock instead of the manual one (the demo's), for tests of what wall time does. */
  sim?: Pick<StartSimulatorOptions, 'clock' | 'speed'>;
}

/** fwbot's tracking workers on the run's Redis, the tests' schedule and a quiet log. */
export function startTestWorkers(
  clients: SccClients,
  slackApiUrl: string,
  prefix: string,
  extra: Partial<StartWorkersOptions> = {},
): Promise<Workers> {
  return startWorkers({
    redisUrl: redisUrl(),
    prefix,
    clients,
    chat: slackChatOf(createWorkerSlackClient('xoxb-test', slackApiUrl), quietLog),
    schedule: TEST_SCHEDULE,
    logger: quietLog,
    ...extra,
  });
}

/** One simulator and one fake Slack per test file; `start()` per test, on a fresh prefix. */
export async function createHarness(options: HarnessOptions = {}) {
  const sim = await startSimulator({ port: 0, clock: 'manual', ...options.sim });
  const slack = await startFakeSlack();
  let clients = simClients(sim, options.profiles?.(sim) ?? { default: sim.tokens.superAdmin });
  const running: Workers[] = [];

  return {
    sim,
    slack,
    get clients() {
      return clients;
    },
    /** Fresh world, fresh Slack, fresh prefix, workers running. */
    async start(extra: Partial<StartWorkersOptions> = {}) {
      sim.reset();
      slack.reset();
      await clients.close();
      clients = simClients(sim, options.profiles?.(sim) ?? { default: sim.tokens.superAdmin });
      const prefix = uniquePrefix('jobs');
      const workers = await startTestWorkers(clients, slack.apiUrl, prefix, extra);
      running.push(workers);
      return { workers, prefix, clients };
    },
    async stopWorkers() {
      await Promise.all(running.splice(0).map((workers) => workers.close()));
    },
    async close() {
      await Promise.all(running.splice(0).map((workers) => workers.close()));
      await clients.close();
      await slack.stop();
      await sim.stop();
    },
  };
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/**
 * The harness of one describe block: created before its tests (and handed to `use`, which keeps it),
 * its workers stopped after each test, closed after them all.
 */
export function useHarness(use: (harness: Harness) => void, options: HarnessOptions = {}): void {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await createHarness(options);
    use(harness);
  });
  afterEach(async () => {
    await harness?.stopWorkers();
  });
  afterAll(async () => {
    await harness?.close();
  });
}

let threadCounter = 0;

/** A thread of its own for each follow in a test. */
export function thread(profile = 'default', channelId = 'C0TRACK01', requesterId = 'U0ALICE'): ThreadRef {
  threadCounter += 1;
  return {
    channelId,
    threadTs: `1690000000.${String(threadCounter).padStart(6, '0')}`,
    requesterId,
    profile,
  };
}

/** Posts into one thread that Slack accepted (status 200), in order. */
export function postsIn(slack: FakeSlack, where: ThreadRef): RecordedCall[] {
  return slack
    .callsTo('chat.postMessage')
    .filter(
      (call) =>
        call.status === 200 &&
        call.args.channel === where.channelId &&
        call.args.thread_ts === where.threadTs,
    );
}

/** Waits for the final reply (metadata event_type fwbot_outcome) in a thread. */
export function finalReply(slack: FakeSlack, where: ThreadRef, timeoutMs = 10_000): Promise<RecordedCall> {
  return slack.waitFor(
    (call) =>
      call.method === 'chat.postMessage' &&
      call.status === 200 &&
      call.args.thread_ts === where.threadTs &&
      call.args.channel === where.channelId &&
      eventType(call) === 'fwbot_outcome',
    timeoutMs,
  );
}

/** The watch announcements Slack accepted in `channel`. */
export function watchAnnouncements(slack: FakeSlack, channel: string): RecordedCall[] {
  return slack
    .callsTo('chat.postMessage')
    .filter(
      (call) => call.status === 200 && call.args.channel === channel && eventType(call) === 'fwbot_watch',
    );
}

export function eventType(call: RecordedCall): unknown {
  const metadata = call.args.metadata;
  return typeof metadata === 'object' && metadata !== null
    ? (metadata as Record<string, unknown>).event_type
    : undefined;
}

export function text(call: RecordedCall): string {
  return String(call.args.text ?? '');
}
