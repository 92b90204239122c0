// Proof after a firewall software upgrade (issue 37, item 5). Right before `/fw upgrade` starts a device's
// upgrade (its approved run), fwbot keeps what the device is: its running configuration (a snapshot, as
// before a deploy: configSnapshots.ts), its failover state (as SCC records it) and the verdicts of the smoke traces the profiles file declares for it (`upgrades.smoke_traces`).
// When the run has completed (UPGRADE_COMPLETED), or failed with some devices finished (they report the
// target version), the timed work `upgrade-proof` (timed/upgradeProof.ts) reads each finished device
// again and compares: the version it reports is the target; its connectivity is ONLINE;
// its failover state is what it was; its running configuration changed only in the lines an upgrade rewrites
// (IGNORED_CONFIG_LINES); every smoke trace gives the same verdict. The thread gets one message for the run:
// each device "proven", or what differs with the evidence (the diff's lines, the verdicts before and after),
// and for a failed run each device that did not finish, with SCC's reason.
//
// Nothing typed reaches a device: the traces are packet-tracer's template (asaCommands.ts) filled with the
// values the profiles file's grammar validated at load.
import { z } from 'zod';
import { parseSmokeTrace, type SmokeFlow } from '../config/sections/upgrades.js';
import { maskConfigSecrets } from '../model/configSecrets.js';
import { UserError } from '../model/errors.js';
import { unifiedConfigDiff } from '../model/unifiedDiff.js';
import type { View } from '../model/view.js';
import { code, counted } from '../render/format.js';
import { parsePacketTracer, type TraceVerdict } from '../render/packetTracer.js';
import { untrusted } from '../render/untrusted.js';
import type { Device } from '../scc/generated/models.js';
import { pickInterface, scriptOf, sendableInterfaceName } from './asaCommands.js';
import type { OperationContext } from './context.js';
import { inferInputInterface } from './inputInterface.js';
import { listDeviceInterfaces } from './resolve.js';
import { commandFor, runCliLine } from './trace.js';

/**
 * The lines of an ASA's running configuration that an upgrade rewrites by itself, each with why (from real
 * `show running-config` answers of ASA 9.x before and after an upgrade). They are left out of the
 * comparison; any other line that differs is a difference the thread names.
 */
export const IGNORED_CONFIG_LINES: readonly { pattern: RegExp; why: string }[] = [
  // `: Saved` and the bare `:` lines frame the header the device writes on every save.
  { pattern: /^: Saved$/, why: 'the header the device writes when it saves' },
  { pattern: /^:\s*$/, why: 'an empty comment line of the header' },
  // `: Written by enable_15 at 13:01:41.379 UTC Dec 7 2026`: who saved it last, and when (a timestamp).
  { pattern: /^: Written by .* at .*$/, why: 'who saved the configuration last and when' },
  // `: Serial Number: JAD21420ABC` and `: Hardware:   ASA5516, 8192 MB RAM, CPU Atom C2000 …`: the banner the
  // new image prints about the unit (its wording changes between versions).
  { pattern: /^: Serial Number: /, why: 'the unit banner (serial number)' },
  { pattern: /^: Hardware: /, why: 'the unit banner (hardware, memory, CPU)' },
  // `ASA Version 9.20(3) <context>`: the version banner, which is what the upgrade changes.
  { pattern: /^ASA Version \S+/, why: 'the version banner' },
  // `boot system disk0:/asa9-20-3-lfbff-k8.SPA`: the upgrade points the boot at the new image.
  { pattern: /^boot system \S+:\/\S+$/, why: 'the image the unit boots (the upgrade sets it)' },
  // `asdm image disk0:/asdm-7201.bin`: an ASA upgrade installs the ASDM image of its version beside it.
  { pattern: /^asdm image \S+:\/\S+$/, why: 'the ASDM image installed with the version' },
  // `Cryptochecksum:3b1c…`: the checksum of the whole text, different whenever any line is.
  { pattern: /^Cryptochecksum:/, why: 'the checksum of the whole configuration' },
  { pattern: /^: end$/, why: 'the end marker' },
];

const ignored = (line: string) => IGNORED_CONFIG_LINES.some((rule) => rule.pattern.test(line));

/** The configuration without the lines an upgrade rewrites. */
export function comparableConfig(text: string): string {
  return text
    .split(/\r?\n/)
    .filter((line) => !ignored(line))
    .join('\n');
}

/** What a smoke trace found before the upgrade: the input interface it used, and its verdict in words. */
const TraceBefore = z.object({ text: z.string(), input: z.string().optional(), verdict: z.string() });

/** One device as it was right before its upgrade started. */
export const DeviceBaseline = z.object({
  uid: z.string(),
  name: z.string(),
  kind: z.enum(['ASA', 'FTD']),
  /** The running configuration kept (an ASA's snapshot id), or why none was. */
  snapshotId: z.string().optional(),
  configNote: z.string().optional(),
  /** The failover state in words (`This host: Primary - Active; Other host: Secondary - Standby Ready`). */
  failover: z.string(),
  traces: z.array(TraceBefore),
});
export type DeviceBaseline = z.infer<typeof DeviceBaseline>;

export const UpgradeBaseline = z.object({
  version: z.string(),
  devices: z.array(DeviceBaseline),
});
export type UpgradeBaseline = z.infer<typeof UpgradeBaseline>;

/** A device as the upgrade names it. */
export interface UpgradedDevice {
  uid: string;
  name: string;
  kind: 'ASA' | 'FTD';
}

const failed = (error: unknown) =>
  error instanceof UserError ? error.message : error instanceof Error ? error.message : String(error);

// ---------------------------------------------------------------------------------------------------
// Failover state

/**
 * The failover state as SCC records it, in words: an ASA pair's two units (`This host: Primary - Active;
 * Other host: Secondary - Standby Ready`, the words `show failover` prints), an FTD pair's nodes, or
 * standalone. SCC's record rather than `show failover`: no command line per device (a transaction each), and
 * it is what the checks before the upgrade read (deviceUpgrade.ts).
 */
export function failoverOf(
  device: Pick<UpgradedDevice, 'kind'>,
  record: Pick<Device, 'ftdHaInfo' | 'asaFailoverMode' | 'asaFailoverMate' | 'asaFailoverState'>,
): string {
  if (device.kind === 'FTD') {
    const nodes = [record.ftdHaInfo?.primaryNode, record.ftdHaInfo?.secondaryNode];
    if (!nodes[0] && !nodes[1]) return 'standalone';
    return nodes
      .map((n, i) => `${i === 0 ? 'Primary' : 'Secondary'} - ${n?.role ?? '?'} (${n?.status ?? '?'})`)
      .join(', ');
  }
  const paired = (record.asaFailoverMode && record.asaFailoverMode !== 'OFF') || !!record.asaFailoverMate;
  if (!paired) return 'standalone';
  return `This host: ${record.asaFailoverState ?? '?'}; Other host: ${record.asaFailoverMate?.failoverState ?? '?'}`;
}

// ---------------------------------------------------------------------------------------------------
// Smoke traces

/** The traces the profiles file declares for these devices, by device uid (a device's queries in order). */
async function smokeTracesOf(
  ctx: OperationContext,
  devices: readonly UpgradedDevice[],
): Promise<Map<string, string[]>> {
  const rules = ctx.policy?.upgrades?.smokeTraces ?? [];
  const wanted = new Set(devices.map((d) => d.uid));
  const out = new Map<string, string[]>();
  for (const rule of rules) {
    const pages = ctx.scc.paginate(
      'getDevices',
      { query: { q: rule.devices } },
      { budget: { items: 2_000, pages: 100 } },
    );
    for await (const device of pages) {
      if (!device.uid || !wanted.has(device.uid)) continue;
      out.set(device.uid, [...(out.get(device.uid) ?? []), ...rule.traces.map((t) => t.text)]);
    }
  }
  return out;
}

/** A verdict in the words the thread compares and shows: what happened, and what decided it. */
export function verdictWords(verdict: TraceVerdict): string {
  if (!verdict.action) return `unreadable (${verdict.unreadable ?? 'no action'})`;
  const decision = verdict.decision;
  const by = (() => {
    switch (decision?.kind) {
      case 'access-list':
        return decision.line ? `by ${decision.line}` : `by access list ${decision.acl ?? '?'}`;
      case 'implicit-deny':
        return `by the implicit deny${decision.acl ? ` of ${decision.acl}` : ''}`;
      case 'security-levels':
        return 'by the security levels';
      case 'nat':
        return 'by NAT';
      case 'no-route':
        return 'no route';
      case 'phase':
        return `in phase ${decision.phase.type}`;
      case 'drop-reason':
        return verdict.dropReason ? `(${verdict.dropReason})` : '';
      default:
        return '';
    }
  })();
  const out = verdict.outputInterface ? ` out ${verdict.outputInterface}` : '';
  return `${verdict.action.toUpperCase()}${out}${by ? ` ${by}` : ''}`;
}

/** Traces one smoke trace; the input interface as before when given (so both runs trace the same packet). */
async function traceOnce(
  ctx: OperationContext,
  device: UpgradedDevice,
  text: string,
  inputBefore?: string,
): Promise<{ input?: string; verdict: string }> {
  const parsed = parseSmokeTrace(text);
  // Validated when the file was loaded; a file changed since is said, not sent.
  if (!parsed.ok) return { verdict: `not traced (${parsed.reason})` };
  const flow: SmokeFlow = parsed.value;
  try {
    const interfaces = await listDeviceInterfaces(ctx.scc, device.uid);
    const named = interfaces.filter(
      (i) => typeof i.iface.name === 'string' && sendableInterfaceName(i.iface.name),
    );
    const nameifs = named.map((i) => i.iface.name ?? '');
    const wanted =
      inputBefore ??
      flow.in ??
      inferInputInterface(
        flow.source,
        named.map((i) => i.iface),
      );
    const input = wanted === undefined ? undefined : pickInterface(wanted, nameifs);
    if (!input)
      return {
        verdict: `not traced (${wanted === undefined ? `no interface of ${device.name} holds ${flow.source}; add --in` : `${device.name} has no interface ${wanted}`})`,
      };
    const output = await runCliLine(ctx, device, scriptOf(commandFor(flow, input)));
    return { input, verdict: verdictWords(parsePacketTracer(output)) };
  } catch (error) {
    return { verdict: `not traced (${failed(error)})` };
  }
}

// ---------------------------------------------------------------------------------------------------
// Before

/**
 * What each device is right before its upgrade starts: its running configuration kept (ASAs), its failover
 * state, its smoke traces' verdicts. A part that cannot be read is said in the baseline and in the proof;
 * the upgrade was approved and goes ahead.
 */
export async function keepUpgradeBaseline(
  ctx: OperationContext,
  devices: readonly UpgradedDevice[],
  version: string,
): Promise<UpgradeBaseline> {
  const traces = await smokeTracesOf(ctx, devices);
  const out: DeviceBaseline[] = [];
  for (const device of devices) {
    const { data: record } = await ctx.scc.call('getDevice', { path: { deviceUid: device.uid } });
    const kept = await keepConfig(ctx, device, 'before-upgrade');
    const failover = failoverOf(device, record);
    const before: DeviceBaseline['traces'] = [];
    if (device.kind === 'ASA')
      for (const text of traces.get(device.uid) ?? []) {
        const traced = await traceOnce(ctx, device, text);
        before.push({ text, verdict: traced.verdict, ...(traced.input ? { input: traced.input } : {}) });
      }
    const { text: _text, ...config } = kept;
    out.push({ uid: device.uid, name: device.name, kind: device.kind, ...config, failover, traces: before });
  }
  return { version, devices: out };
}

async function keepConfig(
  ctx: OperationContext,
  device: UpgradedDevice,
  phase: 'before-upgrade' | 'after-upgrade',
): Promise<{ snapshotId?: string; configNote?: string; text?: string }> {
  if (device.kind !== 'ASA')
    return { configNote: 'not compared (SCC gives fwbot the running configuration of ASAs only)' };
  const snapshots = ctx.services?.snapshots;
  if (!snapshots) return { configNote: 'not kept (configuration snapshots are kept in Redis)' };
  try {
    const { data } = await ctx.scc.call('getAsaConfiguration', { path: { deviceUid: device.uid } });
    const text = data.configOnDevice ?? '';
    const snapshotId = await snapshots.keep(ctx.profile, {
      deviceUid: device.uid,
      device: device.name,
      at: ctx.now(),
      phase,
      requestId: ctx.requestId,
      actor: ctx.actor.userId,
      text,
    });
    return { snapshotId, text };
  } catch (error) {
    return { configNote: `not read (${failed(error)})` };
  }
}

// ---------------------------------------------------------------------------------------------------
// After

/** How many diff lines a device's evidence shows in the thread (all of them: `/fw config diff`). */
const EVIDENCE_LINES = 8;

export interface DeviceProof {
  name: string;
  proven: boolean;
  /** What was found: each check's line (View text, values through untrusted()). */
  lines: string[];
  /** The configuration's lines that differ, as the diff prints them (masked). */
  evidence?: string;
}

async function configDifference(
  ctx: OperationContext,
  device: DeviceBaseline,
): Promise<{ ok: boolean; line: string; evidence?: string }> {
  if (device.snapshotId === undefined)
    return { ok: true, line: `running configuration ${untrusted(device.configNote ?? 'not kept before')}` };
  const before = await ctx.services?.snapshots?.get(ctx.profile, device.uid, device.snapshotId);
  if (!before)
    return { ok: false, line: `running configuration: snapshot ${device.snapshotId} is no longer kept` };
  const after = await keepConfig(ctx, device, 'after-upgrade');
  if (after.text === undefined)
    return { ok: false, line: `running configuration ${untrusted(after.configNote ?? '')}` };
  const diff = unifiedConfigDiff(comparableConfig(before.text), comparableConfig(after.text), {
    before: `${device.name} snapshot ${before.id}`,
    after: `${device.name} snapshot ${after.snapshotId ?? '?'}`,
  });
  const ids = `snapshots ${before.id} → ${after.snapshotId ?? '?'}`;
  if (!diff)
    return { ok: true, line: `running configuration changed only as an upgrade changes it (${ids})` };
  const changed = maskConfigSecrets(diff.text)
    .split('\n')
    .filter((l) => /^[+-]/.test(l) && !/^(?:\+\+\+|---) /.test(l));
  const shown = changed.slice(0, EVIDENCE_LINES);
  const more = changed.length > shown.length ? [`… ${changed.length - shown.length} more`] : [];
  const again = code(`/fw config diff ${device.name} ${before.id} ${after.snapshotId ?? ''}`);
  return {
    ok: false,
    line: `running configuration differs beyond the lines an upgrade rewrites: ${diff.counts.removed} removed, ${diff.counts.added} added (${ids}; all of it: ${again})`,
    evidence: [...shown, ...more].join('\n'),
  };
}

/** One device after its upgrade, compared with its baseline. */
export async function proveDevice(
  ctx: OperationContext,
  device: DeviceBaseline,
  version: string,
): Promise<DeviceProof> {
  const lines: string[] = [];
  let proven = true;
  const check = (ok: boolean, line: string) => {
    if (!ok) proven = false;
    lines.push(`${ok ? '✓' : '✗'} ${line}`);
  };
  const { data: record } = await ctx.scc.call('getDevice', { path: { deviceUid: device.uid } });
  const reports = record.softwareVersion ?? 'nothing';
  check(
    reports === version,
    reports === version ? `runs ${code(version)}` : `reports ${code(reports)}, not ${code(version)}`,
  );
  const connectivity = record.connectivityState ?? 'UNKNOWN';
  check(connectivity === 'ONLINE', `connectivity ${untrusted(connectivity)}`);
  const failover = failoverOf(device, record);
  check(
    failover === device.failover,
    failover === device.failover
      ? `failover as before (${untrusted(failover)})`
      : `failover was ${untrusted(device.failover)}, now ${untrusted(failover)}`,
  );
  let evidence: string | undefined;
  if (device.kind === 'ASA') {
    const config = await configDifference(ctx, device);
    check(config.ok, config.line);
    evidence = config.evidence;
  }
  for (const before of device.traces) {
    const after = await traceOnce(ctx, device, before.text, before.input);
    const same = after.verdict === before.verdict && !before.verdict.startsWith('not traced');
    check(
      same,
      same
        ? `smoke trace ${code(before.text)}: ${untrusted(before.verdict)}, as before`
        : `smoke trace ${code(before.text)}: before ${untrusted(before.verdict)}; after ${untrusted(after.verdict)}`,
    );
  }
  return { name: device.name, proven, lines, ...(evidence ? { evidence } : {}) };
}

/** A device of a failed run that did not finish: what it reports now, and SCC's reason. */
export interface FailedDevice {
  name: string;
  reports: string;
  sccSays: string;
}

/**
 * The thread's one message for a run: each device proven, or what differs with the evidence; for a run that
 * failed on some devices, those that finished are proven and the others named with SCC's reason.
 */
export function proofView(
  label: string,
  proofs: readonly DeviceProof[],
  failed: readonly FailedDevice[] = [],
): View {
  const proven = proofs.filter((p) => p.proven).length;
  const all = proven === proofs.length;
  const head =
    failed.length > 0
      ? `:warning: *${untrusted(label)}* failed on ${counted(failed.length, 'device')} (below, with SCC's reason); ${proven} of the ${counted(proofs.length, 'device')} that finished ${proven === 1 ? 'is' : 'are'} proven after the upgrade.`
      : all
        ? `:white_check_mark: *${untrusted(label)}*: proven after the upgrade (${counted(proofs.length, 'device')}).`
        : `:warning: *${untrusted(label)}*: ${proven} of ${counted(proofs.length, 'device')} proven after the upgrade; what differs is below.`;
  const blocks: View['blocks'] = [{ kind: 'text', text: head }];
  for (const p of proofs) {
    blocks.push({
      kind: 'text',
      text: `• *${untrusted(p.name)}*: ${p.proven ? 'proven' : 'differs'}\n${p.lines.map((l) => `    ${l}`).join('\n')}`,
    });
    if (p.evidence) blocks.push({ kind: 'code', text: p.evidence });
  }
  for (const f of failed)
    blocks.push({
      kind: 'text',
      text: `• *${untrusted(f.name)}*: not upgraded (it reports ${code(f.reports)}); SCC says: ${untrusted(f.sccSays)}`,
    });
  const summary =
    failed.length > 0
      ? `${label}: ${proven} of ${proofs.length} finished devices proven; ${failed.length} not upgraded`
      : `${label}: ${all ? 'proven' : `${proofs.length - proven} of ${proofs.length} differ`} after the upgrade`;
  return { summary, blocks, visibility: 'in_channel' };
}
