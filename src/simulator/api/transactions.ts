// CDO transactions: every asynchronous operation answers 202 with one. A transaction goes PENDING →
// IN_PROGRESS → DONE or ERROR on the simulated clock, is visible only to its own tenant, answers 202
// while unfinished and 200 once finished, and is gone (404) two simulated hours after its last update.
// Deploys and command-line runs are `cancellable` while unfinished (cancelTransaction, api/governance.ts).

import type * as Model from '../../scc/generated/models.js';
import { notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { uuidParam } from '../http/input.js';
import { iso, type SimRuntime } from '../runtime.js';
import type { TransactionRecord, TransactionStatus, TransactionType } from '../state/model.js';

export const TRANSACTION_TTL_MS = 2 * 3_600_000;

/**
 * The types SCC lets a caller cancel while PENDING or IN_PROGRESS (cancelTransaction): deploys and
 * command-line runs. Any other type answers 422.
 */
const CANCELLABLE_TYPES: ReadonlySet<TransactionType> = new Set<TransactionType>([
  'DEPLOY_ASA_DEVICE_CHANGES',
  'DEPLOY_FTD_DEVICE_CHANGES',
  'EXECUTE_ASA_COMMAND',
  'EXECUTE_CLI_COMMAND',
]);

export const isCancellable = (type: TransactionType): boolean => CANCELLABLE_TYPES.has(type);

export type TransactionOutcome =
  | { ok: true; details?: Record<string, string> }
  | { ok: false; errorMessage: string; errorDetails?: Record<string, string> };

export interface TransactionPlan {
  tenantUid: string;
  type: TransactionType;
  entityUid?: string;
  entityUrl?: string;
  details?: Record<string, string>;
  /** Simulated milliseconds spent PENDING, then IN_PROGRESS. */
  pendingMs: number;
  runningMs: number;
  /** Decides the outcome when the work finishes, and applies its effects to the world. */
  finish: () => TransactionOutcome;
}

/** Creates a transaction in `status` without scheduling anything: the caller drives it. */
export function openTransaction(
  sim: SimRuntime,
  init: Omit<TransactionPlan, 'pendingMs' | 'runningMs' | 'finish'> & { status?: TransactionStatus },
): TransactionRecord {
  const now = sim.clock.now();
  const tx: TransactionRecord = {
    uid: sim.state.rng.uuid(),
    tenantUid: init.tenantUid,
    type: init.type,
    status: init.status ?? 'PENDING',
    submissionTime: now,
    lastUpdatedTime: now,
    details: { ...(init.details ?? {}) },
    ...(init.entityUid === undefined ? {} : { entityUid: init.entityUid }),
    ...(init.entityUrl === undefined ? {} : { entityUrl: init.entityUrl }),
  };
  sim.state.transactions.set(tx.uid, tx);
  return tx;
}

export function updateTransaction(
  sim: SimRuntime,
  tx: TransactionRecord,
  change: {
    status: TransactionStatus;
    details?: Record<string, string>;
    errorMessage?: string;
    errorDetails?: Record<string, string>;
  },
): void {
  tx.status = change.status;
  tx.lastUpdatedTime = sim.clock.now();
  if (change.details !== undefined) Object.assign(tx.details, change.details);
  if (change.errorMessage !== undefined) tx.errorMessage = change.errorMessage;
  if (change.errorDetails !== undefined) tx.errorDetails = change.errorDetails;
}

/** Creates a transaction and schedules its walk to DONE or ERROR. */
export function startTransaction(sim: SimRuntime, plan: TransactionPlan): TransactionRecord {
  const tx = openTransaction(sim, plan);
  const state = sim.state;
  const startedAt = tx.submissionTime + sim.clock.span(plan.pendingMs);
  // A cancelled transaction (api/governance.ts) neither moves on nor applies its work.
  const live = () => sim.state === state && tx.status !== 'CANCELLED';
  sim.clock.schedule(startedAt, () => {
    if (!live()) return;
    updateTransaction(sim, tx, { status: 'IN_PROGRESS' });
  });
  sim.clock.schedule(startedAt + sim.clock.span(plan.runningMs), () => {
    if (!live()) return;
    const outcome = plan.finish();
    if (outcome.ok) {
      updateTransaction(sim, tx, {
        status: 'DONE',
        ...(outcome.details ? { details: outcome.details } : {}),
      });
    } else {
      updateTransaction(sim, tx, {
        status: 'ERROR',
        errorMessage: outcome.errorMessage,
        ...(outcome.errorDetails ? { errorDetails: outcome.errorDetails } : {}),
      });
    }
  });
  return tx;
}

export function transactionDto(sim: SimRuntime, tx: TransactionRecord): Model.CdoTransaction {
  return {
    transactionUid: tx.uid,
    tenantUid: tx.tenantUid,
    ...(tx.entityUid === undefined ? {} : { entityUid: tx.entityUid }),
    ...(tx.entityUrl === undefined ? {} : { entityUrl: tx.entityUrl }),
    transactionPollingUrl: `${sim.baseUrl}/v1/transactions/${tx.uid}`,
    submissionTime: iso(tx.submissionTime),
    lastUpdatedTime: iso(tx.lastUpdatedTime),
    transactionType: tx.type,
    cdoTransactionStatus: tx.status,
    cancellable: isCancellable(tx.type) && (tx.status === 'PENDING' || tx.status === 'IN_PROGRESS'),
    transactionDetails: { ...tx.details },
    ...(tx.errorMessage === undefined ? {} : { errorMessage: tx.errorMessage }),
    ...(tx.errorDetails === undefined ? {} : { errorDetails: { ...tx.errorDetails } }),
  };
}

/** The 202 every asynchronous operation answers with. */
export function accepted(sim: SimRuntime, tx: TransactionRecord) {
  return { status: 202, body: transactionDto(sim, tx) };
}

const isFinished = (status: TransactionStatus) =>
  status === 'DONE' || status === 'ERROR' || status === 'CANCELLED';

export const getTransaction: Handler = (ctx: RequestContext) => {
  const uid = uuidParam(ctx, 'transactionUid');
  const tx = ctx.state.transactions.get(uid);
  if (tx !== undefined && ctx.now >= tx.lastUpdatedTime + ctx.sim.clock.span(TRANSACTION_TTL_MS)) {
    // Deleted two hours after its last update, like SCC.
    ctx.state.transactions.delete(uid);
  } else if (tx !== undefined && tx.tenantUid === ctx.principal.tenant.uid) {
    return { status: isFinished(tx.status) ? 200 : 202, body: transactionDto(ctx.sim, tx) };
  }
  throw notFound(`Transaction ${uid} not found`, { transactionUid: { value: uid } });
};

/** Transactions: this file's handlers, which the table (operations.ts) spreads. */
export const transactionHandlers = {
  getTransaction,
} satisfies Partial<OperationHandlers>;
