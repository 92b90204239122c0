// `/fw upgrade`: the ASA or FTD software of devices moved to a version through SCC, a governed change (a
// second person approves the card; roles and checks are read again right before it runs). Each device is
// checked first: ONLINE; SYNCED with no conflict (nothing staged); no upgrade run of it in progress; an HA
// pair's two units healthy, one active and one standby; the version among those SCC offers it. A device
// that fails a check is left out, named with the reason, on the card the approver sees; when none passes,
// nothing is asked. Right before the run the checks are read again and a device that no longer passes is
// left out and said. The run stages the image only (`--stage-only`) or stages and upgrades at once; each
// SCC run it starts is followed to its end in the card's thread (src/follow/deviceUpgradeRun.ts), and the
// devices are held (deviceHolds.ts) until it ends. Scope: the profile's own tenant (a customer channel's
// tenant: only its devices); through the MSP portal, its managed tenants' devices (then its own inventory),
// upgraded with SCC's MSP operations in batches of at most 50 per model per tenant (mspDeviceUpgrade.ts),
// each MSP run followed by the mspDeviceUpgradeRun kind; windows and canaries are later parts of issue 37.
import { z } from 'zod';
import { isDeviceUpgradeEnded } from '../follow/deviceUpgradeWords.js';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import type { Device } from '../scc/generated/models.js';
import { flag, list, text, unique } from './args.js';
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
import { defineOperation, type OperationContext, type TrackRequest } from './operation.js';
import { selectInTenant, selectWord, type Upgradable } from './upgrades.js';
import { isMspPortal } from './watches.js';

const MAX_DEVICES = 50;

/** One check of one device: what it is, whether it passed, what was read. */
const Check = z.object({ check: z.string(), ok: z.boolean(), said: z.string() });
type Check = z.infer<typeof Check>;

const UpgradeDevice = z.object({
  uid: z.string(),
  name: z.string(),
  kind: z.enum(['ASA', 'FTD']),
  model: z.string(),
  running: z.string(),
  /** An HA pair's units as read: `Primary - Active, Secondary - Standby Ready`. */
  ha: z.string().optional(),
  /** The FTD upgrade package of the target version for this device's model. */
  packageUid: z.string().optional(),
  /** Its managed tenant, for a device upgraded through the MSP portal. */
  tenantUid: z.string().optional(),
  tenant: z.string().optional(),
  checks: z.array(Check),
});
type UpgradeDevice = z.infer<typeof UpgradeDevice>;

/** A device left out: why, and whether it failed when asked or changed before the run. */
const LeftOut = z.object({
  uid: z.string(),
  name: z.string(),
  reason: z.string(),
  when: z.enum(['asked', 'before-run']),
});
type LeftOut = z.infer<typeof LeftOut>;

const UpgradeFacts = z.object({
  version: z.string(),
  stageOnly: z.boolean(),
  devices: z.array(UpgradeDevice),
  leftOut: z.array(LeftOut),
  /** Through the MSP portal, across its managed tenants (SCC's MSP upgrade operations). */
  acrossTenants: z.boolean().optional(),
});
type UpgradeFacts = z.infer<typeof UpgradeFacts>;

/** An ASA version as typed either way (`9.20(3)` or `9.20.3`), as SCC lists them: dotted. */
export function dottedVersion(typed: string): string {
  const asa = /^(\d+)\.(\d+)\((\d+)\)(.*)$/.exec(typed.trim());
  return asa ? `${asa[1]}.${asa[2]}.${asa[3]}${asa[4] ?? ''}` : typed.trim();
}

/**
 * An HA pair's two units and whether they are as expected: the primary active, the secondary standby and
 * healthy (the state SCC's upgrade starts from and returns the pair to; a pair failed over is not).
 */
function haCheck(
  device: Pick<Device, 'ftdHaInfo' | 'asaFailoverMode' | 'asaFailoverMate' | 'asaFailoverState'>,
): { ha?: string; check: Check } {
  if (device.ftdHaInfo?.primaryNode || device.ftdHaInfo?.secondaryNode) {
    const nodes = [device.ftdHaInfo.primaryNode, device.ftdHaInfo.secondaryNode];
    const ha = nodes
      .map((n, i) => `${i === 0 ? 'Primary' : 'Secondary'} - ${n?.role ?? '?'} (${n?.status ?? '?'})`)
      .join(', ');
    const ok =
      nodes.every((n) => n?.status === 'NORMAL') &&
      nodes[0]?.role === 'ACTIVE' &&
      nodes[1]?.role === 'STANDBY';
    return { ha, check: { check: 'HA pair', ok, said: ok ? `healthy: ${ha}` : `not healthy: ${ha}` } };
  }
  const paired =
    (device.asaFailoverMode && device.asaFailoverMode !== 'OFF') || device.asaFailoverMate !== undefined;
  if (!paired || !device.asaFailoverMate)
    return { check: { check: 'HA pair', ok: true, said: 'standalone' } };
  const own = device.asaFailoverState ?? '?';
  const mate = device.asaFailoverMate.failoverState ?? '?';
  const ha = `${own}, ${mate}`;
  const units = [own, mate].sort();
  const ok = units[0] === 'Primary - Active' && units[1] === 'Secondary - Standby Ready';
  return {
    ha,
    check: {
      check: 'HA pair',
      ok,
      said: ok
        ? `healthy: ${ha}`
        : `not in the expected failover state (primary Active, secondary Standby Ready): ${ha}`,
    },
  };
}

/** The upgrade runs of this device that have not ended, by name. */
async function liveRuns(ctx: OperationContext, uid: string): Promise<string[]> {
  const { data } = await ctx.scc.call('getDeviceUpgradeRuns', {
    query: { q: `deviceUids:"${uid}"`, limit: '50' },
  });
  return (data.items ?? [])
    .filter((run) => (run.deviceUids ?? []).includes(uid) && !isDeviceUpgradeEnded(run))
    .map((run) => run.name ?? run.uid ?? '?');
}

/** The versions SCC offers this device, and the FTD package of each. */
async function offered(ctx: OperationContext, device: Upgradable): Promise<Map<string, string | undefined>> {
  if (device.kind === 'ASA') {
    const { data } = await ctx.scc.call('getAsaUpgradeVersions', { path: { deviceUid: device.uid } });
    return new Map((data.items ?? []).map((v) => [v.softwareVersion ?? '?', undefined]));
  }
  const { data } = await ctx.scc.call('getCompatibleFtdVersions', { path: { deviceUid: device.uid } });
  return new Map((data.items ?? []).map((v) => [v.softwareVersion ?? '?', v.upgradePackageUid ?? undefined]));
}

/** Every check of one device, read now. */
export async function checkDevice(
  ctx: OperationContext,
  chosen: Upgradable,
  version: string,
): Promise<UpgradeDevice> {
  const { data: device } = await ctx.scc.call('getDevice', { path: { deviceUid: chosen.uid } });
  const running = device.softwareVersion ?? chosen.running;
  const checks: Check[] = [];
  const online = device.connectivityState === 'ONLINE';
  checks.push({
    check: 'online',
    ok: online,
    said: online ? 'ONLINE' : `not ONLINE (${device.connectivityState ?? 'unknown'})`,
  });
  const conflict = device.conflictDetectionState === 'CONFLICT_DETECTED';
  const synced = device.configState === 'SYNCED' && !conflict;
  checks.push({
    check: 'synced',
    ok: synced,
    said: synced
      ? 'SYNCED, no conflict'
      : conflict
        ? 'a conflict is detected between SCC and the device'
        : `not SYNCED (${device.configState ?? 'unknown'}): changes are staged, deploy or discard them first`,
  });
  const runs = await liveRuns(ctx, chosen.uid);
  checks.push({
    check: 'not upgrading',
    ok: runs.length === 0,
    said: runs.length === 0 ? 'no upgrade run in progress' : `already upgrading (run ${runs.join(', ')})`,
  });
  const { ha, check } = haCheck(device);
  checks.push(check);
  const versions = await offered(ctx, chosen);
  const fits = versions.has(version);
  const others = [...versions.keys()].slice(0, 6).join(', ');
  checks.push({
    check: 'version',
    ok: fits,
    said: fits
      ? `${version} is offered for ${chosen.model}`
      : running === version
        ? `it runs ${version} already`
        : `${version} is not offered for it (${others ? `SCC offers ${others}` : 'SCC offers no newer version'})`,
  });
  const packageUid = versions.get(version);
  return {
    uid: chosen.uid,
    name: device.name ?? chosen.name,
    kind: chosen.kind,
    model: device.hardwareModel ?? chosen.model,
    running,
    ...(ha ? { ha } : {}),
    ...(packageUid ? { packageUid } : {}),
    checks,
  };
}

const failures = (device: UpgradeDevice) => device.checks.filter((c) => !c.ok).map((c) => c.said);

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

async function startRun(
  ctx: OperationContext,
  devices: UpgradeDevice[],
  facts: UpgradeFacts,
  name: string,
): Promise<string | undefined> {
  const [first] = devices;
  if (!first) return undefined;
  const stage = { stageUpgrade: facts.stageOnly, name };
  if (first.kind === 'ASA') {
    const body = { ...stage, softwareVersion: facts.version };
    const { data } =
      devices.length === 1
        ? await ctx.scc.call('upgradeAsaDevice', { path: { deviceUid: first.uid }, body })
        : await ctx.scc.call('upgradeAsaDevices', {
            body: { ...body, deviceUids: devices.map((d) => d.uid) },
          });
    return data.transactionUid ?? undefined;
  }
  if (!first.packageUid) throw new Error(`no FTD upgrade package for ${first.name}`);
  const body = { ...stage, upgradePackageUid: first.packageUid };
  const { data } =
    devices.length === 1
      ? await ctx.scc.call('upgradeFtdDevice', { path: { deviceUid: first.uid }, body })
      : await ctx.scc.call('upgradeFtdDevices', { body: { ...body, deviceUids: devices.map((d) => d.uid) } });
  return data.transactionUid ?? undefined;
}

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

/** Across the MSP portal's tenants: every device checked in bulk, left out with the reason. */
async function resolveAcross(
  ctx: OperationContext,
  typed: readonly string[],
  chosen: readonly Upgradable[],
  version: string,
  stageOnly: boolean,
) {
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
  return {
    facts: { version, stageOnly, devices, leftOut, acrossTenants: true },
    // The words typed (the facts hold the devices): a request of more than 50 devices names them by query.
    raw: { device: [...typed], version, 'stage-only': stageOnly },
  };
}

/** The card of an upgrade across tenants: per tenant and model, the HA pairs, the requests to SCC. */
function describeAcross(facts: UpgradeFacts) {
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
    notes:
      facts.devices.length <= 20
        ? facts.devices.map((d) => `${untrusted(d.tenant ?? '?')} · ${checkLine(d)}`)
        : [
            `✓ ${counted(facts.devices.length, 'device')} passed every check: ONLINE · SYNCED, no conflict · no upgrade run in progress · HA pair healthy or standalone · ${untrusted(facts.version)} offered`,
          ],
  };
}

const plan = (facts: UpgradeFacts) =>
  facts.stageOnly
    ? 'stage only: the image is uploaded and checked on each device, not applied'
    : 'stage and upgrade now: the image is uploaded, checked and applied (SCC applies it only inside the device’s maintenance window, else it stays staged); an HA pair upgrades one unit after the other';

const checkLine = (device: UpgradeDevice) =>
  `${untrusted(device.name)}: ${device.checks.map((c) => `${c.ok ? '✓' : '✗'} ${untrusted(c.said)}`).join(' · ')}`;

const leftOutLine = (d: LeftOut) =>
  `${untrusted(d.name)}${d.when === 'before-run' ? ' (changed since the card)' : ''}: ${untrusted(d.reason)}`;

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
  ],
  args: z
    .object({
      device: list({ min: 1, max: MAX_DEVICES, what: 'devices' }),
      version: text(),
      'stage-only': flag(),
    })
    .refine((args) => unique(args.device) === undefined, {
      path: ['device'],
      message: 'names a device twice.',
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
    'upgrade "managedTenantName:northwind-us" --version 9.20.3',
  ],
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
        return resolveAcross(ctx, args.device, managed, version, args['stage-only']);
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
      return {
        facts: { version, stageOnly: args['stage-only'], devices, leftOut },
        raw: { device: devices.map((d) => d.uid), version, 'stage-only': args['stage-only'] },
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
        const track = started.map((run): TrackRequest => {
          const devices = run.deviceUids.flatMap((uid) => byUid.get(uid.toLowerCase()) ?? []);
          return {
            kind: 'mspDeviceUpgradeRun',
            transactionUid: run.transactionUid,
            label: runLabel(devices, facts),
            holder: ctx.requestId,
            devices: runDevices(devices),
            siblings: started.map((r) => r.transactionUid),
          };
        });
        const text = `:white_check_mark: The upgrade across tenants started before fwbot restarted reached SCC (${counted(started.length, 'run')}: ${started.map((r) => code(r.name)).join(', ')}); it was not started again. fwbot follows it here.`;
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
      for (const i of groups(facts.devices).keys()) {
        const name = runName(ctx.requestId, i);
        const { data } = await ctx.scc.call('getDeviceUpgradeRuns', {
          query: { q: `name:"${name}"`, limit: '1' },
        });
        const run = data.items?.find((item) => item.name === name && item.transactionUid);
        if (run) runs.push(run);
      }
      if (runs.length === 0) return undefined;
      const names = new Map(facts.devices.map((d) => [d.uid, d.name]));
      const track = runs.map(
        (run): TrackRequest => ({
          kind: 'deviceUpgradeRun',
          transactionUid: run.transactionUid ?? '',
          label: runLabel(
            (run.deviceUids ?? []).map((uid) => ({ name: names.get(uid) ?? uid })),
            facts,
          ),
          holder: ctx.requestId,
        }),
      );
      const text = `:white_check_mark: The upgrade started before fwbot restarted reached SCC (${counted(runs.length, 'run')}: ${runs.map((r) => code(r.name ?? r.uid ?? '?')).join(', ')}); it was not started again. fwbot follows it here.`;
      return {
        view: {
          summary: `${runLabel(facts.devices, facts)}: started before fwbot restarted`,
          blocks: [{ kind: 'text', text }],
          visibility: 'in_channel',
        },
        track,
      };
    },
    describe: (facts) => {
      const names = facts.devices.map((d) => d.name);
      const asked = facts.leftOut.filter((d) => d.when === 'asked');
      const changed = facts.leftOut.filter((d) => d.when === 'before-run');
      const across = facts.acrossTenants ? describeAcross(facts) : undefined;
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
        notes: across?.notes ?? facts.devices.map(checkLine),
      };
    },
  },
  run: async (ctx, _args, facts) => {
    const runs: { transactionUid: string; devices: UpgradeDevice[] }[] = [];
    // Across tenants: one MSP run per request of at most 50 devices per model per tenant.
    const across = facts.acrossTenants ? mspBatches(facts.devices) : [];
    for (const [i, devices] of across.entries()) {
      const transactionUid = await startMspRun(ctx, devices, {
        ...facts,
        name: mspRunName(ctx.requestId, i),
      });
      if (transactionUid) runs.push({ transactionUid, devices });
    }
    for (const [i, devices] of (facts.acrossTenants ? [] : groups(facts.devices)).entries()) {
      const transactionUid = await startRun(ctx, devices, facts, runName(ctx.requestId, i));
      if (transactionUid) runs.push({ transactionUid, devices });
    }
    // Its device holds (taken under this request's id when its approved run was claimed) end with its runs.
    return { facts, runs, holder: ctx.requestId };
  },
  render: ({ facts, runs }, _args, meta) =>
    announcement(
      {
        sentence: runLabel(facts.devices, facts),
        tense: 'asked',
        details: [
          ...runs.map((run, i): [string, unknown] => [
            `Run ${i + 1}`,
            `${facts.acrossTenants ? spread(run.devices) : run.devices.map((d) => d.name).join(', ')} · transaction ${run.transactionUid}`,
          ]),
          ...facts.leftOut.map((d): [string, unknown] => [
            `Left out: ${d.name}`,
            `${d.when === 'before-run' ? 'changed since the card: ' : ''}${d.reason}`,
          ]),
        ],
        next: `fwbot follows each run and keeps one progress message per run here; a failure is said with SCC's reason, and you are told when ${runs.length === 1 ? 'it ends' : 'each ends'}.`,
      },
      meta,
    ),
  track: ({ facts, runs, holder }): TrackRequest[] =>
    runs.map((run) =>
      facts.acrossTenants
        ? {
            kind: 'mspDeviceUpgradeRun' as const,
            transactionUid: run.transactionUid,
            label: runLabel(run.devices, facts),
            holder,
            devices: runDevices(run.devices),
            // The holds end when the last of the request's runs ends.
            siblings: runs.map((r) => r.transactionUid),
          }
        : {
            kind: 'deviceUpgradeRun' as const,
            transactionUid: run.transactionUid,
            label: runLabel(run.devices, facts),
            holder,
          },
    ),
});
