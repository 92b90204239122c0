// Block Kit an older fwbot kept in Redis. Until issue 35 the workers rendered a View to Block Kit before
// they queued a notification (a queued call's outcome, a Cancel… offer), recorded a queued call's outcome,
// or kept an incident's thread reply; now they keep the View and Slack's side renders it when it posts
// (src/slack/chat.ts). Records of the old shape may still be in Redis when a new fwbot starts (written just
// before the upgrade, or by a worker of the previous version still running during a rolling one), so for
// one release the workers read both shapes, and an old record's blocks are posted as they were rendered,
// its text as their notification text.
// Remove this file, its uses (notifyWorker.ts, operationQueue.ts, alerts/deskDelivery.ts) and
// ChatMessage.legacyBlocks (src/model/message.ts) in the release after the one that keeps views
// (docs/operating/production.md, "Upgrading").
import { z } from 'zod';
import { TrackRequestSchema } from '../follow/index.js';
import type { ChatMessage } from '../model/message.js';
import { DeskReply } from './alerts/deskRecord.js';
import { NotifyJobData, RecordedOutcome, textBeside } from './payloads.js';
import type { PostRequest } from './slackNotifier.js';

/** Blocks as render/blocks.ts of the previous release made them: JSON objects that name their type. */
const LegacyBlocks = z.array(z.looseObject({ type: z.string() }));

/** A notification job's data: today's shape, or an older fwbot's (its view already Block Kit). */
export const StoredNotifyJob = NotifyJobData.extend({ blocks: LegacyBlocks.optional() });
export type StoredNotifyJob = z.infer<typeof StoredNotifyJob>;

/** A queued call's recorded outcome: today's (its view), or an older fwbot's (rendered). */
export const StoredOutcome = z.union([
  RecordedOutcome,
  z.object({
    summary: z.string(),
    text: z.string().min(1),
    blocks: LegacyBlocks,
    track: z.array(TrackRequestSchema),
  }),
]);
export type StoredOutcome = z.infer<typeof StoredOutcome>;

/** An incident's waiting thread reply: today's (its view), or an older fwbot's (rendered). */
export const StoredDeskReply = z.union([
  DeskReply,
  DeskReply.omit({ view: true }).extend({ blocks: LegacyBlocks }),
]);
export type StoredDeskReply = z.infer<typeof StoredDeskReply>;

/** What a notification shows, as it is queued: text, a view, or an older fwbot's rendered blocks. */
export type ShownMessage = Pick<StoredNotifyJob, 'text' | 'view' | 'blocks'>;

/** A recorded outcome as its notification shows it: its view, or the blocks an older fwbot rendered. */
export function outcomeMessage(recorded: StoredOutcome): ShownMessage {
  if ('view' in recorded) return { text: textBeside(recorded.view), view: recorded.view };
  return { text: recorded.text, blocks: recorded.blocks };
}

/** What a stored message shows, in either shape, as the notifier and the chat take it. */
export function shownMessage(stored: {
  text: string;
  view?: ChatMessage['view'];
  blocks?: readonly Record<string, unknown>[];
}): Pick<PostRequest, 'text' | 'view' | 'legacyBlocks'> {
  if (stored.view) return { text: stored.text, view: stored.view };
  return { text: stored.text, ...(stored.blocks ? { legacyBlocks: stored.blocks } : {}) };
}
