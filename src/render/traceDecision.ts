// What decided a packet-tracer verdict, read from its phases the way an engineer reads them. The first
// phase that dropped decides a drop; a drop without one is decided by the Result block's drop reason (a
// failed translation points at the NAT rule that gave none). An allowed packet was allowed by the first
// access-list line that permitted it; the layer-2 MAC access list most devices print as phase 1 (`Implicit
// Rule`, `MAC Access list`) never decides, and a packet no access-list line took part in was let through by
// the interfaces' security levels, which the card says rather than inventing a rule. Also the translations
// an answer shows: `Untranslate`, and source NAT as `Static translate` / `Dynamic translate` (8.3 and later).

/** One phase of an answer, as packetTracer.ts reads it. */
export interface TracePhase {
  /** The phase's number as printed (`Phase: 3`). */
  number: number;
  type: string;
  subtype: string;
  /** `ALLOW`, `DROP`, … as printed, upper-cased. */
  result: string;
  /** The configuration lines under `Config:`, as printed (nested lines keep their leading space). */
  config: string[];
  /** The lines under `Additional Information:`, trimmed. */
  info: string[];
}

export type TraceDecision =
  /** An access-list line decided (permit or deny), or an access list allowed without printing its line. */
  | {
      kind: 'access-list';
      phase: TracePhase;
      /** `access-list outside_access_in extended permit tcp any object WEB-01 eq https`, when printed. */
      line?: string;
      /** The access list's name (from the line, else from the access-group line). */
      acl?: string;
      /** `access-group outside_access_in in interface outside`, when printed. */
      group?: string;
      /** FTD: the access-control rule's name from its remark (`L4 RULE: Allow web`). */
      ruleName?: string;
    }
  /** The implicit deny at the end of the access lists that apply. */
  | { kind: 'implicit-deny'; phase: TracePhase; acl?: string; group?: string }
  /** Allowed with no access-list line: no list applies, the security levels let it through. */
  | { kind: 'security-levels'; phase?: TracePhase }
  /** A translation dropped it: a NAT phase that dropped, or a failed translation after the NAT rule's phase. */
  | { kind: 'nat'; phase?: TracePhase }
  | { kind: 'no-route'; phase?: TracePhase }
  /** Another phase dropped it (an inspection, a VPN check, Snort on FTD). */
  | { kind: 'phase'; phase: TracePhase }
  /** Dropped with no phase that dropped and nothing more particular: the drop reason says why. */
  | { kind: 'drop-reason' };

const ACCESS_LIST_LINE = /^access-list\s+\S+\s/;
const REMARK = /^access-list\s+\S+\s+(?:line\s+\d+\s+)?remark\b/;

const trimmedConfig = (phase: TracePhase) => phase.config.map((l) => l.trim()).filter((l) => l !== '');
const isAccessList = (phase: TracePhase) => phase.type === 'ACCESS-LIST';
const isRoute = (phase: TracePhase) => /ROUTE-LOOKUP$/.test(phase.type);
const isNat = (phase: TracePhase) => /(?:^|-)NAT$/.test(phase.type);

/**
 * The layer-2 (MAC) access list every frame passes first: it says so (`MAC Access list`), or its detail
 * matches on MAC addresses, or it is an implicit allow printed before the route lookup.
 */
export function isLayer2List(phase: TracePhase, phases: readonly TracePhase[]): boolean {
  if (!isAccessList(phase)) return false;
  if (phase.info.some((l) => /MAC Access list|\bmac=|l3_type=/i.test(l))) return true;
  const firstRoute = phases.findIndex(isRoute);
  const implicitOnly = trimmedConfig(phase).every((l) => /^implicit rule$/i.test(l));
  return (
    phase.result === 'ALLOW' &&
    implicitOnly &&
    phase.config.length > 0 &&
    firstRoute !== -1 &&
    phases.indexOf(phase) < firstRoute
  );
}

function accessListDecision(phase: TracePhase): TraceDecision {
  const lines = trimmedConfig(phase);
  const group = lines.find((l) => /^access-group\s/.test(l));
  const line = lines.find((l) => ACCESS_LIST_LINE.test(l) && !REMARK.test(l));
  const acl = (line ?? group)?.split(/\s+/)[1];
  const ruleName = lines
    .map((l) => /\bremark rule-id \d+: L[47] RULE: (.+)$/.exec(l)?.[1]?.trim())
    .find((name) => name !== undefined && name !== '');
  const known = { ...(acl ? { acl } : {}), ...(group ? { group } : {}) };
  if (line !== undefined || (phase.result === 'ALLOW' && lines.length === 0))
    return {
      kind: 'access-list',
      phase,
      ...(line ? { line } : {}),
      ...known,
      ...(ruleName ? { ruleName } : {}),
    };
  return phase.result === 'DROP'
    ? { kind: 'implicit-deny', phase, ...known }
    : { kind: 'security-levels', phase };
}

/** `(nat-xlate-failed) NAT failed` → `nat-xlate-failed`. */
export function dropCode(reason: string | undefined): string | undefined {
  return reason === undefined ? undefined : /^\(([^)\s]+)\)/.exec(reason)?.[1]?.toLowerCase();
}

function droppedBy(phase: TracePhase): TraceDecision {
  if (isAccessList(phase)) return accessListDecision(phase);
  if (isRoute(phase)) return { kind: 'no-route', phase };
  if (isNat(phase)) return { kind: 'nat', phase };
  return { kind: 'phase', phase };
}

export function decide(
  phases: readonly TracePhase[],
  action: 'allow' | 'drop',
  dropReason: string | undefined,
): TraceDecision {
  if (action === 'drop') {
    const dropped = phases.find((p) => p.result === 'DROP');
    if (dropped) return droppedBy(dropped);
    const code = dropCode(dropReason);
    if (code === 'no-route') return { kind: 'no-route' };
    if (code?.startsWith('nat-')) {
      // The rule that was to translate it: the last NAT phase that names one.
      const rule = [...phases].reverse().find((p) => isNat(p) && trimmedConfig(p).length > 0);
      return { kind: 'nat', ...(rule ? { phase: rule } : {}) };
    }
    return { kind: 'drop-reason' };
  }
  const lists = phases.filter((p) => isAccessList(p) && !isLayer2List(p, phases));
  const decided = lists
    .filter((p) => p.result === 'ALLOW')
    .map(accessListDecision)
    .find((d) => d.kind === 'access-list');
  if (decided) return decided;
  const implicit = lists.find((p) => p.result === 'ALLOW');
  return { kind: 'security-levels', ...(implicit ? { phase: implicit } : {}) };
}

const TRANSLATION =
  /^(?:Untranslate|Static translate|Dynamic translate|Identity translate|Translate)\s+\S+\s+to\s+\S+/;

/** The translations an answer shows, in phase order, each once. */
export function translations(phases: readonly TracePhase[]): string[] {
  const found = phases.flatMap((p) => p.info.filter((line) => TRANSLATION.test(line)));
  return [...new Set(found)];
}
