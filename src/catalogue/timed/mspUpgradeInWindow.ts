// The upgrade across the MSP portal's tenants whose image `/fw upgrade` staged on approval (one MSP run per
// request of at most 50 devices per model per tenant, stageUpgradeOnly), applied in each device's window
// (mspUpgradeSteps.ts mspUpgradeWindows: fwbot's change windows of the tenant's own profile, else SCC's
// maintenance window), at or after `--at`, exactly once. One item per group of devices that share one
// staging run and one window (and, with `--canary`, one side of the canary line): a group is part of one
// staging request, so its MSP run keeps SCC's limit of 50 per model per tenant. The tenant path's kind is
// deviceUpgradeInWindow.ts; this one is the same plan through the portal's MSP operations.
//
// At its minute, in order: the requester's and the approvers' grants are re-checked (lost: nothing runs);
// a group waiting for canaries waits until each has completed (its MSP run UPGRADE_COMPLETED, the portal's
// record reporting the target version and ONLINE), and stops when one failed, naming it and SCC's reason;
// the image must be staged (its staging run still going: it waits; failed: its devices are left out with
// SCC's reason); then every check is read again across tenants and a device that fails one is left out,
// named with its reason in the thread. What the devices are right before is kept (mspUpgradeSteps.ts
// keepMspBaseline) and the rest is upgraded in one MSP run, with `ignoreMaintenanceWindow` when fwbot's own
// window timed it. The run is followed in the thread (follow kind mspDeviceUpgradeRun), its devices'
// holds end with it, and it is proven after it completed (timed/mspUpgradeProof.ts). The audit trail records
// what the group came to at its minute: executed (with the transaction) or aborted with why; a lost role is
// said in the thread with a live mention. A crash after the upgrade call and before the follow was recorded:
// the next runner finds the MSP run by its name, follows it without starting it again, and its end says it
// is not proven (the baseline was lost with the crashed process). What both kinds share is
// upgradeInWindow.ts.
import { z } from 'zod';
import type { TrackRequest } from '../../follow/index.js';
import { code } from '../../render/format.js';
import { untrusted } from '../../render/untrusted.js';
import type { MspUpgradeRunDto } from '../../scc/generated/models.js';
import { checkAcross, mspRunNamed, readManaged, runDevices, startMspRun } from '../mspDeviceUpgrade.js';
import {
  keepMspBaseline,
  type MspUpgradeBaseline,
  mspUpgradeWindows,
  type TenantProfiles,
} from '../mspUpgradeSteps.js';
import { failures, haCheck } from '../upgradeSteps.js';
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
export const MSP_UPGRADE_WAIT_MS = 5 * MINUTE;

const Device = WindowDeviceSchema.extend({ tenantUid: z.string(), tenant: z.string() });
type Device = z.infer<typeof Device>;

const Payload = windowPlanSchema(Device);
type Payload = z.infer<typeof Payload>;

/** The name of the MSP run a group starts: found by it after a crash, and by the groups after a canary. */
export const mspUpgradeRunName = (requestId: string, group: number) => `fwbot ${requestId} msp u${group + 1}`;

const names = (devices: readonly { name: string; tenant: string }[]) =>
  devices.map((d) => `${d.name} (${d.tenant})`).join(', ');

/** The tenants' own profiles, as the timed work has them. */
const tenantsOf = (ctx: TimedContext): TenantProfiles => ({
  profiles: () => ctx.profiles(),
  clientOf: (profile) => ctx.clientOf(profile),
});

/**
 * Why a run found again after a crash is not proven: the baseline is kept in the process that starts the
 * run and handed to the follow with it, so a crash between the two loses it.
 */
export const NO_MSP_BASELINE =
  'no baseline was kept because fwbot restarted while it started this upgrade across tenants (what each device was right before it was lost with that process); check its version, connectivity and failover state in the portal by hand';

/** The audit trail's target of this group's upgrade. */
const target = (p: Payload) =>
  `upgrade ${names(p.devices)} to ${p.version} across tenants${p.canary ? ' (canary)' : ''}`;

/** Not upgraded at all (upgradeInWindow.ts stopUpgrade). */
const stop = (ctx: TimedContext, p: Payload, why: string, named?: 'names a person') =>
  stopUpgrade(ctx, p, { what: names(p.devices), target: target(p) }, why, named);

/** How this kind reads SCC: the portal's MSP runs, and its records of the managed devices. */
const reads = (ctx: TimedContext): WindowReads<MspUpgradeRunDto> => ({
  kind: mspUpgradeInWindow.kind,
  runNamed: (name) => mspRunNamed(ctx.op, name),
  runName: mspUpgradeRunName,
  device: async (uid) => (await readManaged(ctx.op, [uid])).get(uid.toLowerCase()) ?? {},
});

/** Its follow request: the run's devices with their tenants, whose holds end with it. */
function follow(
  p: Payload,
  going: readonly Device[],
  transactionUid: string,
  evidence: { proof: MspUpgradeBaseline } | { unproven: string },
): TrackRequest {
  const tenantCount = new Set(going.map((d) => d.tenantUid)).size;
  return {
    kind: 'mspDeviceUpgradeRun',
    transactionUid,
    label: `upgrade ${going.length === 1 ? names(going) : `${going.length} devices in ${tenantCount} tenant${tenantCount === 1 ? '' : 's'}`} to ${p.version}`,
    holder: p.requestId,
    devices: runDevices(going),
    releases: going.map((d) => d.uid),
    ...evidence,
  };
}

export const mspUpgradeInWindow = defineTimedKind({
  kind: 'msp-device-upgrade',
  payload: Payload,
  id: (p) => `${p.requestId}:${p.group}`,
  describe: (p) =>
    `upgrade ${names(p.devices)} to ${p.version} across tenants${p.canary ? ' (canary)' : ''} (request ${p.requestId})`,
  devices: (p) => p.devices.map((d) => ({ uid: d.uid, name: d.name })),
  // Each device's windows read again at the minute: they wait until they are open together.
  windows: async (ctx, p) =>
    (await mspUpgradeWindows(ctx.op, p.devices, tenantsOf(ctx))).map((w) => ({
      device: w.device,
      windows: w.windows,
    })),
  async run(ctx, p) {
    const lost = await ctx.rolesLost(p.people);
    if (lost) return stop(ctx, p, lost, 'names a person');
    const line = await canariesPassed(ctx, p, reads(ctx));
    if (!line.ok && 'failed' in line) return stop(ctx, p, `${line.failed}. The rest is stopped.`);
    if (!line.ok) return waitAgain(ctx, p.requestId, MSP_UPGRADE_WAIT_MS, line.wait);
    const image = await imagesStaged(p.devices, (name) => mspRunNamed(ctx.op, name));
    if ('wait' in image) return waitAgain(ctx, p.requestId, MSP_UPGRADE_WAIT_MS, image.wait);
    const checked = await checkAcross(ctx.op, image.staged, p.version, haCheck);
    const byUid = new Map(p.devices.map((d) => [d.uid.toLowerCase(), d]));
    const leftOut = [
      ...image.leftOut,
      ...checked
        .filter((d) => failures(d).length > 0)
        .flatMap((d) => {
          const device = byUid.get(d.uid.toLowerCase());
          return device ? [{ device, reason: failures(d).join('; ') }] : [];
        }),
    ];
    const going = checked
      .filter((d) => failures(d).length === 0)
      .flatMap((d) => {
        const device = byUid.get(d.uid.toLowerCase());
        return device ? [device] : [];
      });
    if (leftOut.length > 0) {
      await releaseHolds(
        ctx,
        p.requestId,
        leftOut.map((l) => l.device),
      );
      await ctx.say(
        'left-out',
        `:warning: *Left out* of the upgrade to ${code(p.version)} at its window: ${leftOut.map((l) => `${untrusted(`${l.device.name} (${l.device.tenant})`)}: ${untrusted(l.reason)}`).join('; ')}.`,
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
    const tenants = tenantsOf(ctx);
    const windows = await mspUpgradeWindows(ctx.op, going, tenants);
    const ownWindow = windows.some((w) => w.source === 'fwbot');
    const name = mspUpgradeRunName(p.requestId, p.group);
    // What each device is right before its upgrade, to prove it after (mspUpgradeSteps.ts).
    const baseline = await keepMspBaseline(ctx.op, going, p.version, tenants);
    await ctx.committing();
    const transactionUid = await startMspRun(ctx.op, going, {
      version: p.version,
      stageOnly: false,
      ignoreMaintenanceWindow: ownWindow,
      name,
    });
    if (!transactionUid) {
      await auditUpgrade(ctx, {
        action: 'failed',
        target: target(p),
        outcome: 'SCC started no upgrade run across tenants',
        approvalId: p.requestId,
      });
      return { status: 'failed', summary: 'SCC started no upgrade run across tenants' };
    }
    await auditUpgrade(ctx, {
      action: 'executed',
      target: target(p),
      outcome: `upgrade of ${names(going)} started across tenants at its window (run ${name}${ownWindow ? ", SCC's maintenance window ignored: fwbot's change window timed it" : ''})`,
      approvalId: p.requestId,
      transactionUid,
    });
    return {
      status: 'done',
      summary: `upgrade of ${names(going)} started across tenants (run ${name})`,
      track: [follow(p, going, transactionUid, { proof: baseline })],
    };
  },
  // Its MSP run carries its name: found, it took effect and is followed in the thread to its end as a run
  // that went on would have been (not started again), its end saying it is not proven; not found, it runs
  // again from the start.
  interrupted: async (ctx, p) => {
    const name = mspUpgradeRunName(p.requestId, p.group);
    const run = await mspRunNamed(ctx.op, name);
    if (!run) return 'not-done';
    if (!run.transactionUid) return 'took-effect';
    // The devices it started with: those of the group in SCC's run (the rest were left out before it, and
    // their holds released then).
    const inRun = new Set((run.metadata?.devices ?? []).map((d) => (d.uid ?? '').toLowerCase()));
    const ran = p.devices.filter((d) => inRun.has(d.uid.toLowerCase()));
    const going = ran.length > 0 ? ran : p.devices;
    await auditUpgrade(ctx, {
      action: 'executed',
      target: target(p),
      outcome: `upgrade of ${names(going)} started across tenants at its window before fwbot restarted (run ${name}); found in SCC and followed, not started again`,
      approvalId: p.requestId,
      transactionUid: run.transactionUid,
    });
    await ctx.say(
      'restarted',
      `:information_source: The upgrade of ${untrusted(names(going))} to ${code(p.version)} across tenants reached SCC before fwbot restarted (run ${code(name)}); it was not started again, and fwbot follows it here.`,
    );
    return {
      status: 'took-effect',
      summary: `upgrade of ${names(going)} started across tenants before fwbot restarted (run ${name}); followed, not started again`,
      track: [follow(p, going, run.transactionUid, { unproven: NO_MSP_BASELINE })],
    };
  },
});
