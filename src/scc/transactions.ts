// SCC transactions: the 202 answer of every long operation. `get` reads one (SCC answers 202 while it is
// PENDING or IN_PROGRESS and 200 once finished, and forgets it two hours after its last update); `follow`
// polls one until it finishes, for callers that may wait in place. Queue workers poll step by step instead
// (src/jobs/), with isTransactionFinished. `cancel` stops one SCC marks cancellable.

import type { CallOptions, SccCaller } from './call.js';
import { abortableSleep } from './callPolicy.js';
import { formatDuration, SccTransactionError } from './errors.js';
import type * as Model from './generated/models.js';
import { encodeUrlPart } from './request.js';

export const FINISHED_TRANSACTION_STATUSES: readonly string[] = ['DONE', 'ERROR', 'CANCELLED'];

export function isTransactionFinished(transaction: Model.CdoTransaction): boolean {
  return FINISHED_TRANSACTION_STATUSES.includes(transaction.cdoTransactionStatus ?? '');
}

export interface FollowOptions {
  /** First wait between polls; doubles up to maxIntervalMs. */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** Gives up (SccTransactionError) when the transaction has not finished after this long. */
  maxWaitMs?: number;
  /** Injectable so tests drive time instead of sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
  /** Each state read, e.g. to show progress. */
  onUpdate?: (transaction: Model.CdoTransaction) => void;
}

export interface TransactionsArea {
  get(transactionUid: string, options?: CallOptions): Promise<Model.CdoTransaction>;
  /** Polls until DONE, ERROR or CANCELLED and returns that last state (it does not throw on ERROR). */
  follow(transactionUid: string, options?: FollowOptions): Promise<Model.CdoTransaction>;
  /**
   * Cancels a PENDING or IN_PROGRESS transaction SCC marks `cancellable` and returns it CANCELLED; SCC
   * answers 422 for a type that cannot be cancelled.
   */
  cancel(transactionUid: string, options?: CallOptions): Promise<Model.CdoTransaction>;
}

export function createTransactionsArea({ call }: SccCaller): TransactionsArea {
  const get = async (transactionUid: string, options: CallOptions = {}): Promise<Model.CdoTransaction> =>
    (await call('getTransaction', { path: { transactionUid }, ...options })).data;

  const follow = async (
    transactionUid: string,
    options: FollowOptions = {},
  ): Promise<Model.CdoTransaction> => {
    const { intervalMs = 1_000, maxIntervalMs = 10_000, maxWaitMs = 15 * 60_000 } = options;
    const { sleep = abortableSleep, now = Date.now, signal, onUpdate } = options;
    const deadline = now() + maxWaitMs;
    let wait = intervalMs;
    for (;;) {
      const transaction = await get(transactionUid, signal ? { signal } : {});
      onUpdate?.(transaction);
      if (isTransactionFinished(transaction)) return transaction;
      if (now() + wait > deadline) {
        throw new SccTransactionError({
          operationId: 'getTransaction',
          method: 'GET',
          path: `/v1/transactions/${encodeUrlPart(transactionUid)}`,
          transactionUid,
          transactionStatus: transaction.cdoTransactionStatus ?? undefined,
          sentence: `Transaction ${transactionUid} was still ${transaction.cdoTransactionStatus ?? 'unfinished'} after ${formatDuration(maxWaitMs)}`,
        });
      }
      await sleep(wait, signal);
      wait = Math.min(maxIntervalMs, wait * 2);
    }
  };

  const cancel = async (transactionUid: string, options: CallOptions = {}): Promise<Model.CdoTransaction> =>
    (await call('cancelTransaction', { path: { transactionUid }, ...options })).data;

  return { get, follow, cancel };
}
