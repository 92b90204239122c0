// Recertification of the permanent access rules fwbot created (issue 36, item 7), as people answer and
// review it: `/fw access recertify <rule>` is *Still needed* (the button of the question timed/
// accessRecertify.ts asks), recorded with its date and audited; `/fw access recertification` is the report:
// every permanent rule with where it stands (answered, due, overdue past the grace, not yet due), the
// overdue first, so rules nobody answers for are flagged where the team looks. The report also gives every
// permanent rule that has no question waiting its question (a rule recorded before `access.recertify_every`
// was set had none): once, since a waiting question is left as it is.
import { z } from 'zod';
import { type RecertificationState, recertificationState } from '../access/recertification.js';
import type { AccessRecord } from '../access/records.js';
import { UserError } from '../model/errors.js';
import { code, counted } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import { flag, text } from './args.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { scheduleRecertification } from './timed/accessRecertify.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function recordsOf(ctx: OperationContext) {
  const records = ctx.services?.accessRecords;
  if (!records) throw new UserError('This fwbot process cannot read the access rules it created.');
  return records;
}

function policyOf(ctx: OperationContext) {
  const policy = ctx.policy?.accessRequests?.recertification;
  if (!policy)
    throw new UserError(
      'Permanent access rules are not recertified here: `access.recertify_every` is not set in the profiles file.',
    );
  return policy;
}

/** `udp 10.1.0.0/24 → 10.9.9.9 514 on asa-branch-02`, quoted as typed. */
function ruleWords(record: AccessRecord): string {
  return `${record.protocol} ${untrusted(record.source)} → ${untrusted(record.destination)}${
    record.port === undefined ? '' : ` ${untrusted(record.port)}`
  } on ${untrusted(record.deviceName)}`;
}

const RecertifyFacts = z.object({
  recordId: z.string(),
  deviceUid: z.string(),
  deviceName: z.string(),
  ruleUid: z.string(),
  requester: z.string(),
  line: z.string(),
});
type RecertifyFacts = z.infer<typeof RecertifyFacts>;

async function recertifiable(ctx: OperationContext, ref: string): Promise<RecertifyFacts> {
  const record = await recordsOf(ctx).find(ctx.profile, ref);
  if (!record)
    throw new UserError(
      `fwbot created no access rule ${ref} in this profile that is still in place; \`/fw access recertification\` shows them.`,
    );
  if (record.expiresAt !== undefined)
    throw new UserError(
      `Access rule ${record.id} expires on ${day(record.expiresAt)}: only permanent rules are recertified.`,
    );
  return {
    recordId: record.id,
    deviceUid: record.deviceUid,
    deviceName: record.deviceName,
    ruleUid: record.ruleUid,
    requester: record.requester,
    line: `access rule ${record.id} (${record.protocol} ${record.source} → ${record.destination}${record.port === undefined ? '' : ` ${record.port}`} on ${record.deviceName})`,
  };
}

export const accessRecertify = defineOperation({
  id: 'access.recertify',
  words: ['access', 'recertify'],
  area: 'policy',
  failure: 'Could not record the answer',
  summary: 'Say that a permanent access rule you asked for is still needed (its recertification)',
  params: [
    { name: 'rule', kind: 'word', description: 'the record’s id (see `access list`) or the rule’s UUID' },
  ],
  args: z.object({ rule: text() }),
  role: 'viewer',
  approval: 'never',
  // The answer keeps a rule through firewalls for another period: every answer is in the audit trail.
  auditEveryCall: true,
  // The question's *Still needed* button (timed/accessRecertify.ts) runs it as the clicker.
  offeredAsButton: true,
  needs: ['accessRecords'],
  scc: [],
  examples: ['access recertify 2'],
  target: {
    facts: RecertifyFacts,
    resolve: async (ctx, args) => {
      const facts = await recertifiable(ctx, args.rule);
      return { facts, raw: { rule: facts.recordId } };
    },
    reread: async (ctx, facts) => {
      const record = await recordsOf(ctx).get(ctx.profile, facts.recordId);
      return record
        ? { found: true, facts }
        : { found: false, reason: `access rule ${facts.recordId} was removed meanwhile` };
    },
    compare: () => [],
    describe: (facts) => ({
      action: `say that access rule ${code(facts.recordId)} on ${code(facts.deviceName)} is still needed`,
      line: facts.line,
      fields: [
        { label: 'Rule', value: facts.line },
        { label: 'Rule UUID', value: facts.ruleUid },
      ],
      warnings: [],
    }),
  },
  run: async (ctx, _args, facts: RecertifyFacts) => {
    // Its requester answers for it: someone else saying it is needed would hide that nobody owns it.
    if (ctx.actor.userId !== facts.requester)
      throw new UserError(
        `Only ${userMention(facts.requester)}, who asked for access rule ${facts.recordId}, can say it is still needed; \`/fw access revoke ${facts.recordId}\` removes it.`,
      );
    const policy = policyOf(ctx);
    const now = ctx.now();
    const record = await recordsOf(ctx).update(ctx.profile, facts.recordId, { lastCertifiedAt: now });
    return { record, state: recertificationState(record, policy, now) };
  },
  render: ({ record, state }) => {
    const next = state && 'nextAt' in state ? ` The next question comes on ${day(state.nextAt)}.` : '';
    const text = `:white_check_mark: ${userMention(record.requester)} says access rule ${code(record.id)} (${ruleWords(record)}) is still needed, on ${day(record.lastCertifiedAt ?? 0)}.${next}`;
    return {
      summary: `access rule ${record.id} is still needed`,
      blocks: [{ kind: 'text', text }],
      visibility: 'in_channel',
    };
  },
});

const ORDER: Record<RecertificationState['kind'], number> = { overdue: 0, due: 1, answered: 2, 'not-due': 3 };

function stateWords(state: RecertificationState): string {
  switch (state.kind) {
    case 'overdue':
      return `*overdue*: asked ${state.askedAt === undefined ? `from ${day(state.since)}` : `on ${day(state.askedAt)}`}, unanswered since ${day(state.lateAt)}`;
    case 'due':
      return `due: ${state.askedAt === undefined ? 'to be asked' : `asked on ${day(state.askedAt)}`}, overdue from ${day(state.lateAt)}`;
    case 'answered':
      return `still needed (said on ${day(state.at)}), next on ${day(state.nextAt)}`;
    case 'not-due':
      return `first asked on ${day(state.nextAt)}`;
  }
}

export const accessRecertification = defineOperation({
  id: 'access.recertification',
  words: ['access', 'recertification'],
  area: 'policy',
  failure: 'Could not report the recertification',
  summary:
    'Report the recertification of the permanent access rules fwbot created: overdue, due, answered, not yet due',
  params: [
    { name: 'overdue', kind: 'word', flag: true, boolean: true, description: 'only the overdue rules' },
  ],
  args: z.object({ overdue: flag() }),
  role: 'viewer',
  approval: 'never',
  needs: ['accessRecords'],
  scc: [],
  examples: ['access recertification', 'access recertification --overdue'],
  run: async (ctx, args) => {
    const policy = policyOf(ctx);
    const now = ctx.now();
    const all = await recordsOf(ctx).list(ctx.profile);
    let scheduled = 0;
    for (const record of all) if (await scheduleRecertification(ctx, record)) scheduled += 1;
    const rows = all
      .flatMap((record) => {
        const state = recertificationState(record, policy, now);
        return state ? [{ record, state }] : [];
      })
      .filter((row) => !args.overdue || row.state.kind === 'overdue')
      .sort((a, b) => ORDER[a.state.kind] - ORDER[b.state.kind] || a.record.createdAt - b.record.createdAt);
    return {
      rows,
      everyDays: policy.everyMs / 86_400_000,
      graceDays: policy.graceMs / 86_400_000,
      overdueOnly: args.overdue,
      scheduled,
    };
  },
  render: ({ rows, everyDays, graceDays, overdueOnly, scheduled }) => {
    const overdue = rows.filter((row) => row.state.kind === 'overdue').length;
    const head =
      rows.length === 0
        ? `No ${overdueOnly ? 'overdue ' : ''}permanent access rule of fwbot’s to recertify here.`
        : `*${counted(rows.length, 'permanent access rule')}*${overdueOnly ? ' overdue' : ''}, asked every ${everyDays} days (overdue ${graceDays} days unanswered)${overdue > 0 && !overdueOnly ? `: *${overdue} overdue*` : ''}:`;
    const lines = rows.map(
      ({ record, state }) =>
        `• ${code(record.id)} ${ruleWords(record)} · by ${userMention(record.requester)} · ${untrusted(record.reason)} · ${stateWords(state)}`,
    );
    const hint =
      overdue > 0
        ? [
            'Nobody answered for the overdue ones: `/fw access revoke <id>` removes one (a second person approves).',
          ]
        : [];
    const late =
      scheduled > 0
        ? [
            `:calendar: ${counted(scheduled, 'permanent rule')} had no question waiting (recorded before \`access.recertify_every\` was set): each is asked now where its first question is past due, else when it falls due.`,
          ]
        : [];
    return {
      summary: head,
      blocks: [{ kind: 'text', text: [head, ...lines, ...hint, ...late].join('\n') }],
      visibility: 'ephemeral',
    };
  },
});

export const ACCESS_RECERTIFICATION_OPERATIONS: readonly Operation[] = [
  accessRecertification,
  accessRecertify,
];
