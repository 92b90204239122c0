// Buttons that run a command line (e.g. "Preview commands", "Deploy…" under an interface change, an
// incident's Acknowledge): read as every surface reads them (src/dispatch/buttons.ts) and dispatched as a
// `button` entry, which only operations declaring `offeredAsButton` accept, with the clicker's own roles,
// approvals and audit, like the typed command. When the policy asks for something a button cannot carry
// (the change ticket), the click opens a form for it first, prefilled with the button's arguments; its
// submission is dispatched like the typed command (views/submit.ts). A line that opens its operation's form
// when typed (`access request` alone: the App Home's *Request access*) opens that form; clicked outside a
// channel, the form asks which channel the call is made in.
import { commandButtonInvocation } from '../../dispatch/buttons.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import { COMMAND_ACTION } from '../../render/paging.js';
import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { perform } from '../run.js';
import { openButtonForm, openOperationModal } from '../views/open.js';
import { onButton } from './interaction.js';

export function registerCommandButtons(app: Listeners, deps: SurfaceDeps): void {
  onButton(app, deps, COMMAND_ACTION, async ({ body, value, request, delivery }) => {
    try {
      const invocation = commandButtonInvocation(deps.catalogue, value);
      request.log.info({ operationId: invocation.op.id }, 'command button');
      if (invocation.modal) {
        // A form, as the typed line opens it; outside a channel (the App Home) it asks for the channel.
        await openOperationModal(deps, request, {
          op: invocation.op,
          raw: invocation.raw,
          profileOverride: invocation.profileOverride,
          triggerId: body.trigger_id,
          responseUrl: body.response_url,
          pickChannel: !body.channel?.id,
        });
        return;
      }
      const form = await deps.dispatcher.buttonForm(invocation, request);
      if (form) {
        await openButtonForm(deps, request, {
          invocation,
          form,
          triggerId: body.trigger_id,
          responseUrl: body.response_url,
        });
        return;
      }
      await perform(deps, request, delivery, invocation);
    } catch (error) {
      await delivery.privately(errorView(explainError(error, request)));
    }
  });
}
