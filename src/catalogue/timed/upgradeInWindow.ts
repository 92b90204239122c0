// What the two kinds that upgrade in a window share: one tenant's (deviceUpgradeInWindow.ts) and the MSP
// portal's across tenants (mspUpgradeInWindow.ts) follow the same plan at their minute and differ only in
// how they read a run by its name and a device's record. Here: the holds of devices left out released, a
// wait of a few minutes more, the audit trail's line, the stop that starts nothing (the thread told why, a
// lost role named with a live mention), whether the canaries completed and pass their checks, and whether
// each device's image was staged.
import { z } from 'zod';
import { DEVICE_UPGRADE_ENDINGS, isDeviceUpgradeEnded } from '../../follow/deviceUpgradeWords.js';
import { mentionsAsText } from '../../render/mrkdwn.js';
import { untrusted } from '../../render/untrusted.js';
import { HOLD_KINDS } from '../deviceHolds.js';
import { PersonToCheckSchema, type TimedAudit, type TimedContext } from './kind.js';

/** A device of a group as both kinds store it; each kind extends it (a package, a tenant). */
export const WindowDeviceSchema = z.object({
  uid: z.string().min(1),
  name: z.string(),
  kind: z.enum(['ASA', 'FTD']),
  model: z.string(),
  running: z.string(),
  /** The run that staged its image (`fwbot <request> <n>`, `fwbot <request> msp <n>`). */
  stagedBy: z.string(),
});

/** A group's payload as both kinds store it, with its devices' schema. */
export const windowPlanSchema = <D extends typeof WindowDeviceSchema>(device: D) =>
  z.object({
    /** The approval's id: its holds' holder, and part of every run's name. */
    requestId: z.string().min(1),
    version: z.string().min(1),
    /** Its number within the request: its run is `fwbot <request> u<group>` (`msp u<group>` across tenants). */
    group: z.number().int().nonnegative(),
    devices: z.array(device).min(1),
    /** This group holds the canaries of their models (`--canary`). */
    canary: z.boolean(),
    /** The canaries this group waits for: each device, and the group it upgrades in. */
    after: z.array(z.object({ uid: z.string(), name: z.string(), model: z.string(), group: z.number() })),
    /** The requester's and each approver's grant, re-checked at the minute. */
    people: z.array(PersonToCheckSchema),
  });

/** A group's plan as both kinds store it (the fields they read alike). */
export interface WindowPlan {
  /** The approval's id: its holds' holder, and part of every run's name. */
  requestId: string;
  version: string;
  devices: readonly { uid: string; name: string; stagedBy: string }[];
  canary: boolean;
  after: readonly { uid: string; name: string; model: string; group: number }[];
}

/** A run as both SCC paths return it: enough to tell how it ended. */
export interface RunRead {
  upgradeRunStatus?: string | null;
  stageUpgradeOnly?: boolean | null;
  errorMsg?: string | null;
}

/** How one kind reads SCC: its runs by name, and a device's record (a canary's version and connectivity). */
export interface WindowReads<R extends RunRead> {
  /** The timed kind's name: a canary group's item is read by it. */
  kind: string;
  runNamed(name: string): Promise<R | undefined>;
  /** The name of the run a group of the request starts. */
  runName(requestId: string, group: number): string;
  device(uid: string): Promise<{ softwareVersion?: string | null; connectivityState?: string | null }>;
}

/** SCC's words as the end of a clause: without the full stop SCC may end them with. */
export const said = (message: string) => message.trim().replace(/\.+$/, '');

/** Device holds of devices left out end now: nothing of this request will change them any more. */
export async function releaseHolds(
  ctx: TimedContext,
  requestId: string,
  devices: readonly { uid: string }[],
): Promise<void> {
  const holds = ctx.op.services?.holds;
  if (!holds) return;
  for (const device of devices)
    await holds.forceRelease(ctx.item.profile, device.uid, requestId).catch((error: unknown) => {
      ctx.log.warn(
        { err: error, deviceUid: device.uid },
        'hold of a device left out not released; it lapses',
      );
    });
}

/** Waits `waitMs` more; the holds are kept until then and the upgrade after it. */
export async function waitAgain(ctx: TimedContext, requestId: string, waitMs: number, summary: string) {
  const at = ctx.now() + waitMs;
  await ctx.op.services?.holds?.extend(requestId, at + HOLD_KINDS.upgrade.maxMs);
  return { status: 'again' as const, at, summary };
}

/** The audit trail's line of a group's upgrade: what the approval it acts for came to at its minute. */
export async function auditUpgrade(ctx: TimedContext, entry: Omit<TimedAudit, 'operationId'>): Promise<void> {
  await ctx
    .audit({ ...entry, operationId: 'upgrade' })
    .catch((error: unknown) => ctx.log.error({ err: error }, 'upgrade in the window not audited'));
}

/**
 * Not upgraded at all: the holds end, it is audited (`target`), the thread is told why (the failed summary,
 * with `what` the devices as it names them; `named`: a sentence naming a person with a live mention, said
 * as it is).
 */
export async function stopUpgrade(
  ctx: TimedContext,
  p: WindowPlan,
  { what, target }: { what: string; target: string },
  why: string,
  named?: 'names a person',
) {
  await releaseHolds(ctx, p.requestId, p.devices);
  const plain = named ? mentionsAsText(why) : why;
  await auditUpgrade(ctx, {
    action: 'aborted',
    target,
    outcome: `not done at its window: ${plain}`,
    approvalId: p.requestId,
  });
  return {
    status: 'failed' as const,
    summary: `${what} not upgraded to ${p.version}: ${plain}`,
    ...(named
      ? {
          said: `:x: ${untrusted(`${what} not upgraded to ${p.version}`)}: ${why} Nothing was started; ${p.devices.length === 1 ? 'its hold is' : 'their holds are'} released.`,
        }
      : {}),
  };
}

export type Canaries = { ok: true } | { ok: false; wait: string } | { ok: false; failed: string };

/** Whether the canaries this group waits for completed and pass their checks (version and ONLINE). */
export async function canariesPassed<R extends RunRead>(
  ctx: TimedContext,
  p: WindowPlan,
  reads: WindowReads<R>,
): Promise<Canaries> {
  for (const canary of p.after) {
    const run = await reads.runNamed(reads.runName(p.requestId, canary.group));
    if (!run) {
      const item = await ctx.op.services?.timed?.get({
        kind: reads.kind,
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
    const record = await reads.device(canary.uid);
    const problems = [
      ...(record.softwareVersion === p.version
        ? []
        : [`it reports ${record.softwareVersion ?? 'no version'}`]),
      ...(record.connectivityState === 'ONLINE' ? [] : [`it is ${record.connectivityState ?? 'not ONLINE'}`]),
    ];
    if (problems.length > 0)
      return {
        ok: false,
        failed: `its canary ${canary.name} completed but does not pass its checks: ${problems.join(', ')}`,
      };
  }
  return { ok: true };
}

export type Staged<D> = { staged: D[]; leftOut: { device: D; reason: string }[] } | { wait: string };

/** Whether each device's image is staged: its staging run (`stagedBy`) ended staged. */
export async function imagesStaged<D extends { stagedBy: string }, R extends RunRead>(
  devices: readonly D[],
  runNamed: (name: string) => Promise<R | undefined>,
): Promise<Staged<D>> {
  const runs = new Map<string, R | undefined>();
  for (const name of new Set(devices.map((d) => d.stagedBy))) runs.set(name, await runNamed(name));
  const leftOut: { device: D; reason: string }[] = [];
  const ready: D[] = [];
  for (const device of devices) {
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
