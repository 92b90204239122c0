// Commands an older fwbot queued: until issue 35 the command queue carried the slash command's text, which
// the worker parsed. Such jobs may still be in Redis when a new fwbot starts (queued just before the upgrade,
// or by an old front still running during a rolling one), so for one release the workers read both shapes
// and read an old one's text once, with the same reader the front uses, when a worker takes it.
// Remove this file, and its uses in commandQueue.ts (the stored shapes, currentCommand, the workers'
// `catalogue` option), in the release after the one that queues parsed calls (docs/operating/production.md,
// "Upgrading"); the architecture test's list of command-text readers names it too.
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Catalogue } from '../catalogue/index.js';
import { readCommandLine, shownLine } from '../dispatch/commandLine.js';
import { explainError } from '../dispatch/errors.js';
import { beginRequest } from '../dispatch/request.js';
import { QueuedCommand } from './payloads.js';
import { queuedCall, requesterOf } from './queuedCommands.js';

/** A /fw command as fwbot queued it before issue 35: the text, for the worker to parse. */
export const LegacyQueuedCommand = z.object({
  /** Empty when `withheld`: text that looks like it holds a token never reached Redis. */
  text: z.string(),
  withheld: z.boolean(),
  userId: z.string().min(1),
  channelId: z.string().min(1),
  teamId: z.string().optional(),
  enterpriseId: z.string().optional(),
  userTeamId: z.string().optional(),
  external: z.boolean().optional(),
  triggerId: z.string().min(1),
  responseUrl: z.string().url(),
  retryNum: z.number().int().nonnegative().optional(),
  eventId: z.string().optional(),
  receivedAt: z.number(),
});
export type LegacyQueuedCommand = z.infer<typeof LegacyQueuedCommand>;

/** A command job's data: today's shape, or an older fwbot's. */
export const StoredCommand = z.union([QueuedCommand, LegacyQueuedCommand]);
export type StoredCommand = z.infer<typeof StoredCommand>;

/** An intake job's data: its commands may be in either shape (an old front's batch). */
export const StoredIntakeBatch = z.object({ commands: z.array(StoredCommand).min(1) });

/** The command in today's shape: an old one's text read once, as the front reads it now. */
export function currentCommand(
  stored: StoredCommand,
  catalogue: Pick<Catalogue, 'parse' | 'command'>,
  log: Logger,
): QueuedCommand {
  if (!('text' in stored)) return stored;
  const { text, withheld, userId, channelId, teamId, enterpriseId, userTeamId, external, ...delivery } =
    stored;
  const requester = requesterOf({ userId, channelId, teamId, enterpriseId, userTeamId, external });
  const read = withheld ? ({ kind: 'withheld' } as const) : readCommandLine(catalogue, text);
  // A refusal of the grammar is worded (and logged) as the front words it.
  const explain = (error: unknown) =>
    explainError(error, beginRequest(log, 'command', requester, { text: shownLine(read) })).text;
  return { ...delivery, requester, call: queuedCall(read, explain) };
}
