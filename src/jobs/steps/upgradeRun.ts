// Following a VPN client (Secure Client) upgrade: the trigger's transaction names no run, so the run is
// found by its transactionUid in the runs list, then read directly until it reaches an end status.

import type { SecureClientUpgradeRunDto } from '../../scc/generated/models.js';
import { upgradeRunFraction } from '../learningRuns.js';
import {
  isUpgradeTerminal,
  UPGRADE_WAITING,
  upgradeOutcome,
  upgradeProgress,
  upgradeRunGoneOutcome,
} from '../messages.js';
import { end, type Step, unlessGone, untilTheRunExists } from './step.js';

export const stepUpgradeRun: Step<'upgradeRun'> = async (ctx, request, state) => {
  const secureClient = ctx.client.secureClient;
  let runUid = state.runUid;
  let run: SecureClientUpgradeRunDto | undefined;
  if (runUid) {
    const known = runUid;
    run = await unlessGone(() => secureClient.run(known));
    if (!run) return end(upgradeRunGoneOutcome(known));
  } else {
    const page = await secureClient.runs({ q: `transactionUid:"${request.transactionUid}"`, limit: 1 });
    run = page.items?.find((item) => item.transactionUid === request.transactionUid && item.uid);
    runUid = run?.uid ?? undefined;
  }
  // No run yet: SCC may still be accepting the request, or its transaction may already have failed.
  if (!run || !runUid) return untilTheRunExists(ctx, request.transactionUid, state, UPGRADE_WAITING);
  if (isUpgradeTerminal(run.upgradeRunStatus)) {
    const outcome = upgradeOutcome(run);
    if (outcome) return end(outcome);
  }
  const fraction = upgradeRunFraction(run);
  return {
    kind: 'continue',
    state: { ...state, runUid, lastStatus: run.upgradeRunStatus ?? undefined },
    progress: upgradeProgress(run),
    ...(fraction === undefined ? {} : { fraction }),
  };
};
