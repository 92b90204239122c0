// Delivering, in Slack, what the dispatcher decided for a call (src/dispatch/dispatcher.ts): an outcome
// (reads privately, changes announced in the channel and followed in their thread), an approval card
// (posted by the approvals service), a private Reveal offer, or a queued request announced first so the
// queue can report in its thread. Every failure becomes a private answer to the requester.
import type { Outcome } from '../catalogue/operation.js';
import type { Dispatched, Invocation } from '../dispatch/dispatcher.js';
import { errorView, explainError } from '../dispatch/errors.js';
import { leavesLater } from '../dispatch/ports.js';
import { withProfile } from '../dispatch/profileFlag.js';
import type { RequestContext } from '../dispatch/request.js';
import { workspaceOf } from '../model/workspace.js';
import type { Delivery } from './delivery.js';
import type { SurfaceDeps } from './deps.js';

export type { Invocation } from '../dispatch/dispatcher.js';

/** Runs an invocation through the dispatcher and delivers its result; never throws. */
export async function perform(
  deps: SurfaceDeps,
  request: RequestContext,
  delivery: Delivery,
  invocation: Invocation,
  options: { replace?: boolean } = {},
): Promise<void> {
  try {
    const result = await deps.dispatcher.dispatch(invocation, request);
    await deliverDispatched(deps, request, delivery, result, {
      ...options,
      profileOverride: invocation.profileOverride,
    });
  } catch (error) {
    await delivery.privately(errorView(explainError(error, request)));
  }
}

/** Delivers what the dispatcher decided (a queued /fw command's worker calls it too). */
export async function deliverDispatched(
  deps: SurfaceDeps,
  request: RequestContext,
  delivery: Delivery,
  result: Dispatched,
  options: { replace?: boolean; profileOverride?: string | undefined },
): Promise<void> {
  switch (result.kind) {
    case 'outcome':
      return deliverOutcome(deps, request, delivery, result.outcome, result.profile, options);
    case 'approval':
      // The approvals service posted the card in the channel; the card is the answer.
      request.log.info({ approvalId: result.approvalId }, 'approval requested');
      return;
    case 'reveal':
      return delivery.privately(result.view);
    case 'queued': {
      const ts = await delivery.post(withProfile(result.announcement, options.profileOverride));
      if (ts === undefined) {
        const note =
          'fwbot is not a member of this channel, so it has no thread to report the queued request in. ' +
          'Invite it (`/invite @fwbot`) and ask again; nothing was done.';
        return delivery.privately({
          summary: note,
          blocks: [{ kind: 'text', text: note }],
          visibility: 'ephemeral',
        });
      }
      const { channelId, userId } = request.actor;
      const team = workspaceOf(request.actor);
      await result.enqueue({
        channelId,
        threadTs: ts,
        requesterId: userId,
        profile: result.profile,
        ...team,
      });
      return;
    }
    case 'confirm':
      // Only surfaces without approvers get this (the CLI); Slack always has the approvals service.
      throw new Error('a Slack call came back asking for --yes');
  }
}

export async function deliverOutcome(
  deps: SurfaceDeps,
  request: RequestContext,
  delivery: Delivery,
  outcome: Outcome,
  profile: string,
  options: { replace?: boolean; profileOverride?: string | undefined } = {},
): Promise<void> {
  if (outcome.secretView) {
    // Only the reveal flow may show a secret, in a modal. Never post it; say so instead of pretending.
    request.log.warn('an outcome carried a secret outside the reveal flow; it was not shown');
  }
  const view = withProfile(outcome.view, options.profileOverride);
  if (view.visibility === 'in_channel' || leavesLater(outcome)) {
    await delivery.announce(view, outcome, deps.tracker, profile);
    return;
  }
  await delivery.privately(view, { replace: options.replace ?? false });
}
