// Where a permanent access rule stands in its recertification (issue 36, item 7): every `everyMs` from its
// creation its requester is asked whether it is still needed; the answer (*Still needed*) counts for the
// cycle it was given in, and a question left unanswered past the grace is overdue. Pure: the record, the
// policy and the time decide it, so `/fw access recertification` says the same whether or not the question
// was already posted (a process down at that minute asks on its next pass).
import type { Recertification } from '../config/sections/access.js';
import type { AccessRecord } from './records.js';

export type RecertificationState =
  /** Its first question is not due yet. */
  | { kind: 'not-due'; nextAt: number }
  /** Asked (or about to be) this cycle, within the grace. */
  | { kind: 'due'; since: number; lateAt: number; askedAt: number | undefined }
  /** Asked this cycle and not answered within the grace. */
  | { kind: 'overdue'; since: number; lateAt: number; askedAt: number | undefined }
  /** Said to be still needed this cycle. */
  | { kind: 'answered'; at: number; nextAt: number };

/** When the rule's current cycle began (its latest question), or undefined before the first. */
export function cycleStart(record: AccessRecord, policy: Recertification, now: number): number | undefined {
  const cycles = Math.floor((now - record.createdAt) / policy.everyMs);
  return cycles < 1 ? undefined : record.createdAt + cycles * policy.everyMs;
}

/** The next question's time after `now`. */
export function nextQuestionAt(record: AccessRecord, policy: Recertification, now: number): number {
  const cycles = Math.max(0, Math.floor((now - record.createdAt) / policy.everyMs));
  return record.createdAt + (cycles + 1) * policy.everyMs;
}

/** Where a permanent rule stands now; undefined for a rule with an expiry (it ends, it is not recertified). */
export function recertificationState(
  record: AccessRecord,
  policy: Recertification,
  now: number,
): RecertificationState | undefined {
  if (record.expiresAt !== undefined) return undefined;
  const since = cycleStart(record, policy, now);
  const nextAt = nextQuestionAt(record, policy, now);
  if (since === undefined) return { kind: 'not-due', nextAt };
  if (record.lastCertifiedAt !== undefined && record.lastCertifiedAt >= since)
    return { kind: 'answered', at: record.lastCertifiedAt, nextAt };
  const asked = record.certificationAskedAt;
  const askedAt = asked !== undefined && asked >= since ? asked : undefined;
  const lateAt = since + policy.graceMs;
  return now < lateAt ? { kind: 'due', since, lateAt, askedAt } : { kind: 'overdue', since, lateAt, askedAt };
}
