// The words of the jobs themselves, outside any one kind of followed work (whose words live with the kind,
// src/follow/): the final reply that tells a thread how its followed work ended, the Cancel… offer (a
// View: the chat renders it), and a queued call's notes.
// Final mrkdwn: every string given is escaped here; the live mentions are the requester's and those fwbot
// made in a queued call's words (who lost a role).
import type { Outcome } from '../follow/index.js';
import type { View } from '../model/view.js';
import { cancelEndedView, cancelOfferView } from '../render/cancelOffer.js';
import { escapeAll, escapeMrkdwn, userMention } from '../render/mrkdwn.js';
import { commandButton } from '../render/paging.js';
import { type Subscriber, textBeside } from './payloads.js';

/** The requester's live mention (a malformed id stays escaped text). */
function mention(userId: string): string {
  return escapeMrkdwn(userMention(userId));
}

export function finalReply(subscriber: Subscriber, outcome: Outcome): string {
  return `${mention(subscriber.thread.requesterId)} *${escapeAll(subscriber.label)}*: ${outcome.text}`;
}

// --- the Cancel… offer of followed work SCC marks cancellable (src/render/cancelOffer.ts) ---

/** The offer in one thread: four-eyes only when the call that started the work had a second person. */
export function cancelOffer(subscriber: Subscriber, transactionUid: string): { text: string; view: View } {
  const approved = (subscriber.thread.approvedBy ?? []).length > 0;
  const { ticket } = subscriber.thread;
  const view = cancelOfferView(subscriber.label, transactionUid, approved, ticket);
  return { text: textBeside(view), view };
}

/** What the offer becomes when the work ends: the same message, its button gone. */
export function cancelEnded(subscriber: Subscriber, transactionUid: string): { text: string; view: View } {
  const view = cancelEndedView(subscriber.label, transactionUid);
  return { text: textBeside(view), view };
}

// --- a button an outcome offers (an access rule's governed removal when it was not verified) ---

/**
 * The outcome's button in its own message under the final reply: it runs its command line as if the one
 * who presses it typed it, with the ticket the starting call was made under (a ticket is one word).
 */
export function outcomeButton(
  subscriber: Subscriber,
  button: NonNullable<Outcome['button']>,
): { text: string; view: View } | undefined {
  const { ticket } = subscriber.thread;
  const made = commandButton(
    button.label,
    `${button.command}${ticket ? ` --ticket ${ticket}` : ''}`,
    'danger',
  );
  if (!made) return undefined;
  const view: View = {
    summary: `${subscriber.label}: ${button.label}`,
    blocks: [
      {
        kind: 'text',
        text: `${button.label.replace(/…$/, '')}: \`/fw ${button.command}\` asks for it like any change of a rule (a second person approves).`,
      },
      { kind: 'actions', buttons: [made] },
    ],
    visibility: 'in_channel',
  };
  return { text: textBeside(view), view };
}

// --- queued calls (src/jobs/operationQueue.ts) ---
// The words are the operation's queue declaration's, in View text (a mention fwbot made stays live, markup
// of fwbot's own such as *bold* stays): escaped here as the Block Kit renderer escapes a view's text.

/** The words a queued call is told in, from its operation's declaration (ErasedQueue.words). */
export interface QueuedCallWords {
  call: string;
  pace: string;
  check: string;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function queuedNote(words: QueuedCallWords, place: number, expectedStart: Date): string {
  const ahead = place - 1;
  const waiting = ahead === 0 ? 'none ahead of it' : `${ahead} ahead of it`;
  return escapeMrkdwn(
    `${capital(words.call)} is queued: place ${place} (${waiting}). ${words.pace}, so it should start ` +
      `around ${expectedStart.toISOString().slice(11, 19)} UTC.`,
  );
}

/**
 * The last word on a queued call that did not run to its outcome: `how` it ended (`not done`, `outcome
 * unknown`), and why, in View text (SCC's words in it are escaped like the rest).
 */
export function queuedCallEnded(requesterId: string, call: string, how: string, why: string): string {
  return `${mention(requesterId)} ${escapeMrkdwn(`${capital(call)}: ${how}. ${why}`)}`;
}
