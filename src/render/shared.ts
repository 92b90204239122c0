// A private read result as shared in the channel ("Share in channel"): the same view as a snapshot, with
// the buttons that only act on the private copy (paging, share) left out and links kept, signed by who
// shared it. Slack and the console post the same snapshot.

import type { View, ViewBlock } from '../model/view.js';
import { userMention } from './mrkdwn.js';
import { PAGE_ACTION, SHARE_ACTION } from './paging.js';

/** Buttons that act on the private copy only; a shared snapshot has none of them. */
const PRIVATE_ACTIONS = new Set([PAGE_ACTION, SHARE_ACTION]);

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
  blocks.push({ kind: 'context', text: `Shared by ${userMention(userId)} · \`${commandText}\`` });
  return { summary: view.summary, blocks, visibility: 'in_channel' };
}
