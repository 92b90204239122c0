// The Bolt listeners of the approval card: Approve, Reject (which opens a small modal for an optional
// reason), Cancel, and the reason modal's submission. Each acks first, parses the payload with zod, and
// hands the decision to decisions.ts; refusals and "too late" answers go privately to the person who
// clicked. Bolt verified the request's signature, so `user.id` can be trusted.

import type { Context } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';
import {
  APPROVE_ACTION,
  CANCEL_ACTION,
  REASON_BLOCK,
  REASON_INPUT,
  REJECT_ACTION,
  REJECT_MODAL,
} from '../../approvals/card.js';
import type { ApprovalDecider, Clicker } from '../../approvals/decisions.js';
import { ApprovalButtonValue, RejectModalMetadata } from '../../approvals/record.js';
import { jsonValue } from '../../model/json.js';
import type { Deduper } from '../../redis/dedupe.js';
import type { SlackApprovalNotifier } from '../approvalNotifier.js';
import type { Listeners } from '../router.js';
import { originIn } from '../workspaceBinding.js';

const ButtonClick = z.object({
  user: z.object({ id: z.string().min(1) }),
  channel: z.object({ id: z.string().min(1) }).optional(),
  container: z.object({ channel_id: z.string().optional(), message_ts: z.string().optional() }).optional(),
  message: z.object({ ts: z.string() }).optional(),
  trigger_id: z.string().min(1),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() })).min(1),
});
type ButtonClick = z.infer<typeof ButtonClick>;

const ReasonSubmission = z.object({
  user: z.object({ id: z.string().min(1) }),
  trigger_id: z.string().min(1),
  view: z.object({
    private_metadata: z.string(),
    state: z.object({
      values: z.record(z.string(), z.record(z.string(), z.object({ value: z.string().nullish() }))),
    }),
  }),
});

/** Listeners match the rendered action ids, which the renderer suffixes with `:<index>`. */
function actionPattern(id: string): RegExp {
  return new RegExp(`^${id.replace(/\./g, '\\.')}(?::\\d+)?$`);
}

/**
 * The click, its request id and who clicked. `channel` is the card's channel; a click on the App Home (a
 * view, no channel, no message) has none, and `who.card` is then left out: the card's stored location is
 * used, and answers go to the channel the request was asked in.
 */
function parseClick(
  body: unknown,
  context?: Context,
): { click: ButtonClick; id: string; who: Clicker; channel: string | undefined } | undefined {
  const click = ButtonClick.safeParse(body);
  if (!click.success) return undefined;
  const [action] = click.data.actions;
  const value = ApprovalButtonValue.safeParse(jsonValue(action?.value ?? ''));
  if (!value.success) return undefined;
  const channel = click.data.channel?.id ?? click.data.container?.channel_id;
  const ts = click.data.message?.ts ?? click.data.container?.message_ts;
  return {
    click: click.data,
    id: value.data.id,
    channel,
    who: {
      userId: click.data.user.id,
      card: channel && ts ? { channel, ts } : undefined,
      ...(originIn(context)?.external === true ? { external: true } : {}),
    },
  };
}

/** The small modal asking why; the reason is optional. */
export function rejectModal(metadata: RejectModalMetadata) {
  return {
    type: 'modal' as const,
    callback_id: REJECT_MODAL,
    private_metadata: JSON.stringify(metadata),
    title: { type: 'plain_text' as const, text: 'Reject request' },
    submit: { type: 'plain_text' as const, text: 'Reject' },
    close: { type: 'plain_text' as const, text: 'Back' },
    blocks: [
      {
        type: 'input' as const,
        block_id: REASON_BLOCK,
        optional: true,
        label: { type: 'plain_text' as const, text: 'Reason (shown on the card)' },
        element: {
          type: 'plain_text_input' as const,
          action_id: REASON_INPUT,
          multiline: true,
          max_length: 500,
        },
      },
    ],
  };
}

export interface ApprovalListenersDeps {
  decisions: ApprovalDecider;
  notifier: Pick<SlackApprovalNotifier, 'tell' | 'openModal'>;
  /** Slack delivers a click again (HTTP retries, Socket Mode redeliveries): one effect, one answer. */
  dedupe: Deduper;
  log: Logger;
}

export function registerApprovalListeners(
  app: Listeners,
  { decisions, notifier, dedupe, log }: ApprovalListenersDeps,
): void {
  /** The click, once: a second delivery of the same trigger id is acknowledged and dropped. */
  async function once(body: unknown, what: string, context: Context) {
    const parsed = parseClick(body, context);
    if (!parsed) {
      log.warn(`${what} click with an unreadable payload`);
      return undefined;
    }
    if (!(await dedupe.firstSight(`trigger:${parsed.click.trigger_id}`))) return undefined;
    const channel = parsed.channel ?? (await decisions.channelOf(parsed.id));
    if (!channel) {
      log.warn({ approvalId: parsed.id }, `${what} click from the Home on a request no longer known`);
      return undefined;
    }
    return { ...parsed, channel };
  }

  /** Runs a decision after the ack; whatever it says goes privately to the clicker. */
  async function answer(
    channel: string,
    user: string,
    decide: () => Promise<string | undefined>,
  ): Promise<void> {
    try {
      const text = await decide();
      if (text) await notifier.tell(channel, user, text);
    } catch (error) {
      const reference = `err-${Date.now().toString(36)}`;
      log.error({ err: error, reference }, 'approval action failed');
      await notifier.tell(
        channel,
        user,
        `Something went wrong (reference ${reference}); nothing more was done.`,
      );
    }
  }

  app.action(actionPattern(APPROVE_ACTION), async ({ ack, body, context }) => {
    await ack();
    const parsed = await once(body, 'approve', context);
    if (!parsed) return;
    await answer(parsed.channel, parsed.who.userId, () => decisions.approve(parsed.id, parsed.who));
  });

  app.action(actionPattern(CANCEL_ACTION), async ({ ack, body, context }) => {
    await ack();
    const parsed = await once(body, 'cancel', context);
    if (!parsed) return;
    await answer(parsed.channel, parsed.who.userId, () => decisions.cancel(parsed.id, parsed.who));
  });

  app.action(actionPattern(REJECT_ACTION), async ({ ack, body, context }) => {
    await ack();
    const parsed = await once(body, 'reject', context);
    if (!parsed) return;
    const { id, who, channel, click } = parsed;
    await answer(channel, who.userId, async () => {
      const refusal = await decisions.mayReject(id, who);
      if (refusal) return refusal;
      const metadata: RejectModalMetadata = { id, channel, ts: who.card?.ts };
      await notifier.openModal(click.trigger_id, rejectModal(metadata));
      return undefined;
    });
  });

  app.view(REJECT_MODAL, async ({ ack, body, context }) => {
    await ack();
    const submission = ReasonSubmission.safeParse(body);
    const metadata = submission.success
      ? RejectModalMetadata.safeParse(jsonValue(submission.data.view.private_metadata))
      : undefined;
    if (!submission.success || !metadata?.success)
      return log.warn('reject reason with an unreadable payload');
    if (!(await dedupe.firstSight(`trigger:${submission.data.trigger_id}`))) return;
    const reason = submission.data.view.state.values[REASON_BLOCK]?.[REASON_INPUT]?.value ?? undefined;
    const { id, channel, ts } = metadata.data;
    const who: Clicker = {
      userId: submission.data.user.id,
      card: ts ? { channel, ts } : undefined,
      ...(originIn(context)?.external === true ? { external: true } : {}),
    };
    await answer(channel, who.userId, () => decisions.reject(id, who, reason));
  });
}
