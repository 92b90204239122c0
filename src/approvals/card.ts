// The approval card as a View: what exactly will happen, on what, who asked, until when, and the buttons;
// after a decision the same card without buttons and with the decision. Pure: the card is handed to the
// chat as a View (chatNotifier.ts), and Slack's side makes Block Kit of it. What came from SCC or was typed (the target's facts, the command,
// a reason) goes in through untrusted() or code() (render/untrusted.ts), so it cannot dress up the card.

import type { Button, View, ViewBlock } from '../model/view.js';
import { code } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { commandButton } from '../render/paging.js';
import { codeAsLiteral, untrusted } from '../render/untrusted.js';
import { approversOf, principalMention, stillNeeded } from './approvers.js';
import { extraApproversWords, usualApprovalsNeeded } from './extraApprovers.js';
import type { ApprovalRecord, ApprovalRequest } from './record.js';
import { heldWhen } from './timing.js';

export const APPROVE_ACTION = 'fw.approval.approve';
export const REJECT_ACTION = 'fw.approval.reject';
export const CANCEL_ACTION = 'fw.approval.cancel';
export const REJECT_MODAL = 'fw.approval.reject_reason';
export const REASON_BLOCK = 'reason';
export const REASON_INPUT = 'reason_text';

/** The sentence at the top of the card: what will happen if someone approves (the operation's own words). */
export function whatWillHappen(request: ApprovalRequest): string {
  return request.target.description.action;
}

/** `14:43 UTC` for today, with the date otherwise: the card is read around the time it was posted. */
export function clockTime(epochMs: number, now: number): string {
  const iso = new Date(epochMs).toISOString();
  const sameDay = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 16)} UTC`;
}

export function buttonValue(id: string): string {
  return JSON.stringify({ v: 1, id });
}

/** The card's buttons while a request is pending (the App Home shows the same ones). */
export function pendingButtons(request: ApprovalRequest): Button[] {
  const value = buttonValue(request.id);
  return [
    {
      label: 'Approve',
      style: 'primary',
      action: { id: APPROVE_ACTION, value },
      confirm: {
        title: 'Approve this request?',
        text: `fwbot will ${codeAsLiteral(whatWillHappen(request))} right away. This cannot be undone.`,
        confirm: 'Approve and run',
        deny: 'Back',
        danger: true,
      },
    },
    { label: 'Reject', style: 'danger', action: { id: REJECT_ACTION, value } },
    { label: 'Cancel (requester)', action: { id: CANCEL_ACTION, value } },
  ];
}

/**
 * The Cancel button of a request held until its time: it runs `/fw deployments cancel <id>` as the person
 * who clicks (the catalogue's operation decides whether they may: its requester and approvers).
 */
export function heldButtons(record: ApprovalRecord): Button[] {
  if (record.state !== 'approved' || record.runAt === undefined) return [];
  const button = commandButton('Cancel…', `deployments cancel ${record.request.id}`, 'danger');
  if (!button) return [];
  return [
    {
      ...button,
      confirm: {
        title: 'Cancel the scheduled run?',
        text: `fwbot will not ${codeAsLiteral(whatWillHappen(record.request))}; the request ends and nobody can run it again.`,
        confirm: 'Cancel it',
        deny: 'Keep it',
        danger: true,
      },
    },
  ];
}

/** The line that replaces the buttons once the request is decided. */
export function statusLine(record: ApprovalRecord, now: number): string {
  const approvers = record.state === 'rejected' || record.state === 'cancelled' ? [] : approversOf(record);
  const by =
    approvers.length > 1
      ? approvers.map(userMention).join(' and ')
      : record.decidedBy
        ? `${userMention(record.decidedBy)}`
        : 'someone';
  const at = record.decidedAt === undefined ? '' : ` at ${clockTime(record.decidedAt, now)}`;
  switch (record.state) {
    case 'pending':
      return `Waiting for an approver until ${clockTime(record.request.expiresAt, now)}.`;
    case 'approved':
      if (record.runAt !== undefined && record.runAt > now)
        return `:calendar: Approved by ${by}${at}; scheduled for ${heldWhen({ runAt: record.runAt, runReason: record.runReason ?? 'window', runZone: record.runZone ?? 'UTC', runWindows: record.runWindows ?? '' }, now)}.`;
      return `:white_check_mark: Approved by ${by}${at}; running now.`;
    case 'executing':
      return `:white_check_mark: Approved by ${by}${at}; running now.`;
    case 'done':
      return `:white_check_mark: Approved by ${by}${at}. ${record.outcome?.summary ?? 'Done.'}`;
    case 'failed':
      return `:x: Approved by ${by}${at}. ${record.outcome?.summary ?? 'It failed.'} See the thread.`;
    case 'rejected':
      return `:no_entry: Rejected by ${by}${at}${record.reason ? `: ${untrusted(record.reason)}` : '.'}`;
    case 'cancelled':
      if (record.cancelledBy !== undefined)
        return `:heavy_multiplication_x: Approved by ${approversOf(record).map(userMention).join(' and ') || 'someone'}${at}; its scheduled run was cancelled by ${userMention(record.cancelledBy)}${record.cancelledAt === undefined ? '' : ` at ${clockTime(record.cancelledAt, now)}`}. Nothing was run.`;
      return `:heavy_multiplication_x: Cancelled by ${by}${at}.`;
    case 'expired':
      return `:hourglass: Expired at ${clockTime(record.request.expiresAt, now)} without a decision; nothing was run.`;
  }
}

/**
 * Who may approve a pending request and, when it needs several people, who approved so far and how many
 * are still needed.
 */
export function whoDecides(record: ApprovalRecord): string {
  const { request } = record;
  const needed = request.approvalsNeeded ?? 1;
  if (request.customerSide) return bothSides(record, request.customerSide);
  const who = request.approverRule
    ? `one of ${request.approverRule.principals.map(principalMention).join(', ')} (${request.approverRule.rules.map((rule) => code(rule)).join(', ')})`
    : 'someone with the approver role';
  const so = record.approvers ?? [];
  if (request.extraApprovers && request.extraApprovers.length > 0) {
    const usual = usualApprovalsNeeded(request);
    const done = so.length > 0 ? ` Approved so far by ${so.map(userMention).join(', ')}.` : '';
    return `Needs ${needed} approvals other than the requester’s: ${usual === 1 ? 'one' : String(usual)} from ${who}, and the extra approvers above.${done}`;
  }
  if (needed <= 1) return `${who.charAt(0).toUpperCase()}${who.slice(1)} other than the requester decides.`;
  const still = needed - so.length;
  const done = so.length > 0 ? ` Approved so far by ${so.map(userMention).join(', ')};` : '';
  return `Needs ${needed} approvals, each from ${who}, other than the requester.${done} ${still} more needed.`;
}

/** whoDecides for a request that needs the MSP's and the customer's approval (`customer_approvers`). */
function bothSides(record: ApprovalRecord, customer: NonNullable<ApprovalRequest['customerSide']>): string {
  const { request } = record;
  const ours = request.approverRule?.principals.map(principalMention).join(', ') ?? 'the MSP’s approvers';
  const rules = customer.rules.map((rule) => code(rule)).join(', ');
  const so = record.approvers ?? [];
  const done = so.length > 0 ? ` Approved so far by ${so.map(userMention).join(', ')}.` : '';
  const still = stillNeeded(record);
  return `Needs ${request.approvalsNeeded ?? 2} approvals other than the requester’s, from both sides (${rules}): one of the MSP’s approvers (${ours}) and one of the customer’s approvers (${customer.tenant}: ${customer.principals.map(principalMention).join(', ')}), who approve on this card.${done}${still ? ` Still needed: ${still}.` : ''}`;
}

/** The card for a request in any state: buttons only while it is pending. */
export function renderCard(record: ApprovalRecord, now: number): View {
  const { request } = record;
  const blocks: ViewBlock[] = [
    { kind: 'header', text: record.state === 'pending' ? 'Approval needed' : 'Approval request' },
    { kind: 'text', text: `${userMention(request.requesterId)} asks to *${whatWillHappen(request)}*.` },
    // The target's facts as read from SCC (or typed), a device's name even as a label: each shown as typed.
    {
      kind: 'fields',
      fields: request.target.description.fields.map(({ label, value }) => ({
        label: untrusted(label),
        value: untrusted(value),
      })),
    },
  ];
  // The ticket's shape is checked (catalogue/tickets.ts); its link, from the policy's ticket_url, is a
  // button that opens it, since Slack text from fwbot carries no links (render/mrkdwn.ts).
  if (request.ticket) {
    blocks.push({ kind: 'text', text: `*Change ticket:* ${code(request.ticket)}` });
    if (request.ticketUrl)
      blocks.push({
        kind: 'actions',
        buttons: [{ label: `Open ${request.ticket}`, url: request.ticketUrl }],
      });
  }
  const { warnings, code: exact, notes } = request.target.description;
  if (exact) blocks.push({ kind: 'code', text: exact, filename: `${request.id}.txt` });
  if (notes?.length) blocks.push({ kind: 'text', text: notes.join('\n') });
  if (warnings.length > 0) blocks.push({ kind: 'text', text: warnings.join('\n') });
  const extra = extraApproversWords(record);
  if (extra.length > 0) blocks.push({ kind: 'text', text: extra.join('\n') });
  blocks.push({
    kind: 'context',
    text: [
      `Command: ${code(request.commandText)}`,
      `requested by ${userMention(request.requesterId)} at ${clockTime(request.createdAt, now)}`,
      `expires ${clockTime(request.expiresAt, now)}`,
      `profile ${request.profile}`,
      `request ${request.id}`,
    ].join(' · '),
  });
  if (record.state === 'pending') {
    blocks.push({ kind: 'text', text: whoDecides(record) });
    blocks.push({ kind: 'actions', buttons: pendingButtons(request) });
  } else {
    blocks.push({ kind: 'text', text: statusLine(record, now) });
    const held = heldButtons(record);
    if (held.length > 0) blocks.push({ kind: 'actions', buttons: held });
  }
  const summary =
    record.state === 'pending'
      ? `Approval needed: ${userMention(request.requesterId)} asks to ${codeAsLiteral(whatWillHappen(request))}`
      : `Approval request ${request.id}: ${record.state}`;
  return { summary, blocks, visibility: 'in_channel' };
}
