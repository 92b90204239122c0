// Buttons that run a command line (e.g. "Preview commands", "Deploy…" under an interface change): the
// value is the command as typed; it is dispatched as a `button` entry, which only operations declaring
// `offeredAsButton` accept, with the clicker's own roles, approvals and audit, like the typed command.
import { errorView, explainError } from '../../dispatch/errors.js';
import { extractProfileFlag } from '../../dispatch/profileFlag.js';
import { COMMAND_ACTION } from '../../render/paging.js';
import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { perform } from '../run.js';
import { onButton } from './interaction.js';

export function registerCommandButtons(app: Listeners, deps: SurfaceDeps): void {
  onButton(app, deps, COMMAND_ACTION, async ({ value, request, delivery }) => {
    try {
      const { text, profile } = extractProfileFlag(value.replace(/^\/?fw\s+/, ''));
      const parsed = deps.catalogue.parse(text);
      request.log.info({ operationId: parsed.op.id }, 'command button');
      await perform(deps, request, delivery, {
        op: parsed.op,
        raw: parsed.raw,
        commandText: `/fw ${text}`,
        profileOverride: profile,
        entry: 'button',
      });
    } catch (error) {
      await delivery.privately(errorView(explainError(error, request)));
    }
  });
}
