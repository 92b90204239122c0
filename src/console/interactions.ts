// Clicks on messages other parts of fwbot posted (approval cards) and the modals they open, delivered to
// those parts' own Bolt listeners: the console builds the payload Slack would send (block_actions,
// view_submission) and hands it to a Bolt App that has no network receiver. So Approve / Reject / Cancel
// run the approvals' real code, permission checks included, for whoever the console user is.
import { randomBytes } from 'node:crypto';
import { App, type Receiver, type ReceiverEvent } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';
import { boltLogger } from '../slack/boltLogger.js';
import {
  CONSOLE_API_URL,
  CONSOLE_BOT_TOKEN,
  CONSOLE_BOT_USER,
  CONSOLE_TEAM,
  type ConsoleSlack,
} from './consoleSlack.js';
import type { Prompter } from './forms.js';

/** A receiver that listens to nothing: events reach the app through processEvent only. */
class InProcessReceiver implements Receiver {
  init(): void {}
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

/** A Bolt App whose Web API calls end in the console's stand-in Slack, driven by `processEvent`. */
export function createConsoleBolt(slack: ConsoleSlack, log: Logger): App {
  return new App({
    token: CONSOLE_BOT_TOKEN,
    botId: 'B0FWBOT',
    botUserId: CONSOLE_BOT_USER,
    receiver: new InProcessReceiver(),
    logger: boltLogger(log),
    clientOptions: { slackApiUrl: CONSOLE_API_URL, fetch: slack.fetch },
  });
}

export interface Clicker {
  userId: string;
  channelId: string;
}

function triggerId(): string {
  return `${Date.now()}.${randomBytes(4).toString('hex')}`;
}

/** Delivers a payload to the app's listeners and waits until they are done. */
async function deliver(app: Pick<App, 'processEvent'>, body: Record<string, unknown>): Promise<void> {
  const event: ReceiverEvent = { body, ack: async () => {} };
  await app.processEvent(event);
}

/** A button click on a message, as Slack sends it (block_actions). */
export async function clickButton(
  app: Pick<App, 'processEvent'>,
  who: Clicker,
  message: { ts: string },
  action: { id: string; value: string },
): Promise<void> {
  await deliver(app, {
    type: 'block_actions',
    team: { id: CONSOLE_TEAM },
    user: { id: who.userId },
    channel: { id: who.channelId },
    container: { type: 'message', channel_id: who.channelId, message_ts: message.ts },
    message: { ts: message.ts },
    trigger_id: triggerId(),
    actions: [
      {
        type: 'button',
        action_id: action.id,
        block_id: 'console',
        value: action.value,
        action_ts: String(Date.now() / 1000),
      },
    ],
  });
}

const ModalView = z.looseObject({
  callback_id: z.string().optional(),
  private_metadata: z.string().optional(),
  title: z.object({ text: z.string() }).optional(),
  blocks: z
    .array(
      z.looseObject({
        type: z.string(),
        block_id: z.string().optional(),
        optional: z.boolean().optional(),
        label: z.object({ text: z.string() }).optional(),
        element: z.looseObject({ type: z.string(), action_id: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

/**
 * Asks the text inputs of a Block Kit modal (e.g. the approvals' reject-reason form) and submits it to
 * the app's view listener. Inputs of other kinds are left empty: no listener the console drives uses them.
 */
export async function answerModal(
  app: Pick<App, 'processEvent'>,
  io: Prompter,
  who: Clicker,
  rawView: Record<string, unknown>,
): Promise<void> {
  const view = ModalView.parse(rawView);
  if (view.title) io.print(view.title.text);
  const values: Record<string, Record<string, { type: string; value: string | null }>> = {};
  for (const block of view.blocks ?? []) {
    const element = block.element;
    if (block.type !== 'input' || !block.block_id || !element?.action_id) continue;
    if (element.type !== 'plain_text_input') continue;
    const optional = block.optional ? ' (optional)' : '';
    const answer = await io.ask(`  ${block.label?.text ?? block.block_id}${optional}: `);
    const text = answer?.trim() ?? '';
    values[block.block_id] = {
      [element.action_id]: { type: 'plain_text_input', value: text === '' ? null : text },
    };
  }
  await deliver(app, {
    type: 'view_submission',
    team: { id: CONSOLE_TEAM },
    user: { id: who.userId },
    trigger_id: triggerId(),
    view: {
      id: 'V0CONSOLE',
      type: 'modal',
      callback_id: view.callback_id,
      private_metadata: view.private_metadata ?? '',
      state: { values },
    },
  });
}
