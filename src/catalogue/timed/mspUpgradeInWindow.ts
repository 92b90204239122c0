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
// holds end with it, and it is proven after it completed (timed/mspUpgradeProof.ts).
import { z } from 'zod';
import { DEVICE_UPGRADE_ENDINGS, isDeviceUpgradeEnded } from '../../follow/deviceUpgradeWords.js';
import type { TrackRequest } from '../../follow/index.js';
import { code } from '../../render/format.js';
import { untrusted } from '../../render/untrusted.js';
import type { MspUpgradeRunDto } from '../../scc/generated/models.js';
import { HOLD_KINDS } from '../deviceHolds.js';
import { checkAcross, mspRunNamed, readManaged, runDevices, startMspRun } from '../mspDeviceUpgrade.js';
import { keepMspBaseline, mspUpgradeWindows, type TenantProfiles } from '../mspUpgradeSteps.js';
import { failures, haCheck } from '../upgradeSteps.js';
import { defineTimedKind, PersonToCheckSchema, type TimedContext } from './kind.js';

const MINUTE = 60_000;
/** How soon a group looks again while its image is still being staged or its canaries still upgrade. */
export const MSP_UPGRADE_WAIT_MS = 5 * MINUTE;

const Device = z.object({
  uid: z.string().min(1),
  name: z.string(),
  kind: z.enum(['ASA', 'FTD']),
  model: z.string(),
  running: z.string(),
  tenantUid: z.string(),
  tenant: z.string(),
  /** The MSP run that staged its image (`fwbot <request> msp <n>`). */
  stagedBy: z.string(),
});
type Device = z.infer<typeof Device>;

const Payload = z.object({
  /** The approval's id: its holds' holder, and part of every run's name. */
  requestId: z.string().min(1),
  version: z.string().min(1),
  /** Its number within the request: its MSP run is `fwbot <request> msp u<group>`. */
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

/** The name of the MSP run a group starts: found by it after a crash, and by the groups after a canary. */
export const mspUpgradeRunName = (requestId: string, group: number) => `fwbot ${requestId} msp u${group + 1}`;

const names = (devices: readonly { name: string; tenant: string }[]) =>
  devices.map((d) => `${d.name} (${d.tenant})`).join(', ');

/** SCC's words as the end of a clause: without the full stop SCC may end them with. */
const said = (message: string) => message.trim().replace(/\.+$/, '');

/** The tenants' own profiles, as the timed work has them. */
const tenantsOf = (ctx: TimedContext): TenantProfiles => ({
  profiles: () => ctx.profiles(),
  clientOf: (profile) => ctx.clientOf(profile),
});

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

/** Not upgraded at all: the thread is told why (the item's failed summary), the holds end. */
async function stop(ctx: TimedContext, p: Payload, why: string) {
  await release(ctx, p, p.devices);
  return {
    status: 'failed' as const,
    summary: `${names(p.devices)} not upgraded to ${p.version}: ${why}`,
  };
}

/** Waits a few minutes more; the holds are kept until then and the upgrade after it. */
async function again(ctx: TimedContext, p: Payload, summary: string) {
  const at = ctx.now() + MSP_UPGRADE_WAIT_MS;
  await ctx.op.services?.holds?.extend(p.requestId, at + HOLD_KINDS.upgrade.maxMs);
  return { status: 'again' as const, at, summary };
}

type Canaries = { ok: true } | { ok: false; wait: string } | { ok: false; failed: string };

/** Whether the canaries this group waits for completed and pass their checks (the portal's records). */
async function canaries(ctx: TimedContext, p: Payload): Promise<Canaries> {
  for (const canary of p.after) {
    const run = await mspRunNamed(ctx.op, mspUpgradeRunName(p.requestId, canary.group));
    if (!run) {
      const item = await ctx.op.services?.timed?.get({
        kind: mspUpgradeInWindow.kind,
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
    const record = (await readManaged(ctx.op, [canary.uid])).get(canary.uid.toLowerCase());
    const problems = [
      ...(record?.softwareVersion === p.version
        ? []
        : [`it reports ${record?.softwareVersion ?? 'no version'}`]),
      ...(record?.connectivityState === 'ONLINE'
        ? []
        : [`it is ${record?.connectivityState ?? 'not ONLINE'}`]),
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

/** Whether each device's image is staged: its staging MSP run ended staged. */
async function staged(ctx: TimedContext, p: Payload): Promise<Staged> {
  const runs = new Map<string, MspUpgradeRunDto | undefined>();
  for (const name of new Set(p.devices.map((d) => d.stagedBy)))
    runs.set(name, await mspRunNamed(ctx.op, name));
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
    if (lost) return stop(ctx, p, lost);
    const line = await canaries(ctx, p);
    if (!line.ok && 'failed' in line) return stop(ctx, p, `${line.failed}. The rest is stopped.`);
    if (!line.ok) return again(ctx, p, line.wait);
    const image = await staged(ctx, p);
    if ('wait' in image) return again(ctx, p, image.wait);
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
      await release(
        ctx,
        p,
        leftOut.map((l) => l.device),
      );
      await ctx.say(
        'left-out',
        `:warning: *Left out* of the upgrade to ${code(p.version)} at its window: ${leftOut.map((l) => `${untrusted(`${l.device.name} (${l.device.tenant})`)}: ${untrusted(l.reason)}`).join('; ')}.`,
      );
    }
    if (going.length === 0)
      return {
        status: 'failed',
        summary: `no device of ${names(p.devices)} passes its checks at its window: nothing was upgraded`,
      };
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
    if (!transactionUid) return { status: 'failed', summary: 'SCC started no upgrade run across tenants' };
    const tenantCount = new Set(going.map((d) => d.tenantUid)).size;
    const track: TrackRequest[] = [
      {
        kind: 'mspDeviceUpgradeRun',
        transactionUid,
        label: `upgrade ${going.length === 1 ? names(going) : `${going.length} devices in ${tenantCount} tenant${tenantCount === 1 ? '' : 's'}`} to ${p.version}`,
        holder: p.requestId,
        devices: runDevices(going),
        releases: going.map((d) => d.uid),
        proof: baseline,
      },
    ];
    return {
      status: 'done',
      summary: `upgrade of ${names(going)} started across tenants (run ${name})`,
      track,
    };
  },
  // Its MSP run carries its name: found, it took effect (followed from SCC's list by whoever looks); not,
  // it runs again.
  interrupted: async (ctx, p) =>
    (await mspRunNamed(ctx.op, mspUpgradeRunName(p.requestId, p.group))) ? 'took-effect' : 'not-done',
});
