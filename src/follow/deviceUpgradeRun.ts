// Following a firewall software upgrade run (ASA or FTD, one tenant) that `/fw upgrade` started: found by
// its trigger's transactionUid, read until it ends (UPGRADE_COMPLETED, UPGRADE_FAILED, a staging failure in
// either of SCC's spellings, or UPGRADE_STAGED for a stage-only run). The thread keeps one progress message,
// a table of each device and each unit of an HA pair with its status and SCC's last message; the outcome,
// posted as a reply that names the requester, says how it ended and SCC's reason for a failure. The
// upgrade's device holds of the run's own devices end with it (`devices`; an upgrade that starts several
// runs keeps the others' held, and its staging runs before an upgrade in the window release none). Where a
// device's upgrade has ended, proven or not, is this kind's end: `step` returning the outcome.
// A run that carries the devices' state from right before it started (`proof`) is proven after it
// ended with something applied: timed work (src/catalogue/timed/upgradeProof.ts) scheduled once when it
// ends, which proves every device of a completed run, and of a failed one those that finished. A run found
// again after a crash while it was being started carries none (`unproven` says why): its end says so.
import { z } from 'zod';
import { escapeAll } from '../render/mrkdwn.js';
import type { UpgradeRunDto } from '../scc/generated/models.js';
import {
  DEVICE_UPGRADE_ENDINGS,
  deviceRunName,
  isDeviceUpgradeEnded,
  unprovenOutcome,
} from './deviceUpgradeWords.js';
import { defineFollowKind, end, type Outcome, unlessGone } from './kind.js';
import { RunState, readRun, runRequest } from './runs.js';
import { sentence } from './words.js';

const SECOND = 1_000;
const HOUR = 60 * 60 * SECOND;

/** One line per device, or per unit of an HA pair: its name, its part of the pair, how far, SCC's message. */
export function deviceUpgradeTable(run: UpgradeRunDto): string[] {
  return (run.deviceUpgradeStatuses ?? []).flatMap((device) => {
    const nodes = device.completionStatuses ?? [];
    if (nodes.length === 0) return [`• ${escapeAll(device.uid ?? 'a device')}: no status yet`];
    return nodes.map((node) => {
      const role = node.nodeType ? ` (${escapeAll(node.nodeType.replace('HA_', '').toLowerCase())})` : '';
      const pct =
        typeof node.percentageComplete === 'number' && !node.completedAt
          ? ` ${Math.round(node.percentageComplete * 100)}%`
          : '';
      const done = node.completedAt ? ' :white_check_mark:' : '';
      return `• ${escapeAll(node.name ?? device.uid ?? 'a device')}${role}${pct}${done}: ${escapeAll(node.message ?? 'no message')}`;
    });
  });
}

/** The one progress message: the run's status, then the table. */
export function deviceUpgradeProgress(run: UpgradeRunDto): string {
  return [
    `${deviceRunName(run)}: ${escapeAll(run.upgradeRunStatus ?? 'starting')}`,
    ...deviceUpgradeTable(run),
  ].join('\n');
}

export function deviceUpgradeOutcome(run: UpgradeRunDto): Outcome | undefined {
  if (!isDeviceUpgradeEnded(run)) return undefined;
  const ending = DEVICE_UPGRADE_ENDINGS[run.upgradeRunStatus ?? ''];
  if (!ending) return undefined;
  const reason = run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
  return {
    status: ending.status,
    text: `${deviceRunName(run)} ${ending.words} (${escapeAll(run.upgradeRunStatus ?? '')}).${reason}\n${deviceUpgradeTable(run).join('\n')}`,
    progressText: deviceUpgradeProgress(run),
  };
}

export const deviceUpgradeRun = defineFollowKind({
  kind: 'deviceUpgradeRun',
  // The id the upgrade's device holds were taken under (the approval's), released when the run ends.
  request: runRequest('deviceUpgradeRun').extend({
    holder: z.string().optional(),
    /** The devices whose holds end with this run (absent: every hold of the holder, as before). */
    devices: z.array(z.string()).optional(),
    /** The devices as they were right before the upgrade (src/catalogue/upgradeProof.ts UpgradeBaseline). */
    // Checked whole by the timed kind's schema when it is scheduled (follow/ cannot import the catalogue's).
    proof: z
      .object({ version: z.string(), devices: z.array(z.looseObject({ uid: z.string(), name: z.string() })) })
      .optional(),
    /** Why there is no `proof` (the baseline was lost with a process that crashed while starting the run). */
    unproven: z.string().optional(),
  }),
  state: RunState,
  id: (request) => request.transactionUid,
  sccId: (request) => request.transactionUid,
  // An ASA stages in about two minutes and upgrades a unit in 3–5; an FTD HA pair takes most of an hour.
  poll: { firstDelayMs: 5 * SECOND, factor: 1.5, capMs: 60 * SECOND, deadlineMs: 12 * HOUR },
  holder: (request) => request.holder,
  heldDevices: (request) => request.devices,
  // Proven a minute after it ended (SCC reads a reloaded unit again within that); the proof itself reads how
  // the run ended: a completed run's devices are proven, a failed run's only those that finished (the
  // others were named with SCC's reason at its end), a staging failure's none.
  later: (request, outcome) =>
    request.proof && (outcome.status === 'succeeded' || outcome.status === 'failed')
      ? [
          {
            kind: 'upgrade-proof',
            payload: {
              transactionUid: request.transactionUid,
              label: request.label,
              baseline: request.proof,
            },
            delayMs: 60 * SECOND,
          },
        ]
      : [],
  describe: (request) => `the software upgrade started by transaction \`${request.transactionUid}\``,
  async step(ctx, request, state) {
    const scc = ctx.client;
    const found = await readRun<UpgradeRunDto, typeof state>(ctx, request.transactionUid, state, {
      read: (runUid) =>
        unlessGone(
          async () => (await scc.call('getDeviceUpgradeRun', { path: { upgradeRunUid: runUid } })).data,
        ),
      find: async (transactionUid) => {
        const { data } = await scc.call('getDeviceUpgradeRuns', {
          query: { q: `transactionUid:"${transactionUid}"`, limit: '1' },
        });
        return data.items?.find((item) => item.transactionUid === transactionUid && item.uid);
      },
      uid: (run) => run.uid,
      gone: (runUid) =>
        end({
          status: 'unknown',
          text: `outcome unknown: SCC no longer knows upgrade run \`${escapeAll(runUid)}\` (deleted?). Check the devices' versions in SCC.`,
        }),
      waiting: 'waiting for SCC to start the upgrade run.',
    });
    if ('result' in found) return found.result;
    const { run, runUid } = found;
    const outcome = deviceUpgradeOutcome(run);
    if (outcome) return end(request.unproven ? unprovenOutcome(outcome, run, request.unproven) : outcome);
    return {
      kind: 'continue',
      state: { ...state, runUid, lastStatus: run.upgradeRunStatus ?? undefined },
      progress: deviceUpgradeProgress(run),
    };
  },
});
