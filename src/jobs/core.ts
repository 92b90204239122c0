// The Redis side shared by the bot (which queues work) and the workers (which do it): one connection,
// the queues, and the stores beside them. Created once per process; `close()` releases it all.
import { Queue } from 'bullmq';
import { type Logger, pino } from 'pino';
import { RedisHealth } from '../observability/redisHealth.js';
import { connectRedis, isCluster, type RedisClient, type RedisTarget } from '../redis/connection.js';
import { normalisePrefix, operationQueueName, QUEUE, RedisKeys, slotPrefix } from '../redis/keys.js';
import { checkScripts } from '../redis/scripts.js';
import type { StoredNotifyJob } from './legacyBlocks.js';
import { resolveSchedule, type Schedule, type ScheduleOverrides } from './schedule.js';
import { notifyJob, Subscriptions } from './subscriptions.js';

export interface JobsOptions {
  /** The Redis that holds the queues: a redis:// URL, or the configuration's deployment (Sentinel, Cluster). */
  redisUrl: RedisTarget;
  /** Key prefix of this deployment (default `fwbot`; on a cluster in a hash tag, `{fwbot}`); every test uses its own. */
  prefix?: string;
  /** Timings; tests pass milliseconds. Defaults: DEFAULT_SCHEDULE. */
  schedule?: ScheduleOverrides;
  logger?: Logger;
  /** The process's view of Redis: this module's connection and queues report to it. */
  redisHealth?: RedisHealth;
  /** Told who asked for a followed thing when it ends (the App Home refreshes theirs). */
  onSettled?: (requesterIds: string[]) => void;
  /** Told when incidents open, close or are acknowledged (the App Homes show the open ones). */
  onIncidentsChanged?: () => void;
  /** How long running configurations are kept (the policy's `changes.snapshots.retention_days`; default 30). */
  snapshotRetentionDays?: number;
  /**
   * The deployment's one clock, as the approvals' executor reads it (default: the machine's): what timed
   * work records of time (scheduled, cancelled) is on it.
   */
  clock?: () => number;
}

export interface JobsCore {
  readonly redis: RedisClient;
  readonly prefix: string;
  readonly keys: RedisKeys;
  readonly schedule: Schedule;
  readonly log: Logger;
  readonly redisHealth: RedisHealth;
  readonly trackQueue: Queue;
  readonly notifyQueue: Queue;
  readonly watchQueue: Queue;
  /** Alert batches for the incident desk and its Slack deliveries (src/jobs/alerts/desk.ts). */
  readonly alertsQueue: Queue;
  readonly subscriptions: Subscriptions;
  /** See JobsOptions.onIncidentsChanged; does nothing when not given. */
  readonly incidentsChanged: () => void;
  /** See JobsOptions.snapshotRetentionDays. */
  readonly snapshotRetentionDays: number;
  /** See JobsOptions.clock. */
  readonly clock: () => number;
  /** The BullMQ queue of one declared operation queue on one profile (src/jobs/operationQueue.ts). */
  callQueue(queue: string, profile: string): Queue;
  /**
   * Queues messages to post exactly once (repeats with the same key add nothing); the delivery of an outcome
   * an older fwbot recorded carries its blocks (legacyBlocks.ts).
   */
  notify(messages: readonly StoredNotifyJob[]): Promise<void>;
  close(): Promise<void>;
}

export function createJobsCore(options: JobsOptions): JobsCore {
  // Before any connection: a build without its Lua scripts refuses to start, saying so.
  checkScripts();
  const prefix = slotPrefix(normalisePrefix(options.prefix), isCluster(options.redisUrl));
  const schedule = resolveSchedule(options.schedule);
  const log = options.logger ?? pino({ name: 'fwbot-jobs', level: process.env.LOG_LEVEL ?? 'info' });
  const redisHealth = options.redisHealth ?? new RedisHealth({ log, where: 'Redis' });
  const redis = connectRedis(options.redisUrl);
  redisHealth.watch('jobs', redis);
  const keys = new RedisKeys(prefix);
  const queueOptions = { connection: redis, prefix };
  const newQueue = (name: string): Queue => {
    const queue = new Queue(name, queueOptions);
    redisHealth.absorb(`queue ${name}`, queue);
    return queue;
  };
  const trackQueue = newQueue(QUEUE.track);
  const notifyQueue = newQueue(QUEUE.notify);
  const watchQueue = newQueue(QUEUE.watch);
  const alertsQueue = newQueue(QUEUE.alerts);
  const callQueues = new Map<string, Queue>();
  const subscriptions = new Subscriptions(redis, keys, notifyQueue, schedule, log, options.onSettled);

  return {
    redis,
    prefix,
    keys,
    schedule,
    log,
    redisHealth,
    trackQueue,
    notifyQueue,
    watchQueue,
    alertsQueue,
    subscriptions,
    incidentsChanged: options.onIncidentsChanged ?? (() => undefined),
    snapshotRetentionDays: options.snapshotRetentionDays ?? 30,
    clock: options.clock ?? Date.now,
    callQueue(name, profile) {
      const queueName = operationQueueName(name, profile);
      let queue = callQueues.get(queueName);
      if (!queue) {
        queue = newQueue(queueName);
        callQueues.set(queueName, queue);
      }
      return queue;
    },
    async notify(messages) {
      if (messages.length > 0) await notifyQueue.addBulk(messages.map((data) => notifyJob(data, schedule)));
    },
    async close() {
      const queues = [trackQueue, notifyQueue, watchQueue, alertsQueue, ...callQueues.values()];
      await Promise.all(queues.map((queue) => queue.close()));
      // The queues were given this connection, so closing it is ours to do.
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
