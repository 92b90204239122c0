// The App Home tab on Slack (the HomeTab of src/home/publisher.ts): the Home's View as the `view` of Slack's
// views.publish, and the channels a person is in. The shared Block Kit renderer (which escapes
// outside text and keeps every per-block limit) renders each section on its own: its character budget
// is a message's (about 12k), while a Home tab takes 100 blocks and up to 250 kB, so one budget for the
// whole Home would cut sections the Home has room for. Action ids are numbered again across sections so
// they stay unique in the view.
import type { ActionsBlock, HomeView, KnownBlock } from '@slack/types';
import type { HomeTab } from '../home/publisher.js';
import { HOME_BLOCKS } from '../home/view.js';
import type { View, ViewBlock } from '../model/view.js';
import { actionBaseId, actionIdOf, renderBlocks } from '../render/blocks.js';
import type { SlackApi } from '../slackApi/slackApi.js';

/** Slack refuses a view over 250 kB (`view_too_large`). */
export const HOME_BYTES = 250_000;

/** The view's blocks cut at its dividers: one group per section (the divider leads its group). */
function sections(view: View): ViewBlock[][] {
  const groups: ViewBlock[][] = [[]];
  for (const block of view.blocks) {
    if (block.kind === 'divider') groups.push([]);
    groups[groups.length - 1]?.push(block);
  }
  return groups.filter((group) => group.length > 0);
}

export function homeBlocks(view: View): HomeView {
  const blocks: KnownBlock[] = sections(view).flatMap(
    (group) => renderBlocks({ ...view, blocks: group }, { surface: 'modal' }).blocks,
  );
  let next = 0;
  for (const block of blocks) {
    if (block.type !== 'actions') continue;
    for (const element of (block as ActionsBlock).elements) {
      if ('action_id' in element && typeof element.action_id === 'string')
        element.action_id = actionIdOf(actionBaseId(element.action_id), next++);
    }
  }
  const home: HomeView = { type: 'home', blocks };
  if (blocks.length > HOME_BLOCKS)
    throw new Error(`a Home of ${blocks.length} blocks (Slack takes ${HOME_BLOCKS})`);
  const bytes = Buffer.byteLength(JSON.stringify(home));
  if (bytes > HOME_BYTES) throw new Error(`a Home of ${bytes} bytes (Slack takes ${HOME_BYTES})`);
  return home;
}

/** A person's Home published with `slack` (a client that throws on 429: the publisher paces). */
export function slackHomeTab(slack: Pick<SlackApi, 'publishHome' | 'userChannels'>): HomeTab {
  return {
    publish: (userId, view) => slack.publishHome(userId, homeBlocks(view)),
    userChannels: (userId) => slack.userChannels(userId),
  };
}
