// `/fw transactions cancel <transaction-uuid>`: stops an SCC transaction that SCC itself marks cancellable
// (a deploy or a command-line run, while pending or in progress). Four-eyes by default: a deploy cancelled
// part-way is not rolled back by SCC, so the devices it already reached keep what it wrote, and that is a
// change to a firewall's fate (the policy file may lower it). The target is the transaction, read again
// right before the cancel: one that finished meanwhile is said, not cancelled.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import type { CdoTransaction } from '../scc/generated/models.js';
import { uuid } from './args.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { isNotFound } from './sccErrors.js';

const TransactionFacts = z.object({
  uid: z.string(),
  type: z.string(),
  status: z.string(),
  entityUid: z.string().optional(),
});
type TransactionFacts = z.infer<typeof TransactionFacts>;

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
  ],
  args: z.object({ transaction: uuid() }),
  role: 'operator',
  approval: { default: 'four-eyes' },
  scc: ['getTransaction', 'cancelTransaction'],
  examples: ['transactions cancel 7131daad-e813-4b8f-8f42-be1e241e8cdb'],
  target: {
    facts: z.object({ transaction: TransactionFacts }),
    resolve: async (ctx, args) => {
      const read = await cancellable(ctx, args.transaction);
      if (!read.found) throw new UserError(read.reason);
      return { facts: { transaction: read.facts }, raw: { transaction: read.facts.uid } };
    },
    reread: async (ctx, facts) => {
      const read = await cancellable(ctx, facts.transaction.uid);
      return read.found ? { found: true, facts: { transaction: read.facts } } : read;
    },
    compare: (before, after) =>
      before.transaction.type === after.transaction.type
        ? []
        : [`The transaction is now a ${after.transaction.type}, not a ${before.transaction.type}.`],
    describe: ({ transaction }) => ({
      action: `cancel the ${code(transaction.type)} transaction ${code(transaction.uid)}`,
      line: `${untrusted(transaction.type)} transaction ${untrusted(transaction.uid)}`,
      fields: [
        { label: 'Transaction', value: transaction.uid },
        { label: 'Type', value: transaction.type },
        { label: 'Status', value: transaction.status },
        ...(transaction.entityUid ? [{ label: 'Entity', value: transaction.entityUid }] : []),
      ],
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
