// Following a cdFMC provisioning to its end. Provisioning has two legs: the MSP portal's transaction, and,
// once that is DONE, a transaction on the managed tenant whose uid the portal's transaction carries in
// transactionDetails.TRANSACTION_UID_IN_TARGET_TENANT (to be followed with the managed tenant's token).
import { SccTransactionError } from './errors.js';
import type * as Model from './generated/models.js';
import { encodeUrlPart } from './request.js';
import { type FollowOptions, isTransactionFinished, type TransactionsArea } from './transactions.js';

export const TARGET_TENANT_TRANSACTION_KEY = 'TRANSACTION_UID_IN_TARGET_TENANT';

export type CdFmcStep =
  /** The portal's transaction is still PENDING or IN_PROGRESS: poll it again later. */
  | { done: false; status: string | undefined }
  /** The portal's leg is DONE: follow this transaction on the managed tenant. */
  | { done: true; targetTransactionUid: string };

/**
 * One step, no waiting: for a queue worker that polls the portal's transaction itself. Throws
 * SccTransactionError when the portal's transaction ended in ERROR or CANCELLED, or ended DONE without the
 * target tenant's transaction uid.
 */
export function targetTenantTransactionUid(transaction: Model.CdoTransaction): CdFmcStep {
  const status = transaction.cdoTransactionStatus ?? undefined;
  if (!isTransactionFinished(transaction)) return { done: false, status };
  const transactionUid = transaction.transactionUid ?? '(unknown)';
  const failure = (sentence: string): SccTransactionError =>
    new SccTransactionError({
      operationId: 'provisionCdFmcForTenantInMspPortal',
      method: 'GET',
      path: `/v1/transactions/${encodeUrlPart(transactionUid)}`,
      transactionUid,
      transactionStatus: status,
      errorMessage: transaction.errorMessage,
      errorDetails: transaction.errorDetails,
      sentence,
    });
  if (status !== 'DONE') throw failure(`cdFMC provisioning ended in ${status}`);
  const target = transaction.transactionDetails?.[TARGET_TENANT_TRANSACTION_KEY];
  if (!target) {
    throw failure(
      `cdFMC provisioning finished, but its transaction has no ${TARGET_TENANT_TRANSACTION_KEY} to follow on the managed tenant`,
    );
  }
  return { done: true, targetTransactionUid: target };
}

/**
 * Follows the portal's provisioning transaction (the 202 answer of tenants.provisionCdFmc) until it is DONE
 * and returns the uid of the transaction to follow on the managed tenant.
 */
export async function followCdFmcProvisioning(
  portalTransactions: TransactionsArea,
  provisioning: Model.CdoTransaction,
  options: FollowOptions = {},
): Promise<string> {
  const first = targetTenantTransactionUid(provisioning);
  if (first.done) return first.targetTransactionUid;
  if (!provisioning.transactionUid) {
    throw new SccTransactionError({
      operationId: 'provisionCdFmcForTenantInMspPortal',
      method: 'POST',
      path: '/v1/msp/tenants/{tenantUid}/cdfmc',
      transactionUid: '(unknown)',
      transactionStatus: first.status,
      sentence: 'cdFMC provisioning answered without a transaction uid to follow',
    });
  }
  const finished = await portalTransactions.follow(provisioning.transactionUid, options);
  const last = targetTenantTransactionUid(finished);
  // follow() only returns finished transactions, and targetTenantTransactionUid throws for every
  // finished state but a DONE with a target.
  if (!last.done) throw new Error(`transaction ${provisioning.transactionUid} returned unfinished`);
  return last.targetTransactionUid;
}
