// A reminder before an approved request held until its time runs (a deploy scheduled for its change window,
// or `--at`): fifteen minutes before, the card's thread hears when it runs, that it can still be cancelled,
// and whether it would run as things stand: the requester and the approvers are re-checked right then, so a
// role lost since the approval is said while someone can still act, not only when nothing is deployed. The
// approvals' executor schedules it when it holds a request at least an hour ahead; a cancel of the run
// cancels it; a request no longer held by then (cancelled, or run early) is not recalled.
import { z } from 'zod';
import { code } from '../../render/format.js';
import { untrusted } from '../../render/untrusted.js';
import { viewerTime } from '../../render/viewerTime.js';
import { defineTimedKind, PersonToCheckSchema } from './kind.js';

/** How long before the run the reminder comes. */
export const REMIND_BEFORE_MS = 15 * 60_000;
/** A run closer than this when it is held gets no reminder: the approval's own message is recent enough. */
export const REMIND_IF_AHEAD_MS = 60 * 60_000;

export const heldRunReminder = defineTimedKind({
  kind: 'held-run-reminder',
  payload: z.object({
    /** The approval request held until its time (what `/fw deployments cancel` takes). */
    requestId: z.string().min(1),
    /** What runs on what, as the audit trail names it: `deploy to asa-hq-01`. */
    what: z.string(),
    runAt: z.number().int(),
    /** The zone its time is said in (its first policy window's, else UTC). */
    zone: z.string(),
    /** The requester's and each approver's grant, as the executor will re-check them at the run. */
    people: z.array(PersonToCheckSchema),
  }),
  id: (payload) => payload.requestId,
  describe: (payload) => `reminder before ${payload.what} runs (request ${payload.requestId})`,
  async run(ctx, payload) {
    const held = await ctx.op.services?.scheduled?.list(ctx.item.profile);
    if (!held) return { status: 'done', summary: 'not said: this process cannot read the scheduled runs' };
    // Cancelled, run, or moved since: nothing to recall.
    if (!held.some((run) => run.id === payload.requestId && run.runAt === payload.runAt))
      return { status: 'done', summary: 'not said: the request is no longer held for that time' };
    const lost = await ctx.rolesLost(payload.people);
    const when = viewerTime(payload.runAt, ctx.now(), payload.zone);
    const cancel = code(`/fw deployments cancel ${payload.requestId}`);
    const lines = [
      `:alarm_clock: Reminder: *${untrusted(payload.what)}* runs ${when}. Then fwbot checks again that the target is still the approved one, that the people still hold their roles and that the change window is open. To stop it: *Cancel…* on the card, or ${cancel}.`,
      ...(lost
        ? [`:warning: As things stand it would not run: ${lost} Unless that changes by then, nothing is run.`]
        : []),
    ];
    await ctx.say('reminder', lines.join('\n'));
    return {
      status: 'done',
      summary: lost ? `reminded; it would not run as things stand (${lost})` : 'reminded',
    };
  },
  // Saying is done once per key whatever happens: running it again says nothing twice.
  interrupted: 'run-again',
});
