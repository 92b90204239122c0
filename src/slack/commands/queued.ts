// The /fw command's side of the command queue (src/jobs/commandQueue.ts): what the front writes to Redis
// for a slash command, and the handler the command workers run it with: run it as the front would have,
// decide whether a command interrupted by a dying worker may run again (only when it only reads), and
// tell the requester when it will not.
import type { Operation } from '../../catalogue/operation.js';
import { containsCredential, redactCommandText } from '../../dispatch/commandSecrets.js';
import { extractProfileFlag } from '../../dispatch/profileFlag.js';
import { beginRequest } from '../../dispatch/request.js';
import type { QueuedCommandHandler } from '../../jobs/commandQueue.js';
import type { QueuedCommand } from '../../jobs/payloads.js';
import { workspaceOf } from '../../model/workspace.js';
import { sccOperations } from '../../scc/operationTypes.js';
import { Delivery } from '../delivery.js';
import type { SurfaceDeps } from '../deps.js';
import { actorOf, type SlashCommand } from '../payloads.js';

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
    ...(command.enterprise_id === undefined ? {} : { enterpriseId: command.enterprise_id }),
    ...(command.origin?.userTeamId === undefined ? {} : { userTeamId: command.origin.userTeamId }),
    ...(command.origin?.external === true ? { external: true } : {}),
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
    ...(command.enterpriseId === undefined ? {} : { enterprise_id: command.enterpriseId }),
    trigger_id: command.triggerId,
    response_url: command.responseUrl,
    ...(command.userTeamId !== undefined || command.external === true
      ? {
          origin: {
            ...(command.userTeamId === undefined ? {} : { userTeamId: command.userTeamId }),
            ...(command.external === true ? { external: true } : {}),
          },
        }
      : {}),
  };
}

/** Whether running this command a second time is harmless: it changes nothing anywhere. */
export function onlyReads(op: Operation): boolean {
  return !op.destructive && op.scc.every((id) => sccOperations[id].method === 'GET');
}

/** Runs one /fw command for its requester, as the front would have (commands/fw.ts runCommand). */
export type RunSlashCommand = (
  deps: SurfaceDeps,
  command: SlashCommand,
  options: { retryNum?: number; withheld: boolean },
) => Promise<void>;

/**
 * How the command workers run queued /fw commands with the Slack surface's deps, each answered with the
 * Slack client of the workspace it came from.
 */
export function slashCommandHandler(deps: SurfaceDeps, run: RunSlashCommand): QueuedCommandHandler {
  const from = (command: QueuedCommand): SurfaceDeps => ({
    ...deps,
    slack: deps.slackFor(workspaceOf(command)),
  });
  return {
    run: (command) =>
      run(from(command), slashCommandOf(command), {
        ...(command.retryNum === undefined ? {} : { retryNum: command.retryNum }),
        withheld: command.withheld,
      }),
    safeToRunAgain(command) {
      if (command.withheld) return true;
      try {
        return onlyReads(deps.catalogue.parse(extractProfileFlag(command.text).text).op);
      } catch {
        // Text that does not parse reaches no SCC operation: answering it again is harmless.
        return true;
      }
    },
    async tellInterrupted(command) {
      const shown = redactCommandText(command.text);
      const request = beginRequest(deps.log, 'command', actorOf(slashCommandOf(command)), {
        text: shown,
      });
      request.log.warn('a command that makes changes was interrupted by a stopped worker; not run again');
      const text =
        `:warning: fwbot was interrupted while running \`/fw ${shown}\` (a worker stopped), so it ` +
        'did not run it again: it may or may not have taken effect. Check the current state before running it again.';
      await new Delivery(from(command).slack, request, command.responseUrl).privately({
        summary: 'A command was interrupted; it was not run again.',
        blocks: [{ kind: 'text', text }],
        visibility: 'ephemeral',
      });
    },
  };
}
