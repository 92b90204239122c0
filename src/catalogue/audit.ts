// `/fw audit [n]`: the latest decisions and executions of the approval trail, for admins. Reads the
// trail through ctx.services.audit, so it runs wherever the approvals service does.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import type { View } from '../model/view.js';
import { counted } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import { optionalInt } from './args.js';
import { type AuditRecord, defineOperation } from './operation.js';

export const AUDIT_DEFAULT_COUNT = 20;
export const AUDIT_MAX_COUNT = 100;

const ACTION_ICONS: Record<string, string> = {
  requested: ':memo:',
  approved: ':white_check_mark:',
  rejected: ':no_entry:',
  cancelled: ':heavy_multiplication_x:',
  expired: ':hourglass:',
  refused: ':lock:',
  executed: ':gear:',
  failed: ':x:',
  aborted: ':warning:',
};

/** Slack user ids become mentions; `fwbot` (the sweeper, recovery) stays a word. */
function who(actor: string): string {
  return /^[UW][A-Z0-9]{2,}$/.test(actor) ? `${userMention(actor)}` : actor;
}

export function auditLine(record: AuditRecord): string {
  const when = `${record.at.slice(0, 10)} ${record.at.slice(11, 19)} UTC`;
  const parts = [
    `${ACTION_ICONS[record.action] ?? '•'} \`${when}\` ${who(record.actor)} *${record.action}* \`${record.operationId}\``,
    // What the trail recorded from SCC or people (a target's name, a reject reason) is shown as typed.
    untrusted(record.target),
    untrusted(record.outcome),
    record.transactionUid ? `transaction \`${record.transactionUid}\`` : undefined,
    record.approvalId ? `request \`${record.approvalId}\`` : undefined,
    record.ticket ? `ticket ${untrusted(record.ticket)}` : undefined,
  ];
  return parts.filter((p) => p !== undefined && p !== '').join(' · ');
}

export function renderAudit(records: readonly AuditRecord[], asked: number): View {
  if (records.length === 0) {
    return {
      summary: 'The audit trail is empty.',
      blocks: [{ kind: 'text', text: 'The audit trail is empty.' }],
      visibility: 'ephemeral',
    };
  }
  const summary = `The latest ${counted(records.length, 'audit record')}`;
  return {
    summary,
    blocks: [
      { kind: 'header', text: 'Audit trail' },
      { kind: 'text', text: records.map(auditLine).join('\n') },
      {
        kind: 'context',
        text: `Newest first; ${records.length} of the ${asked} asked for. Records older than the retention are trimmed.`,
      },
    ],
    visibility: 'ephemeral',
  };
}

export const auditOperation = defineOperation({
  id: 'audit',
  words: ['audit'],
  area: 'audit',
  failure: 'Could not read the audit trail',
  summary: 'The latest approval decisions and executions (admins only)',
  params: [
    {
      name: 'count',
      kind: 'int',
      description: `how many records, newest first (1–${AUDIT_MAX_COUNT}, default ${AUDIT_DEFAULT_COUNT})`,
      optional: true,
    },
  ],
  args: z.object({ count: optionalInt(1, AUDIT_MAX_COUNT) }),
  role: 'admin',
  approval: 'never',
  needs: ['audit'],
  scc: [],
  examples: ['audit', 'audit 50'],
  run: async (ctx, args) => {
    const audit = ctx.services?.audit;
    if (!audit)
      throw new UserError('The audit trail is not available in this process (approvals are not running).');
    return audit.latest(args.count ?? AUDIT_DEFAULT_COUNT);
  },
  render: (records, args) => renderAudit(records, args.count ?? AUDIT_DEFAULT_COUNT),
});
