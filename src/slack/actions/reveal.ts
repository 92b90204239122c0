// "Reveal token": generated API tokens are shown once, only to the requester, in a modal — never in a
// message, a thread, a log or storage. A modal needs a fresh trigger id (3 seconds), so the command only
// offers this button; the click opens a "Generating…" modal at once, then the dispatcher uses the grant
// the button names (src/dispatch/reveals.ts: what runs is what the grant says, never the button value)
// and the modal is updated with the secret. The button is then removed from the requester's message.
import { REVEAL_ACTION } from '../../dispatch/dispatcher.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import { leavesLater } from '../../dispatch/ports.js';
import { truncate } from '../../render/blocks.js';
import type { SurfaceDeps } from '../deps.js';
import type { Listeners } from '../router.js';
import { deliverOutcome } from '../run.js';
import { noticeModal, textNotice } from '../views/modal.js';
import { onButton } from './interaction.js';

const TITLE_MAX = 24;
const TITLE = 'API token';

export function registerReveal(app: Listeners, deps: SurfaceDeps): void {
  onButton(app, deps, REVEAL_ACTION, async ({ body, value, request, delivery }) => {
    try {
      // Someone else's, used or forged buttons are refused privately, before any modal opens.
      await deps.dispatcher.mayReveal(value, request);
    } catch (error) {
      await delivery.privately(errorView(explainError(error, request)));
      return;
    }
    const opened = await deps.slack.openView(body.trigger_id, textNotice(TITLE, ':hourglass: Generating…'));
    try {
      const revealed = await deps.dispatcher.reveal(value, request);
      const title = truncate(revealed.secretView.summary || TITLE, TITLE_MAX);
      await deps.slack.updateView(opened.id, noticeModal(title, revealed.secretView), opened.hash);
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
      const { outcome } = revealed;
      if (outcome.view.visibility === 'in_channel' || leavesLater(outcome)) {
        await deliverOutcome(deps, request, delivery, outcome, revealed.profile);
      }
    } catch (error) {
      const explained = explainError(error, request);
      await deps.slack.updateView(opened.id, textNotice(TITLE, explained.text), opened.hash);
    }
  });
}
