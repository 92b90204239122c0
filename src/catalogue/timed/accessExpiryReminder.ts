// The reminder three days before an access rule fwbot created expires (issue 36, item 7): the requester is
// told in the thread of the request and directly (a direct message from the app), once per rule, with two
// buttons: *Extend…* (`/fw access extend <id> 30d`: a governed change, a second person approves the new
// expiry) and *Remove now…* (`/fw access revoke <id>`, the governed early removal). A rule extended since is
// reminded three days before its new expiry instead; a rule revoked or removed is not recalled.
import { z } from 'zod';
import type { View } from '../../model/view.js';
import { code } from '../../render/format.js';
import { userMention } from '../../render/mrkdwn.js';
import { commandButton } from '../../render/paging.js';
import { untrusted } from '../../render/untrusted.js';
import { viewerTime } from '../../render/viewerTime.js';
import { defineTimedKind } from './kind.js';

const DAY = 24 * 60 * 60 * 1000;
/** How long before its expiry the requester hears of it. */
export const EXPIRY_REMINDER_MS = 3 * DAY;
/** What *Extend…* asks for: this much more, counted from the current expiry. */
export const EXTEND_BUTTON_BY = '30d';

export const accessExpiryReminder = defineTimedKind({
  kind: 'access-expiry-reminder',
  payload: z.object({
    recordId: z.string().min(1),
    ruleUid: z.string().min(1),
    deviceUid: z.string().min(1),
    device: z.string(),
    requester: z.string().min(1),
  }),
  id: (p) => p.ruleUid,
  describe: (p) => `remind ${p.requester} that access rule ${p.recordId} on ${p.device} expires`,
  devices: (p) => [{ uid: p.deviceUid, name: p.device }],
  async run(ctx, p) {
    const record = await ctx.op.services?.accessRecords?.find(ctx.item.profile, p.ruleUid);
    if (!record) return { status: 'done', summary: 'not said: the rule was removed before' };
    if (record.expiresAt === undefined)
      return { status: 'done', summary: 'not said: the rule no longer expires' };
    // Extended since (and the reminder not moved, a crash between): said three days before the new expiry.
    const due = record.expiresAt - EXPIRY_REMINDER_MS;
    if (due > ctx.now() + 60_000) return { status: 'again', at: due, summary: 'extended: reminded later' };
    const what = `${record.protocol} ${record.source} → ${record.destination}${record.port === undefined ? '' : ` ${record.port}`}`;
    const when = viewerTime(record.expiresAt, ctx.now(), 'UTC');
    const extend = commandButton('Extend…', `access extend ${record.id} ${EXTEND_BUTTON_BY}`, 'primary');
    const remove = commandButton('Remove now…', `access revoke ${record.id}`, 'danger');
    const text = `:alarm_clock: ${userMention(record.requester)}, the access rule ${code(record.id)} you asked for on ${untrusted(record.deviceName)} (${untrusted(what)} · ${untrusted(record.reason)}) expires ${when}. Then fwbot removes it in the device's change window and checks with packet-tracer that the traffic is dropped. *Extend…* asks for ${EXTEND_BUTTON_BY} more (a second person approves; \`/fw access extend ${record.id} <30d|date>\` for another date); *Remove now…* removes it before then (\`/fw access revoke ${record.id}\`).`;
    const view: View = {
      summary: `access rule ${record.id} on ${record.deviceName} expires ${new Date(record.expiresAt).toISOString().slice(0, 10)}`,
      blocks: [
        { kind: 'text', text },
        ...(extend && remove ? [{ kind: 'actions' as const, buttons: [extend, remove] }] : []),
      ],
      visibility: 'in_channel',
    };
    // Keyed by the expiry: an extended rule's reminder is a new one, however its item is counted.
    const key = `reminder-${record.expiresAt}`;
    await ctx.say(key, view);
    await ctx.sayDirectly(record.requester, key, view);
    return { status: 'done', summary: `reminded ${record.requester}` };
  },
  // Saying and telling are once per key whatever happens: running it again says nothing twice.
  interrupted: 'run-again',
});
