// "Reveal token": generated API tokens are shown once, only to the requester, in a modal — never in a
// message, a thread, a log or storage. A modal needs a fresh trigger id (3 seconds), so the command only
// offers this button; the click opens a "Generating…" modal at once, then the token is generated and the
// modal updated with it. The button is then removed from the requester's message (one-time action).

import { UserError } from '../../catalogue/errors.js';
import { truncate } from '../../render/blocks.js';
import type { SurfaceDeps } from '../deps.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import type { Listeners } from '../router.js';
import { authorize, deliverOutcome, operationContext } from '../run.js';
import { noticeModal, textNotice } from '../views/modal.js';
import { onButton } from './interaction.js';
import { decodeReveal, REVEAL_ACTION } from './revealValue.js';

const TITLE_MAX = 24;

export function registerReveal(app: Listeners, deps: SurfaceDeps): void {
  onButton(app, deps, REVEAL_ACTION, async ({ body, value, request, delivery }) => {
    let state: ReturnType<typeof decodeReveal>;
    try {
      state = decodeReveal(value);
      if (state.requester !== request.actor.userId)
        throw new UserError('Only the person who asked can reveal it.');
    } catch (error) {
      await delivery.privately(errorView(explainError(error, request)));
      return;
    }
    const op = deps.operation(state.operationId);
    const title = truncate(op?.summary ?? 'API token', TITLE_MAX);
    const opened = await deps.slack.openView(body.trigger_id, textNotice(title, ':hourglass: Generating…'));
    try {
      if (!op)
        throw new UserError('This button comes from a command fwbot no longer has; run the command again.');
      const access = await authorize(deps, request, op, state.profile);
      request.log.info({ operationId: op.id }, 'generating a secret for a private modal');
      const outcome = await op.execute(operationContext(deps, request, access.profile), state.raw);
      if (!outcome.secretView) throw new Error(`${op.id} produced no secret view`);
      await deps.slack.updateView(opened.id, noticeModal(title, outcome.secretView), opened.hash);
      await delivery.privately(
        {
          summary: 'Shown once in a private window',
          blocks: [
            {
              kind: 'context',
              text: 'The token was shown once, in a private window; fwbot does not keep it. Generate a new one if it is lost.',
            },
          ],
          visibility: 'ephemeral',
        },
        { replace: true },
      );
      const { secretView: _dropped, ...publicOutcome } = outcome;
      if (publicOutcome.view.visibility === 'in_channel' || publicOutcome.track.length > 0) {
        await deliverOutcome(deps, request, delivery, publicOutcome, access.profile);
      }
    } catch (error) {
      const explained = explainError(error, request);
      await deps.slack.updateView(opened.id, textNotice(title, explained.text), opened.hash);
    }
  });
}
