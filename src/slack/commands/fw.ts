// The /fw slash command: ack at once, then read the text with the catalogue's grammar and either open the
// operation's modal (the trigger id lives 3 seconds, so that comes first) or run it. Did-you-mean, usage
// lines and refusals come back privately. A command that carries a token is refused unread and unlogged.
// With a command intake (the bot always has one), commands that open no modal are handed to the command
// workers through Redis instead of running here (jobs/commandQueue.ts); runCommand is what they run.

import { CREDENTIAL_REFUSAL, containsCredential, redactCommandText } from '../../dispatch/commandSecrets.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import { extractProfileFlag } from '../../dispatch/profileFlag.js';
import { beginRequest } from '../../dispatch/request.js';
import type { CommandIntake } from '../../jobs/commandQueue.js';
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
    if (deps.commandIntake) {
      const withheld = containsCredential(command.text);
      if (withheld || !opensModal(deps, command.text)) {
        await handOver(deps, deps.commandIntake, command, retryNum, withheld);
        return;
      }
    }
    if (!(await deps.dedupe.firstSight(`trigger:${command.trigger_id}`))) {
      deps.log.info({ retryNum }, 'slash command seen before (Slack retry); not run again');
      return;
    }
    await runCommand(deps, command, { retryNum });
  });
}

/** Answers of opensModal by command text: people repeat the same few commands, and this is per request. */
const modalByText = new Map<string, boolean>();
const MODAL_CACHE_SIZE = 1_000;

/**
 * Whether the text (checked to hold no token) asks for a modal: those need the trigger id within 3 s, so
 * they stay in the front.
 */
function opensModal(deps: SurfaceDeps, text: string): boolean {
  const known = modalByText.get(text);
  if (known !== undefined) return known;
  let modal = false;
  try {
    modal = deps.catalogue.parse(extractProfileFlag(text).text).modal;
  } catch {
    // Text that does not parse is the command worker's to explain.
  }
  if (modalByText.size >= MODAL_CACHE_SIZE) modalByText.clear();
  modalByText.set(text, modal);
  return modal;
}

/** Queues the command for a command worker; when Redis cannot take it, the requester is told at once. */
async function handOver(
  deps: SurfaceDeps,
  intake: CommandIntake,
  command: SlashCommand,
  retryNum: number | undefined,
  withheld: boolean,
): Promise<void> {
  const queued = queuedCommand(command, {
    withheld,
    retryNum,
    eventId: currentLogContext()?.eventId,
    receivedAt: Date.now(),
  });
  try {
    await intake.submit(queued);
  } catch (error) {
    const request = beginRequest(deps.log, 'command', actorOf(command), {
      text: queued.withheld ? '[withheld]' : redactCommandText(queued.text),
    });
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
 * Runs one /fw command for its requester. `withheld`: the front found what looks like a token in the text
 * and queued it without the text; the answer is the same refusal.
 */
export async function runCommand(
  deps: SurfaceDeps,
  command: SlashCommand,
  options: { retryNum?: number | undefined; withheld?: boolean } = {},
): Promise<void> {
  const { retryNum } = options;
  const actor = actorOf(command);
  const secret = options.withheld === true || containsCredential(command.text);
  // The text is logged only when it cannot hold a token, and with any value named as a secret redacted.
  const request = beginRequest(
    deps.log,
    'command',
    actor,
    secret ? { text: '[withheld]' } : { text: redactCommandText(command.text) },
  );
  if (retryNum !== undefined) request.log.info({ retryNum }, 'first delivery arrived as a retry');
  const delivery = new Delivery(deps.slack, request, command.response_url);
  if (secret) {
    request.log.warn('refused a command that looks like it carries a token');
    await delivery.privately({
      summary: 'Command refused: it looks like it contains a token.',
      blocks: [{ kind: 'text', text: CREDENTIAL_REFUSAL }],
      visibility: 'ephemeral',
    });
    return;
  }
  try {
    const { text, profile } = extractProfileFlag(command.text);
    const parsed = deps.catalogue.parse(text);
    const invocation = {
      op: parsed.op,
      raw: parsed.raw,
      commandText: `${FW_COMMAND} ${command.text}`.trim(),
      profileOverride: profile,
      entry: 'command' as const,
    };
    if (parsed.modal) {
      await openOperationModal(deps, request, {
        ...invocation,
        triggerId: command.trigger_id,
        responseUrl: command.response_url,
      });
      return;
    }
    await perform(deps, request, delivery, invocation);
  } catch (error) {
    await delivery.privately(errorView(explainError(error, request)));
  }
}
