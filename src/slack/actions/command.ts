// Buttons that run a command line (e.g. "Preview commands", "Deploy…" under an interface change, an
// incident's Acknowledge): read as every surface reads them (src/dispatch/buttons.ts) and dispatched as a
// `button` entry, which only operations declaring `offeredAsButton` accept, with the clicker's own roles,
// approvals and audit, like the typed command. When the policy asks for something a button cannot carry
// (the change ticket), the click opens a form for it first, prefilled with the button's arguments; its
// submission is dispatched like the typed command (views/submit.ts).
import { commandButtonInvocation } from '../../dispatch/buttons.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import { COMMAND_ACTION } from '../../render/paging.js';
import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { perform } from '../run.js';
import { openButtonForm } from '../views/open.js';
import { onButton } from './interaction.js';

export function registerCommandButtons(app: Listeners, deps: SurfaceDeps): void {
  onButton(app, deps, COMMAND_ACTION, async ({ body, value, request, delivery }) => {
    try {
      const invocation = commandButtonInvocation(deps.catalogue, value);
      request.log.info({ operationId: invocation.op.id }, 'command button');
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
