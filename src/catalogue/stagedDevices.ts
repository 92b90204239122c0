// The ASAs a deploy or a discard acts on, as their approval card shows them and their execution compares them:
// each device with the commands a deploy would run there (pendingCommands.ts) and who staged them, as far as
// fwbot knows (its staging ledger, since the last of its own deploys that succeeded there) and as SCC's change
// log names the rest; read again by UUID before running, and compared. fwbot's deploys carry their request's
// tag in their description, which is how their runs are found again (here, and by a deploy after a crash).
import { z } from 'zod';
import { code, counted, time } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import { compareDevices, DeviceFacts, deviceFacts, rereadDevice } from './deviceTarget.js';
import type { OperationContext, TargetRead } from './operation.js';
import { CommandsFacts, pendingCommands } from './pendingCommands.js';
import { OF_AN_INTERFACE } from './stagedDiff.js';
import { ChangeLogRead, stagedInScc } from './stagedInScc.js';

/** A change staged through fwbot that is still pending on the device (StagingLedger). */
const StagedBy = z.object({
  actor: z.string(),
  what: z.string(),
  at: z.number(),
  approvedBy: z.string().optional(),
});
type StagedBy = z.infer<typeof StagedBy>;

/** A device with what a deploy would run on it, and whose changes those are where fwbot knows. */
export const PendingDevice = DeviceFacts.extend({
  pending: CommandsFacts,
  // Null where fwbot cannot say (no ledger here, a failed read, a request stored before it remembered).
  stagedBy: z.array(StagedBy).nullable().default(null),
  // What SCC's change log says of the rest; null for a request stored before fwbot read it.
  stagedInScc: ChangeLogRead.nullable().default(null),
});
export type PendingDevice = z.infer<typeof PendingDevice>;

/** At most this many of a device's staged changes are named on a card; the rest are counted. */
const NAMED_STAGERS = 10;

/** A top-level command that sets one interface's own setting by its name (`mtu iot 1500`), and the name. */
const BY_NAMEIF = new RegExp(`^(?:no\\s+)?(?:${[...OF_AN_INTERFACE].join('|')})\\s+(\\S+)`);

/** The pending commands name the interface: `interface Vlan20`, `no interface Vlan20`, `mtu iot 1400`. */
function commandsName(
  commands: readonly string[],
  change: { interfaceName: string; nameifs?: string[] },
): boolean {
  return commands.some((command) => {
    const line = command.trim();
    if (/^(?:no\s+)?interface\s+(\S+)/.exec(line)?.[1] === change.interfaceName) return true;
    const nameif = BY_NAMEIF.exec(line)?.[1];
    return nameif !== undefined && (change.nameifs ?? []).includes(nameif);
  });
}

/** What SCC says each of fwbot's recent deploys did on each device: request id → device uid → status. */
async function fwbotDeployResults(ctx: OperationContext): Promise<Map<string, Map<string, string>>> {
  const results = new Map<string, Map<string, string>>();
  for (const run of await newestDeployRuns(ctx)) {
    const requestId = taggedRequest(run.description);
    if (!requestId) continue;
    const byDevice = new Map<string, string>();
    for (const device of run.deviceDeploymentStatuses ?? [])
      if (device.uid) byDevice.set(device.uid, device.status ?? 'IN_PROGRESS');
    results.set(requestId, byDevice);
  }
  return results;
}

/** A deploy put the device's staged changes on it: SCC says DONE or WARNING, or no longer lists the run. */
function deployedThere(
  results: Map<string, Map<string, string>>,
  requestId: string,
  deviceUid: string,
): boolean {
  const byDevice = results.get(requestId);
  if (!byDevice) return true; // older than the newest runs SCC lists: long over
  const status = byDevice.get(deviceUid);
  return status === 'DONE' || status === 'WARNING';
}

/**
 * Who staged what is pending on each device, as far as fwbot knows: the changes made through fwbot since
 * the last of fwbot's deploys that succeeded there, whose interface the pending commands still name,
 * oldest first. Deploys made outside fwbot (SCC UI) are not seen; the commands still rule out what they
 * took away. Best effort: a card is never refused for it.
 */
async function whoStaged(
  ctx: OperationContext,
  devices: readonly { uid: string; pending: CommandsFacts }[],
): Promise<Map<string, StagedBy[]>> {
  const ledger = ctx.services?.staging;
  const out = new Map<string, StagedBy[]>();
  if (!ledger) return out;
  try {
    const remembered = await Promise.all(devices.map((d) => ledger.list(ctx.profile, d.uid)));
    const anyMark = remembered.some((entries) => entries.some((entry) => 'deploy' in entry));
    const results = anyMark ? await fwbotDeployResults(ctx) : new Map<string, Map<string, string>>();
    devices.forEach((device, i) => {
      const pending: StagedBy[] = [];
      for (const entry of remembered[i] ?? []) {
        if ('deploy' in entry) {
          if (deployedThere(results, entry.requestId, device.uid)) break;
          continue;
        }
        if (!commandsName(device.pending.commands, entry)) continue;
        const { actor, what, at, approvedBy } = entry;
        pending.unshift({ actor, what, at, ...(approvedBy ? { approvedBy } : {}) });
      }
      out.set(device.uid, pending);
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'who staged what not read');
    return new Map();
  }
  return out;
}

/** The devices with their pending commands and who staged them. */
export async function pendingDevices(
  ctx: OperationContext,
  found: readonly { uid: string; name: string; kind: DeviceFacts['kind'] }[],
): Promise<PendingDevice[]> {
  const devices = await Promise.all(
    found.map(async (d) => ({ ...deviceFacts(d), pending: await pendingCommands(ctx, d.uid) })),
  );
  const [stagedBy, inScc] = await Promise.all([
    whoStaged(ctx, devices),
    stagedInScc(
      ctx,
      devices.filter((d) => d.pending.commands.length > 0).map((d) => d.uid),
    ),
  ]);
  return devices.map((d) => ({
    ...d,
    stagedBy: stagedBy.get(d.uid) ?? null,
    stagedInScc: inScc.get(d.uid) ?? null,
  }));
}

/** Lines naming each change, at most NAMED_STAGERS, the rest counted. */
function namedLines<T>(changes: readonly T[], line: (change: T) => string, where: string): string[] {
  const lines = changes.slice(0, NAMED_STAGERS).map(line);
  const more = changes.length - NAMED_STAGERS;
  if (more > 0) lines.push(`• and ${counted(more, 'more change')} ${where}`);
  return lines;
}

/**
 * The card's lines on who staged what, per device with pending commands: fwbot's own changes (the staging
 * ledger), and the others as SCC's change log names them (user and time). Where the change log could not
 * be read, the card says "staged elsewhere" as before, and why.
 */
export function stagerNotes(devices: readonly PendingDevice[]): string[] {
  return devices.flatMap((device) => {
    const fwbot = device.stagedBy;
    const logged = device.stagedInScc;
    if (device.pending.commands.length === 0 || (fwbot === null && logged === null)) return [];
    const name = `*${untrusted(device.name)}*`;
    const others = logged?.read ? logged.changes : undefined;
    const unread =
      logged?.read === false ? `; SCC’s change log could not be read: ${untrusted(logged.reason)}` : '';
    const lines: string[] = [];
    if (fwbot !== null && fwbot.length > 0) {
      lines.push(
        others === undefined
          ? `${name}, staged through fwbot (the other pending commands, if any, were staged elsewhere: SCC UI, API${unread}):`
          : `${name}, staged through fwbot:`,
        ...namedLines(
          fwbot,
          (change) => {
            const approved = change.approvedBy ? `, approved by ${userMention(change.approvedBy)}` : '';
            return `• ${userMention(change.actor)} ${untrusted(change.what)}${approved} (${time(new Date(change.at).toISOString())})`;
          },
          'through fwbot',
        ),
      );
    } else if (fwbot !== null && others === undefined) {
      lines.push(
        `${name}: none of these changes was staged through fwbot (SCC UI, API, or before fwbot remembered it${unread}).`,
      );
    } else if (fwbot !== null && others?.length === 0) {
      lines.push(
        `${name}: none of these changes was staged through fwbot, and SCC’s change log names no one else (fwbot’s own SCC user, or changes older than the change log).`,
      );
    }
    if (others !== undefined && others.length > 0) {
      const heading =
        fwbot === null
          ? `${name}, staged in SCC (its change log names):`
          : fwbot.length > 0
            ? `${name}, staged in SCC by others (its change log):`
            : `${name}: none of these changes was staged through fwbot; SCC’s change log names:`;
      lines.push(
        heading,
        ...namedLines(
          others,
          (change) => `• ${code(change.username)} ${untrusted(change.description)} (${time(change.at)})`,
          'in SCC',
        ),
      );
    }
    return lines;
  });
}

/** The devices read again by UUID, each with its pending commands now (who staged them stays as approved). */
export async function rereadPending<T extends { devices: PendingDevice[] }>(
  ctx: OperationContext,
  facts: T,
): Promise<TargetRead<T>> {
  const devices: PendingDevice[] = [];
  for (const before of facts.devices) {
    const read = await rereadDevice(ctx.scc, before);
    if (!read.found) return read;
    // Who staged them is what the approver saw; the commands are what is compared.
    devices.push({
      ...read.facts,
      pending: await pendingCommands(ctx, before.uid),
      stagedBy: before.stagedBy,
      stagedInScc: before.stagedInScc,
    });
  }
  return { found: true, facts: { ...facts, devices } };
}

/** What changed on the devices since they were approved: the device itself, SCC's status, the commands. */
export function comparePending(
  before: { devices: readonly PendingDevice[] },
  after: { devices: readonly PendingDevice[] },
): string[] {
  return before.devices.flatMap((device, i) => {
    const now = after.devices[i];
    if (!now) return [`${device.name} is missing`];
    const changed = compareDevices(device, now);
    if (device.pending.status !== now.pending.status)
      changed.push(`${device.name}: SCC now says ${now.pending.status}, not ${device.pending.status}`);
    if (device.pending.commands.join('\n') !== now.pending.commands.join('\n'))
      changed.push(
        `${device.name}: the pending commands changed (${device.pending.commands.length} approved, ${now.pending.commands.length} now)`,
      );
    return changed;
  });
}

/** The exact commands, device by device, as the approver sees them. */
export function commandsText(facts: { devices: readonly PendingDevice[] }): string {
  return facts.devices
    .map(
      (d) =>
        `! ${d.name}\n${d.pending.commands.length > 0 ? d.pending.commands.join('\n') : '! nothing pending'}`,
    )
    .join('\n');
}

/** Put in a deploy's description, so its run can be found again (and SCC shows which fwbot request it was). */
export function requestTag(requestId: string): string {
  return `(fwbot request ${requestId})`;
}

/** The fwbot request a run's description names: the last tag, since fwbot appends its own (requestTag). */
export function taggedRequest(description: string | null | undefined): string | undefined {
  return [...(description ?? '').matchAll(/\(fwbot request (\S+)\)/g)].at(-1)?.[1];
}

/** The newest deployment runs, where fwbot looks for its own deploys by their tag. */
export async function newestDeployRuns(ctx: OperationContext) {
  const { data } = await ctx.scc.call('getDeviceDeploymentRuns', {
    query: { limit: '50', sort: ['submissionTime:DESC'] },
  });
  return data.items ?? [];
}
