// Slash commands through Redis, so the process that answers Slack only acknowledges. The front acks,
// reads just enough to know whether the command opens a modal (a trigger id lives 3 seconds, so those
// stay in the front), and hands every other command to the command workers: in the bot process itself
// (BOT_WORKERS=on) or in `npm run worker` processes, as many as needed.
//
// Two hops, both BullMQ queues. The front gathers the commands of one event-loop turn into one intake job
// (one Redis script for many commands: this is what keeps the front's cost per command near a bare ack);
// an intake worker fans the batch out into one job per command, whose id is the trigger id, so a command
// Slack delivers twice (a retry, perhaps to another front) is queued once. A command job runs once: when
// its worker died mid-run, the next worker runs it again only if it only reads, and otherwise tells the
// requester it was interrupted rather than risk making a change twice.
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Operation } from '../catalogue/operation.js';
import { withLogContext } from '../observability/logContext.js';
import { sccOperations } from '../scc/operationTypes.js';
import { containsCredential } from './commandSecrets.js';
import { Delivery } from './delivery.js';
import type { SurfaceDeps } from './deps.js';
import { actorOf, type SlashCommand } from './payloads.js';
import { extractProfileFlag } from '../dispatch/profileFlag.js';
import { beginRequest } from '../dispatch/request.js';
import { createsTenant } from './tenantCreation.js';

export const COMMAND_QUEUES = { intake: 'fwbot-commands-intake', commands: 'fwbot-commands' } as const;

/** A command as queued: what the worker needs to run it and answer the requester. */
export const QueuedCommand = z.object({
  /** Empty when `withheld`: text that looks like it holds a token never reaches Redis. */
  text: z.string(),
  withheld: z.boolean(),
  userId: z.string().min(1),
  channelId: z.string().min(1),
  teamId: z.string().optional(),
  triggerId: z.string().min(1),
  responseUrl: z.string().url(),
  /** Slack's retry number when the first delivery fwbot saw was a retry. */
  retryNum: z.number().int().nonnegative().optional(),
  /** The front's event id, so the worker's log lines carry the same request id. */
  eventId: z.string().optional(),
  /** When the front received it (ms since the epoch). */
  receivedAt: z.number(),
});
export type QueuedCommand = z.infer<typeof QueuedCommand>;

const IntakeBatch = z.object({ commands: z.array(QueuedCommand).min(1) });

export function queuedCommand(
  command: SlashCommand,
  extra: {
    retryNum?: number | undefined;
    eventId?: string | undefined;
    receivedAt: number;
    /** Whether the text looks like it holds a token, when the caller has checked already. */
    withheld?: boolean;
  },
): QueuedCommand {
  const withheld = extra.withheld ?? containsCredential(command.text);
  return {
    text: withheld ? '' : command.text,
    withheld,
    userId: command.user_id,
    channelId: command.channel_id,
    ...(command.team_id === undefined ? {} : { teamId: command.team_id }),
    triggerId: command.trigger_id,
    responseUrl: command.response_url,
    ...(extra.retryNum === undefined ? {} : { retryNum: extra.retryNum }),
    ...(extra.eventId === undefined ? {} : { eventId: extra.eventId }),
    receivedAt: extra.receivedAt,
  };
}

/** The slash command as Slack sent it, rebuilt from the queued fields (text empty when withheld). */
export function slashCommandOf(command: QueuedCommand): SlashCommand {
  return {
    command: '/fw',
    text: command.text,
    user_id: command.userId,
    channel_id: command.channelId,
    ...(command.teamId === undefined ? {} : { team_id: command.teamId }),
    trigger_id: command.triggerId,
    response_url: command.responseUrl,
  };
}

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
  redisUrl: string;
  /** Key prefix of the deployment (`fwbot`). */
  prefix: string;
  log: Logger;
}

/**
 * The front's side. Its Redis connection does not queue commands while Redis is away (no offline queue):
 * a submit then fails at once and the requester is told, instead of the command running minutes later
 * after they were told it failed.
 */
export function createCommandIntake(options: CommandIntakeOptions): CommandIntake {
  const redis = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
  });
  redis.on('error', (error) => options.log.warn({ err: error }, 'command intake: Redis connection error'));
  const queue = new Queue(COMMAND_QUEUES.intake, { connection: redis, prefix: options.prefix });
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

/** Whether running this command a second time is harmless: it changes nothing anywhere. */
export function onlyReads(op: Operation): boolean {
  return !op.destructive && !createsTenant(op) && op.scc.every((id) => sccOperations[id].method === 'GET');
}

export interface CommandWorkersOptions {
  redisUrl: string;
  prefix: string;
  /** What running a command needs (the same as the Slack surface). */
  deps: SurfaceDeps;
  /** Runs one command as the front would have (commands/fw.ts runCommand). */
  run(
    deps: SurfaceDeps,
    command: SlashCommand,
    options: { retryNum?: number; withheld: boolean },
  ): Promise<void>;
  /** Commands in flight per process: most wait on SCC, so many at once. */
  concurrency: number;
  /** Lock of a running command; BullMQ renews it while the process is alive. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  log: Logger;
}

export interface CommandWorkers {
  close(): Promise<void>;
}

export async function startCommandWorkers(options: CommandWorkersOptions): Promise<CommandWorkers> {
  const { deps, log, prefix } = options;
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const commands = new Queue(COMMAND_QUEUES.commands, { connection: redis, prefix });
  const base = {
    connection: redis,
    prefix,
    lockDuration: options.lockDurationMs,
    stalledInterval: options.stalledIntervalMs,
  };

  const intake = new Worker(
    COMMAND_QUEUES.intake,
    async (job: Job) => {
      const parsed = IntakeBatch.safeParse(job.data);
      if (!parsed.success) {
        log.error({ jobId: job.id }, 'command intake: a batch that is not a list of commands was dropped');
        return;
      }
      // Job ids make this idempotent: a batch handled twice, or a command delivered twice, adds nothing.
      await commands.addBulk(
        parsed.data.commands.map((command) => ({
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

  const runner = new Worker(
    COMMAND_QUEUES.commands,
    async (job: Job) => {
      const parsed = QueuedCommand.safeParse(job.data);
      if (!parsed.success) {
        log.error({ jobId: job.id }, 'a queued command that fwbot cannot read was dropped');
        return;
      }
      const command = parsed.data;
      const context: Record<string, string> =
        command.eventId === undefined ? {} : { eventId: command.eventId };
      await withLogContext(context, async () => {
        // attemptsStarted counts starts: above 1, a worker died while it ran this command.
        if (job.attemptsStarted > 1 && !safeToRunAgain(deps, command)) {
          await tellInterrupted(deps, command);
          return;
        }
        await options.run(deps, slashCommandOf(command), {
          ...(command.retryNum === undefined ? {} : { retryNum: command.retryNum }),
          withheld: command.withheld,
        });
      });
    },
    // A command interrupted twice (two workers died on it) is not tried a third time.
    { ...base, concurrency: options.concurrency, maxStalledCount: 2 },
  );
  for (const [name, worker] of [
    ['intake', intake],
    ['commands', runner],
  ] as const) {
    worker.on('error', (error) => log.error({ err: error, queue: name }, 'command worker error'));
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

function safeToRunAgain(deps: SurfaceDeps, command: QueuedCommand): boolean {
  if (command.withheld) return true;
  try {
    return onlyReads(deps.catalogue.parse(extractProfileFlag(command.text).text).op);
  } catch {
    // Text that does not parse reaches no SCC operation: answering it again is harmless.
    return true;
  }
}

async function tellInterrupted(deps: SurfaceDeps, command: QueuedCommand): Promise<void> {
  const request = beginRequest(deps.log, 'command', actorOf(slashCommandOf(command)), { text: command.text });
  request.log.warn('a command that makes changes was interrupted by a stopped worker; not run again');
  const text =
    `:warning: fwbot was interrupted while running \`/fw ${command.text}\` (a worker stopped), so it ` +
    'did not run it again: it may or may not have taken effect. Check the current state before running it again.';
  await new Delivery(deps.slack, request, command.responseUrl).privately({
    summary: 'A command was interrupted; it was not run again.',
    blocks: [{ kind: 'text', text }],
    visibility: 'ephemeral',
  });
}
