// Previous / Next page. The button's value holds the whole state (operation, arguments, offset: the
// catalogue's page-state encoding, plus an admin's profile override), so any bot process can answer;
// the page replaces the message the click came from. The permission check runs again, as for a command.

import { commandLine } from '../../catalogue/usage.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import { splitProfile } from '../../dispatch/profileFlag.js';
import { UserError } from '../../model/errors.js';
import { decodePageState, PAGE_ACTION } from '../../render/paging.js';
import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { perform } from '../run.js';
import { onButton } from './interaction.js';

export function registerPaging(app: Listeners, deps: SurfaceDeps): void {
  onButton(app, deps, PAGE_ACTION, async ({ value, request, delivery }) => {
    try {
      const { value: encoded, profile } = splitProfile(value);
      const state = decodePageState(encoded);
      const op = deps.operation(state.operationId);
      if (!op)
        throw new UserError('This list comes from a command fwbot no longer has; run the command again.');
      request.log.info({ operationId: op.id, offset: state.offset }, 'page');
      await perform(
        deps,
        request,
        delivery,
        {
          op,
          raw: state.raw,
          commandText: commandLine(op, state.raw),
          profileOverride: profile,
          entry: 'page',
        },
        { replace: true },
      );
    } catch (error) {
      await delivery.privately(errorView(explainError(error, request)));
    }
  });
}
