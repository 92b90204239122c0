// The words fwbot says in a thread about followed work, shared by every kind: pure functions from SCC's
// answers to plain sentences (Slack mrkdwn). Outcomes are said after the subscriber's own label, so two
// threads that follow one transaction each read it under the name they gave it. Words of one kind live in
// that kind's file.
//
// What these functions return is posted as it is, so it is final mrkdwn: every string they are given
// (SCC's names, statuses and error messages, labels, tenant names, error texts) is escaped here, so none
// can ping anyone or forge a link. Strings made here (an Outcome's text, a progress line) are already
// mrkdwn and are not escaped again.
import { escapeAll } from '../render/mrkdwn.js';
import type { CdoTransaction } from '../scc/generated/models.js';
import type { Outcome } from './kind.js';

export function duration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = minutes / 60;
  return `${Number.isInteger(hours) ? hours : hours.toFixed(1)} h`;
}

/** SCC's messages sometimes end without a full stop; ours always do. Escaped: the text is SCC's. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return escapeAll(/[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`);
}

/** PENDING → "pending", VALIDATING_INPUTS → "validating inputs". */
export function statusWords(status: string | null | undefined): string {
  return escapeAll((status ?? 'unknown').toLowerCase().replace(/_/g, ' '));
}

function details(map: Record<string, string> | null | undefined): string {
  const entries = Object.entries(map ?? {});
  return entries.length === 0
    ? ''
    : ` Details: ${entries.map(([k, v]) => `${escapeAll(k)}: ${escapeAll(String(v))}`).join('; ')}.`;
}

/** A finished transaction's end; undefined while it runs. */
export function transactionOutcome(rawUid: string, tx: CdoTransaction): Outcome | undefined {
  const uid = escapeAll(rawUid);
  const kind = tx.transactionType ? ` (${escapeAll(tx.transactionType)})` : '';
  switch (tx.cdoTransactionStatus) {
    case 'DONE':
      return { status: 'succeeded', text: `done. SCC finished transaction \`${uid}\`${kind}.` };
    case 'ERROR': {
      const said = tx.errorMessage ? `: ${sentence(tx.errorMessage)}` : '.';
      return {
        status: 'failed',
        text: `failed. SCC reports an error for transaction \`${uid}\`${kind}${said}${details(tx.errorDetails)}`,
      };
    }
    case 'CANCELLED':
      return { status: 'failed', text: `cancelled. Transaction \`${uid}\`${kind} was cancelled in SCC.` };
    default:
      return undefined;
  }
}

export function expiredOutcome(what: string): Outcome {
  return {
    status: 'unknown',
    text:
      `outcome unknown: SCC no longer keeps ${escapeAll(what)} (SCC deletes transactions two hours after their last ` +
      'update), so fwbot cannot tell how it ended. Check the result in SCC itself.',
  };
}

export function deadlineOutcome(what: string, elapsedMs: number, lastStatus: string | undefined): Outcome {
  const still = lastStatus ? `; it was still ${escapeAll(lastStatus)}` : '';
  return {
    status: 'stopped',
    text:
      `fwbot stopped following ${escapeAll(what)} after ${duration(elapsedMs)}${still}. ` +
      'It may still finish: check it in SCC later.',
  };
}

/** SCC refused to report on the followed thing (a 4xx): following cannot go on. */
export function refusedOutcome(what: string, sccSays: string): Outcome {
  return { status: 'failed', text: `fwbot cannot follow ${escapeAll(what)}: ${escapeAll(sccSays)}` };
}

export function gaveUpOutcome(what: string, attempts: number, lastError: string): Outcome {
  return {
    status: 'stopped',
    text:
      `fwbot gave up following ${escapeAll(what)} after ${attempts} failed attempts to reach SCC (last error: ` +
      `${escapeAll(lastError)}). The operation itself may still finish: check it in SCC, and ask an admin to look at ` +
      "fwbot's connection to SCC if this keeps happening.",
  };
}

export function malformedOutcome(reason: string): Outcome {
  return {
    status: 'failed',
    text: `fwbot cannot follow this: its tracking job is malformed (${escapeAll(reason)}). Please report this to the fwbot admins.`,
  };
}

/** The one progress message of a thread; `progress` is mrkdwn made here (a kind's progress, a note). */
export function statusLine(label: string, progress: string): string {
  return `*${escapeAll(label)}*: ${progress}`;
}
