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
import { DEVICE_UPGRADE_ENDINGS, isDeviceUpgradeEnded } from '../../follow/deviceUpgradeWords.js';
import type { TrackRequest } from '../../follow/index.js';
import { code } from '../../render/format.js';
import { mentionsAsText } from '../../render/mrkdwn.js';
import { untrusted } from '../../render/untrusted.js';
import type { UpgradeRunDto } from '../../scc/generated/models.js';
import { HOLD_KINDS } from '../deviceHolds.js';
import type { OperationContext } from '../operation.js';
import { keepUpgradeBaseline } from '../upgradeProof.js';
import { checkDevice, failures, startRun, upgradeWindows } from '../upgradeSteps.js';
import { defineTimedKind, PersonToCheckSchema, type TimedContext } from './kind.js';

const MINUTE = 60_000;
/** How soon a group looks again while its image is still being staged or its canaries still upgrade. */
export const UPGRADE_WAIT_MS = 5 * MINUTE;

const Device = z.object({
  uid: z.string().min(1),
  name: z.string(),
  kind: z.enum(['ASA', 'FTD']),
  model: z.string(),
  running: z.string(),
  packageUid: z.string().optional(),
  /** The SCC run that staged its image (`fwbot <request> <n>`). */
  stagedBy: z.string(),
});
type Device = z.infer<typeof Device>;

const Payload = z.object({
  /** The approval's id: its holds' holder, and part of every run's name. */
  requestId: z.string().min(1),
  version: z.string().min(1),
  /** Its number within the request: its run is `fwbot <request> u<group>`. */
  group: z.number().int().nonnegative(),
  devices: z.array(Device).min(1),
  /** This group holds the canaries of their models (`--canary`). */
  canary: z.boolean(),
  /** The canaries this group waits for: each device, and the group it upgrades in. */
  after: z.array(z.object({ uid: z.string(), name: z.string(), model: z.string(), group: z.number() })),
  /** The requester's and each approver's grant, re-checked at the minute. */
  people: z.array(PersonToCheckSchema),
});
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

/** SCC's words as the end of a clause: without the full stop SCC may end them with. */
const said = (message: string) => message.trim().replace(/\.+$/, '');

async function runNamed(ctx: OperationContext, name: string): Promise<UpgradeRunDto | undefined> {
  const { data } = await ctx.scc.call('getDeviceUpgradeRuns', { query: { q: `name:"${name}"`, limit: '1' } });
  return data.items?.find((run) => run.name === name);
}

/** Device holds of devices left out end now: nothing of this request will change them any more. */
async function release(ctx: TimedContext, p: Payload, devices: readonly { uid: string }[]): Promise<void> {
  const holds = ctx.op.services?.holds;
  if (!holds) return;
  for (const device of devices)
    await holds.forceRelease(ctx.item.profile, device.uid, p.requestId).catch((error: unknown) => {
      ctx.log.warn(
        { err: error, deviceUid: device.uid },
        'hold of a device left out not released; it lapses',
      );
    });
}

/** The audit trail's line of this group's upgrade: what the approval it acts for came to at its minute. */
async function audit(
  ctx: TimedContext,
  p: Payload,
  action: 'executed' | 'aborted' | 'failed',
  outcome: string,
  transactionUid?: string,
): Promise<void> {
  await ctx
    .audit({
      action,
      operationId: 'upgrade',
      target: `upgrade ${names(p.devices)} to ${p.version}${p.canary ? ' (canary)' : ''}`,
      outcome,
      approvalId: p.requestId,
      ...(transactionUid ? { transactionUid } : {}),
    })
    .catch((error: unknown) => ctx.log.error({ err: error }, 'upgrade in the window not audited'));
}

/**
 * Not upgraded at all: the thread is told why (the run's failed summary; `named`: a sentence naming a person
 * with a live mention, said as it is), the holds end, it is audited.
 */
async function stop(ctx: TimedContext, p: Payload, why: string, named?: 'names a person') {
  await release(ctx, p, p.devices);
  const plain = named ? mentionsAsText(why) : why;
  const summary = `${names(p.devices)} not upgraded to ${p.version}: ${plain}`;
  await audit(ctx, p, 'aborted', `not done at its window: ${plain}`);
  return {
    status: 'failed' as const,
    summary,
    ...(named
      ? {
          said: `:x: ${untrusted(`${names(p.devices)} not upgraded to ${p.version}`)}: ${why} Nothing was started; ${p.devices.length === 1 ? 'its hold is' : 'their holds are'} released.`,
        }
      : {}),
  };
}

/** Waits a few minutes more; the holds are kept until then and the upgrade after it. */
async function again(ctx: TimedContext, p: Payload, summary: string) {
  const at = ctx.now() + UPGRADE_WAIT_MS;
  await ctx.op.services?.holds?.extend(p.requestId, at + HOLD_KINDS.upgrade.maxMs);
  return { status: 'again' as const, at, summary };
}

type Canaries = { ok: true } | { ok: false; wait: string } | { ok: false; failed: string };

/** Whether the canaries this group waits for completed and pass their checks. */
async function canaries(ctx: TimedContext, p: Payload): Promise<Canaries> {
  for (const canary of p.after) {
    const run = await runNamed(ctx.op, upgradeRunName(p.requestId, canary.group));
    if (!run) {
      const item = await ctx.op.services?.timed?.get({
        kind: deviceUpgradeInWindow.kind,
        profile: ctx.item.profile,
        key: `${p.requestId}:${canary.group}`,
      });
      if (item && (item.state === 'failed' || item.state === 'cancelled'))
        return {
          ok: false,
          failed: `its canary ${canary.name} (${canary.model}) was not upgraded (${said(item.summary ?? item.state)})`,
        };
      return { ok: false, wait: `waits for its canary ${canary.name} to start` };
    }
    if (!isDeviceUpgradeEnded(run)) return { ok: false, wait: `waits for its canary ${canary.name}` };
    if (run.upgradeRunStatus !== 'UPGRADE_COMPLETED') {
      const ending = DEVICE_UPGRADE_ENDINGS[run.upgradeRunStatus ?? '']?.words ?? 'ended';
      const reason = run.errorMsg ? `; SCC says: ${said(run.errorMsg)}` : '';
      return {
        ok: false,
        failed: `its canary ${canary.name} (${canary.model}) ${ending} (${run.upgradeRunStatus ?? '?'})${reason}`,
      };
    }
    const { data } = await ctx.op.scc.call('getDevice', { path: { deviceUid: canary.uid } });
    const problems = [
      ...(data.softwareVersion === p.version ? [] : [`it reports ${data.softwareVersion ?? 'no version'}`]),
      ...(data.connectivityState === 'ONLINE' ? [] : [`it is ${data.connectivityState ?? 'not ONLINE'}`]),
    ];
    if (problems.length > 0)
      return {
        ok: false,
        failed: `its canary ${canary.name} completed but does not pass its checks: ${problems.join(', ')}`,
      };
  }
  return { ok: true };
}

type Staged = { staged: Device[]; leftOut: { device: Device; reason: string }[] } | { wait: string };

/** Whether each device's image is staged: its staging run ended staged. */
async function staged(ctx: TimedContext, p: Payload): Promise<Staged> {
  const runs = new Map<string, UpgradeRunDto | undefined>();
  for (const name of new Set(p.devices.map((d) => d.stagedBy))) runs.set(name, await runNamed(ctx.op, name));
  const leftOut: { device: Device; reason: string }[] = [];
  const ready: Device[] = [];
  for (const device of p.devices) {
    const run = runs.get(device.stagedBy);
    if (!run || !isDeviceUpgradeEnded(run))
      return { wait: `waits for its image to be staged (${device.stagedBy})` };
    if (run.upgradeRunStatus === 'UPGRADE_STAGED') ready.push(device);
    else
      leftOut.push({
        device,
        reason: `its image was not staged (${run.upgradeRunStatus ?? '?'})${run.errorMsg ? `: SCC says: ${said(run.errorMsg)}` : ''}`,
      });
  }
  return { staged: ready, leftOut };
}

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
    const line = await canaries(ctx, p);
    if (!line.ok && 'failed' in line) return stop(ctx, p, `${line.failed}. The rest is stopped.`);
    if (!line.ok) return again(ctx, p, line.wait);
    const image = await staged(ctx, p);
    if ('wait' in image) return again(ctx, p, image.wait);
    const checked = await Promise.all(image.staged.map((d) => checkDevice(ctx.op, d, p.version)));
    const leftOut = [
      ...image.leftOut,
      ...checked
        .filter((d) => failures(d).length > 0)
        .map((d) => ({ device: d, reason: failures(d).join('; ') })),
    ];
    const going = checked.filter((d) => failures(d).length === 0);
    if (leftOut.length > 0) {
      await release(
        ctx,
        p,
        leftOut.map((l) => l.device),
      );
      await ctx.say(
        'left-out',
        `:warning: *Left out* of the upgrade to ${code(p.version)} at its window: ${leftOut.map((l) => `${untrusted(l.device.name)}: ${untrusted(l.reason)}`).join('; ')}.`,
      );
    }
    if (going.length === 0) {
      await audit(ctx, p, 'aborted', 'not done at its window: no device passes its checks any more');
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
      await audit(ctx, p, 'failed', 'SCC started no upgrade run');
      return { status: 'failed', summary: 'SCC started no upgrade run' };
    }
    await audit(
      ctx,
      p,
      'executed',
      `upgrade of ${going.map((d) => d.name).join(', ')} started at its window (run ${name}${ownWindow ? ", SCC's maintenance window ignored: fwbot's change window timed it" : ''})`,
      transactionUid,
    );
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
    await audit(
      ctx,
      p,
      'executed',
      `upgrade of ${names(going)} started at its window before fwbot restarted (run ${name}); found in SCC and followed, not started again`,
      run.transactionUid,
    );
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
