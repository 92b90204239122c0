// Following a VPN client (Secure Client) upgrade on one tenant: the run its trigger started, found by the
// trigger's transactionUid, read until it reaches an end status. The thread keeps one progress message;
// the outcome names each device's result.

import { escapeAll } from '../render/mrkdwn.js';
import type { SecureClientUpgradeRunDto } from '../scc/generated/models.js';
import { defineFollowKind, end, type Outcome, unlessGone } from './kind.js';
import { RunState, readRun, runRequest } from './runs.js';
import {
  deviceLines,
  isUpgradeTerminal,
  runName,
  sccSays,
  UPGRADE_ENDINGS,
  upgradeProgress,
  upgradeRunFraction,
} from './upgradeWords.js';

const SECOND = 1_000;
const HOUR = 60 * 60 * SECOND;

export const upgradeRun = defineFollowKind({
  kind: 'upgradeRun',
  request: runRequest('upgradeRun'),
  state: RunState,
  id: (request) => request.transactionUid,
  sccId: (request) => request.transactionUid,
  poll: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 30 * SECOND, deadlineMs: 12 * HOUR },
  describe: (request) => `the upgrade started by transaction \`${request.transactionUid}\``,
  async step(ctx, request, state) {
    const secureClient = ctx.client.secureClient;
    const found = await readRun<SecureClientUpgradeRunDto, typeof state>(ctx, request.transactionUid, state, {
      read: (runUid) => unlessGone(() => secureClient.run(runUid)),
      find: async (transactionUid) =>
        (await secureClient.runs({ q: `transactionUid:"${transactionUid}"`, limit: 1 })).items?.find(
          (item) => item.transactionUid === transactionUid && item.uid,
        ),
      uid: (run) => run.uid,
      gone: (runUid) => end(upgradeRunGoneOutcome(runUid)),
      waiting: 'waiting for SCC to start the upgrade run.',
    });
    if ('result' in found) return found.result;
    const { run, runUid } = found;
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
  },
});

export function upgradeOutcome(run: SecureClientUpgradeRunDto): Outcome | undefined {
  const ending = UPGRADE_ENDINGS[run.upgradeRunStatus ?? ''];
  if (!ending) return undefined;
  return {
    status: ending.status,
    text: `upgrade ${runName(run)} ${ending.words} (${escapeAll(run.upgradeRunStatus ?? '')}).${sccSays(run)}${deviceLines(run)}`,
    progressText: upgradeProgress(run),
  };
}

export function upgradeRunGoneOutcome(runUid: string): Outcome {
  return {
    status: 'unknown',
    text: `outcome unknown: SCC no longer knows upgrade run \`${escapeAll(runUid)}\`. Check the upgrade runs in SCC.`,
  };
}
