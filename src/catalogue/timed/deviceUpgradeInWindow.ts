// The upgrade of devices whose image `/fw upgrade` staged on approval, applied in their change window
// (upgradeSteps.ts upgradeWindows: fwbot's windows, else SCC's maintenance window), at or after `--at`,
// exactly once. One item per group of devices that share one SCC run and one window (and, with `--canary`,
// one side of the canary line); the approval's `/fw upgrade` schedules them.
//
// At its minute, in order: the requester's and the approvers' grants are re-checked (lost: nothing runs);
// a group waiting for canaries waits until each has completed (UPGRADE_COMPLETED, the device reporting
// the target version and ONLINE), and stops when one failed, naming it and SCC's reason; the image must be
// staged (a staging run still going: it waits; one that failed: its devices are left out with SCC's
// reason); then every check is read again and a device that fails one is left out, named with its reason
// in the thread. What remains is upgraded in one SCC run, with `ignoreMaintenanceWindow` when fwbot's own
// window timed it. The run is followed in the thread (src/follow/deviceUpgradeRun.ts) and its devices'
// holds end with it; a device left out has its hold released here. A crash after the upgrade call and
// before the follow was recorded: the next runner finds the run by its name, follows it without starting
// it again, and its end says it is not proven (the baseline was lost with the crashed process).
import { z } from 'zod';
import type { TrackRequest } from '../../follow/index.js';
import { code } from '../../render/format.js';
import { untrusted } from '../../render/untrusted.js';
import type { UpgradeRunDto } from '../../scc/generated/models.js';
import type { OperationContext } from '../operation.js';
import { keepUpgradeBaseline } from '../upgradeProof.js';
import { checkDevice, failures, startRun, upgradeWindows } from '../upgradeSteps.js';
import { defineTimedKind, type TimedContext } from './kind.js';
import {
  auditUpgrade,
  canariesPassed,
  imagesStaged,
  releaseHolds,
  stopUpgrade,
  WindowDeviceSchema,
  type WindowReads,
  waitAgain,
  windowPlanSchema,
} from './upgradeInWindow.js';

const MINUTE = 60_000;
/** How soon a group looks again while its image is still being staged or its canaries still upgrade. */
export const UPGRADE_WAIT_MS = 5 * MINUTE;

const Payload = windowPlanSchema(WindowDeviceSchema.extend({ packageUid: z.string().optional() }));
type Payload = z.infer<typeof Payload>;

/** The name of the SCC run a group starts: found by it after a crash, and by the groups after a canary. */
export const upgradeRunName = (requestId: string, group: number) => `fwbot ${requestId} u${group + 1}`;

/**
 * Why a run found again after a crash is not proven: the baseline is kept in the process that starts the
 * run and handed to the follow with it, so a crash between the two loses it.
 */
export const NO_BASELINE =
  'no baseline was kept because fwbot restarted while it started this upgrade (what each device was right before it was lost with that process); check its version, failover state, configuration and smoke traces by hand';

/** Names as a run's summary says them: plain text, which the thread quotes as it is. */
const names = (devices: readonly { name: string }[]) => devices.map((d) => d.name).join(', ');

async function runNamed(ctx: OperationContext, name: string): Promise<UpgradeRunDto | undefined> {
  const { data } = await ctx.scc.call('getDeviceUpgradeRuns', { query: { q: `name:"${name}"`, limit: '1' } });
  return data.items?.find((run) => run.name === name);
}

/** The audit trail's target of this group's upgrade. */
const target = (p: Payload) => `upgrade ${names(p.devices)} to ${p.version}${p.canary ? ' (canary)' : ''}`;

/** Not upgraded at all (upgradeInWindow.ts stopUpgrade). */
const stop = (ctx: TimedContext, p: Payload, why: string, named?: 'names a person') =>
  stopUpgrade(ctx, p, { what: names(p.devices), target: target(p) }, why, named);

/** How this kind reads SCC: one tenant's runs, and the device itself. */
const reads = (ctx: TimedContext): WindowReads<UpgradeRunDto> => ({
  kind: deviceUpgradeInWindow.kind,
  runNamed: (name) => runNamed(ctx.op, name),
  runName: upgradeRunName,
  device: async (uid) => (await ctx.op.scc.call('getDevice', { path: { deviceUid: uid } })).data,
});

export const deviceUpgradeInWindow = defineTimedKind({
  kind: 'device-upgrade',
  payload: Payload,
  id: (p) => `${p.requestId}:${p.group}`,
  describe: (p) =>
    `upgrade ${p.devices.map((d) => d.name).join(', ')} to ${p.version}${p.canary ? ' (canary)' : ''} (request ${p.requestId})`,
  devices: (p) => p.devices.map((d) => ({ uid: d.uid, name: d.name })),
  // Each device's windows read again at the minute: they wait until they are open together.
  windows: async (ctx, p) =>
    (await upgradeWindows(ctx.op, p.devices)).map((w) => ({ device: w.device, windows: w.windows })),
  async run(ctx, p) {
    const lost = await ctx.rolesLost(p.people);
    if (lost) return stop(ctx, p, lost, 'names a person');
    const line = await canariesPassed(ctx, p, reads(ctx));
    if (!line.ok && 'failed' in line) return stop(ctx, p, `${line.failed}. The rest is stopped.`);
    if (!line.ok) return waitAgain(ctx, p.requestId, UPGRADE_WAIT_MS, line.wait);
    const image = await imagesStaged(p.devices, (name) => runNamed(ctx.op, name));
    if ('wait' in image) return waitAgain(ctx, p.requestId, UPGRADE_WAIT_MS, image.wait);
    const checked = await Promise.all(image.staged.map((d) => checkDevice(ctx.op, d, p.version)));
    const leftOut = [
      ...image.leftOut,
      ...checked
        .filter((d) => failures(d).length > 0)
        .map((d) => ({ device: d, reason: failures(d).join('; ') })),
    ];
    const going = checked.filter((d) => failures(d).length === 0);
    if (leftOut.length > 0) {
      await releaseHolds(
        ctx,
        p.requestId,
        leftOut.map((l) => l.device),
      );
      await ctx.say(
        'left-out',
        `:warning: *Left out* of the upgrade to ${code(p.version)} at its window: ${leftOut.map((l) => `${untrusted(l.device.name)}: ${untrusted(l.reason)}`).join('; ')}.`,
      );
    }
    if (going.length === 0) {
      await auditUpgrade(ctx, {
        action: 'aborted',
        target: target(p),
        outcome: 'not done at its window: no device passes its checks any more',
        approvalId: p.requestId,
      });
      return {
        status: 'failed',
        summary: `no device of ${names(p.devices)} passes its checks at its window: nothing was upgraded`,
      };
    }
    const windows = await upgradeWindows(ctx.op, going);
    const ownWindow = windows.some((w) => w.source === 'fwbot');
    const name = upgradeRunName(p.requestId, p.group);
    const packageUid = p.devices.find((d) => d.packageUid)?.packageUid;
    // What each device is right before its upgrade, to prove it after (upgradeProof.ts).
    const baseline = await keepUpgradeBaseline(ctx.op, going, p.version);
    await ctx.committing();
    const transactionUid = await startRun(
      ctx.op,
      going.map((d) => ({ ...d, ...(packageUid && !d.packageUid ? { packageUid } : {}) })),
      { version: p.version, stageOnly: false, ignoreMaintenanceWindow: ownWindow, name },
    );
    if (!transactionUid) {
      await auditUpgrade(ctx, {
        action: 'failed',
        target: target(p),
        outcome: 'SCC started no upgrade run',
        approvalId: p.requestId,
      });
      return { status: 'failed', summary: 'SCC started no upgrade run' };
    }
    await auditUpgrade(ctx, {
      action: 'executed',
      target: target(p),
      outcome: `upgrade of ${going.map((d) => d.name).join(', ')} started at its window (run ${name}${ownWindow ? ", SCC's maintenance window ignored: fwbot's change window timed it" : ''})`,
      approvalId: p.requestId,
      transactionUid,
    });
    const track: TrackRequest[] = [
      {
        kind: 'deviceUpgradeRun',
        transactionUid,
        label: `upgrade ${going.map((d) => d.name).join(', ')} to ${p.version}`,
        holder: p.requestId,
        devices: going.map((d) => d.uid),
        proof: baseline,
      },
    ];
    return {
      status: 'done',
      summary: `upgrade of ${going.map((d) => d.name).join(', ')} started (run ${name})`,
      track,
    };
  },
  // Its run carries its name: found, it took effect and is followed in the thread to its end as a run
  // that went on would have been (not started again); not found, it runs again from the start.
  interrupted: async (ctx, p) => {
    const name = upgradeRunName(p.requestId, p.group);
    const run = await runNamed(ctx.op, name);
    if (!run) return 'not-done';
    if (!run.transactionUid) return 'took-effect';
    // The devices it started with: those of the group in SCC's run (the rest were left out before it, and
    // their holds released then).
    const inRun = new Set((run.deviceUids ?? []).map((uid) => uid.toLowerCase()));
    const ran = p.devices.filter((d) => inRun.has(d.uid.toLowerCase()));
    const going = ran.length > 0 ? ran : p.devices;
    await auditUpgrade(ctx, {
      action: 'executed',
      target: target(p),
      outcome: `upgrade of ${names(going)} started at its window before fwbot restarted (run ${name}); found in SCC and followed, not started again`,
      approvalId: p.requestId,
      transactionUid: run.transactionUid,
    });
    await ctx.say(
      'restarted',
      `:information_source: The upgrade of ${going.map((d) => untrusted(d.name)).join(', ')} to ${code(p.version)} reached SCC before fwbot restarted (run ${code(name)}); it was not started again, and fwbot follows it here.`,
    );
    return {
      status: 'took-effect',
      summary: `upgrade of ${names(going)} started before fwbot restarted (run ${name}); followed, not started again`,
      track: [
        {
          kind: 'deviceUpgradeRun',
          transactionUid: run.transactionUid,
          label: `upgrade ${names(going)} to ${p.version}`,
          holder: p.requestId,
          devices: going.map((d) => d.uid),
          unproven: NO_BASELINE,
        },
      ],
    };
  },
});
