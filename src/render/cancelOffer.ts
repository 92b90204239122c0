// The Cancel… offer in the thread of followed work that SCC marks cancellable, and what it becomes once
// the work has ended. Its button runs `transactions cancel` as if typed by the one who presses it
// (COMMAND_ACTION), so the dispatcher applies that operation's declaration: who may, and whether a second
// person must agree, which is only where the call that started the work needed one.
import type { View } from '../model/view.js';
import { code } from './format.js';
import { commandButton } from './paging.js';
import { untrusted } from './untrusted.js';

/**
 * The command line the button runs; `--without-approval` is checked against what fwbot recorded. The
 * ticket the starting call was made under goes with it (a ticket is one word, catalogue/tickets.ts), so
 * a policy that requires tickets does not refuse the button the cancel of a ticketed change.
 */
export function cancelCommand(transactionUid: string, approved: boolean, ticket?: string): string {
  return `transactions cancel ${transactionUid}${approved ? '' : ' --without-approval'}${ticket ? ` --ticket ${ticket}` : ''}`;
}

export function cancelOfferView(
  label: string,
  transactionUid: string,
  approved: boolean,
  ticket?: string,
): View {
  const button = commandButton('Cancel…', cancelCommand(transactionUid, approved, ticket), 'danger');
  const who = approved
    ? 'Its requester or an approver may stop it; a second person approves the cancel, as they did the call.'
    : 'Its requester may stop it; no second person is asked, as none was for the call.';
  const text =
    `*${untrusted(label)}*: SCC lets transaction ${code(transactionUid)} be cancelled while it runs. ${who} ` +
    'What it already did stays done (SCC does not roll back).';
  return {
    summary: `${label}: it may be cancelled while it runs`,
    blocks: [{ kind: 'text', text }, ...(button ? [{ kind: 'actions' as const, buttons: [button] }] : [])],
    visibility: 'in_channel',
  };
}

export function cancelEndedView(label: string, transactionUid: string): View {
  return {
    summary: `${label}: ended, nothing left to cancel`,
    blocks: [
      {
        kind: 'text',
        text: `*${untrusted(label)}*: transaction ${code(transactionUid)} has ended; there is nothing left to cancel.`,
      },
    ],
    visibility: 'in_channel',
  };
}
