// `/fw upgrade`: the ASA or FTD software of devices moved to a version through SCC, a governed change (a
// second person approves the card; roles and checks are read again right before it runs). Each device is
// checked first: ONLINE; SYNCED with no conflict (nothing staged); no upgrade run of it in progress; an HA
// pair's two units healthy, one active and one standby; the version among those SCC offers it. A device
// that fails a check is left out, named with the reason, on the card the approver sees; when none passes,
// nothing is asked. Right before the run the checks are read again and a device that no longer passes is
// left out and said.
//
// On approval the image is staged at once (one SCC run for the ASAs, one per FTD package). With
// `--stage-only` that is all. Otherwise the upgrade itself is timed work (timed/deviceUpgradeInWindow.ts):
// it runs in each device's change window (fwbot's windows as deploys use them, else SCC's maintenance
// window), at or after `--at`, exactly once, with roles and checks read again at that minute; with
// `--canary` one device per model goes first and the rest only after it completed and passed its checks.
// Where there is no timed work (the CLI, without Redis), the image is staged and applied in one run, which
// SCC applies only inside the device's maintenance window. Every SCC run is followed in the card's thread
// (src/follow/deviceUpgradeRun.ts); the devices are held (deviceHolds.ts) from staging until their own
// upgrade run ends. Scope: the profile's own tenant (a customer channel's tenant: only its devices); through
// the MSP portal, its managed tenants' devices (then its own inventory), upgraded with SCC's MSP operations in
// batches of at most 50 per model per tenant (mspDeviceUpgrade.ts), each MSP run followed by the
// mspDeviceUpgradeRun kind. The plan is the same across tenants: staged at once, then upgraded as timed work
// (timed/mspUpgradeInWindow.ts) in each device's window (fwbot's change windows of the tenant's own profile,
// else SCC's maintenance window: mspUpgradeSteps.ts), with `--at` and `--canary`, and proven after
// (timed/mspUpgradeProof.ts); each device held until its own upgrade run ends. Without timed work it is
// staged and applied at once, the devices held until the last of the request's runs ends.
import { z } from 'zod';
import { type ChangeWindow, describeWindow, nextCommonOpening, windowState } from '../model/changeWindows.js';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import { viewerTime } from '../render/viewerTime.js';
import { flag, list, optionalText, text, unique } from './args.js';
import { DeviceWindowsFacts, deployAt } from './deployWindows.js';
import { HOLD_KINDS } from './deviceHolds.js';
import {
  checkAcross,
  MAX_MSP_UPGRADE,
  mspBatches,
  mspRunName,
  runDevices,
  startedMspRuns,
  startMspRun,
  tenantModelLines,
} from './mspDeviceUpgrade.js';
import { mspUpgradeWindows } from './mspUpgradeSteps.js';
import { defineOperation, type OperationContext, type TrackRequest } from './operation.js';
import { INTERFACE_LISTS } from './resolve.js';
import { deviceUpgradeInWindow, NO_BASELINE, upgradeRunName } from './timed/deviceUpgradeInWindow.js';
import { mspUpgradeInWindow, mspUpgradeRunName } from './timed/mspUpgradeInWindow.js';
import { keepUpgradeBaseline, type UpgradeBaseline } from './upgradeProof.js';
import { checkDevice, failures, haCheck, startRun, UpgradeDevice, upgradeWindows } from './upgradeSteps.js';
import { selectInTenant, selectWord, type Upgradable } from './upgrades.js';
import { isMspPortal } from './watches.js';

const MAX_DEVICES = 50;
const INTERFACE_READS = Object.values(INTERFACE_LISTS);

/** A device left out: why, and whether it failed when asked or changed before the run. */
const LeftOut = z.object({
  uid: z.string(),
  name: z.string(),
  reason: z.string(),
  when: z.enum(['asked', 'before-run']),
});
type LeftOut = z.infer<typeof LeftOut>;

/** A device's windows for its upgrade as the card showed them (upgradeSteps.ts upgradeWindows). */
const Slot = z.object({
  uid: z.string(),
  device: z.string(),
  source: z.enum(['fwbot', 'scc', 'none']),
  windows: DeviceWindowsFacts.shape.windows,
});
type Slot = z.infer<typeof Slot>;

const UpgradeFacts = z.object({
  version: z.string(),
  stageOnly: z.boolean(),
  devices: z.array(UpgradeDevice),
  leftOut: z.array(LeftOut),
  /** Staged now, upgraded later as timed work in each device's window (false: the CLI, or stage only). */
  inWindows: z.boolean().default(false),
  /** `--at`: not before then. */
  at: z.number().optional(),
  /** `--canary`: one device per model first. */
  canary: z.boolean().default(false),
  /** Each device's windows, as read for the card. */
  slots: z.array(Slot).default([]),
  /** Through the MSP portal, across its managed tenants (SCC's MSP upgrade operations). */
  acrossTenants: z.boolean().optional(),
});
type UpgradeFacts = z.infer<typeof UpgradeFacts>;

/** An ASA version as typed either way (`9.20(3)` or `9.20.3`), as SCC lists them: dotted. */
export function dottedVersion(typed: string): string {
  const asa = /^(\d+)\.(\d+)\((\d+)\)(.*)$/.exec(typed.trim());
  return asa ? `${asa[1]}.${asa[2]}.${asa[3]}${asa[4] ?? ''}` : typed.trim();
}

/** The run's name in SCC: unique per tenant, and it carries the request's id (found again after a crash). */
const runName = (requestId: string, group: number) => `fwbot ${requestId} ${group + 1}`;

/** The SCC runs one call each: the ASAs together, the FTDs per upgrade package (one model family each). */
function groups(devices: readonly UpgradeDevice[]): UpgradeDevice[][] {
  const asas = devices.filter((d) => d.kind === 'ASA');
  const byPackage = new Map<string, UpgradeDevice[]>();
  for (const d of devices.filter((d) => d.kind === 'FTD')) {
    const key = d.packageUid ?? '';
    byPackage.set(key, [...(byPackage.get(key) ?? []), d]);
  }
  return [...(asas.length > 0 ? [asas] : []), ...byPackage.values()];
}

/** The part of the baseline a run's devices make. */
const baselineOf = (baseline: UpgradeBaseline, devices: readonly { uid: string }[]): UpgradeBaseline => ({
  ...baseline,
  devices: baseline.devices.filter((d) => devices.some((run) => run.uid === d.uid)),
});

const runLabel = (devices: readonly { name: string; tenant?: string | undefined }[], facts: UpgradeFacts) =>
  `${facts.stageOnly ? 'stage' : 'upgrade'} ${facts.acrossTenants ? spread(devices) : devices.map((d) => d.name).join(', ')} to ${facts.version}`;

/** `120 devices in 3 tenants`: devices across tenants, too many to name in a label. */
const spread = (devices: readonly { tenant?: string | undefined }[]) =>
  `${counted(devices.length, 'device')} in ${counted(new Set(devices.map((d) => d.tenant)).size, 'tenant')}`;

/** Devices checked, those that pass apart from those left out (with why). */
function sortChecked(checked: readonly UpgradeDevice[], when: LeftOut['when']) {
  return {
    devices: checked.filter((d) => failures(d).length === 0),
    leftOut: checked
      .filter((d) => failures(d).length > 0)
      .map((d): LeftOut => ({ uid: d.uid, name: d.name, reason: failures(d).join('; '), when })),
  };
}

/** Later work needs fwbot's timed work (Redis): without it, `--at` and `--canary` are refused in one sentence. */
function refuseLaterWithout(inWindows: boolean, stageOnly: boolean, at: string | undefined, canary: boolean) {
  if (!inWindows && !stageOnly && (at !== undefined || canary))
    throw new UserError(
      '`--at` and `--canary` leave the upgrade for later, which needs fwbot’s timed work (Redis): ask in Slack or the console, or give the command line the bot’s Redis (REDIS_URL).',
    );
}

/**
 * Across the MSP portal's tenants: every device checked in bulk, left out with the reason. Staged at once,
 * one MSP run per request to SCC; the upgrade itself in each device's window as timed work, as in one
 * tenant (without timed work: staged and applied at once).
 */
async function resolveAcross(
  ctx: OperationContext,
  typed: readonly string[],
  chosen: readonly Upgradable[],
  version: string,
  options: { stageOnly: boolean; at: string | undefined; canary: boolean },
) {
  const inWindows = !options.stageOnly && ctx.services?.timed !== undefined;
  refuseLaterWithout(inWindows, options.stageOnly, options.at, options.canary);
  if (chosen.length > MAX_MSP_UPGRADE)
    throw new UserError(
      `That selects ${chosen.length} devices across tenants; fwbot upgrades at most ${MAX_MSP_UPGRADE} in one request. Narrow it down.`,
    );
  const checked: UpgradeDevice[] = await checkAcross(ctx, chosen, version, haCheck);
  const { devices, leftOut } = sortChecked(checked, 'asked');
  if (devices.length === 0)
    throw new UserError(
      `No device can be upgraded to ${version}: ${leftOut.map((d) => `${d.name} (${d.reason})`).join('; ')}.`,
    );
  const stageOnly = options.stageOnly;
  const at = deployAt(ctx, options.at);
  // The card's windows as the portal reads them (SCC's maintenance windows); a tenant's own profile's
  // change windows are read at the minute (mspUpgradeSteps.ts), the card says so.
  const slots = inWindows ? await mspUpgradeWindows(ctx, acrossDevices(devices), undefined) : [];
  return {
    facts: {
      version,
      stageOnly,
      devices,
      leftOut,
      inWindows,
      at,
      canary: options.canary,
      slots,
      acrossTenants: true,
    },
    // The words typed (the facts hold the devices): a request of more than 50 devices names them by query.
    raw: {
      device: [...typed],
      version,
      'stage-only': stageOnly,
      ...(options.at !== undefined ? { at: options.at } : {}),
      canary: options.canary,
    },
  };
}

/** The devices of an upgrade across tenants, each with its tenant (checkAcross always reads both). */
const acrossDevices = (devices: readonly UpgradeDevice[]) =>
  devices.map((d) => ({ ...d, tenantUid: d.tenantUid ?? '', tenant: d.tenant ?? '?' }));

/** Names for a line: a few, then how many more. */
const someNames = (names: readonly string[], few = 5) =>
  names.length <= few ? names.join(', ') : `${names.slice(0, few).join(', ')} and ${names.length - few} more`;

/**
 * When the devices across tenants upgrade if approved now: one line per window (devices grouped, a few
 * named), and what the card cannot know yet, said plainly.
 */
function acrossWhenLines(facts: UpgradeFacts, now: number): string[] {
  if (!facts.inWindows) return [];
  const groups = new Map<string, Slot[]>();
  for (const slot of facts.slots) {
    const key = `${slot.source}|${JSON.stringify(slot.windows)}`;
    groups.set(key, [...(groups.get(key) ?? []), slot]);
  }
  const lines = [...groups.values()].map((slots) => {
    const [first] = slots;
    if (!first) return '';
    const names = someNames(slots.map((s) => s.device));
    const line = slotLine({ ...first, device: names }, facts, now);
    return `:calendar: Upgrade of ${counted(slots.length, 'device')}: ${line}`;
  });
  const canaries = canariesOf(facts.devices);
  return [
    ...lines,
    'A tenant whose own profile fwbot has (named as the tenant) upgrades in fwbot’s change windows of that profile instead, read at the minute (then SCC’s maintenance window is ignored for it).',
    ...(facts.canary
      ? [
          `Canary (one per model across the request): ${[...canaries.values()].map((d) => `${untrusted(d.name)} (${untrusted(d.model)}, ${untrusted(d.tenant ?? '?')})`).join(', ')} first; the other devices of each model only after its canary completed and passes its checks (version ${facts.version}, ONLINE). A failed canary stops the rest.`,
        ]
      : []),
  ];
}

/** The card of an upgrade across tenants: per tenant and model, the HA pairs, the requests to SCC. */
function describeAcross(facts: UpgradeFacts, now: number) {
  const pairs = facts.devices.filter((d) => d.ha);
  const requests = mspBatches(facts.devices).length;
  return {
    fields: [
      { label: 'Tenants', value: tenantModelLines(facts.devices).join('; ') },
      ...(pairs.length > 0
        ? [{ label: 'HA pairs', value: pairs.map((d) => `${d.name} (${d.tenant}): ${d.ha}`).join('; ') }]
        : []),
      {
        label: 'Requests',
        value: `${counted(requests, 'upgrade request')} to SCC (at most 50 devices per model per tenant in each), each one run across tenants`,
      },
      { label: 'Plan', value: plan(facts) },
    ],
    // Every device's checks when they fit on a card; past 20 devices, that each passed every check.
    notes: [
      ...acrossWhenLines(facts, now),
      ...(facts.devices.length <= 20
        ? facts.devices.map((d) => `${untrusted(d.tenant ?? '?')} · ${checkLine(d)}`)
        : [
            `✓ ${counted(facts.devices.length, 'device')} passed every check: ONLINE · SYNCED, no conflict · no upgrade run in progress · HA pair healthy or standalone · ${untrusted(facts.version)} offered`,
          ]),
    ],
  };
}

/** The canary of each model (`--canary`): its first device, in the order the card lists them. */
function canariesOf(devices: readonly UpgradeDevice[]): Map<string, UpgradeDevice> {
  const canaries = new Map<string, UpgradeDevice>();
  for (const device of devices) if (!canaries.has(device.model)) canaries.set(device.model, device);
  return canaries;
}

/** The zone a time is said in: the first policy window's among these, else UTC. */
const zoneOf = (windows: readonly ChangeWindow[]) =>
  windows.find((w): w is Extract<ChangeWindow, { kind: 'policy' }> => w.kind === 'policy')?.timeZone ?? 'UTC';

/** When a device's upgrade runs if approved now: its window's first opening at or after `--at`. */
function slotLine(slot: Slot, facts: UpgradeFacts, now: number): string {
  const from = Math.max(now, facts.at ?? now);
  const name = untrusted(slot.device);
  if (slot.source === 'none')
    return facts.at === undefined
      ? `${name}: as soon as its image is staged (no change window)`
      : `${name}: ${viewerTime(from, now, 'UTC')} (no change window)`;
  const windows = slot.windows.map(describeWindow).join(' or ');
  const whose =
    slot.source === 'fwbot'
      ? `fwbot's change window ${windows}; SCC's maintenance window is ignored for it`
      : `${windows}, as fwbot has no change window for it`;
  const opens = nextCommonOpening([slot.windows], from);
  if (opens === undefined)
    return `${name}: never (${whose} does not open within a year): it will not be upgraded`;
  const when = opens <= now ? 'now, its window is open' : viewerTime(opens, now, zoneOf(slot.windows));
  const outside =
    facts.at !== undefined && !windowState(slot.windows, facts.at).open
      ? ` — \`--at\` falls outside it: upgrades stay inside a device's change window, so it waits for the window`
      : '';
  return `${name}: ${when} (${whose})${outside}`;
}

/** The plan in one plain line (a card field's value is shown as it is). */
const plan = (facts: UpgradeFacts) =>
  facts.stageOnly
    ? 'stage only: the image is uploaded and checked on each device, not applied'
    : facts.inWindows
      ? 'stage now: the image is uploaded and checked on every device at once; then each device is upgraded in its window, once, after its roles and checks are read again at that minute (an HA pair one unit after the other)'
      : 'stage and upgrade now: the image is uploaded, checked and applied (SCC applies it only inside the device’s maintenance window, else it stays staged); an HA pair upgrades one unit after the other';

/** When each device upgrades, and the canaries: the card's notes (mrkdwn, names quoted). */
function whenLines(facts: UpgradeFacts, now: number): string[] {
  if (!facts.inWindows) return [];
  const canaries = canariesOf(facts.devices);
  return [
    ...facts.slots.map((slot) => `:calendar: Upgrade of ${slotLine(slot, facts, now)}`),
    ...(facts.canary
      ? [
          `Canary: ${[...canaries.values()].map((d) => `${untrusted(d.name)} (${untrusted(d.model)})`).join(', ')} first; the other devices of each model only after its canary completed and passes its checks (version ${facts.version}, ONLINE). A failed canary stops the rest.`,
        ]
      : []),
  ];
}

const checkLine = (device: UpgradeDevice) =>
  `${untrusted(device.name)}: ${device.checks.map((c) => `${c.ok ? '✓' : '✗'} ${untrusted(c.said)}`).join(' · ')}`;

const leftOutLine = (d: LeftOut) =>
  `${untrusted(d.name)}${d.when === 'before-run' ? ' (changed since the card)' : ''}: ${untrusted(d.reason)}`;

/** The staging (or, without windows, the whole) runs: one per group of devices, named by the request. */
const stagingRuns = (requestId: string, facts: UpgradeFacts) =>
  groups(facts.devices).map((devices, i) => ({ name: runName(requestId, i), devices }));

/** One item of timed upgrade work as planned: its devices, canary side, the canaries it waits for. */
interface PlannedUpgrade {
  group: number;
  devices: (UpgradeDevice & { stagedBy: string })[];
  canary: boolean;
  windows: ChangeWindow[];
}

/**
 * The upgrade in the windows, as timed work: one item per SCC run, window and canary side, due at `--at` (or
 * now) and waiting for its windows; the devices' holds last until the latest is due, and then its run.
 * Scheduling is idempotent by the items' ids, so after a crash it is simply done again.
 */

/**
 * The canaries a group of the plan waits for: none for a canary's own group, else those of the group's
 * models, each with the group that upgrades it (both plans: in one tenant and across tenants).
 */
function canariesBefore(
  entry: { canary: boolean; devices: readonly { model: string }[] },
  canaries: ReadonlyMap<string, { uid: string; name: string; model: string }>,
  groupOf: ReadonlyMap<string, number>,
): { uid: string; name: string; model: string; group: number }[] {
  if (entry.canary) return [];
  const models = new Set(entry.devices.map((d) => d.model));
  return [...canaries.values()]
    .filter((c) => models.has(c.model))
    .map((c) => ({ uid: c.uid, name: c.name, model: c.model, group: groupOf.get(c.uid) ?? 0 }));
}

async function scheduleUpgrades(
  ctx: OperationContext,
  facts: UpgradeFacts,
): Promise<{ group: number; run: string; names: string[]; opens: number | undefined; canary: boolean }[]> {
  const timed = ctx.services?.timed;
  // From the command line there is no approval and no thread: the person holding the SCC token confirmed it
  // (--yes), nobody's roles are read again, and the bot's workers run it in no thread.
  const approval = ctx.approval ?? { people: [] };
  if (!timed) throw new Error('an upgrade in the windows needs the timed work');
  const now = ctx.now();
  const due = Math.max(now, facts.at ?? now);
  const windows = new Map((await upgradeWindows(ctx, facts.devices)).map((w) => [w.uid, w]));
  const canaries = facts.canary ? canariesOf(facts.devices) : new Map<string, UpgradeDevice>();
  const isCanary = (d: UpgradeDevice) => canaries.get(d.model)?.uid === d.uid;
  const planned = new Map<string, PlannedUpgrade>();
  // The canaries' groups first: the groups after them name them.
  for (const side of facts.canary ? [true, false] : [false])
    for (const run of stagingRuns(ctx.requestId, facts))
      for (const device of run.devices) {
        if (facts.canary && isCanary(device) !== side) continue;
        const slot = windows.get(device.uid);
        const key = `${run.name}|${slot?.source}|${JSON.stringify(slot?.windows ?? [])}|${side}`;
        const entry = planned.get(key) ?? {
          group: planned.size,
          devices: [],
          canary: facts.canary && side,
          windows: slot?.windows ?? [],
        };
        entry.devices.push({ ...device, stagedBy: run.name });
        planned.set(key, entry);
      }
  const groupOf = new Map<string, number>();
  for (const entry of planned.values()) for (const d of entry.devices) groupOf.set(d.uid, entry.group);
  const scheduled = [];
  for (const entry of planned.values()) {
    const after = canariesBefore(entry, canaries, groupOf);
    await timed.schedule(deviceUpgradeInWindow, {
      profile: ctx.profile,
      at: due,
      owner: ctx.actor.userId,
      thread: approval.thread,
      payload: {
        requestId: ctx.requestId,
        version: facts.version,
        group: entry.group,
        devices: entry.devices.map((d) => ({
          uid: d.uid,
          name: d.name,
          kind: d.kind,
          model: d.model,
          running: d.running,
          ...(d.packageUid ? { packageUid: d.packageUid } : {}),
          stagedBy: d.stagedBy,
        })),
        canary: entry.canary,
        after,
        people: [...approval.people],
      },
    });
    scheduled.push({
      group: entry.group,
      run: upgradeRunName(ctx.requestId, entry.group),
      names: entry.devices.map((d) => d.name),
      opens: nextCommonOpening([entry.windows], due),
      canary: entry.canary,
    });
  }
  // Frozen from staging until the latest is due, and its run (a canary's followers renew it as they wait).
  const latest = Math.max(due, ...scheduled.map((s) => s.opens ?? due));
  await ctx.services?.holds?.extend(ctx.requestId, latest + HOLD_KINDS.upgrade.maxMs);
  return scheduled;
}

/**
 * The upgrade across tenants in the windows, as timed work (timed/mspUpgradeInWindow.ts): as in one tenant,
 * one item per staging request, window and canary side (so each MSP run keeps SCC's limit of 50 per model
 * per tenant), due at `--at` (or now) and waiting for its windows, read again at the minute; the canaries
 * are one device per model across the request. Idempotent by the items' ids.
 */
async function scheduleAcross(ctx: OperationContext, facts: UpgradeFacts): Promise<Scheduled> {
  const timed = ctx.services?.timed;
  // From the command line there is no approval and no thread: the person holding the SCC token confirmed it
  // (--yes), nobody's roles are read again, and the bot's workers run it in no thread.
  const approval = ctx.approval ?? { people: [] };
  if (!timed) throw new Error('an upgrade in the windows needs the timed work');
  const now = ctx.now();
  const due = Math.max(now, facts.at ?? now);
  const windows = new Map(
    (await mspUpgradeWindows(ctx, acrossDevices(facts.devices), undefined)).map((w) => [w.uid, w]),
  );
  const canaries = facts.canary ? canariesOf(facts.devices) : new Map<string, UpgradeDevice>();
  const isCanary = (d: UpgradeDevice) => canaries.get(d.model)?.uid === d.uid;
  const planned = new Map<string, PlannedUpgrade>();
  const batches = mspBatches(facts.devices);
  for (const side of facts.canary ? [true, false] : [false])
    for (const [i, batch] of batches.entries())
      for (const device of batch) {
        if (facts.canary && isCanary(device) !== side) continue;
        const slot = windows.get(device.uid);
        const stagedBy = mspRunName(ctx.requestId, i);
        const key = `${stagedBy}|${slot?.source}|${JSON.stringify(slot?.windows ?? [])}|${side}`;
        const entry = planned.get(key) ?? {
          group: planned.size,
          devices: [],
          canary: facts.canary && side,
          windows: slot?.windows ?? [],
        };
        entry.devices.push({ ...device, stagedBy });
        planned.set(key, entry);
      }
  const groupOf = new Map<string, number>();
  for (const entry of planned.values()) for (const d of entry.devices) groupOf.set(d.uid, entry.group);
  const scheduled: Scheduled = [];
  for (const entry of planned.values()) {
    const after = canariesBefore(entry, canaries, groupOf);
    await timed.schedule(mspUpgradeInWindow, {
      profile: ctx.profile,
      at: due,
      owner: ctx.actor.userId,
      thread: approval.thread,
      payload: {
        requestId: ctx.requestId,
        version: facts.version,
        group: entry.group,
        devices: entry.devices.map((d) => ({
          uid: d.uid,
          name: d.name,
          kind: d.kind,
          model: d.model,
          running: d.running,
          tenantUid: d.tenantUid ?? '',
          tenant: d.tenant ?? '?',
          stagedBy: d.stagedBy,
        })),
        canary: entry.canary,
        after,
        people: [...approval.people],
      },
    });
    scheduled.push({
      group: entry.group,
      run: mspUpgradeRunName(ctx.requestId, entry.group),
      names: entry.devices.map((d) => `${d.name} (${d.tenant ?? '?'})`),
      opens: nextCommonOpening([entry.windows], due),
      canary: entry.canary,
    });
  }
  // Frozen from staging until the latest is due, and its run (a canary's followers renew it as they wait).
  const latest = Math.max(due, ...scheduled.map((s) => s.opens ?? due));
  await ctx.services?.holds?.extend(ctx.requestId, latest + HOLD_KINDS.upgrade.maxMs);
  return scheduled;
}

type Scheduled = {
  group: number;
  run: string;
  names: string[];
  opens: number | undefined;
  canary: boolean;
}[];

const scheduledLine = (item: Scheduled[number], now: number, zone: string) =>
  `${someNames(item.names)}${item.canary ? ' (canary)' : ''}: ${item.opens === undefined ? 'never (its windows do not open within a year)' : item.opens <= now ? 'once its image is staged' : viewerTime(item.opens, now, zone)} · run ${item.run}`;

/** The staging runs' follow requests: they release no hold when the upgrade comes later in the windows. */
function trackOf(
  runs: readonly { transactionUid: string; devices: readonly UpgradeDevice[] }[],
  facts: UpgradeFacts,
  holder: string,
  baseline?: UpgradeBaseline,
): TrackRequest[] {
  // Across tenants: each MSP run followed by its own kind; the holds end when the last of the request's
  // runs ends (its siblings).
  // Staged for the windows, a staging run releases no hold: each device's ends with its own upgrade run.
  if (facts.acrossTenants)
    return runs.map((run) => ({
      kind: 'mspDeviceUpgradeRun' as const,
      transactionUid: run.transactionUid,
      label: facts.inWindows
        ? `stage ${spread(run.devices)} for ${facts.version}`
        : runLabel(run.devices, facts),
      holder,
      devices: runDevices(run.devices),
      ...(facts.inWindows ? { releases: [] } : { siblings: runs.map((r) => r.transactionUid) }),
    }));
  return runs.map((run) => ({
    kind: 'deviceUpgradeRun' as const,
    transactionUid: run.transactionUid,
    label: facts.inWindows
      ? `stage ${run.devices.map((d) => d.name).join(', ')} for ${facts.version}`
      : runLabel(run.devices, facts),
    holder,
    devices: facts.inWindows ? [] : run.devices.map((d) => d.uid),
    ...(baseline ? { proof: baselineOf(baseline, run.devices) } : {}),
  }));
}

export const upgrade = defineOperation({
  id: 'upgrade',
  words: ['upgrade'],
  area: 'upgrades',
  failure: 'Could not upgrade the devices',
  summary:
    'Upgrade the ASA or FTD software of devices to a version, or only stage it (after a second person approves)',
  params: [
    {
      name: 'device',
      kind: 'word',
      variadic: true,
      description:
        'device names or UUIDs, or a Lucene query with field:value that selects ASAs and FTDs (quote it when it has spaces); at most 50 devices, or through the MSP portal 1,000 across its tenants',
    },
    {
      name: 'version',
      kind: 'word',
      flag: true,
      description: 'the software version to move to, as `/fw upgrades versions` lists it (`9.20.3`, `7.4.2`)',
    },
    {
      name: 'stage-only',
      kind: 'word',
      flag: true,
      boolean: true,
      description: 'upload and check the image on each device without applying it',
    },
    {
      name: 'at',
      kind: 'word',
      flag: true,
      optional: true,
      description:
        'upgrade not before then: an ISO time, `22:00` or `sat 22:00` (in the change window’s zone, else UTC); still inside each device’s window',
    },
    {
      name: 'canary',
      kind: 'word',
      flag: true,
      boolean: true,
      description:
        'one device per model first (across tenants: per model across the request); the rest only after it completed and passes its checks',
    },
  ],
  args: z
    .object({
      device: list({ min: 1, max: MAX_DEVICES, what: 'devices' }),
      version: text(),
      'stage-only': flag(),
      at: optionalText(),
      canary: flag(),
    })
    .refine((args) => unique(args.device) === undefined, {
      path: ['device'],
      message: 'names a device twice.',
    })
    .refine((args) => !(args['stage-only'] && (args.at !== undefined || args.canary)), {
      path: ['stage-only'],
      message: 'stages only: `--at` and `--canary` are for the upgrade itself, so leave them out.',
    }),
  role: 'operator',
  // It changes what the firewalls run: always a second person, who sees every device's checks.
  approval: 'always',
  scc: [
    'getDevices',
    'getDevice',
    'getDeviceUpgradeRuns',
    'getAsaUpgradeVersions',
    'getCompatibleFtdVersions',
    'upgradeAsaDevice',
    'upgradeAsaDevices',
    'upgradeFtdDevice',
    'upgradeFtdDevices',
    'getTransaction',
    'getDeviceUpgradeRun',
    // Right before the upgrade (upgradeProof.ts): the running configuration, `show failover`, the smoke traces.
    'getAsaConfiguration',
    'executeCliCommand',
    'getCliResults',
    'getCliResult',
    ...INTERFACE_READS,
    // Across the MSP portal's tenants.
    'getMspManagedTenants',
    'getMspManagedDevices',
    'getMspManagedDevice',
    'getMspAsaCompatibleUpgradeVersions',
    'calculateMspFtdCompatibleUpgradeVersions',
    'getMspFtdCompatibleUpgradeVersions',
    'getMspDeviceUpgradeRuns',
    'getMspDeviceUpgradeRun',
    'upgradeMspManagedAsaDevices',
    'upgradeMspManagedFtdDevices',
  ],
  examples: [
    'upgrade asa-hq-01 --version 9.20.3 --stage-only',
    'upgrade asa-hq-01 asa-dc-03 --version 9.20.3',
    'upgrade deviceType:CDFMC_MANAGED_FTD --version 7.4.2',
    'upgrade deviceType:ASA --version 9.20.3 --canary --at "sat 22:00"',
    'upgrade "managedTenantName:northwind-us" --version 9.20.3',
  ],
  // Later work is the bot's timed work: the CLI opens the bot's Redis for it when one is named.
  uses: (raw) => (raw.at !== undefined || raw.canary === true ? ['timed', 'holds'] : []),
  // Its devices are held from the moment its approved run is claimed until its upgrade runs end: a deploy or
  // an interface change meanwhile is refused in one sentence.
  changes: {
    devices: async (_ctx, _args, facts) => facts?.devices ?? [],
    hold: { kind: 'upgrade', reason: (facts) => runLabel(facts.devices, facts) },
  },
  target: {
    facts: UpgradeFacts,
    resolve: async (ctx, args) => {
      const version = dottedVersion(args.version);
      // Through the MSP portal, a word means its managed tenants' devices first, then its own inventory's.
      const portal = await isMspPortal(ctx);
      const chosen = new Map<string, Upgradable>();
      for (const word of args.device)
        for (const device of portal
          ? await selectWord(ctx.scc, word.trim(), true)
          : await selectInTenant(ctx.scc, word.trim()))
          chosen.set(device.uid, device);
      const managed = [...chosen.values()].filter((d) => d.tenantUid !== undefined);
      if (managed.length > 0) {
        if (managed.length < chosen.size)
          throw new UserError(
            `That selects devices of managed tenants (${managed[0]?.name}) and of the portal's own inventory (${[...chosen.values()].find((d) => d.tenantUid === undefined)?.name}); upgrade them in two requests.`,
          );
        return resolveAcross(ctx, args.device, managed, version, {
          stageOnly: args['stage-only'],
          at: args.at,
          canary: args.canary,
        });
      }
      if (chosen.size > MAX_DEVICES)
        throw new UserError(
          `That selects ${chosen.size} devices; SCC upgrades at most ${MAX_DEVICES} at a time. Narrow it down.`,
        );
      const checked = await Promise.all([...chosen.values()].map((d) => checkDevice(ctx, d, version)));
      const devices = checked.filter((d) => failures(d).length === 0);
      const leftOut = checked
        .filter((d) => failures(d).length > 0)
        .map((d): LeftOut => ({ uid: d.uid, name: d.name, reason: failures(d).join('; '), when: 'asked' }));
      if (devices.length === 0)
        throw new UserError(
          `No device can be upgraded to ${version}: ${leftOut.map((d) => `${d.name} (${d.reason})`).join('; ')}.`,
        );
      const stageOnly = args['stage-only'];
      // Later work needs fwbot's timed work (Redis): without it (the CLI) the image is staged and applied in
      // one run, which SCC holds to the device's maintenance window.
      const inWindows = !stageOnly && ctx.services?.timed !== undefined;
      refuseLaterWithout(inWindows, stageOnly, args.at, args.canary);
      const at = deployAt(ctx, args.at);
      const slots = inWindows ? await upgradeWindows(ctx, devices) : [];
      return {
        facts: { version, stageOnly, devices, leftOut, inWindows, at, canary: args.canary, slots },
        raw: {
          device: devices.map((d) => d.uid),
          version,
          'stage-only': stageOnly,
          ...(args.at !== undefined ? { at: args.at } : {}),
          canary: args.canary,
        },
      };
    },
    // Read again right before the run: a device that no longer passes is left out and said; when none
    // passes, nothing runs.
    reread: async (ctx, facts) => {
      if (facts.acrossTenants) {
        const { devices, leftOut } = sortChecked(
          await checkAcross(ctx, facts.devices, facts.version, haCheck),
          'before-run',
        );
        if (devices.length === 0)
          return {
            found: false,
            reason: `no device passes its checks any more: ${leftOut.map((d) => `${d.name} (${d.reason})`).join('; ')}`,
          };
        return { found: true, facts: { ...facts, devices, leftOut: [...facts.leftOut, ...leftOut] } };
      }
      const checked = await Promise.all(
        facts.devices.map((d) =>
          checkDevice(
            ctx,
            { uid: d.uid, name: d.name, kind: d.kind, model: d.model, running: d.running },
            facts.version,
          ),
        ),
      );
      const devices = checked.filter((d) => failures(d).length === 0);
      const changed = checked
        .filter((d) => failures(d).length > 0)
        .map(
          (d): LeftOut => ({ uid: d.uid, name: d.name, reason: failures(d).join('; '), when: 'before-run' }),
        );
      if (devices.length === 0)
        return {
          found: false,
          reason: `no device passes its checks any more: ${changed.map((d) => `${d.name} (${d.reason})`).join('; ')}`,
        };
      return { found: true, facts: { ...facts, devices, leftOut: [...facts.leftOut, ...changed] } };
    },
    // A device that changed is left out by the re-read (and said); what remains is what was approved.
    compare: () => [],
    // An upgrade does not remove its target; its runs carry the request's id in their names, so after a
    // crash while they were started, SCC's runs say which were taken.
    interrupted: async (ctx, facts) => {
      if (facts.acrossTenants) {
        const started = await startedMspRuns(ctx, mspBatches(facts.devices).length);
        if (started.length === 0) return undefined;
        const byUid = new Map(facts.devices.map((d) => [d.uid.toLowerCase(), d]));
        const track = trackOf(
          started.map((run) => ({
            transactionUid: run.transactionUid,
            devices: run.deviceUids.flatMap((uid) => byUid.get(uid.toLowerCase()) ?? []),
          })),
          facts,
          ctx.requestId,
        );
        // The upgrade in the windows may not have been scheduled yet: scheduling it again changes nothing.
        if (facts.inWindows) await scheduleAcross(ctx, facts);
        const text = `:white_check_mark: The ${facts.inWindows ? 'staging' : 'upgrade'} across tenants started before fwbot restarted reached SCC (${counted(started.length, 'run')}: ${started.map((r) => code(r.name)).join(', ')}); it was not started again. fwbot follows it here${facts.inWindows ? ', and the upgrade in the windows is scheduled' : ''}.`;
        return {
          view: {
            summary: `${runLabel(facts.devices, facts)}: started before fwbot restarted`,
            blocks: [{ kind: 'text', text }],
            visibility: 'in_channel',
          },
          track,
        };
      }
      // Each run it would have started, by its exact name (one read per run: one to three).
      const runs = [];
      for (const { name } of stagingRuns(ctx.requestId, facts)) {
        const { data } = await ctx.scc.call('getDeviceUpgradeRuns', {
          query: { q: `name:"${name}"`, limit: '1' },
        });
        const run = data.items?.find((item) => item.name === name && item.transactionUid);
        if (run) runs.push(run);
      }
      if (runs.length === 0) return undefined;
      const byUid = new Map(facts.devices.map((d) => [d.uid, d]));
      const track = trackOf(
        runs.map((run) => ({
          transactionUid: run.transactionUid ?? '',
          devices: (run.deviceUids ?? []).flatMap((uid) => byUid.get(uid) ?? []),
        })),
        facts,
        ctx.requestId,
      );
      // Applied at once, its devices' baseline was kept by the process that crashed: its end says it is not
      // proven rather than saying nothing (a staging applies nothing; in the windows the baseline comes then).
      const applied = !facts.stageOnly && !facts.inWindows;
      for (const request of track)
        if (applied && request.kind === 'deviceUpgradeRun') request.unproven = NO_BASELINE;
      // The upgrade in the windows may not have been scheduled yet: scheduling it again changes nothing.
      if (facts.inWindows) await scheduleUpgrades(ctx, facts);
      const text = `:white_check_mark: The ${facts.inWindows ? 'staging' : 'upgrade'} started before fwbot restarted reached SCC (${counted(runs.length, 'run')}: ${runs.map((r) => code(r.name ?? r.uid ?? '?')).join(', ')}); it was not started again. fwbot follows it here${facts.inWindows ? ', and the upgrade in the windows is scheduled' : ''}.`;
      return {
        view: {
          summary: `${runLabel(facts.devices, facts)}: started before fwbot restarted`,
          blocks: [{ kind: 'text', text }],
          visibility: 'in_channel',
        },
        track,
      };
    },
    describe: (facts, now) => {
      const names = facts.devices.map((d) => d.name);
      const asked = facts.leftOut.filter((d) => d.when === 'asked');
      const changed = facts.leftOut.filter((d) => d.when === 'before-run');
      const across = facts.acrossTenants ? describeAcross(facts, now) : undefined;
      return {
        action: `${facts.stageOnly ? 'stage' : 'upgrade'} ${across ? spread(facts.devices) : names.length === 1 ? code(names[0] ?? '') : `${names.length} devices`} to ${code(facts.version)}${facts.stageOnly ? ' (stage only)' : ''}`,
        line: runLabel(facts.devices, facts),
        fields: across?.fields ?? [
          ...facts.devices.map((d) => ({
            label: d.name,
            value: `${d.kind} ${d.running} → ${facts.version} · ${d.model}${d.ha ? ` · HA pair: ${d.ha}` : ''}`,
          })),
          { label: 'Plan', value: plan(facts) },
        ],
        warnings: [
          ...(asked.length > 0
            ? [
                `:warning: *Left out* (${counted(asked.length, 'device')}): ${asked.map(leftOutLine).join('; ')}`,
              ]
            : []),
          ...(changed.length > 0
            ? [`:warning: *Left out since the card*: ${changed.map(leftOutLine).join('; ')}`]
            : []),
        ],
        notes: across?.notes ?? [...whenLines(facts, now), ...facts.devices.map(checkLine)],
      };
    },
  },
  run: async (ctx, _args, facts) => {
    // What each device is right before its upgrade, to prove it after (upgradeProof.ts); a stage-only run
    // applies nothing, so there is nothing to prove.
    // Upgraded later in the windows, the baseline is kept then (timed/deviceUpgradeInWindow.ts). Across
    // tenants there is none: the portal's token reads no tenant's configuration or command line.
    const baseline =
      facts.stageOnly || facts.inWindows || facts.acrossTenants
        ? undefined
        : await keepUpgradeBaseline(ctx, facts.devices, facts.version);
    const runs: { transactionUid: string; devices: UpgradeDevice[] }[] = [];
    // Across tenants: one MSP run per request of at most 50 devices per model per tenant, staged (for the
    // windows, or only), or without timed work staged and applied at once.
    for (const [i, devices] of (facts.acrossTenants ? mspBatches(facts.devices) : []).entries()) {
      const start = {
        version: facts.version,
        stageOnly: facts.stageOnly || facts.inWindows,
        name: mspRunName(ctx.requestId, i),
      };
      const transactionUid = await startMspRun(ctx, devices, start);
      if (transactionUid) runs.push({ transactionUid, devices });
    }
    for (const { name, devices } of facts.acrossTenants ? [] : stagingRuns(ctx.requestId, facts)) {
      const start = { version: facts.version, stageOnly: facts.stageOnly || facts.inWindows, name };
      const transactionUid = await startRun(ctx, devices, start);
      if (transactionUid) runs.push({ transactionUid, devices });
    }
    const later =
      facts.inWindows && runs.length > 0
        ? facts.acrossTenants
          ? await scheduleAcross(ctx, facts)
          : await scheduleUpgrades(ctx, facts)
        : [];
    // Its device holds (taken under this request's id when its approved run was claimed) end with each
    // device's own last run.
    return { facts, runs, later, holder: ctx.requestId, now: ctx.now(), baseline };
  },
  render: ({ facts, runs, later, now }, _args, meta) => {
    const zone = zoneOf(facts.slots.flatMap((s) => s.windows));
    return announcement(
      {
        sentence: facts.inWindows
          ? `stage ${facts.acrossTenants ? spread(facts.devices) : facts.devices.map((d) => d.name).join(', ')} for ${facts.version}`
          : runLabel(facts.devices, facts),
        tense: 'asked',
        details: [
          ...runs.map((run, i): [string, unknown] => [
            `${facts.inWindows ? 'Staging run' : 'Run'} ${i + 1}`,
            `${facts.acrossTenants ? spread(run.devices) : run.devices.map((d) => d.name).join(', ')} · transaction ${run.transactionUid}`,
          ]),
          ...later.map((item): [string, unknown] => [
            `Upgrade ${item.group + 1}`,
            scheduledLine(item, now, zone),
          ]),
          ...facts.leftOut.map((d): [string, unknown] => [
            `Left out: ${d.name}`,
            `${d.when === 'before-run' ? 'changed since the card: ' : ''}${d.reason}`,
          ]),
        ],
        next: facts.inWindows
          ? `fwbot follows the staging here; each upgrade runs in its window, once, after roles and checks are read again then (a device that fails is left out and named here), and keeps one progress message per run. The devices stay held until their upgrade ends.`
          : `fwbot follows each run and keeps one progress message per run here; a failure is said with SCC's reason, and you are told when ${runs.length === 1 ? 'it ends' : 'each ends'}.`,
      },
      meta,
    );
  },
  track: ({ facts, runs, holder, baseline }) => trackOf(runs, facts, holder, baseline),
});
