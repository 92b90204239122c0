// The reference drift check's report as a person reads it: what breaks fwbot first, then what it copes with,
// what is deprecated and what is new, one line per change naming the operations fwbot calls that reach it.
import { counted } from '../src/render/format.js';
import type { Drift, Finding, Severity } from './reference-drift.js';

const GROUPS: readonly { severity: Severity; title: string }[] = [
  { severity: 'breaks', title: 'Breaks fwbot' },
  { severity: 'copes', title: 'Changed, fwbot copes' },
  { severity: 'deprecated', title: 'Deprecated' },
  { severity: 'added', title: 'Added (info)' },
];

/** Beyond this many, a list of operation ids is cut with a count. */
const NAMED_AT_MOST = 3;

function named(ids: readonly string[], most = NAMED_AT_MOST): string {
  if (ids.length <= most) return ids.join(', ');
  return `${ids.slice(0, most).join(', ')} and ${ids.length - most} more`;
}

function line(finding: Finding): string {
  const operations = finding.operations.length > 0 ? `${named(finding.operations)}: ` : '';
  return `  - ${operations}${finding.where} ${finding.change} — ${finding.fwbot}`;
}

export function renderDrift(drift: Drift): string {
  const out: string[] = [];
  for (const { severity, title } of GROUPS) {
    const findings = drift.findings
      .filter((finding) => finding.severity === severity)
      .sort((a, b) => a.where.localeCompare(b.where) || a.change.localeCompare(b.change));
    if (findings.length === 0) continue;
    out.push(`${title} (${findings.length})`, ...findings.map(line), '');
  }
  if (out.length === 0) out.push('No change in anything fwbot calls, sends or reads.', '');
  if (drift.removedUnused.length > 0)
    out.push(`Removed, not called by fwbot: ${unusedOperations(drift.removedUnused)}.`);
  if (drift.beyondBaseline.length > 0)
    out.push(`Not in the reference, not called by fwbot: ${unusedOperations(drift.beyondBaseline)}.`);
  if (drift.removedUnused.length > 0 || drift.beyondBaseline.length > 0) out.push('');
  const breaks = drift.findings.filter((finding) => finding.severity === 'breaks').length;
  out.push(
    breaks === 0
      ? 'Result: nothing fwbot sends or reads broke.'
      : `Result: ${counted(breaks, 'change')} ${breaks === 1 ? 'breaks' : 'break'} fwbot.`,
  );
  return `${out.join('\n')}\n`;
}

/** Operations fwbot does not call are context: named when few, counted when many (a whole vendor file). */
function unusedOperations(ids: readonly string[]): string {
  const count = counted(ids.length, 'operation');
  return ids.length <= 10 ? `${count} (${ids.join(', ')})` : count;
}
