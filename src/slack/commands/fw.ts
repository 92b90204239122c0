// The /fw slash command: ack at once, then read the text once (src/dispatch/commandLine.ts: the catalogue's
// grammar) and either open the operation's modal (the trigger id lives 3 seconds, so that comes first) or run
// it. Did-you-mean, usage lines and refusals come back privately. A command that carries a token is refused
// unread and unlogged. With a command intake (the bot always has one), commands that open no modal are handed
// to the command workers through Redis as what was read (src/jobs/queuedCommands.ts), never as text.

import { type CommandRead, readCommandLine, shownLine } from '../../dispatch/commandLine.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import { beginRequest, type RequestContext } from '../../dispatch/request.js';
import type { CommandIntake } from '../../jobs/commandQueue.js';
import { CREDENTIAL_REFUSED, queuedCall } from '../../jobs/queuedCommands.js';
import { currentLogContext } from '../../observability/logContext.js';
import { Delivery } from '../delivery.js';
import type { SurfaceDeps } from '../deps.js';
import { actorOf, SlashCommand } from '../payloads.js';
import type { Listeners } from '../router.js';
import { perform } from '../run.js';
import { openOperationModal } from '../views/open.js';
import { commandWithOrigin } from '../workspaceBinding.js';
import { queuedCommand } from './queued.js';

export const FW_COMMAND = '/fw';

export function registerFwCommand(app: Listeners, deps: SurfaceDeps): void {
  app.command(FW_COMMAND, async ({ ack, body, context }) => {
    await ack();
    const parsed = SlashCommand.safeParse(body);
    if (!parsed.success) {
      deps.log.warn({ issues: parsed.error.issues.map((i) => i.path.join('.')) }, 'malformed slash command');
      return;
    }
    // Who typed it, as the workspace binding settled (an external person stays one through the queue).
    const command = commandWithOrigin(parsed.data, context);
    // Socket Mode numbers every delivery (`retry_attempt: 0` is the first); only a positive one is a retry.
    const retryNum = context.retryNum ? context.retryNum : undefined;
    const read = readCommandLine(deps.catalogue, command.text);
    // Forms need the trigger id within 3 s, so they stay in the front; everything else is queued as read.
    if (deps.commandIntake && !(read.kind === 'invocation' && read.modal)) {
      await handOver(deps, deps.commandIntake, command, read, retryNum);
      return;
    }
    if (!(await deps.dedupe.firstSight(`trigger:${command.trigger_id}`))) {
      deps.log.info({ retryNum }, 'slash command seen before (Slack retry); not run again');
      return;
    }
    await runCommand(deps, command, read, { retryNum });
  });
}

/** The request of a command, its text logged only as it may be (withheld, or secrets' values redacted). */
function commandRequest(deps: SurfaceDeps, command: SlashCommand, read: CommandRead): RequestContext {
  return beginRequest(deps.log, 'command', actorOf(command), { text: shownLine(read) });
}

/** Queues the command for a command worker; when Redis cannot take it, the requester is told at once. */
async function handOver(
  deps: SurfaceDeps,
  intake: CommandIntake,
  command: SlashCommand,
  read: CommandRead,
  retryNum: number | undefined,
): Promise<void> {
  // A request (its logger) only where something is logged: most commands are queued without a word here.
  const explain = (error: unknown) => explainError(error, commandRequest(deps, command, read)).text;
  const queued = queuedCommand(command, queuedCall(read, explain), {
    retryNum,
    eventId: currentLogContext()?.eventId,
    receivedAt: Date.now(),
  });
  try {
    await intake.submit(queued);
  } catch (error) {
    const request = commandRequest(deps, command, read);
    request.log.error({ err: error }, 'could not queue a command');
    const text =
      ':warning: fwbot could not take that command: its queue (Redis) is not answering, so nothing was run. ' +
      'Try again in a moment; if it keeps failing, tell whoever runs fwbot.';
    await new Delivery(deps.slack, request, command.response_url)
      .privately({
        summary: 'fwbot could not take that command.',
        blocks: [{ kind: 'text', text }],
        visibility: 'ephemeral',
      })
      .catch((replyError: unknown) => request.log.error({ err: replyError }, 'could not tell the requester'));
  }
}

/**
 * Runs one /fw command in this process (no command intake, or a command that opens a form), as read by the
 * listener: a form opened, a call dispatched, or the refusal said.
 */
async function runCommand(
  deps: SurfaceDeps,
  command: SlashCommand,
  read: CommandRead,
  options: { retryNum?: number | undefined },
): Promise<void> {
  const request = commandRequest(deps, command, read);
  if (options.retryNum !== undefined)
    request.log.info({ retryNum: options.retryNum }, 'first delivery arrived as a retry');
  const delivery = new Delivery(deps.slack, request, command.response_url);
  if (read.kind === 'withheld') {
    request.log.warn('refused a command that looks like it carries a token');
    await delivery.privately(CREDENTIAL_REFUSED);
    return;
  }
  if (read.kind === 'unreadable') {
    await delivery.privately(errorView(explainError(read.error, request)));
    return;
  }
  const invocation = {
    op: read.op,
    raw: read.raw,
    commandText: read.commandText,
    profileOverride: read.profileOverride,
    entry: 'command' as const,
  };
  if (read.modal) {
    try {
      await openOperationModal(deps, request, {
        ...invocation,
        triggerId: command.trigger_id,
        responseUrl: command.response_url,
      });
    } catch (error) {
      await delivery.privately(errorView(explainError(error, request)));
    }
    return;
  }
  await perform(deps, request, delivery, invocation);
}
