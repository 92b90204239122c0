// The notification worker: posts one message into Slack exactly once (see slackNotifier.ts), after
// settling the thread's progress message when there is one. Slack's 429 and the per-channel pace move
// the job back to the delayed set for as long as Slack asked; other Slack failures retry with backoff;
// a refusal (no such channel, not a member) stops at once. A job an older fwbot queued with Block Kit in it
// is posted as it was rendered (legacyBlocks.ts).
import { DelayedError, type Processor, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import { workspaceOf } from '../model/workspace.js';
import { SlackRefused } from '../slackApi/errors.js';
import { StoredNotifyJob, shownMessage } from './legacyBlocks.js';
import { RetryLater, type SlackNotifier } from './slackNotifier.js';

export function createNotifyProcessor(notifier: SlackNotifier, log: Logger): Processor {
  return async (job, token) => {
    const parsed = StoredNotifyJob.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`malformed notification: ${z.prettifyError(parsed.error)}`);
    const { blocks: _rendered, view: _view, ...rest } = parsed.data;
    const message = { ...rest, ...shownMessage(parsed.data) };
    try {
      if (message.withdraws) {
        const shown = await notifier.withdraw(message.withdraws, message);
        log.info({ key: message.withdraws, shown }, 'offer withdrawn');
        return shown;
      }
      if (message.settleStatus) {
        await notifier.editStatus(
          message.settleStatus.key,
          message.channelId,
          message.settleStatus.text,
          'settle',
          workspaceOf(message),
        );
      }
      const { ts, posted } = await notifier.postOnce(message);
      log.info(
        { key: message.key, ts, posted },
        posted ? 'notification posted' : 'notification already in Slack',
      );
      return ts;
    } catch (error) {
      if (error instanceof RetryLater) {
        log.info({ key: message.key, delayMs: error.delayMs, reason: error.message }, 'notification waits');
        await job.moveToDelayed(Date.now() + error.delayMs, token);
        throw new DelayedError();
      }
      if (error instanceof SlackRefused) {
        log.error(
          { key: message.key, channelId: message.channelId, slackError: error.slackError },
          error.message,
        );
        throw new UnrecoverableError(error.message);
      }
      throw error;
    }
  };
}
