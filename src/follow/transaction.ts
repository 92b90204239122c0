// Following a plain 202 Transaction to its end; for some, one read once it is DONE completes the outcome
// (`afterDone`): the API-only users an addition created, named with the UUIDs SCC gave them (a token is
// generated for a UUID). Its durations are learned per transaction type (src/jobs/learning.ts).
import { z } from 'zod';
import { escapeAll } from '../render/mrkdwn.js';
import { exactLucene } from '../scc/lucene.js';
import { defineFollowKind, end, type StepContext, type StepResult, tookOf, unlessGone } from './kind.js';
import { expiredOutcome, transactionOutcome } from './words.js';

/** A read made once the transaction ends DONE, whose answer completes the outcome. */
export const TransactionFollowUp = z.object({
  kind: z.literal('apiUsers'),
  tenantUid: z.string().min(1),
  tenantName: z.string(),
  usernames: z.array(z.string()).min(1),
});
export type TransactionFollowUp = z.infer<typeof TransactionFollowUp>;

const TransactionRequest = z.object({
  kind: z.literal('transaction'),
  transactionUid: z.string().min(1),
  label: z.string(),
  afterDone: TransactionFollowUp.optional(),
});

const TransactionState = z.object({
  /** SCC's transaction type, once read: what its schedule is learned by. */
  transactionType: z.string().optional(),
  /** It ended DONE and has a read after it (`afterDone`): that read comes next. */
  transactionDone: z.boolean().optional(),
});

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const transaction = defineFollowKind({
  kind: 'transaction',
  request: TransactionRequest,
  state: TransactionState,
  id: (request) => request.transactionUid,
  sccId: (request) => request.transactionUid,
  // Tuned on `npm run bench` (tracking): transactions finishing anywhere from 1 s to 10 min. Against a
  // poller every 10 s it makes fewer reads with a lower median and mean delay; the 12 s cap keeps its
  // p95 near that poller's (bench/RESULTS.md has the figures, and what matching that p95 would cost).
  poll: {
    firstDelayMs: 3 * SECOND,
    factor: 2,
    capMs: 12 * SECOND,
    lateAfterMs: 10 * MINUTE,
    lateCapMs: 60 * SECOND,
    deadlineMs: 6 * HOUR,
  },
  describe: (request) => `transaction \`${request.transactionUid}\``,
  learns: {
    type: (state) => state.transactionType,
    // One DONE that awaits its last read no longer runs.
    running: (state) => state.transactionDone !== true,
  },
  async step(ctx, request, state) {
    const uid = request.transactionUid;
    const afterDone = request.afterDone;
    if (afterDone && state.transactionDone) return readNewApiUsers(ctx, uid, afterDone);
    const read = await unlessGone(() => ctx.client.transactions.get(uid));
    if (!read) return end(expiredOutcome(`transaction \`${uid}\``));
    const took = tookOf(read);
    // The read that completes the outcome is the next step's: each step makes one read.
    if (afterDone && read.cdoTransactionStatus === 'DONE') {
      const done = { ...state, transactionDone: true, lastStatus: undefined };
      return took ? { kind: 'continue', state: done, took } : { kind: 'continue', state: done };
    }
    const outcome = transactionOutcome(uid, read);
    if (outcome) return end(outcome, took);
    const transactionType = read.transactionType ?? state.transactionType;
    return {
      kind: 'continue',
      state: {
        ...state,
        lastStatus: read.cdoTransactionStatus ?? undefined,
        ...(transactionType ? { transactionType } : {}),
      },
      ...(read.cancellable === true ? { cancellable: true } : {}),
    };
  },
});

/** SCC adds at most 50 users at a time, so one page of up to 200 holds every name asked for. */
const API_USERS_LIMIT = 200;

/** SCC's list of the tenant's API-only users, filtered to the names added. */
async function readNewApiUsers<S>(
  ctx: StepContext,
  transactionUid: string,
  followUp: TransactionFollowUp,
): Promise<StepResult<S>> {
  const q = followUp.usernames.map((name) => exactLucene('name', name)).join(' OR ');
  const page = await unlessGone(() =>
    ctx.client.call('getApiOnlyUsersInMspManagedTenant', {
      path: { tenantUid: followUp.tenantUid },
      query: { q, limit: API_USERS_LIMIT },
    }),
  );
  const listed = page ? (page.data.items ?? []) : undefined;
  return end(newApiUsersOutcome(transactionUid, followUp.tenantName, followUp.usernames, listed));
}

/**
 * A transaction that added API-only users ended DONE: each one named with the UUID SCC gave it (what a
 * token is generated for). `listed` is SCC's list of them, or undefined when the tenant could not be read.
 */
export function newApiUsersOutcome(
  rawUid: string,
  tenantName: string,
  usernames: readonly string[],
  listed: readonly { name?: string | null; uid?: string | null }[] | undefined,
) {
  const uid = escapeAll(rawUid);
  const tenant = escapeAll(tenantName);
  const done = `done. SCC finished transaction \`${uid}\``;
  if (listed === undefined) {
    return {
      status: 'succeeded' as const,
      text: `${done}, but the tenant's API-only users could not be read afterwards: \`/fw tenants users ${tenant} --api-only\` lists them with their UUIDs.`,
    };
  }
  const lines = usernames.map((name) => {
    const user = listed.find((u) => (u.name ?? '').toLowerCase() === name.toLowerCase());
    const what = user?.uid ? `\`${escapeAll(user.uid)}\`` : 'not listed by SCC yet';
    return `• ${escapeAll(name)}: ${what}`;
  });
  const token = `\`/fw tenants token ${tenant} ${escapeAll('<api-user>')}\` generates a token for one of them (by name or UUID).`;
  return {
    status: 'succeeded' as const,
    text: `${done}. API-only users of tenant *${tenant}* and their UUIDs:\n${lines.join('\n')}\n${token}`,
  };
}
