// The registry of timed work: the one list of kinds (each declared in its own file of this folder, kind.ts
// says what a declaration holds). The store and the pass (src/jobs/timed/) parse items and run them through
// timedKindOf(); operations schedule, cancel and list them through their context's `timed` service with a
// kind's declaration in hand. Adding a kind is adding its file and its line below
// (docs/developing/add-a-timed-job.md).

import { accessExpiry } from './accessExpiry.js';
import { accessExpiryReminder } from './accessExpiryReminder.js';
import { accessRecertify } from './accessRecertify.js';
import { deviceUpgradeInWindow } from './deviceUpgradeInWindow.js';
import { heldRunReminder } from './heldRunReminder.js';
import type { AnyTimedKind } from './kind.js';
import { mspUpgradeInWindow } from './mspUpgradeInWindow.js';
import { mspUpgradeProof } from './mspUpgradeProof.js';
import { shunExpiry } from './shunExpiry.js';
import { shunGuard } from './shunGuard.js';
import { upgradeProof } from './upgradeProof.js';

/** Every kind of timed work fwbot runs, in the order the docs list them. */
export const TIMED_KINDS: readonly AnyTimedKind[] = [
  heldRunReminder as unknown as AnyTimedKind,
  shunExpiry as unknown as AnyTimedKind,
  deviceUpgradeInWindow as unknown as AnyTimedKind,
  mspUpgradeInWindow as unknown as AnyTimedKind,
  shunGuard as unknown as AnyTimedKind,
  upgradeProof as unknown as AnyTimedKind,
  mspUpgradeProof as unknown as AnyTimedKind,
  accessRecertify as unknown as AnyTimedKind,
  accessExpiry as unknown as AnyTimedKind,
  accessExpiryReminder as unknown as AnyTimedKind,
];

/** A registry of kinds by name; refuses two kinds of one name. */
export function timedRegistry(kinds: readonly AnyTimedKind[]): ReadonlyMap<string, AnyTimedKind> {
  const byName = new Map<string, AnyTimedKind>();
  for (const kind of kinds) {
    if (byName.has(kind.kind)) throw new Error(`two timed kinds are named ${kind.kind}`);
    byName.set(kind.kind, kind);
  }
  return byName;
}

export { accessExpiry, EXPIRY_WAIT_MS } from './accessExpiry.js';
export { accessExpiryReminder, EXPIRY_REMINDER_MS, EXTEND_BUTTON_BY } from './accessExpiryReminder.js';
export { accessRecertify, scheduleRecertification } from './accessRecertify.js';
export { deviceUpgradeInWindow, UPGRADE_WAIT_MS, upgradeRunName } from './deviceUpgradeInWindow.js';
export { heldRunReminder, REMIND_BEFORE_MS, REMIND_IF_AHEAD_MS } from './heldRunReminder.js';
export type {
  AnyTimedKind,
  Interrupted,
  PersonToCheck,
  RoleHolder,
  ThreadPlace,
  TimedContext,
  TimedItemInfo,
  TimedKindSpec,
  TimedOutcome,
} from './kind.js';
export { defineTimedKind, PersonToCheckSchema, RoleHolderSchema } from './kind.js';
export { MSP_UPGRADE_WAIT_MS, mspUpgradeInWindow, mspUpgradeRunName } from './mspUpgradeInWindow.js';
export { mspUpgradeProof } from './mspUpgradeProof.js';
export { isShunned, shunExpiry } from './shunExpiry.js';
export { EVENT_WORDS, GUARD_EVERY_MS, REAPPLY_MARGIN_MS, shunGuard } from './shunGuard.js';
export { upgradeProof } from './upgradeProof.js';
