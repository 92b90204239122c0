// The /fw command's side of the command queue (src/jobs/commandQueue.ts): what the front writes to Redis for a
// command it read (the call, who asked, where to answer: src/jobs/queuedCommands.ts), and how the command
// workers' answers reach Slack (CommandAnswers), each with the Slack client of the workspace it came from.
import type { RequestContext } from '../../dispatch/request.js';
import type { QueuedCall, QueuedCommand } from '../../jobs/payloads.js';
import { type CommandAnswers, requesterOf } from '../../jobs/queuedCommands.js';
import { workspaceOf } from '../../model/workspace.js';
import { Delivery } from '../delivery.js';
import type { SurfaceDeps } from '../deps.js';
import { actorOf, type SlashCommand } from '../payloads.js';
import { deliverDispatched } from '../run.js';

export function queuedCommand(
  command: SlashCommand,
  call: QueuedCall,
  extra: { retryNum?: number | undefined; eventId?: string | undefined; receivedAt: number },
): QueuedCommand {
  return {
    call,
    requester: requesterOf(actorOf(command)),
    triggerId: command.trigger_id,
    responseUrl: command.response_url,
    ...(extra.retryNum === undefined ? {} : { retryNum: extra.retryNum }),
    ...(extra.eventId === undefined ? {} : { eventId: extra.eventId }),
    receivedAt: extra.receivedAt,
  };
}

/** How the command workers answer in Slack: on the command's response_url, with its workspace's client. */
export function slackCommandAnswers(deps: SurfaceDeps): CommandAnswers {
  return {
    to(command: QueuedCommand, request: RequestContext) {
      const from = { ...deps, slack: deps.slackFor(workspaceOf(command.requester)) };
      const delivery = new Delivery(from.slack, request, command.responseUrl);
      return {
        privately: (view) => delivery.privately(view),
        dispatched: (result, profileOverride) =>
          deliverDispatched(from, request, delivery, result, { profileOverride }),
      };
    },
  };
}
