// Queue depth and job outcomes for /metrics. Depth is read from Redis at scrape time (BullMQ's job
// counts); outcomes are counted from BullMQ's event streams (QueueEvents), which every process sees in
// full: each process reports the deployment's outcomes since it started, so dashboards should take
// `max` across instances rather than `sum` (see docs/operating/observability.md).

import { Queue, QueueEvents } from 'bullmq';
import type { Logger } from 'pino';
import type { FwbotMetrics, QueueDepth } from '../observability/metrics.js';
import { RedisHealth } from '../observability/redisHealth.js';
import { connectRedis, type RedisTarget } from '../redis/connection.js';
import { normalisePrefix, operationQueueName, QUEUE } from '../redis/keys.js';
import { COMMAND_OUTCOMES } from './payloads.js';

/** The states worth watching: work waiting, in hand, or parked until later. */
export const DEPTH_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/**
 * The outcomes finished jobs return, by queue: how tracked work ended (src/jobs/payloads.ts
 * Outcome.status), and whether a /fw command ran (src/jobs/commandQueue.ts, CommandOutcome).
 */
const RETURNED_OUTCOMES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [QUEUE.track, new Set(['succeeded', 'failed', 'unknown', 'stopped'])],
  [QUEUE.commands, new Set(COMMAND_OUTCOMES)],
]);

export interface QueueObserverOptions {
  redisUrl: RedisTarget;
  /** The jobs' key prefix (default `fwbot`, as in src/jobs). */
  prefix?: string;
  /** SCC profiles: each declared operation queue has its own queue per profile. */
  profiles: readonly string[];
  /** The queues the catalogue's operations declare (src/jobs/operationQueue.ts declaredQueues), by name. */
  queues?: readonly string[];
  metrics: FwbotMetrics;
  log: Logger;
  /** A scrape never waits longer than this for Redis. Default 2 s. */
  timeoutMs?: number;
  /** The process's view of Redis; without one, the observer keeps its own. */
  redisHealth?: RedisHealth;
}

export interface QueueObserver {
  /** Resolves once every event stream is being read (tests wait for it before making jobs). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A short label for a queue: `track`, `notify`, `watch`, `commands`, `commands-intake`, and an operation
 * queue's `<queue>:<profile>` (`tenant-creation:default`).
 */
function labelFor(name: string, operationQueues: ReadonlyMap<string, string>): string {
  return operationQueues.get(name) ?? name.replace(/^fwbot-/, '');
}

/** The outcome label of a finished job: the outcome it returned where its queue has them, else `completed`. */
export function completedOutcome(queue: string, returnvalue: unknown): string {
  const outcomes = RETURNED_OUTCOMES.get(queue);
  if (outcomes === undefined) return 'completed';
  let value = returnvalue;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      // A bare string, not JSON: use it as it is.
    }
  }
  return typeof value === 'string' && outcomes.has(value) ? value : 'completed';
}

export function observeQueues(options: QueueObserverOptions): QueueObserver {
  const prefix = normalisePrefix(options.prefix);
  const { metrics, log } = options;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const operationQueues = new Map(
    (options.queues ?? []).flatMap((queue) =>
      options.profiles.map((profile) => [operationQueueName(queue, profile), `${queue}:${profile}`] as const),
    ),
  );
  const names = [
    QUEUE.track,
    QUEUE.notify,
    QUEUE.watch,
    QUEUE.commandIntake,
    QUEUE.commands,
    ...operationQueues.keys(),
  ];
  // One plain connection for the counts; each QueueEvents needs a blocking connection of its own.
  const redis = connectRedis(options.redisUrl, { lazyConnect: false });
  const health = options.redisHealth ?? new RedisHealth({ log, where: 'Redis' });
  health.watch('queue metrics', redis);
  const queues = names.map((name) => {
    const queue = new Queue(name, { connection: redis, prefix });
    health.absorb(`queue metrics ${name}`, queue);
    return { name, queue };
  });
  const events = names.map((name) => {
    const connection = connectRedis(options.redisUrl);
    health.watch(`queue events ${name}`, connection);
    // From now, by the clock: '$' would miss events that land before the first read begins.
    const stream = new QueueEvents(name, { connection, prefix, lastEventId: `${Date.now() - 1}-0` });
    const queue = labelFor(name, operationQueues);
    stream.on('completed', ({ returnvalue }) => {
      metrics.jobOutcomes.inc({ queue, outcome: completedOutcome(name, returnvalue) });
    });
    stream.on('failed', () => {
      metrics.jobOutcomes.inc({ queue, outcome: 'failed' });
    });
    health.absorb(`queue events ${name}`, stream);
    return { stream, connection };
  });

  const readDepth = async (): Promise<QueueDepth[]> => {
    // While Redis is away, BullMQ's connection would queue the commands: report nothing rather than hang.
    if (redis.status !== 'ready') return [];
    const readings: QueueDepth[] = [];
    await Promise.all(
      queues.map(async ({ name, queue }) => {
        const counts = await queue.getJobCounts(...DEPTH_STATES);
        for (const state of DEPTH_STATES) {
          readings.push({ queue: labelFor(name, operationQueues), state, count: counts[state] ?? 0 });
        }
      }),
    );
    return readings;
  };

  metrics.setQueueDepthSource(async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<QueueDepth[]>((resolve) => {
      timer = setTimeout(() => resolve([]), timeoutMs);
    });
    try {
      return await Promise.race([readDepth(), late]);
    } catch (error) {
      log.warn({ err: error }, 'could not read queue depth');
      return [];
    } finally {
      clearTimeout(timer);
    }
  });

  return {
    async ready() {
      await Promise.all(events.map(({ stream }) => stream.waitUntilReady()));
    },
    async close() {
      metrics.setQueueDepthSource(undefined);
      await Promise.all(events.map(({ stream }) => stream.close()));
      await Promise.all(queues.map(({ queue }) => queue.close()));
      for (const { connection } of events) connection.disconnect();
      redis.disconnect();
    },
  };
}
