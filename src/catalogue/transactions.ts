// `/fw transactions cancel <transaction-uuid>`: stops an SCC transaction that SCC itself marks cancellable
// (a deploy or a command-line run, while pending or in progress). Four-eyes by default: a deploy cancelled
// part-way is not rolled back by SCC, so the devices it already reached keep what it wrote, and that is a
// change to a firewall's fate (the policy file may lower it). The target is the transaction, read again
// right before the cancel: one that finished meanwhile is said, not cancelled.
//
// The Cancel… button in the thread of followed work (src/render/cancelOffer.ts) runs this command. Where
// the call that started the work ran without a second person, the button says `--without-approval` and
// the cancel is not four-eyes either; the flag is never taken on trust: fwbot's own record of who started
// the work (its threads, src/jobs/subscriptions.ts) must say the call had no approver, and only the work's
// requester or approvers may cancel work fwbot follows.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import type { CdoTransaction } from '../scc/generated/models.js';
import { flag, uuid } from './args.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { isNotFound } from './sccErrors.js';
import type { FollowedOrigin } from './services.js';

const TransactionFacts = z.object({
  uid: z.string(),
  type: z.string(),
  status: z.string(),
  entityUid: z.string().optional(),
});
type TransactionFacts = z.infer<typeof TransactionFacts>;

/** Who started the work, as fwbot recorded it when it began following it (absent: it follows nothing). */
const StartedBy = z.object({ requesters: z.array(z.string()), approvedBy: z.array(z.string()) });

const WITHOUT_APPROVAL = 'without-approval';

const CancelArgs = z.object({ transaction: uuid(), [WITHOUT_APPROVAL]: flag() });
type CancelArgs = z.infer<typeof CancelArgs>;

const mentions = (ids: readonly string[]) => ids.map(userMention).join(', ');

/**
 * Checks the call against fwbot's record of who started the work: `--without-approval` only where that
 * call had no approver, and only its requester or approvers for work fwbot follows. A sentence otherwise.
 */
async function startedBy(
  ctx: OperationContext,
  args: CancelArgs,
): Promise<z.infer<typeof StartedBy> | undefined> {
  const origin: FollowedOrigin | undefined = await ctx.services?.followed?.startedBy(
    ctx.profile,
    args.transaction,
  );
  if (args[WITHOUT_APPROVAL]) {
    if (!origin)
      throw new UserError(
        `fwbot has no record of how transaction ${args.transaction} was started, so cancelling it needs a second person: run it without --${WITHOUT_APPROVAL}.`,
      );
    if (origin.approvedBy.length > 0)
      throw new UserError(
        `The call that started transaction ${args.transaction} was approved by ${mentions(origin.approvedBy)}, so cancelling it needs a second person too: run it without --${WITHOUT_APPROVAL}.`,
      );
  }
  if (!origin) return undefined;
  const allowed = [...origin.requesters, ...origin.approvedBy];
  if (!allowed.includes(ctx.actor.userId))
    throw new UserError(
      `Only who asked for the work of transaction ${args.transaction} (${mentions(origin.requesters)})${origin.approvedBy.length > 0 ? ` or approved it (${mentions(origin.approvedBy)})` : ''} may cancel it.`,
    );
  return { requesters: origin.requesters, approvedBy: origin.approvedBy };
}

function factsOf(transaction: CdoTransaction, uid: string): TransactionFacts {
  return {
    uid: transaction.transactionUid ?? uid,
    type: transaction.transactionType ?? 'UNKNOWN',
    status: transaction.cdoTransactionStatus ?? 'UNKNOWN',
    ...(transaction.entityUid ? { entityUid: transaction.entityUid } : {}),
  };
}

const RUNNING = new Set(['PENDING', 'IN_PROGRESS']);

/** The transaction, if SCC still lets it be cancelled; otherwise why not, in a sentence. */
async function cancellable(
  ctx: OperationContext,
  uid: string,
): Promise<{ found: true; facts: TransactionFacts } | { found: false; reason: string }> {
  let transaction: CdoTransaction;
  try {
    transaction = await ctx.scc.transactions.get(uid);
  } catch (error) {
    if (isNotFound(error))
      return {
        found: false,
        reason: `SCC knows no transaction ${uid} (it forgets them two hours after they end).`,
      };
    throw error;
  }
  const facts = factsOf(transaction, uid);
  if (!RUNNING.has(facts.status))
    return {
      found: false,
      reason: `Transaction ${uid} is ${facts.status}: there is nothing left to cancel.`,
    };
  if (transaction.cancellable !== true)
    return {
      found: false,
      reason: `SCC does not let a ${facts.type} transaction be cancelled (only those it marks cancellable, such as deploys).`,
    };
  return { found: true, facts };
}

export const transactionsCancel = defineOperation({
  id: 'transactions.cancel',
  words: ['transactions', 'cancel'],
  area: 'changes',
  failure: 'Could not cancel the transaction',
  summary: 'Cancel an SCC transaction SCC marks cancellable (a deploy or command-line run still running)',
  params: [
    {
      name: 'transaction',
      kind: 'uuid',
      description: 'the transaction’s UUID (in the thread that follows it)',
    },
    {
      name: WITHOUT_APPROVAL,
      kind: 'word',
      flag: true,
      boolean: true,
      description:
        'the call that started it had no second person, so neither does its cancel (fwbot checks its own record)',
    },
  ],
  args: CancelArgs,
  role: 'operator',
  approval: { default: 'four-eyes' },
  // Four-eyes where the work was: a flag checked against fwbot's record (target.resolve) before anything runs.
  governs: {
    which: 'cancels of work that itself needed approval',
    applies: (args) => !args[WITHOUT_APPROVAL],
  },
  // Cancelling stops a change part-way: every cancel is in the audit trail, four-eyes or not.
  auditEveryCall: true,
  offeredAsButton: true,
  scc: ['getTransaction', 'cancelTransaction'],
  examples: ['transactions cancel 7131daad-e813-4b8f-8f42-be1e241e8cdb'],
  target: {
    facts: z.object({ transaction: TransactionFacts, startedBy: StartedBy.optional() }),
    resolve: async (ctx, args) => {
      const origin = await startedBy(ctx, args);
      const read = await cancellable(ctx, args.transaction);
      if (!read.found) throw new UserError(read.reason);
      return {
        facts: { transaction: read.facts, ...(origin ? { startedBy: origin } : {}) },
        raw: { transaction: read.facts.uid, ...(args[WITHOUT_APPROVAL] ? { [WITHOUT_APPROVAL]: true } : {}) },
      };
    },
    reread: async (ctx, facts) => {
      const read = await cancellable(ctx, facts.transaction.uid);
      return read.found
        ? {
            found: true,
            facts: { transaction: read.facts, ...(facts.startedBy ? { startedBy: facts.startedBy } : {}) },
          }
        : read;
    },
    compare: (before, after) =>
      before.transaction.type === after.transaction.type
        ? []
        : [`The transaction is now a ${after.transaction.type}, not a ${before.transaction.type}.`],
    describe: ({ transaction, startedBy }) => ({
      action: `cancel the ${code(transaction.type)} transaction ${code(transaction.uid)}`,
      line: `${untrusted(transaction.type)} transaction ${untrusted(transaction.uid)}`,
      fields: [
        { label: 'Transaction', value: transaction.uid },
        { label: 'Type', value: transaction.type },
        { label: 'Status', value: transaction.status },
        ...(transaction.entityUid ? [{ label: 'Entity', value: transaction.entityUid }] : []),
      ],
      ...(startedBy
        ? {
            notes: [
              `Started by ${mentions(startedBy.requesters)}${startedBy.approvedBy.length > 0 ? `, approved by ${mentions(startedBy.approvedBy)}` : ', with no second person'} (as fwbot recorded it).`,
            ],
          }
        : {}),
      warnings: [
        ':warning: SCC does not roll back what a transaction already did: a deploy cancelled part-way leaves the devices it reached with what it wrote, and the rest with the changes still staged.',
      ],
    }),
  },
  run: async (ctx, _args, { transaction }) => ({
    before: transaction,
    after: await ctx.scc.transactions.cancel(transaction.uid),
  }),
  render: ({ before, after }, _args, meta) =>
    announcement(
      {
        sentence: `cancelled the ${code(before.type)} transaction ${code(before.uid)}`,
        tense: 'done',
        details: [['Status', after.cdoTransactionStatus ?? 'unknown']],
        next: 'What it did before it stopped stays done (SCC does not roll back); staged changes it did not deploy stay staged.',
      },
      meta,
    ),
});

export const TRANSACTION_OPERATIONS: readonly Operation[] = [transactionsCancel];
