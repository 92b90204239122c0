// One step of following something: a single read from SCC, and what it means. Steps never wait and never
// touch Slack or the queue; the tracking worker turns their result into a re-delay, a progress edit, a
// note in the threads, or the final outcome.
import type { SccClients } from '../../dispatch/ports.js';
import type { SccClient } from '../../scc/client.js';
import { expiredOutcome, transactionOutcome } from '../messages.js';
import type { Outcome, TrackRequestData, TrackState } from '../payloads.js';
import { classifySccError } from '../sccFailures.js';

/** Finds the profile whose token can read a managed tenant's transactions. */
export type TenantProfileResolver = (tenant: {
  tenantUid: string;
  tenantName: string;
  /** A transaction on that tenant, which the right profile can read. */
  transactionUid: string;
  /** The portal's own profile, which is not the tenant's. */
  portalProfile: string;
}) => Promise<string | undefined>;

export interface StepContext {
  /** The profile that started the work, and its client. */
  profile: string;
  client: SccClient;
  clients: SccClients;
  resolveTenantProfile: TenantProfileResolver;
  now: number;
}

/** How long a transaction SCC has finished took, by its own timestamps: what the schedule learns from. */
export interface Took {
  transactionType: string;
  durationMs: number;
}

export type StepResult =
  | {
      kind: 'continue';
      took?: Took;
      /** How far a run is by SCC's own steps and percentages (0–1): when it should end (learningRuns.ts). */
      fraction?: number;
      state: TrackState;
      /** Progress in words, shown in the thread's one progress message (kinds that keep one). */
      progress?: string;
      /** Said once in every thread (e.g. the second leg of a cdFMC provisioning has begun). */
      note?: { id: string; text: string };
      /** When the next step should run, instead of the kind's schedule (a short wait inside a long one). */
      delayMs?: number;
    }
  | { kind: 'end'; outcome: Outcome; took?: Took };

export const end = (outcome: Outcome, took?: Took): StepResult =>
  took ? { kind: 'end', outcome, took } : { kind: 'end', outcome };

/** How long a DONE transaction took (submitted to last updated), when SCC says. */
export function tookOf(transaction: {
  cdoTransactionStatus?: string | null | undefined;
  transactionType?: string | null | undefined;
  submissionTime?: string | null | undefined;
  lastUpdatedTime?: string | null | undefined;
}): Took | undefined {
  const { transactionType, submissionTime, lastUpdatedTime } = transaction;
  if (transaction.cdoTransactionStatus !== 'DONE' || !transactionType || !submissionTime || !lastUpdatedTime)
    return undefined;
  const durationMs = Date.parse(lastUpdatedTime) - Date.parse(submissionTime);
  return durationMs > 0 ? { transactionType, durationMs } : undefined;
}

export type Step<K extends TrackRequestData['kind']> = (
  ctx: StepContext,
  request: Extract<TrackRequestData, { kind: K }>,
  state: TrackState,
) => Promise<StepResult>;

/** Runs a read; undefined on 404, any other error goes to the worker. */
export async function unlessGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (classifySccError(error).kind === 'notFound') return undefined;
    throw error;
  }
}

/**
 * A run that SCC has not created yet (upgrade runs, deployment runs): its transaction says whether it is
 * still being accepted (go on waiting, saying `waiting`), failed (the end), or is no longer kept.
 */
export async function untilTheRunExists(
  ctx: StepContext,
  transactionUid: string,
  state: TrackState,
  waiting: string,
): Promise<StepResult> {
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
