// The registry of alert kinds as the scan reads them: the one list, in ALERT_KINDS' order, each kind's
// declaration in its own file of kinds/ (what it reads, how often, what it keeps, how a difference becomes
// a finding). The scan (src/jobs/alerts/scan.ts) runs them through alertKindOf(); adding a kind is adding
// it to ALERT_KINDS (model.ts), its file, and its line below.
import { audit } from './kinds/audit.js';
import { certificates } from './kinds/certificates.js';
import { conflict } from './kinds/conflict.js';
import { connectivity } from './kinds/connectivity.js';
import { deployments } from './kinds/deployments.js';
import { ha } from './kinds/ha.js';
import type { AlertKindSpec } from './kinds/kind.js';
import { staged } from './kinds/staged.js';
import { upgrades } from './kinds/upgrades.js';
import { ALERT_KINDS, type AlertKind } from './model.js';

/** A kind with its item and state types erased, as the scan runs it (its state parsed with its schema). */
// biome-ignore lint/suspicious/noExplicitAny: the scan hands each kind the items its own source reads.
export type AnyAlertKind = AlertKindSpec<any, unknown>;

export const ALERT_SCANS: Readonly<Record<AlertKind, AnyAlertKind>> = {
  connectivity,
  conflict,
  staged,
  ha,
  certificates,
  deployments,
  upgrades,
  audit,
} as Record<AlertKind, AnyAlertKind>;

export function alertKindOf(kind: AlertKind): AnyAlertKind {
  return ALERT_SCANS[kind];
}

/** Each kind's interval as it declares it (src/jobs/schedule.ts takes these as defaults). */
export function alertIntervals(): Record<AlertKind, number> {
  return Object.fromEntries(ALERT_KINDS.map((kind) => [kind, ALERT_SCANS[kind].intervalMs])) as Record<
    AlertKind,
    number
  >;
}

export type { Coverage, DetectSettings, Finding, WatchedDevice } from './kinds/kind.js';
