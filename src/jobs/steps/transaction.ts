// Following a plain 202 Transaction (with, for some, one read once it is DONE), and a command sent
// through the device gateway.
import { expiredOutcome, gatewayGoneOutcome, gatewayOutcome, transactionOutcome } from '../messages.js';
import { stepNewApiUsers } from './apiUsers.js';
import { end, type Step, tookOf, unlessGone } from './step.js';

export const stepTransaction: Step<'transaction'> = async (ctx, request, state) => {
  const uid = request.transactionUid;
  const afterDone = request.afterDone;
  if (afterDone && state.transactionDone) return stepNewApiUsers(ctx, uid, afterDone);
  const transaction = await unlessGone(() => ctx.client.transactions.get(uid));
  if (!transaction) return end(expiredOutcome(`transaction \`${uid}\``));
  const took = tookOf(transaction);
  // The read that completes the outcome is the next step's: each step makes one read.
  if (afterDone && transaction.cdoTransactionStatus === 'DONE') {
    const done = { ...state, transactionDone: true, lastStatus: undefined };
    return took ? { kind: 'continue', state: done, took } : { kind: 'continue', state: done };
  }
  const outcome = transactionOutcome(uid, transaction);
  if (outcome) return end(outcome, took);
  const transactionType = transaction.transactionType ?? state.transactionType;
  return {
    kind: 'continue',
    state: {
      ...state,
      lastStatus: transaction.cdoTransactionStatus ?? undefined,
      ...(transactionType ? { transactionType } : {}),
    },
  };
};

/** `pending` and `timeout` (SCC stopped waiting, the device may still answer) both mean: ask again. */
export const stepGateway: Step<'gateway'> = async (ctx, request, state) => {
  const answer = await unlessGone(() => ctx.client.gateway.result(request.requestId));
  if (!answer) return end(gatewayGoneOutcome(request.requestId));
  const outcome = gatewayOutcome(request.requestId, answer);
  if (outcome) return end(outcome);
  return { kind: 'continue', state: { ...state, lastStatus: answer.status ?? undefined } };
};
