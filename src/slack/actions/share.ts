// "Share in channel" under a private read result. Ephemeral messages cannot be read back, so the button
// carries the command line; the read runs again (after the permission check) and is posted in the
// channel as a snapshot: paging and share buttons are left out, links (report downloads) kept.

import { COMMAND } from '../../catalogue/usage.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import { splitProfile } from '../../dispatch/profileFlag.js';
import { UserError } from '../../model/errors.js';
import { SHARE_ACTION } from '../../render/paging.js';
import { sharedSnapshot } from '../../render/shared.js';
import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { onButton } from './interaction.js';

export function registerShare(app: Listeners, deps: SurfaceDeps): void {
  onButton(app, deps, SHARE_ACTION, async ({ value, request, delivery }) => {
    try {
      const { value: commandText, profile } = splitProfile(value);
      const text = commandText.startsWith(`${COMMAND} `)
        ? commandText.slice(COMMAND.length + 1)
        : commandText;
      const parsed = deps.catalogue.parse(text);
      request.log.info({ operationId: parsed.op.id }, 'sharing in the channel');
      // The declaration decides whether a share may run it (plain reads only): the dispatcher checks.
      const result = await deps.dispatcher.dispatch(
        { op: parsed.op, raw: parsed.raw, commandText, profileOverride: profile, entry: 'share' },
        request,
      );
      if (result.kind !== 'outcome') throw new UserError('Only read results can be shared this way.');
      await delivery.inChannelViaResponseUrl(
        sharedSnapshot(result.outcome.view, request.actor.userId, commandText),
      );
    } catch (error) {
      await delivery.privately(errorView(explainError(error, request)));
    }
  });
}
