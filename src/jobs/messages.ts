// The words of the jobs themselves, outside any one kind of followed work (whose words live with the kind,
// src/follow/): the final reply that tells a thread how its followed work ended, and a queued tenant
// creation's notes. Final mrkdwn: every string given is escaped here; the one live mention is the
// requester's.
import type { Outcome } from '../follow/index.js';
import { escapeAll, escapeMrkdwn, userMention } from '../render/mrkdwn.js';
import type { Subscriber } from './payloads.js';

/** The requester's live mention (a malformed id stays escaped text). */
function mention(userId: string): string {
  return escapeMrkdwn(userMention(userId));
}

export function finalReply(subscriber: Subscriber, outcome: Outcome): string {
  return `${mention(subscriber.thread.requesterId)} *${escapeAll(subscriber.label)}*: ${outcome.text}`;
}

// --- tenant creation ---

export function tenantQueuedNote(tenantName: string, place: number, expectedStart: Date): string {
  const ahead = place - 1;
  const waiting = ahead === 0 ? 'none ahead of it' : `${ahead} ahead of it`;
  return (
    `The creation of tenant *${escapeAll(tenantName)}* is queued: place ${place} (${waiting}). SCC creates at most one ` +
    `tenant every 30 seconds, so it should start around ${expectedStart.toISOString().slice(11, 19)} UTC.`
  );
}

export function tenantStartedNote(tenantName: string, transactionUid: string): string {
  return `SCC accepted the creation of tenant *${escapeAll(tenantName)}* (transaction \`${escapeAll(transactionUid)}\`); following it.`;
}

export function tenantRefusedText(requesterId: string, tenantName: string, sccSays: string): string {
  return `${mention(requesterId)} *create tenant ${escapeAll(tenantName)}*: not created. ${escapeAll(sccSays)}`;
}
