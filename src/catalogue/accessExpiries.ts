// The timed work of an access rule that expires (issue 36, item 7): its removal at the expiry
// (timed/accessExpiry.ts) and the reminder three days before (timed/accessExpiryReminder.ts), scheduled when
// the approved request records the rule, moved when `/fw access extend` is approved, withdrawn when
// `/fw access revoke` removes the rule first. One place, so the three agree on the items' ids.
import type { AccessRecord } from '../access/records.js';
import type { OperationContext } from './context.js';
import type { PersonToCheck, TimedRef } from './services.js';
import { accessExpiry } from './timed/accessExpiry.js';
import { accessExpiryReminder, EXPIRY_REMINDER_MS } from './timed/accessExpiryReminder.js';

/** What the removal needs besides the record: how to verify it, and the approval it was given with. */
export interface ExpiryFacts {
  ruleText: string;
  script: string;
  approvalId?: string | undefined;
  people?: readonly PersonToCheck[] | undefined;
  ticket?: string | undefined;
}

const refs = (profile: string, ruleUid: string): TimedRef[] => [
  { kind: accessExpiry.kind, profile, key: ruleUid },
  { kind: accessExpiryReminder.kind, profile, key: ruleUid },
];

/** The approvers among the people an approval re-checks: everyone but the requester, once each. */
function approversOf(people: readonly PersonToCheck[], requester: string): string[] {
  const ids = people.flatMap((person) => (Array.isArray(person) ? person : [person]).map((p) => p.userId));
  return [...new Set(ids)].filter((id) => id !== requester);
}

/**
 * Schedules the removal at the record's expiry and the reminder three days before (none when that is
 * already past). Idempotent: scheduling again while they wait changes nothing.
 */
export async function scheduleExpiry(
  ctx: OperationContext,
  record: AccessRecord,
  facts: ExpiryFacts,
): Promise<void> {
  const timed = ctx.services?.timed;
  if (!timed || record.expiresAt === undefined) return;
  const thread = record.thread
    ? {
        profile: record.profile,
        requesterId: record.requester,
        channelId: record.thread.channel,
        threadTs: record.thread.ts,
        ...(record.thread.teamId ? { teamId: record.thread.teamId } : {}),
      }
    : undefined;
  const device = { deviceUid: record.deviceUid, device: record.deviceName };
  await timed.schedule(accessExpiry, {
    profile: record.profile,
    at: record.expiresAt,
    owner: record.requester,
    thread,
    payload: {
      recordId: record.id,
      ruleUid: record.ruleUid,
      ruleText: facts.ruleText,
      ...device,
      script: facts.script,
      requester: record.requester,
      ...(facts.approvalId ? { approvalId: facts.approvalId } : {}),
      approvedBy: approversOf(facts.people ?? [], record.requester),
      ...(facts.ticket ? { ticket: facts.ticket } : {}),
    },
  });
  const remindAt = record.expiresAt - EXPIRY_REMINDER_MS;
  if (remindAt > ctx.now())
    await timed.schedule(accessExpiryReminder, {
      profile: record.profile,
      at: remindAt,
      owner: record.requester,
      thread,
      payload: { recordId: record.id, ruleUid: record.ruleUid, ...device, requester: record.requester },
    });
}

/**
 * Moves the removal and the reminder to a new expiry (the record already says it). An item that ended
 * (the reminder already said) is scheduled again from its payload, so the new expiry is reminded too.
 */
export async function moveExpiry(ctx: OperationContext, record: AccessRecord): Promise<void> {
  const timed = ctx.services?.timed;
  if (!timed || record.expiresAt === undefined) return;
  const [removal, reminder] = refs(record.profile, record.ruleUid) as [TimedRef, TimedRef];
  for (const [ref, kind, at] of [
    [removal, accessExpiry, record.expiresAt],
    [reminder, accessExpiryReminder, record.expiresAt - EXPIRY_REMINDER_MS],
  ] as const) {
    if (at <= ctx.now()) continue;
    const moved = await timed.reschedule(ref, at);
    if (moved.outcome === 'rescheduled') continue;
    // Ended (or never scheduled): the payload of the last one, scheduled anew at the new time.
    const last = (await timed.history({ kind: ref.kind, profile: ref.profile })).find(
      (item) => item.key === ref.key,
    );
    if (!last) continue;
    await timed.schedule(kind as typeof accessExpiry, {
      profile: record.profile,
      at,
      owner: record.requester,
      thread: last.thread,
      payload: last.payload as never,
    });
  }
}

/** Withdraws the removal and the reminder of a rule removed early. */
export async function cancelExpiry(
  ctx: OperationContext,
  record: AccessRecord,
  reason: string,
): Promise<void> {
  const timed = ctx.services?.timed;
  if (!timed) return;
  for (const ref of refs(record.profile, record.ruleUid))
    await timed.cancel(ref, ctx.actor.userId, reason).catch((error: unknown) => {
      ctx.log.warn({ err: error, ref }, 'timed work of a revoked access rule not cancelled');
    });
}
