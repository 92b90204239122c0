// How a finding quotes SCC's change log in its thread: when, who, what, and the first lines of the diff.
// Every value from SCC goes through untrusted(): it stays inside its own field.
import { time } from '../../render/format.js';
import { untrusted } from '../../render/untrusted.js';
import type { ChangeEntry } from './kind.js';

/** Change-log events quoted per finding, newest first. */
const ENTRIES = 3;
/** Diff lines quoted per event; the rest is one `changelog` click away. */
const DIFF_LINES = 12;

export function changeLines(entries: readonly ChangeEntry[], lead: string): string[] {
  const shown = entries.slice(0, ENTRIES);
  if (shown.length === 0) return [`${lead}: SCC's change log has nothing for this device.`];
  const lines = [`${lead}:`];
  for (const entry of shown) {
    const who = entry.username ? untrusted(entry.username) : 'someone';
    const what = entry.description ? `: ${untrusted(entry.description)}` : '';
    const when = entry.date ? `${whenOf(entry.date)} ` : '';
    lines.push(`• ${when}${who} ${untrusted((entry.action ?? 'UNKNOWN').toLowerCase())}${what}`);
    const diff = (entry.diff ?? '').split(/\r?\n/).filter((line) => line.trim() !== '');
    for (const line of diff.slice(0, DIFF_LINES)) lines.push(`    ${untrusted(line)}`);
    if (diff.length > DIFF_LINES) lines.push(`    … ${diff.length - DIFF_LINES} more lines`);
  }
  return lines;
}

/** SCC's time as every alert shows a time (`2026-12-07 06:20 UTC`); one that does not parse, as SCC wrote it. */
function whenOf(date: string): string {
  return Number.isNaN(Date.parse(date)) ? untrusted(date) : time(date);
}

/** Who made the changes, once each, in order of appearance. */
export function whoChanged(entries: readonly ChangeEntry[]): string[] {
  return [...new Set(entries.flatMap((entry) => (entry.username ? [entry.username] : [])))];
}
