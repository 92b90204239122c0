// The side of the App Home that any process may hold, workers included: "something changed for these
// people". It marks them due in Redis (changes.ts) and queues one delayed publish job per new mark on
// `fwbot-home`, which the bot processes run (publisher.ts). It needs Redis only: no Slack client, no data.
import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { RedisClient } from '../redis/connection.js';
import { QUEUE } from '../redis/keys.js';
import { type DuePublish, HomeChanges, type HomeTiming } from './changes.js';

export const HOME_QUEUE = QUEUE.home;

export interface HomeSignalsOptions {
  redis: RedisClient;
  /** The deployment's key prefix (BullMQ's too). */
  prefix: string;
  log: Logger;
  clock?: () => number;
  timing?: Partial<HomeTiming>;
  /** Where the queue's connection errors go (the process's RedisHealth); by default the debug log. */
  absorb?: ErrorAbsorber;
}

/** Takes the 'error' events of a queue or worker, so a Redis outage is reported once, not per object. */
export type ErrorAbsorber = (
  name: string,
  emitter: { on(event: 'error', listener: (error: Error) => void): unknown },
) => void;

export function debugAbsorber(log: Logger): ErrorAbsorber {
  return (name, emitter) => {
    emitter.on('error', (error) => log.debug({ err: error, emitter: name }, 'Redis error'));
  };
}

export class HomeSignals {
  readonly changes: HomeChanges;
  readonly #queue: Queue;
  readonly #clock: () => number;
  readonly #log: Logger;

  constructor(options: HomeSignalsOptions) {
    this.changes = new HomeChanges(options.redis, options.prefix, options.timing);
    this.#queue = new Queue(HOME_QUEUE, { connection: options.redis, prefix: options.prefix });
    (options.absorb ?? debugAbsorber(options.log))(`queue ${HOME_QUEUE}`, this.#queue);
    this.#clock = options.clock ?? Date.now;
    this.#log = options.log;
  }

  /** Something changed for these people; only opened Homes are scheduled. Never throws (logged). */
  changed(users: readonly string[] | 'everyone'): Promise<void> {
    return this.mark(users).then(
      () => undefined,
      (error: unknown) => this.#log.warn({ err: error }, 'could not schedule Home updates'),
    );
  }

  /** Marks them due; returns the publishes this call scheduled. */
  async mark(users: readonly string[] | 'everyone'): Promise<DuePublish[]> {
    const due = await this.changes.mark(users, this.#clock());
    await this.schedule(due);
    return due;
  }

  /** Queues the publish job of each new mark: one job per person and due time. */
  async schedule(due: readonly DuePublish[]): Promise<void> {
    if (due.length === 0) return;
    const now = this.#clock();
    await this.#queue.addBulk(
      due.map(({ userId, at }) => ({
        name: 'publish',
        data: { userId },
        opts: {
          // A second schedule of the same publish adds nothing.
          jobId: `home~${userId}~${at}`,
          delay: Math.max(0, at - now),
          attempts: 3,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: true,
          removeOnFail: 100,
        },
      })),
    );
  }

  async close(): Promise<void> {
    await this.#queue.close();
  }
}
