// The approval card as a View: what exactly will happen, on what, who asked, until when, and the buttons;
// after a decision the same card without buttons and with the decision. Pure: the Slack side's
// renderBlocks turns it into Block Kit.
import type { Button, Field, View, ViewBlock } from '../render/view.js';
import type { ApprovalRecord, ApprovalRequest } from './record.js';
import { type InterfaceFacts, interfaceKind, interfaceLabel, type TargetSnapshot } from './snapshot.js';

export const APPROVE_ACTION = 'fw.approval.approve';
export const REJECT_ACTION = 'fw.approval.reject';
export const CANCEL_ACTION = 'fw.approval.cancel';
export const REJECT_MODAL = 'fw.approval.reject_reason';
export const REASON_BLOCK = 'reason';
export const REASON_INPUT = 'reason_text';

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** The sentence at the top of the card: what will happen if someone approves. */
export function whatWillHappen(target: TargetSnapshot): string {
  switch (target.kind) {
    case 'interface':
      return `delete the ${interfaceKind(target.interface.type)} ${code(interfaceLabel(target.interface))} on ${code(target.device.name)}`;
    case 'tenant':
      return `remove tenant ${code(target.tenant.name)} from the MSP portal`;
    case 'tenantUsers': {
      const n = target.usernames.length;
      return `remove ${n} user${n === 1 ? '' : 's'} from tenant ${code(target.tenant.name)}`;
    }
    case 'devices':
      return `upgrade the VPN client on ${target.devices.length} device(s): ${target.detail}`;
  }
}

function interfaceFields(device: string, facts: InterfaceFacts): Field[] {
  const fields: Field[] = [
    { label: 'Device', value: device },
    { label: 'Interface', value: interfaceLabel(facts) },
    { label: 'Kind', value: interfaceKind(facts.type) },
  ];
  if (facts.vlanId !== null) fields.push({ label: 'VLAN id', value: String(facts.vlanId) });
  if (facts.subInterfaceId !== null)
    fields.push({ label: 'Subinterface id', value: String(facts.subInterfaceId) });
  if (facts.parent !== null) fields.push({ label: 'Parent', value: facts.parent });
  if (facts.members.length > 0) fields.push({ label: 'Members', value: facts.members.join(', ') });
  fields.push({ label: 'IPv4', value: facts.ipv4 ?? 'none' });
  if (facts.ipv6.length > 0) fields.push({ label: 'IPv6', value: facts.ipv6.join(', ') });
  return fields;
}

function targetFields(target: TargetSnapshot): Field[] {
  switch (target.kind) {
    case 'interface':
      return interfaceFields(target.device.name, target.interface);
    case 'tenant':
      return [
        { label: 'Tenant', value: target.tenant.name },
        { label: 'Display name', value: target.tenant.displayName },
        {
          label: 'Devices in tenant',
          value: target.tenant.deviceCount === null ? 'unknown' : String(target.tenant.deviceCount),
        },
      ];
    case 'tenantUsers':
      return [
        { label: 'Tenant', value: target.tenant.name },
        { label: 'Usernames', value: target.usernames.join(', ') },
      ];
    case 'devices':
      return [
        { label: 'Devices', value: target.devices.map((d) => d.name).join(', ') },
        { label: 'Details', value: target.detail },
      ];
  }
}

/** What else goes with the target: approvers should see it before they click. */
export function dependentsWarning(target: TargetSnapshot): string | undefined {
  if (target.kind === 'tenant') {
    const count = target.tenant.deviceCount;
    return count
      ? `:warning: The tenant manages ${count} device(s); the portal loses access to all of them.`
      : undefined;
  }
  if (target.kind !== 'interface') return undefined;
  const lines: string[] = [];
  const facts = target.interface;
  if (facts.subinterfaces.length > 0) {
    lines.push(`:warning: Its subinterfaces depend on it: ${facts.subinterfaces.join(', ')}.`);
  }
  if (facts.members.length > 0) {
    lines.push(`:warning: Its member ports are freed from the EtherChannel: ${facts.members.join(', ')}.`);
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
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

function pendingButtons(request: ApprovalRequest): Button[] {
  const value = buttonValue(request.id);
  return [
    {
      label: 'Approve',
      style: 'primary',
      action: { id: APPROVE_ACTION, value },
      confirm: {
        title: 'Approve this request?',
        text: `fwbot will ${whatWillHappen(request.target).replace(/`/g, '')} right away. This cannot be undone.`,
        confirm: 'Approve and run',
        deny: 'Back',
        danger: true,
      },
    },
    { label: 'Reject', style: 'danger', action: { id: REJECT_ACTION, value } },
    { label: 'Cancel (requester)', action: { id: CANCEL_ACTION, value } },
  ];
}

/** The line that replaces the buttons once the request is decided. */
export function statusLine(record: ApprovalRecord, now: number): string {
  const by = record.decidedBy ? `<@${record.decidedBy}>` : 'someone';
  const at = record.decidedAt === undefined ? '' : ` at ${clockTime(record.decidedAt, now)}`;
  switch (record.state) {
    case 'pending':
      return `Waiting for an approver until ${clockTime(record.request.expiresAt, now)}.`;
    case 'approved':
      return `:white_check_mark: Approved by ${by}${at}; running now.`;
    case 'executing':
      return `:white_check_mark: Approved by ${by}${at}; running now.`;
    case 'done':
      return `:white_check_mark: Approved by ${by}${at}. ${record.outcome?.summary ?? 'Done.'}`;
    case 'failed':
      return `:x: Approved by ${by}${at}. ${record.outcome?.summary ?? 'It failed.'} See the thread.`;
    case 'rejected':
      return `:no_entry: Rejected by ${by}${at}${record.reason ? `: ${record.reason}` : '.'}`;
    case 'cancelled':
      return `:heavy_multiplication_x: Cancelled by ${by}${at}.`;
    case 'expired':
      return `:hourglass: Expired at ${clockTime(record.request.expiresAt, now)} without a decision; nothing was run.`;
  }
}

/** The card for a request in any state: buttons only while it is pending. */
export function renderCard(record: ApprovalRecord, now: number): View {
  const { request } = record;
  const blocks: ViewBlock[] = [
    { kind: 'header', text: record.state === 'pending' ? 'Approval needed' : 'Approval request' },
    { kind: 'text', text: `<@${request.requesterId}> asks to *${whatWillHappen(request.target)}*.` },
    { kind: 'fields', fields: targetFields(request.target) },
  ];
  const warning = dependentsWarning(request.target);
  if (warning) blocks.push({ kind: 'text', text: warning });
  blocks.push({
    kind: 'context',
    text: [
      `Command: ${code(request.commandText)}`,
      `requested by <@${request.requesterId}> at ${clockTime(request.createdAt, now)}`,
      `expires ${clockTime(request.expiresAt, now)}`,
      `profile ${request.profile}`,
      `request ${request.id}`,
    ].join(' · '),
  });
  if (record.state === 'pending') {
    blocks.push({ kind: 'text', text: 'Someone with the approver role other than the requester decides.' });
    blocks.push({ kind: 'actions', buttons: pendingButtons(request) });
  } else {
    blocks.push({ kind: 'text', text: statusLine(record, now) });
  }
  const summary =
    record.state === 'pending'
      ? `Approval needed: <@${request.requesterId}> asks to ${whatWillHappen(request.target).replace(/`/g, '')}`
      : `Approval request ${request.id}: ${record.state}`;
  return { summary, blocks, visibility: 'in_channel' };
}
