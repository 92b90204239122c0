// The recertification of a permanent access rule fwbot created (issue 36, item 7): every
// `access.recertify_every` from the rule's creation its requester is asked, in the request's thread and
// directly, whether it is still needed, with *Still needed* (`/fw access recertify <id>`: the answer and its
// date are recorded, audited) and *Remove…* (`/fw access revoke <id>`: the governed removal). One item per
// rule, periodic: each round asks once (what it says is said once per round, a run repeated after a crash
// says nothing twice) and is due again at the next cycle. A rule removed since, given an expiry, or a policy
// that no longer recertifies ends it quietly. Scheduled when the rule's record is kept (accessRequest.ts).
import { z } from 'zod';
import { nextQuestionAt, recertificationState } from '../../access/recertification.js';
import type { AccessRecord } from '../../access/records.js';
import type { View } from '../../model/view.js';
import { code } from '../../render/format.js';
import { userMention } from '../../render/mrkdwn.js';
import { commandButton } from '../../render/paging.js';
import { untrusted } from '../../render/untrusted.js';
import type { OperationContext } from '../context.js';
import { defineTimedKind } from './kind.js';

export const accessRecertify = defineTimedKind({
  kind: 'access-recertify',
  payload: z.object({
    /** The rule's record (src/access/records.ts), read afresh at each round. */
    recordId: z.string().min(1),
    deviceUid: z.string().min(1),
    device: z.string(),
  }),
  id: (p) => p.recordId,
  describe: (p) => `recertification of access rule ${p.recordId} on ${p.device}`,
  devices: (p) => [{ uid: p.deviceUid, name: p.device }],
  async run(ctx, p) {
    const records = ctx.op.services?.accessRecords;
    if (!records)
      return { status: 'failed', summary: 'this process cannot read the access rules fwbot created' };
    const record = await records.get(ctx.item.profile, p.recordId);
    if (!record) return { status: 'done', summary: 'not asked: the rule was removed' };
    const policy = ctx.op.policy?.accessRequests?.recertification;
    if (!policy) return { status: 'done', summary: 'not asked: access.recertify_every is not set any more' };
    const now = ctx.now();
    const state = recertificationState(record, policy, now);
    if (!state) return { status: 'done', summary: 'not asked: the rule has an expiry now' };
    const next = { status: 'again' as const, at: nextQuestionAt(record, policy, now) };
    if (state.kind === 'not-due' || state.kind === 'answered')
      return {
        ...next,
        summary: state.kind === 'answered' ? 'already said to be still needed' : 'not due yet',
      };
    if (state.askedAt === undefined)
      await records.update(ctx.item.profile, record.id, { certificationAskedAt: now });
    const view = question(record, state.lateAt);
    await ctx.say('ask', view);
    await ctx.sayDirectly(record.requester, 'ask', view);
    return { ...next, summary: `asked ${record.requester}` };
  },
  // Asking is said once per round whatever happens: running it again says nothing twice.
  interrupted: 'run-again',
});

/** The question, with its two answers as buttons (each a command run as the clicker, governed as typed). */
function question(record: AccessRecord, lateAt: number): View {
  const what = `${record.protocol} ${untrusted(record.source)} → ${untrusted(record.destination)}${
    record.port === undefined ? '' : ` ${untrusted(record.port)}`
  }`;
  const still = commandButton('Still needed', `access recertify ${record.id}`, 'primary');
  const remove = commandButton('Remove…', `access revoke ${record.id}`, 'danger');
  const text = [
    `:clipboard: ${userMention(record.requester)}, is access rule ${code(record.id)} still needed? ${what} on ${untrusted(record.deviceName)} (${untrusted(record.accessGroup)}), asked for “${untrusted(record.reason)}”${record.ticket ? ` (${code(record.ticket)})` : ''}, created ${new Date(record.createdAt).toISOString().slice(0, 10)}, permanent.`,
    `*Still needed* records your answer until the next recertification; *Remove…* asks for its removal, which a second person approves. Unanswered by ${new Date(lateAt).toISOString().slice(0, 10)}, it is flagged overdue in \`/fw access recertification\`.`,
  ].join('\n');
  return {
    summary: `Is access rule ${record.id} on ${record.deviceName} still needed?`,
    blocks: [
      { kind: 'text', text },
      { kind: 'actions', buttons: [still, remove].flatMap((b) => (b ? [b] : [])) },
    ],
    visibility: 'in_channel',
  };
}

/**
 * Schedules the recertification of a rule: a permanent one, where the policy recertifies, first due one
 * period after its creation (at once when that is past). Nothing where fwbot keeps no timed work (the CLI).
 * Called when the rule's record is kept, and by `/fw access recertification` for every permanent rule (the
 * rules recorded before `access.recertify_every` was set): an item already waiting is left as it is, so
 * each rule has one question at a time. True when this call scheduled it.
 */
export async function scheduleRecertification(ctx: OperationContext, record: AccessRecord): Promise<boolean> {
  const policy = ctx.policy?.accessRequests?.recertification;
  const timed = ctx.services?.timed;
  if (!policy || !timed || record.expiresAt !== undefined) return false;
  const { scheduled } = await timed.schedule(accessRecertify, {
    profile: record.profile,
    at: record.createdAt + policy.everyMs,
    owner: record.requester,
    ...(record.thread
      ? {
          thread: {
            channelId: record.thread.channel,
            threadTs: record.thread.ts,
            requesterId: record.requester,
            profile: record.profile,
            ...(record.thread.teamId ? { teamId: record.thread.teamId } : {}),
          },
        }
      : {}),
    payload: { recordId: record.id, deviceUid: record.deviceUid, device: record.deviceName },
  });
  return scheduled;
}
