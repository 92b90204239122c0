// The Redis side shared by the bot (which queues work) and the workers (which do it): one connection,
// the queues, and the stores beside them. Created once per process; `close()` releases it all.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import { JobKeys, normalisePrefix, QUEUE, tenantQueueName } from './keys.js';
import type { NotifyJobData } from './payloads.js';
import { resolveSchedule, type Schedule, type ScheduleOverrides } from './schedule.js';
import { notifyJob, Subscriptions } from './subscriptions.js';

export interface JobsOptions {
  /** redis://… of the Redis that holds the queues (REDIS_URL). */
  redisUrl: string;
  /** Key prefix of this deployment (default `fwbot`); every test uses its own. */
  prefix?: string;
  /** Timings; tests pass milliseconds. Defaults: DEFAULT_SCHEDULE. */
  schedule?: ScheduleOverrides;
  logger?: Logger;
}

export interface JobsCore {
  readonly redis: Redis;
  readonly prefix: string;
  readonly keys: JobKeys;
  readonly schedule: Schedule;
  readonly log: Logger;
  readonly trackQueue: Queue;
  readonly notifyQueue: Queue;
  readonly watchQueue: Queue;
  readonly subscriptions: Subscriptions;
  tenantQueue(profile: string): Queue;
  /** Queues messages to post exactly once (repeats with the same key add nothing). */
  notify(messages: readonly NotifyJobData[]): Promise<void>;
  close(): Promise<void>;
}

/** BullMQ needs `maxRetriesPerRequest: null` so blocking calls survive a reconnect instead of failing. */
export function connectRedis(redisUrl: string): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: null });
}

export function createJobsCore(options: JobsOptions): JobsCore {
  const prefix = normalisePrefix(options.prefix);
  const schedule = resolveSchedule(options.schedule);
  const log = options.logger ?? pino({ name: 'fwbot-jobs', level: process.env.LOG_LEVEL ?? 'info' });
  const redis = connectRedis(options.redisUrl);
  const keys = new JobKeys(prefix);
  const queueOptions = { connection: redis, prefix };
  const trackQueue = new Queue(QUEUE.track, queueOptions);
  const notifyQueue = new Queue(QUEUE.notify, queueOptions);
  const watchQueue = new Queue(QUEUE.watch, queueOptions);
  const tenantQueues = new Map<string, Queue>();
  const subscriptions = new Subscriptions(redis, keys, notifyQueue, schedule, log);

  return {
    redis,
    prefix,
    keys,
    schedule,
    log,
    trackQueue,
    notifyQueue,
    watchQueue,
    subscriptions,
    tenantQueue(profile) {
      let queue = tenantQueues.get(profile);
      if (!queue) {
        queue = new Queue(tenantQueueName(profile), queueOptions);
        tenantQueues.set(profile, queue);
      }
      return queue;
    },
    async notify(messages) {
      if (messages.length > 0) await notifyQueue.addBulk(messages.map((data) => notifyJob(data, schedule)));
    },
    async close() {
      const queues = [trackQueue, notifyQueue, watchQueue, ...tenantQueues.values()];
      await Promise.all(queues.map((queue) => queue.close()));
      // The queues were given this connection, so closing it is ours to do.
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
