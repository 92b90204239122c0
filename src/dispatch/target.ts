// Reading a governed call's target again right before it runs, and comparing it with what was approved
// (or resolved): the one rule for the executor of approvals and for Reveal clicks.
import type { Operation, OperationContext } from '../catalogue/operation.js';

export type Reread =
  | { ok: true; facts: unknown }
  /** The target no longer exists (for an operation that removes it, proof an interrupted call took effect). */
  | { ok: false; gone: true; reason: string; why: string }
  /** It exists, but what was approved has changed: one sentence per change. */
  | { ok: false; gone: false; changes: string[]; why: string };

export async function readTargetAgain(
  op: Operation,
  ctx: OperationContext,
  approved: unknown,
): Promise<Reread> {
  const target = op.target;
  if (!target) throw new Error(`${op.id} declares no target to read again`);
  const read = await target.reread(ctx, approved);
  if (!read.found) return { ok: false, gone: true, reason: read.reason, why: `${read.reason}.` };
  const changes = target.compare(approved, read.facts);
  if (changes.length > 0) {
    return {
      ok: false,
      gone: false,
      changes,
      why: `the target changed since the request.\nWhat changed:\n${changes.map((c) => `• ${c}`).join('\n')}`,
    };
  }
  return { ok: true, facts: read.facts };
}
