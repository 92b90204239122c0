// What `/fw config history` and `/fw config diff` show (issue 28): the running configurations fwbot kept
// of an ASA, and what changed between two of them (or one and what the device runs now). Pure: the view
// model from what the operation read. A diff too long for a message becomes a file (blocks.ts).

import { maskConfigSecrets } from '../model/configSecrets.js';
import type { DiffCounts } from '../model/unifiedDiff.js';
import type { View } from '../model/view.js';
import { code, counted } from './format.js';
import { untrusted } from './untrusted.js';

/** A kept snapshot as the history lists it. */
export interface SnapshotLine {
  id: string;
  at: number;
  phase: 'before-deploy' | 'after-deploy' | 'before-upgrade' | 'after-upgrade';
  requestId: string;
  approvalId?: string | undefined;
  transactionUid?: string | undefined;
  actor: string;
  bytes: number;
}

const PHASE_WORDS: Record<SnapshotLine['phase'], string> = {
  'before-deploy': 'before deploy',
  'after-deploy': 'after deploy',
  'before-upgrade': 'before software upgrade',
  'after-upgrade': 'after software upgrade',
};

/** `2026-11-26 22:04 UTC`. */
export function snapshotTime(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

export function renderConfigHistory(history: {
  device: string;
  retentionDays: number;
  snapshots: readonly SnapshotLine[];
}): View {
  const { device, retentionDays, snapshots } = history;
  const kept = `fwbot keeps a device's running configuration right before each deploy and after it ends, for ${counted(retentionDays, 'day')}.`;
  if (snapshots.length === 0)
    return {
      summary: `No snapshots of ${device}`,
      blocks: [{ kind: 'text', text: `No snapshots of ${untrusted(device)} are kept. ${kept}` }],
      visibility: 'ephemeral',
    };
  const newest = snapshots[0]?.id ?? '';
  return {
    summary: `${counted(snapshots.length, 'snapshot')} of ${device}`,
    blocks: [
      {
        kind: 'text',
        text: `*${counted(snapshots.length, 'snapshot')}* of ${untrusted(device)}, newest first.`,
      },
      {
        kind: 'table',
        columns: ['Snapshot', 'Kept', 'When', 'Deploy', 'Asked by', 'Size'],
        rows: snapshots.map((s) => [
          s.id,
          snapshotTime(s.at),
          PHASE_WORDS[s.phase],
          s.approvalId ? `approval ${s.approvalId}` : `request ${s.requestId}`,
          s.actor,
          size(s.bytes),
        ]),
        caption: `Running configurations of ${device} kept by fwbot`,
        numeric: [0],
      },
      {
        kind: 'context',
        text: `${kept} Compare: ${code(`/fw config diff ${device} ${newest}`)} (with what it runs now) or two snapshot ids.`,
      },
    ],
    visibility: 'ephemeral',
  };
}

/** One side of a comparison: a kept snapshot, or what the device runs now. */
export type DiffSide = { kind: 'snapshot'; id: string; at: number } | { kind: 'current' };

export function sideWords(side: DiffSide): string {
  return side.kind === 'current'
    ? 'the running configuration now'
    : `snapshot ${side.id} (${snapshotTime(side.at)})`;
}

export function renderConfigDiff(diff: {
  device: string;
  from: DiffSide;
  to: DiffSide;
  /** The unified diff, or undefined when the two have the same lines. */
  changes: { text: string; counts: DiffCounts } | undefined;
}): View {
  const { device, from, to, changes } = diff;
  const between = `${sideWords(from)} and ${sideWords(to)}`;
  if (!changes)
    return {
      summary: `${device}: no difference`,
      blocks: [{ kind: 'text', text: `${untrusted(device)}: no difference between ${between}.` }],
      visibility: 'ephemeral',
    };
  const tag = (side: DiffSide) => (side.kind === 'current' ? 'now' : side.id);
  return {
    summary: `${device}: ${counted(changes.counts.removed, 'line')} removed, ${changes.counts.added} added`,
    blocks: [
      {
        kind: 'text',
        text: `${untrusted(device)}: *${counted(changes.counts.removed, 'line')} removed, ${changes.counts.added} added* between ${between}.`,
      },
      // Snapshots keep what the device ran, secrets too: they are masked where they are shown.
      {
        kind: 'code',
        text: maskConfigSecrets(changes.text),
        filename: `${device}-${tag(from)}-${tag(to)}.diff`,
      },
    ],
    visibility: 'ephemeral',
  };
}
