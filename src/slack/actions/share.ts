// "Share in channel" under a private read result. Ephemeral messages cannot be read back, so the button
// carries the command line; the read runs again (after the permission check) and is posted in the
// channel as a snapshot: paging and share buttons are left out, links (report downloads) kept.

import { UserError } from '../../catalogue/errors.js';
import { COMMAND } from '../../catalogue/usage.js';
import { SHARE_ACTION } from '../../render/paging.js';
import type { View, ViewBlock } from '../../render/view.js';
import type { SurfaceDeps } from '../deps.js';
import { errorView, explainError } from '../../dispatch/errors.js';
import { splitProfile } from '../../dispatch/profileFlag.js';
import type { Listeners } from '../router.js';
import { authorize, operationContext } from '../run.js';
import { onButton } from './interaction.js';

/** Buttons that act on the private copy only; a shared snapshot has none of them. */
const PRIVATE_ACTIONS = new Set(['fw.page', 'fw.share']);

export function sharedSnapshot(view: View, userId: string, commandText: string): View {
  const blocks: ViewBlock[] = [];
  for (const block of view.blocks) {
    if (block.kind !== 'actions') {
      blocks.push(block);
      continue;
    }
    const buttons = block.buttons.filter((b) => !(b.action && PRIVATE_ACTIONS.has(b.action.id)));
    if (buttons.length > 0) blocks.push({ kind: 'actions', buttons });
  }
  blocks.push({ kind: 'context', text: `Shared by <@${userId}> · \`${commandText}\`` });
  return { summary: view.summary, blocks, visibility: 'in_channel' };
}

export function registerShare(app: Listeners, deps: SurfaceDeps): void {
  onButton(app, deps, SHARE_ACTION, async ({ value, request, delivery }) => {
    try {
      const { value: commandText, profile } = splitProfile(value);
      const text = commandText.startsWith(`${COMMAND} `)
        ? commandText.slice(COMMAND.length + 1)
        : commandText;
      const parsed = deps.catalogue.parse(text);
      if (parsed.op.role !== 'viewer' || parsed.op.destructive) {
        throw new UserError('Only read results can be shared this way.');
      }
      const access = await authorize(deps, request, parsed.op, profile);
      request.log.info({ operationId: parsed.op.id }, 'sharing in the channel');
      const outcome = await parsed.op.execute(operationContext(deps, request, access.profile), parsed.raw);
      await delivery.inChannelViaResponseUrl(sharedSnapshot(outcome.view, request.actor.userId, commandText));
    } catch (error) {
      await delivery.privately(errorView(explainError(error, request)));
    }
  });
}
