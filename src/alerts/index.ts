// The registry of alert kinds: the one list, and everything derived from it. Each kind is declared once, in
// its own file of kinds/ (defineAlertKind: name, summary, token roles, words, source, detect, …); this list
// is the only other place a kind is named. From it come the kinds' names in the order help and the docs
// list them (ALERT_KINDS), their zod enum and type (AlertKind, which subscriptions, events and schedules
// parse with), the scan's defaults (alertIntervals) and every kind's declaration by name (alertKindOf: its
// summary, roles and words for help, the docs, `/fw alerts` and the incident messages). Adding a kind is
// adding its file and its line below (docs/developing/add-an-alert-kind.md).
import { z } from 'zod';
import { audit } from './kinds/audit.js';
import { certificates } from './kinds/certificates.js';
import { conflict } from './kinds/conflict.js';
import { connectivity } from './kinds/connectivity.js';
import { deployments } from './kinds/deployments.js';
import { ha } from './kinds/ha.js';
import type { AlertKindSpec, SourceName } from './kinds/kind.js';
import { staged } from './kinds/staged.js';
import { upgrades } from './kinds/upgrades.js';

/** Every kind a channel can subscribe to, in the order help and the docs list them. */
export const ALERT_KIND_LIST = [
  connectivity,
  conflict,
  staged,
  ha,
  certificates,
  deployments,
  upgrades,
  audit,
] as const satisfies readonly AlertKindSpec<string, SourceName, unknown>[];

/** A kind's name, as channels subscribe with it and Redis keeps it: one of the list's own. */
export type AlertKind = (typeof ALERT_KIND_LIST)[number]['kind'];

/**
 * A kind with its source and state types erased, as the scan runs it: it hands the kind the items of the
 * kind's own source, and parses its state with the kind's schema.
 */
export type AnyAlertKind = AlertKindSpec<AlertKind, SourceName, unknown>;

export const ALERT_KINDS: readonly AlertKind[] = ALERT_KIND_LIST.map((spec) => spec.kind);

export const AlertKind = z.enum(ALERT_KINDS);

const BY_NAME = new Map<string, AnyAlertKind>(ALERT_KIND_LIST.map((spec) => [spec.kind, spec]));

/** A kind's declaration by its name. */
export function alertKindOf(kind: AlertKind): AnyAlertKind {
  const spec = BY_NAME.get(kind);
  // Only a name that was never parsed as an AlertKind gets here: every AlertKind is the name of a listed kind.
  if (!spec) throw new Error(`no alert kind ${kind}`);
  return spec;
}

/** Each kind's interval as it declares it (src/jobs/schedule.ts takes these as defaults). */
export function alertIntervals(): Record<AlertKind, number> {
  // Filled from the list the names come from: no name is left without its interval.
  const intervals = {} as Record<AlertKind, number>;
  for (const spec of ALERT_KIND_LIST) intervals[spec.kind] = spec.intervalMs;
  return intervals;
}

export type {
  AlertWords,
  Coverage,
  DetectSettings,
  Finding,
  SourceItem,
  WatchedDevice,
} from './kinds/kind.js';
