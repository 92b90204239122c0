// What a queued /fw command is and what a command worker does with it (the queues are commandQueue.ts's).
// The front reads the text once (src/dispatch/commandLine.ts) and queues the call it read (queuedCall); the
// worker takes the operation from the registry and hands the call to the dispatcher as it is, then hands what
// the dispatcher decided to the surface the command came from (CommandAnswers: Slack's is
// src/slack/commands/queued.ts), so nothing here knows Slack. Whether a command a dead worker held may run
// again is the operation's own declaration (Operation.readsOnly), as everywhere else.
import type { Actor, Operation } from '../catalogue/operation.js';
import type { CommandRead } from '../dispatch/commandLine.js';
import { CREDENTIAL_REFUSAL, redactCommandText } from '../dispatch/commandSecrets.js';
import { type Dispatched, type Invocation, storable } from '../dispatch/dispatcher.js';
import { errorView, explainError } from '../dispatch/errors.js';
import { beginRequest, type RequestContext } from '../dispatch/request.js';
import type { View } from '../model/view.js';
import type { QueuedCall, QueuedCommand } from './payloads.js';

/**
 * The call a command queues, from what the front read: nothing named as a secret in the text is written
 * (the raw arguments hold what runs; the command text, kept for approvals and audit, is redacted), and a
 * refusal of the grammar is worded now (`explain`: explainError in the request it was read in).
 */
export function queuedCall(read: CommandRead, explain: (error: unknown) => string): QueuedCall {
  switch (read.kind) {
    case 'withheld':
      return { kind: 'withheld' };
    case 'unreadable':
      return {
        kind: 'unreadable',
        commandText: redactCommandText(read.commandText),
        answer: explain(read.error),
      };
    case 'invocation':
      return {
        kind: 'invocation',
        operationId: read.op.id,
        raw: storable(read.raw),
        commandText: redactCommandText(read.commandText),
        ...(read.profileOverride === undefined ? {} : { profileOverride: read.profileOverride }),
      };
  }
}

/** Who asked, as a queued command keeps them: their origin and workspace, no `undefined` members. */
export function requesterOf(actor: Actor): QueuedCommand['requester'] {
  const { userId, channelId, teamId, enterpriseId, userTeamId, external } = actor;
  return {
    userId,
    channelId,
    ...(teamId === undefined ? {} : { teamId }),
    ...(enterpriseId === undefined ? {} : { enterpriseId }),
    ...(userTeamId === undefined ? {} : { userTeamId }),
    ...(external === true ? { external } : {}),
  };
}

/** The command as its logs show it: never text that looked like a token, secrets' values redacted. */
export function shownText(call: QueuedCall): string {
  return call.kind === 'withheld' ? '[withheld]' : call.commandText;
}

/** What the command workers (commandQueue.ts) do with a queued command. */
export interface QueuedCommandHandler {
  /** Runs one command for its requester and answers them. */
  run(command: QueuedCommand): Promise<void>;
  /** Whether running it a second time is harmless: asked when the worker that ran it died mid-run. */
  safeToRunAgain(command: QueuedCommand): boolean;
  /** Tells the requester a command that may have made changes was interrupted and is not run again. */
  tellInterrupted(command: QueuedCommand): Promise<void>;
}

/** How the surface a queued command came from answers its requester. */
export interface CommandAnswers {
  /** The answers to one command (in Slack: its workspace's client, its response_url). */
  to(command: QueuedCommand, request: RequestContext): CommandAnswer;
}

export interface CommandAnswer {
  /** Only the requester sees it. */
  privately(view: View): Promise<void>;
  /** Delivers what the dispatcher decided (an outcome, a card posted, a reveal offer, a queued call). */
  dispatched(result: Dispatched, profileOverride: string | undefined): Promise<void>;
}

export interface CommandRunnerDeps {
  dispatcher: { dispatch(invocation: Invocation, request: RequestContext): Promise<Dispatched> };
  /** The registry (the instrumented catalogue's, so every run is counted). */
  lookup(operationId: string): Operation | undefined;
  answers: CommandAnswers;
  log: RequestContext['log'];
}

/** The answer to a command withheld for looking like it carried a token. */
export const CREDENTIAL_REFUSED: View = {
  summary: 'Command refused: it looks like it contains a token.',
  blocks: [{ kind: 'text', text: CREDENTIAL_REFUSAL }],
  visibility: 'ephemeral',
};

const GONE =
  'fwbot no longer has the command you typed (it was changed since); `/fw help` lists what it has now.';

/** Runs queued commands through the dispatcher and answers for those it will not run again. */
export function commandRunner(deps: CommandRunnerDeps): QueuedCommandHandler {
  const begin = (command: QueuedCommand) =>
    beginRequest(deps.log, 'command', command.requester, { text: shownText(command.call) });
  return {
    async run(command) {
      const request = begin(command);
      if (command.retryNum !== undefined)
        request.log.info({ retryNum: command.retryNum }, 'first delivery arrived as a retry');
      const answer = deps.answers.to(command, request);
      const { call } = command;
      if (call.kind === 'withheld') {
        request.log.warn('refused a command that looks like it carries a token');
        await answer.privately(CREDENTIAL_REFUSED);
        return;
      }
      if (call.kind === 'unreadable') {
        await answer.privately(errorView({ text: call.answer }));
        return;
      }
      const op = deps.lookup(call.operationId);
      if (!op) {
        request.log.warn({ operationId: call.operationId }, 'a queued command names no operation');
        await answer.privately(errorView({ text: GONE }));
        return;
      }
      const { raw, commandText, profileOverride } = call;
      try {
        const invocation = { op, raw, commandText, profileOverride, entry: 'command' as const };
        await answer.dispatched(await deps.dispatcher.dispatch(invocation, request), profileOverride);
      } catch (error) {
        await answer.privately(errorView(explainError(error, request)));
      }
    },
    safeToRunAgain({ call }) {
      // Answering a refusal again is harmless; a call, only when its operation declares it changes nothing.
      if (call.kind !== 'invocation') return true;
      return deps.lookup(call.operationId)?.readsOnly ?? true;
    },
    async tellInterrupted(command) {
      const request = begin(command);
      request.log.warn('a command that makes changes was interrupted by a stopped worker; not run again');
      const text =
        `:warning: fwbot was interrupted while running \`${shownText(command.call)}\` (a worker stopped), so it ` +
        'did not run it again: it may or may not have taken effect. Check the current state before running it again.';
      await deps.answers.to(command, request).privately({
        summary: 'A command was interrupted; it was not run again.',
        blocks: [{ kind: 'text', text }],
        visibility: 'ephemeral',
      });
    },
  };
}
