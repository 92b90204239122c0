// A submitted /fw form. Validation is the operation's own and the policy's ticket (no SCC call), so it
// runs before the ack and its issues come back as errors under the fields (`response_action: errors`), or
// as a notice replacing a form that has no field to carry them. A valid form is acked (closing it), then handed to the
// dispatcher like a typed command (src/slack/run.ts), and what it decided reaches the requester through
// the command's response_url. Field values are never logged (a form may hold a token); only the names of
// the fields are.

import type { Operation, RawArgs } from '../../catalogue/operation.js';
import { commandLine } from '../../catalogue/usage.js';
import { beginRequest } from '../../dispatch/request.js';
import { Delivery } from '../delivery.js';
import type { SurfaceDeps } from '../deps.js';
import { ViewSubmission } from '../payloads.js';
import type { Listeners } from '../router.js';
import { perform } from '../run.js';
import { actorWithOrigin } from '../workspaceBinding.js';
import { decodeMetadata } from './metadata.js';
import { CHANNEL_BLOCK, MODAL_CALLBACK } from './modal.js';
import { rawFromState, submissionRefusal } from './values.js';

/** The command line equivalent to a submission, with typed values of secret-looking fields left out. */
function commandTextOf(op: Operation, raw: RawArgs, fieldNames: readonly string[]): string {
  const fields = op.modal?.fields;
  const secret = new Set(
    Array.isArray(fields) ? fields.filter((f) => f.input === 'secret').map((f) => f.name) : fieldNames,
  );
  const shown = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, secret.has(k) ? '…' : v]));
  return `${commandLine(op, shown)} (form)`;
}

export function registerModalSubmissions(app: Listeners, deps: SurfaceDeps): void {
  app.view(MODAL_CALLBACK, async ({ ack, body, context }) => {
    const parsed = ViewSubmission.safeParse(body);
    const meta = parsed.success ? decodeMetadata(parsed.data.view.private_metadata) : undefined;
    const op = meta ? deps.operation(meta.operationId) : undefined;
    if (!parsed.success || !meta || !op) {
      await ack();
      deps.log.warn('a form submission fwbot cannot read (malformed payload or metadata); closed it');
      return;
    }
    const submission = parsed.data;
    const { raw: typed, fields } = rawFromState(submission.view.state.values);
    const raw: RawArgs = { ...meta.prefilled, ...typed };
    const issues = deps.dispatcher.formIssues(op, raw);
    if (issues.length > 0) {
      await ack(submissionRefusal(op, fields, issues));
      deps.log.info(
        { operationId: op.id, fields: issues.map((i) => i.arg ?? '') },
        'form refused: field errors',
      );
      return;
    }
    // A form opened outside a channel (the App Home) is made in the channel picked in it.
    const channelId =
      meta.channelId || submission.view.state.values[CHANNEL_BLOCK]?.[CHANNEL_BLOCK]?.selected_conversation;
    if (!channelId) {
      await ack({ response_action: 'errors', errors: { [CHANNEL_BLOCK]: 'Pick the channel to ask in.' } });
      return;
    }
    await ack();
    if (!(await deps.dedupe.firstSight(`trigger:${submission.trigger_id}`))) return;
    const actor = actorWithOrigin(
      { userId: submission.user.id, channelId, teamId: submission.team?.id },
      context,
    );
    const request = beginRequest(deps.log, 'form', actor, { operationId: op.id, fields });
    const delivery = new Delivery(deps.slack, request, meta.responseUrl);
    // A command button's form holds only what the policy asks for (the ticket): the call is the button's.
    const button = meta.entry === 'button';
    await perform(deps, request, delivery, {
      op,
      raw,
      commandText: button ? commandLine(op, raw) : commandTextOf(op, raw, fields),
      profileOverride: meta.profileOverride,
      entry: button ? 'button' : 'form',
    });
  });
}
