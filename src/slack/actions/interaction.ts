// What every button listener does first: ack, parse the payload, drop a second delivery of the same
// click (trigger ids are unique per interaction), and set up the request context and the reply channel.
import type { AckFn } from '@slack/bolt';
import { beginRequest, type RequestContext } from '../../dispatch/request.js';
import { Delivery } from '../delivery.js';
import type { SurfaceDeps } from '../deps.js';
import { BlockActions, buttonOf } from '../payloads.js';
import type { Listeners } from '../router.js';
import { actorWithOrigin } from '../workspaceBinding.js';

export interface ButtonClick {
  body: BlockActions;
  value: string;
  request: RequestContext;
  delivery: Delivery;
}

/** Matches the action ids blocks.ts renders for `base` (`fw.page:0`, `fw.page:1`, …). */
export function actionPattern(base: string): RegExp {
  return new RegExp(`^${base.replace(/\./g, '\\.')}(:\\d+)?$`);
}

/** Registers a button listener that acks at once and hands over a parsed, deduplicated click. */
export function onButton(
  app: Listeners,
  deps: SurfaceDeps,
  base: string,
  handle: (click: ButtonClick) => Promise<void>,
): void {
  app.action(actionPattern(base), async ({ ack, body, context }) => {
    await (ack as AckFn<void>)();
    const parsed = BlockActions.safeParse(body);
    const button = parsed.success ? buttonOf(parsed.data) : undefined;
    if (!parsed.success || !button) {
      deps.log.warn({ action: base }, 'a button payload fwbot cannot read; ignored');
      return;
    }
    const click = parsed.data;
    if (!(await deps.dedupe.firstSight(`trigger:${click.trigger_id}`))) return;
    const channelId = click.channel?.id ?? '';
    const actor = actorWithOrigin({ userId: click.user.id, channelId, teamId: click.team?.id }, context);
    const request = beginRequest(deps.log, base, actor);
    const delivery = new Delivery(deps.slack, request, click.response_url);
    await handle({ body: click, value: button.value ?? '', request, delivery });
  });
}
