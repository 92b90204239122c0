// Slash commands through Redis, so the process that answers Slack only acknowledges. The front acks,
// reads just enough to know whether the command opens a modal (a trigger id lives 3 seconds, so those
// stay in the front), and hands every other command to the command workers: in the bot process itself
// (BOT_WORKERS=on) or in `npm run worker` processes, as many as needed.
//
// Two hops, both BullMQ queues. The front gathers the commands of one event-loop turn into one intake job
// (one Redis script for many commands: this is what keeps the front's cost per command near a bare ack);
// an intake worker fans the batch out into one job per command, whose id is the trigger id, so a command
// Slack delivers twice (a retry, perhaps to another front) is queued once. A command job runs once: when
// its worker died mid-run, the next worker runs it again only if its operation declares it only reads
// (Operation.readsOnly), and otherwise tells the requester it was interrupted rather than risk making a change
// twice.
//
// A command is queued as the front read it (QueuedCommand: the operation's id and raw arguments, who asked,
// where to answer), never as text. What running one means is queuedCommands.ts's (the dispatcher, and the
// answers of the surface it came from): whoever starts the workers hands in its QueuedCommandHandler, so
// this module knows queues, not surfaces or grammars.

import { type Job, Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Catalogue } from '../catalogue/index.js';
import { withLogContext } from '../observability/logContext.js';
import { RedisHealth } from '../observability/redisHealth.js';
import { connectRedis, type RedisTarget } from '../redis/connection.js';
import { QUEUE } from '../redis/keys.js';
import { REDACTED } from '../scc/redaction.js';
import { currentCommand, StoredCommand, StoredIntakeBatch } from './legacyCommand.js';
import type { CommandIntakeBatch, CommandOutcome, QueuedCommand } from './payloads.js';
import type { QueuedCommandHandler } from './queuedCommands.js';

/** BullMQ job ids: no ':' and not all digits; a trigger id is neither, but nothing relies on that. */
export function commandJobId(triggerId: string): string {
  return `cmd-${encodeURIComponent(triggerId).replace(/[%:.]/g, '_')}`;
}

/** Completed command jobs are kept this long: a redelivery of the same trigger id within it is dropped. */
const DEDUPE_WINDOW_S = 600;
const FAILED_KEPT_S = 24 * 60 * 60;

/**
 * How long the front gathers commands before writing them to Redis as one job. Acks are not held by it
 * (the ack goes first); it delays the start of a command's work by at most this, and under load it is
 * what keeps the front's cost per command near a bare ack (one Redis script for many commands).
 */
const BATCH_WINDOW_MS = 2;

export interface CommandIntake {
  /** Resolves once the command is in Redis (with the others of the same event-loop turn). */
  submit(command: QueuedCommand): Promise<void>;
  /** Resolves once the intake's Redis connection is ready. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface CommandIntakeOptions {
  redisUrl: RedisTarget;
  /** Key prefix of the deployment (`fwbot`). */
  prefix: string;
  log: Logger;
  /** The process's view of Redis; without one, the intake keeps its own. */
  redisHealth?: RedisHealth;
}

/**
 * The front's side. Its Redis connection does not queue commands while Redis is away (no offline queue):
 * a submit then fails at once and the requester is told, instead of the command running minutes later
 * after they were told it failed.
 */
export function createCommandIntake(options: CommandIntakeOptions): CommandIntake {
  const redis = connectRedis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
  });
  const health = options.redisHealth ?? new RedisHealth({ log: options.log, where: 'Redis' });
  health.watch('command intake', redis);
  const queue = new Queue<CommandIntakeBatch, void, 'batch'>(QUEUE.commandIntake, {
    connection: redis,
    prefix: options.prefix,
  });
  health.absorb('queue command intake', queue);
  let batch: QueuedCommand[] = [];
  let written: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();

  const flush = () => {
    const commands = batch;
    batch = [];
    written = undefined;
    return queue
      .add(
        'batch',
        { commands },
        {
          attempts: 5,
          backoff: { type: 'exponential', delay: 200 },
          removeOnComplete: true,
          removeOnFail: { age: FAILED_KEPT_S },
        },
      )
      .then(() => undefined);
  };

  return {
    submit(command) {
      batch.push(command);
      // Everything submitted within the batching window goes in the same intake job, and its commands
      // share one promise: settled when that job is in Redis.
      if (written === undefined) {
        const next = new Promise<void>((resolve) => setTimeout(resolve, BATCH_WINDOW_MS)).then(flush);
        inFlight.add(next);
        void next.then(
          () => inFlight.delete(next),
          () => inFlight.delete(next),
        );
        written = next;
      }
      return written;
    },
    async ready() {
      await queue.waitUntilReady();
    },
    async close() {
      // Commands acknowledged just before the stop are still handed over.
      await Promise.allSettled([...inFlight]);
      await queue.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

export interface CommandWorkersOptions {
  redisUrl: RedisTarget;
  prefix: string;
  /** Runs the commands, and answers for the ones it will not run again (queuedCommands.ts). */
  handler: QueuedCommandHandler;
  /** Reads the text of a command an older fwbot queued, once (legacyCommand.ts: it goes with that file). */
  catalogue: Pick<Catalogue, 'parse' | 'command'>;
  /** Commands in flight per process: most wait on SCC, so many at once. */
  concurrency: number;
  /** Lock of a running command; BullMQ renews it while the process is alive. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  log: Logger;
  /** The process's view of Redis; without one, the workers keep their own. */
  redisHealth?: RedisHealth;
}

export interface CommandWorkers {
  close(): Promise<void>;
}

export async function startCommandWorkers(options: CommandWorkersOptions): Promise<CommandWorkers> {
  const { handler, log, prefix } = options;
  const redis = connectRedis(options.redisUrl);
  const health = options.redisHealth ?? new RedisHealth({ log, where: 'Redis' });
  health.watch('command workers', redis);
  const commands = new Queue<StoredCommand, CommandOutcome, 'command'>(QUEUE.commands, {
    connection: redis,
    prefix,
  });
  health.absorb('queue commands', commands);
  /** A job's data as its schema reads it; an unreadable job is logged (by id, never its data) and dropped. */
  const readable = <T>(schema: z.ZodType<T>, job: Job, what: string): T | undefined => {
    const parsed = schema.safeParse(job.data);
    if (!parsed.success) log.error({ jobId: job.id }, `${what} was dropped`);
    return parsed.success ? parsed.data : undefined;
  };
  const base = {
    connection: redis,
    prefix,
    lockDuration: options.lockDurationMs,
    stalledInterval: options.stalledIntervalMs,
  };

  const intake = new Worker<CommandIntakeBatch, void, 'batch'>(
    QUEUE.commandIntake,
    async (job) => {
      const batch = readable(
        StoredIntakeBatch,
        job,
        'command intake: a batch that is not a list of commands',
      );
      if (!batch) return;
      // Job ids make this idempotent: a batch handled twice, or a command delivered twice, adds nothing.
      await commands.addBulk(
        batch.commands.map((command) => ({
          name: 'command',
          data: command,
          opts: {
            jobId: commandJobId(command.triggerId),
            attempts: 1,
            removeOnComplete: { age: DEDUPE_WINDOW_S },
            removeOnFail: { age: FAILED_KEPT_S },
          },
        })),
      );
    },
    { ...base, concurrency: 4 },
  );

  /**
   * A finished command stays in Redis for the dedupe window. Its command text was redacted by the front;
   * when that redaction found a value named as a secret (`token=…`), the arguments that held it are dropped
   * once the command has run (a worker that dies mid-run leaves them whole, to decide on).
   */
  const forgetSecrets = async (job: Job<StoredCommand>, command: QueuedCommand) => {
    const { call } = command;
    if (call.kind !== 'invocation' || !call.commandText.includes(REDACTED)) return;
    await job
      .updateData({ ...command, call: { ...call, raw: {} } })
      .catch((error: unknown) => log.warn({ err: error }, 'could not forget a finished command’s arguments'));
  };

  const runner = new Worker<StoredCommand, CommandOutcome, 'command'>(
    QUEUE.commands,
    async (job) => {
      const stored = readable(StoredCommand, job, 'a queued command that fwbot cannot read');
      if (!stored) return 'unreadable';
      const command = currentCommand(stored, options.catalogue, log);
      const context: Record<string, string> =
        command.eventId === undefined ? {} : { eventId: command.eventId };
      return withLogContext(context, async (): Promise<CommandOutcome> => {
        // attemptsStarted counts starts: above 1, a worker died while it ran this command.
        if (job.attemptsStarted > 1 && !handler.safeToRunAgain(command)) {
          await handler.tellInterrupted(command);
          return 'interrupted';
        }
        try {
          await handler.run(command);
        } finally {
          await forgetSecrets(job, command);
        }
        return 'ran';
      });
    },
    // A command interrupted twice (two workers died on it) is not tried a third time.
    { ...base, concurrency: options.concurrency, maxStalledCount: 2 },
  );
  for (const [name, worker] of [
    ['intake', intake],
    ['commands', runner],
  ] as const) {
    health.absorb(`command worker ${name}`, worker);
    worker.on('failed', (job, error) =>
      log.error({ err: error, jobId: job?.id, queue: name }, 'a queued command failed'),
    );
  }
  await Promise.all([intake.waitUntilReady(), runner.waitUntilReady()]);
  return {
    async close() {
      await Promise.all([intake.close(), runner.close()]);
      await commands.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
