// What the kinds that follow a run have in common (VPN client upgrades, upgrades across tenants, deploys):
// the call that starts one answers with a transaction that names no run, so the run is found by its
// transactionUid in the runs list, then read directly by its uid until it ends. Until SCC has created it,
// its transaction says whether it is still being accepted, failed, or is no longer kept.
import { z } from 'zod';
import type { CommonState, StepContext, StepResult } from './kind.js';
import { end, unlessGone } from './kind.js';
import { expiredOutcome, transactionOutcome } from './words.js';

/** What a run kind keeps in its job's state: the run's uid once found. */
export const RunState = z.object({ runUid: z.string().optional() });
export type RunState = z.infer<typeof RunState>;

/** The request of every run kind: the transaction that started the run. */
export const runRequest = <K extends string>(kind: K) =>
  z.object({ kind: z.literal(kind), transactionUid: z.string().min(1), label: z.string() });

export interface RunReads<Run> {
  /** The run by its uid; undefined when SCC no longer knows it (404). */
  read(runUid: string): Promise<Run | undefined>;
  /** The run the transaction started, from the runs list, once SCC has created it. */
  find(transactionUid: string): Promise<Run | undefined>;
  uid(run: Run): string | null | undefined;
}

/**
 * Finds or reads the run. `{ run, runUid }` to go on with; otherwise the step's result already (the run is
 * gone, not created yet, or its transaction failed).
 */
export async function readRun<Run, S extends RunState>(
  ctx: StepContext,
  transactionUid: string,
  state: CommonState & S,
  reads: RunReads<Run> & { gone(runUid: string): StepResult<S>; waiting: string },
): Promise<{ run: Run; runUid: string } | { result: StepResult<S> }> {
  const known = state.runUid;
  if (known) {
    const run = await reads.read(known);
    return run ? { run, runUid: known } : { result: reads.gone(known) };
  }
  const run = await reads.find(transactionUid);
  const runUid = run ? reads.uid(run) : undefined;
  if (run && runUid) return { run, runUid };
  // No run yet: SCC may still be accepting the request, or its transaction may already have failed.
  return { result: await untilTheRunExists(ctx, transactionUid, state, reads.waiting) };
}

/**
 * A run that SCC has not created yet: its transaction says whether it is still being accepted (go on
 * waiting, saying `waiting`), failed (the end), or is no longer kept.
 */
export async function untilTheRunExists<S>(
  ctx: StepContext,
  transactionUid: string,
  state: CommonState & S,
  waiting: string,
): Promise<StepResult<S>> {
  const transaction = await unlessGone(() => ctx.client.transactions.get(transactionUid));
  if (!transaction) return end(expiredOutcome(`transaction \`${transactionUid}\``));
  const outcome = transactionOutcome(transactionUid, transaction);
  if (outcome && outcome.status !== 'succeeded') return end(outcome);
  return {
    kind: 'continue',
    state: { ...state, lastStatus: transaction.cdoTransactionStatus ?? undefined },
    progress: waiting,
  };
}
