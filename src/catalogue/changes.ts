// Staged changes and deploys. In SCC an interface change is only staged in SCC's copy of the ASA's
// configuration; it reaches the device when it is deployed (../shared/reference/README.md, "How SCC
// applies changes to an ASA"). `changes` shows the exact ASA commands a deploy would run, `deploy` runs
// them after a second person approves exactly those commands, `discard` throws the staged changes away
// (read configuration), and `deployments` lists what was deployed.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import {
  type PendingChanges,
  renderDeployment,
  renderDeploymentList,
  renderPendingChanges,
} from '../render/changes.js';
import { code, counted, time } from '../render/format.js';
import { pageInfo } from '../render/list.js';
import { userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import { AsaChangeItemDto } from '../scc/generated/models.js';
import { flag, keptText, list, optionalText, redactedText, text, unique, uuid } from './args.js';
import { DEVICE, listArgs, OFFSET, pageQuery, queryParam, transactionTrack } from './common.js';
import { keepBeforeDeploy } from './configHistory.js';
import { DeviceWindowsFacts, deployAt, deployWindows, refuseUnheld, windowNotes } from './deployWindows.js';
import { compareDevices, DeviceFacts, deviceFacts, rereadDevice } from './deviceTarget.js';
import { defineOperation, type Operation, type OperationContext, type TargetRead } from './operation.js';
import { type DeviceRequirement, resolveDevice, resolveDevices } from './resolve.js';
import { isNotFound } from './sccErrors.js';
import { OF_AN_INTERFACE } from './stagedDiff.js';
import { CHANGE_LOG_READS, ChangeLogRead, stagedInScc } from './stagedInScc.js';
import { changeRequestFor, ticketedDescription } from './tickets.js';

const ASA: DeviceRequirement = { kinds: ['asa'], why: 'staged changes and deploys are for ASAs here' };

/** What finding a device and its pending commands reads (every operation of this area does). */
const PENDING_READS = [
  'getDevices',
  'getDevice',
  'calculateAsaCommandsToApplyPendingChanges',
  'getTransaction',
  'getAsaCommandsToApplyPendingChanges',
] as const;

/** SCC keeps calculated commands briefly; the calculation itself takes seconds. */
const CALCULATION = { intervalMs: 250, maxIntervalMs: 2_000, maxWaitMs: 60_000 } as const;

const CommandsFacts = z.object({
  status: z.enum(['SUCCESS', 'UNSUPPORTED_COMMANDS', 'ERROR', 'UNKNOWN']),
  commands: z.array(z.string()),
});
type CommandsFacts = z.infer<typeof CommandsFacts>;

/**
 * The exact commands a deploy would run on one ASA: asks SCC to calculate them (a transaction), follows
 * it, then reads them while SCC still has them cached.
 */
export async function pendingCommands(ctx: OperationContext, deviceUid: string): Promise<CommandsFacts> {
  // SCC drops its calculation when either copy of the configuration changes (a deploy ending, another
  // change): a 404 right after a finished calculation means it was overtaken, so it is calculated again.
  for (let attempt = 1; ; attempt += 1) {
    await calculate(ctx, deviceUid);
    try {
      const { data } = await ctx.scc.call('getAsaCommandsToApplyPendingChanges', { path: { deviceUid } });
      const known =
        data.status === 'SUCCESS' || data.status === 'UNSUPPORTED_COMMANDS' || data.status === 'ERROR';
      return {
        status: known ? (data.status as CommandsFacts['status']) : 'UNKNOWN',
        commands: data.configCommands ?? [],
      };
    } catch (error) {
      if (attempt >= 3 || !isNotFound(error)) throw error;
    }
  }
}

async function calculate(ctx: OperationContext, deviceUid: string): Promise<void> {
  const { data: transaction } = await ctx.scc.call('calculateAsaCommandsToApplyPendingChanges', {
    path: { deviceUid },
  });
  if (!transaction.transactionUid) return;
  const ended = await ctx.scc.transactions.follow(transaction.transactionUid, {
    ...CALCULATION,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  if (ended.cdoTransactionStatus !== 'DONE') {
    const said = ended.errorMessage ? `: ${ended.errorMessage}` : '';
    throw new UserError(
      `SCC could not calculate the pending commands (${ended.cdoTransactionStatus}${said}).`,
    );
  }
}

async function pendingOf(ctx: OperationContext, typed: string): Promise<PendingChanges> {
  const found = await resolveDevice(ctx.scc, typed, ASA);
  const [{ data: config }, pending] = await Promise.all([
    ctx.scc.call('getAsaConfiguration', { path: { deviceUid: found.uid } }),
    pendingCommands(ctx, found.uid),
  ]);
  return {
    device: { uid: found.uid, name: found.name },
    configState: found.device.configState ?? null,
    conflict: found.device.conflictDetectionState === 'CONFLICT_DETECTED',
    staged: (config.configOnCloud ?? '') !== (config.configOnDevice ?? ''),
    ...pending,
  };
}

export const changesShow = defineOperation({
  id: 'changes',
  words: ['changes'],
  area: 'changes',
  failure: 'Could not read what is staged on the ASA',
  summary: 'Show what is staged on an ASA: the exact commands a deploy would run',
  params: [DEVICE],
  args: z.object({ device: text() }),
  role: 'viewer',
  approval: 'never',
  scc: [...PENDING_READS, 'getAsaConfiguration'],
  examples: ['changes asa-hq-01'],
  offeredAsButton: true,
  run: (ctx, args) => pendingOf(ctx, args.device),
  render: (pending, _args, meta) => renderPendingChanges(pending, meta),
});

/** A change staged through fwbot that is still pending on the device (StagingLedger). */
const StagedBy = z.object({
  actor: z.string(),
  what: z.string(),
  at: z.number(),
  approvedBy: z.string().optional(),
});
type StagedBy = z.infer<typeof StagedBy>;

/** A device with what a deploy would run on it, and whose changes those are where fwbot knows. */
const PendingDevice = DeviceFacts.extend({
  pending: CommandsFacts,
  // Null where fwbot cannot say (no ledger here, a failed read, a request stored before it remembered).
  stagedBy: z.array(StagedBy).nullable().default(null),
  // What SCC's change log says of the rest; null for a request stored before fwbot read it.
  stagedInScc: ChangeLogRead.nullable().default(null),
});
type PendingDevice = z.infer<typeof PendingDevice>;

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
async function pendingDevices(
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
function stagerNotes(devices: readonly PendingDevice[]): string[] {
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

const DeployFacts = z.object({
  devices: z.array(PendingDevice).min(1),
  force: z.boolean(),
  description: redactedText.nullable(),
  // When it may run (deployWindows.ts): the time asked for, a break-glass reason, the windows as read.
  at: z.number().int().optional(),
  breakGlass: redactedText.optional(),
  windows: z.array(DeviceWindowsFacts).optional(),
});
type DeployFacts = z.infer<typeof DeployFacts>;

async function rereadPending(ctx: OperationContext, facts: DeployFacts): Promise<TargetRead<DeployFacts>> {
  const devices: DeployFacts['devices'] = [];
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

function compareDeploys(before: DeployFacts, after: DeployFacts): string[] {
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

function commandsText(facts: DeployFacts): string {
  return facts.devices
    .map(
      (d) =>
        `! ${d.name}\n${d.pending.commands.length > 0 ? d.pending.commands.join('\n') : '! nothing pending'}`,
    )
    .join('\n');
}

/** Put in a deploy's description, so its run can be found again (and SCC shows which fwbot request it was). */
function requestTag(requestId: string): string {
  return `(fwbot request ${requestId})`;
}

/** The fwbot request a run's description names: the last tag, since fwbot appends its own (requestTag). */
function taggedRequest(description: string | null | undefined): string | undefined {
  return [...(description ?? '').matchAll(/\(fwbot request (\S+)\)/g)].at(-1)?.[1];
}

/** The newest deployment runs, where fwbot looks for its own deploys by their tag. */
async function newestDeployRuns(ctx: OperationContext) {
  const { data } = await ctx.scc.call('getDeviceDeploymentRuns', {
    query: { limit: '50', sort: ['submissionTime:DESC'] },
  });
  return data.items ?? [];
}

export const deploy = defineOperation({
  id: 'deploy',
  words: ['deploy'],
  area: 'changes',
  failure: 'Could not deploy the staged changes',
  summary: 'Deploy the staged changes of ASAs to the devices (after a second person approves the commands)',
  params: [
    { name: 'device', kind: 'device', variadic: true, description: 'ASA names or UUIDs, up to 50' },
    { name: 'description', kind: 'word', flag: true, optional: true, description: 'what the deploy is for' },
    {
      name: 'at',
      kind: 'word',
      flag: true,
      optional: true,
      description:
        'when to deploy: an ISO time, `22:00` or `sat 22:00` (in the change window’s zone, else UTC)',
    },
    {
      name: 'break-glass',
      kind: 'word',
      flag: true,
      optional: true,
      description: 'deploy outside the change window, for this reason (needs a second approver)',
    },
    {
      name: 'force-unsupported',
      kind: 'word',
      flag: true,
      boolean: true,
      description: 'apply the whole configuration where commands are unsupported (drops every connection)',
    },
  ],
  args: z
    .object({
      device: list({ min: 1, max: 50, what: 'devices' }),
      description: keptText(),
      at: optionalText(),
      'break-glass': keptText(),
      'force-unsupported': flag(),
    })
    .refine((args) => unique(args.device) === undefined, {
      path: ['device'],
      message: 'names a device twice.',
    }),
  role: 'operator',
  // It changes what the firewalls run: always a second person, who sees the exact commands.
  approval: 'always',
  scc: [
    ...PENDING_READS,
    ...CHANGE_LOG_READS,
    'deployChangesToMultipleAsaDevices',
    'getDeviceDeploymentRuns',
    // The SCC change request named like the ticket, found or opened first (tickets.ts).
    'getTenantSettings',
    'getChangeRequests',
    'createChangeRequest',
    // The running configuration kept right before the deploy (configHistory.ts).
    'getAsaConfiguration',
  ],
  examples: ['deploy asa-hq-01', 'deploy asa-hq-01 asa-dc-03 --description "guest VLAN removal"'],
  offeredAsButton: true,
  target: {
    facts: DeployFacts,
    resolve: async (ctx, args) => {
      // A time that is not one is said before anything is read from SCC.
      const at = deployAt(ctx, args.at);
      const devices = await pendingDevices(ctx, await resolveDevices(ctx.scc, args.device, ASA));
      if (devices.every((d) => d.pending.commands.length === 0 && d.pending.status === 'SUCCESS'))
        throw new UserError(
          `Nothing is staged on ${devices.map((d) => d.name).join(', ')}: there is nothing to deploy.`,
        );
      const force = args['force-unsupported'];
      return {
        facts: {
          devices,
          force,
          description: args.description ?? null,
          ...(at !== undefined ? { at } : {}),
          ...(args['break-glass'] ? { breakGlass: args['break-glass'] } : {}),
          windows: await deployWindows(ctx, devices),
        },
        raw: {
          device: devices.map((d) => d.uid),
          ...(args.description ? { description: args.description } : {}),
          // The moment, not the words: `sat 22:00` read again later would name another Saturday.
          ...(at !== undefined ? { at: new Date(at).toISOString() } : {}),
          ...(args['break-glass'] ? { 'break-glass': args['break-glass'] } : {}),
          'force-unsupported': force,
        },
      };
    },
    reread: rereadPending,
    compare: compareDeploys,
    timing: {
      at: (facts) => facts.at,
      breakGlass: (facts) => facts.breakGlass,
      windows: (ctx, facts) => deployWindows(ctx, facts.devices),
    },
    // A deploy does not remove its target. Its run carries the request's id in the description, so after a
    // crash while it was being sent, the newest runs say whether SCC took it.
    interrupted: async (ctx, facts) => {
      const run = (await newestDeployRuns(ctx)).find(
        (item) => taggedRequest(item.description) === ctx.requestId && item.transactionUid,
      );
      if (!run?.transactionUid) return undefined;
      const label = `deploy to ${facts.devices.map((d) => d.name).join(', ')}`;
      const text = `:white_check_mark: The deploy sent before fwbot restarted reached SCC (deployment run ${code(run.uid ?? run.transactionUid)}, ${run.deploymentRunStatus ?? 'status unknown'}); it was not sent again. fwbot follows it and reports each device’s result here.`;
      return {
        view: {
          summary: `${label}: sent before fwbot restarted`,
          blocks: [{ kind: 'text', text }],
          visibility: 'in_channel',
        },
        track: [{ kind: 'deployment', transactionUid: run.transactionUid, label }],
      };
    },
    describe: (facts) => {
      const unsupported = facts.devices.filter((d) => d.pending.status === 'UNSUPPORTED_COMMANDS');
      const failed = facts.devices.filter((d) => d.pending.status === 'ERROR');
      const warnings: string[] = [];
      if (unsupported.length > 0 && facts.force)
        warnings.push(
          `:rotating_light: *Full configuration apply* on ${unsupported.map((d) => untrusted(d.name)).join(', ')}: some commands cannot be applied line by line, so SCC will write the whole configuration, which *drops every active connection through the device*.`,
        );
      else if (unsupported.length > 0)
        warnings.push(
          `:warning: ${unsupported.map((d) => untrusted(d.name)).join(', ')}: some commands cannot be applied line by line; SCC skips them (ask with --force-unsupported to apply the whole configuration, which drops every connection).`,
        );
      if (failed.length > 0)
        warnings.push(
          `:warning: SCC could not calculate the commands of ${failed.map((d) => untrusted(d.name)).join(', ')}.`,
        );
      const names = facts.devices.map((d) => d.name);
      return {
        action: `deploy the staged changes of ${names.length === 1 ? code(names[0] ?? '') : `${names.length} ASAs`} to the device${names.length === 1 ? '' : 's'}`,
        line: `deploy to ${names.map(untrusted).join(', ')}`,
        fields: [
          ...facts.devices.map((d) => ({
            label: d.name,
            value: `${counted(d.pending.commands.length, 'command')} (${d.pending.status})`,
          })),
          ...(facts.description ? [{ label: 'Description', value: facts.description }] : []),
          ...(facts.breakGlass ? [{ label: 'Break-glass', value: facts.breakGlass }] : []),
        ],
        warnings,
        code: commandsText(facts),
        notes: [
          ...stagerNotes(facts.devices),
          ...windowNotes(facts.windows ?? [], facts.at, facts.breakGlass, Date.now()),
        ],
      };
    },
  },
  run: async (ctx, _args, facts) => {
    refuseUnheld(ctx, facts);
    await changeRequestFor(ctx, `deploy to ${facts.devices.map((d) => d.name).join(', ')}`);
    const snapshots = await keepBeforeDeploy(ctx, facts.devices);
    const { data } = await ctx.scc.call('deployChangesToMultipleAsaDevices', {
      body: {
        deviceUids: facts.devices.map((d) => d.uid),
        description: ticketedDescription(
          ctx.ticket,
          [facts.description, requestTag(ctx.requestId)].filter(Boolean).join(' '),
        ),
        ...(facts.force ? { forceDeployUnsupportedCommands: true } : {}),
      },
    });
    await markDeploying(ctx, facts.devices);
    return { facts, transaction: data, snapshots };
  },
  render: ({ facts, transaction }, _args, meta) =>
    announcement(
      {
        sentence: `deploy the staged changes of ${facts.devices.map((d) => d.name).join(', ')}`,
        tense: 'asked',
        transaction,
        next: 'fwbot follows the deployment run and reports each device’s result here.',
      },
      meta,
    ),
  track: ({ facts, transaction, snapshots }) =>
    transaction.transactionUid
      ? [
          {
            kind: 'deployment',
            transactionUid: transaction.transactionUid,
            label: `deploy to ${facts.devices.map((d) => d.name).join(', ')}`,
            ...(snapshots.length > 0 ? { snapshots } : {}),
          },
        ]
      : [],
});

/** Who staged what before this deploy goes with it once SCC says it succeeded on the device. */
async function markDeploying(ctx: OperationContext, devices: readonly { uid: string }[]): Promise<void> {
  try {
    for (const device of devices)
      await ctx.services?.staging?.deploying(ctx.profile, device.uid, {
        at: Date.now(),
        requestId: ctx.requestId,
      });
  } catch (error) {
    ctx.log.warn({ err: error }, 'deploy not marked for who staged what');
  }
}

async function forgetStaged(ctx: OperationContext, deviceUid: string): Promise<void> {
  try {
    await ctx.services?.staging?.forget(ctx.profile, deviceUid);
  } catch (error) {
    ctx.log.warn({ err: error, deviceUid }, 'who staged what not forgotten after a discard');
  }
}

export const discard = defineOperation({
  id: 'discard',
  words: ['discard'],
  area: 'changes',
  failure: 'Could not discard the staged changes',
  summary: 'Throw away what is staged on an ASA: SCC reads the device’s configuration again',
  params: [DEVICE],
  args: z.object({ device: text() }),
  role: 'operator',
  // Staged work, possibly other people's, is lost: a second person looks at what goes first.
  approval: 'always',
  scc: [...PENDING_READS, ...CHANGE_LOG_READS, 'getDeviceDeploymentRuns', 'readAsaDeviceConfiguration'],
  examples: ['discard asa-hq-01'],
  offeredAsButton: true,
  target: {
    facts: z.object({ device: PendingDevice }),
    resolve: async (ctx, args) => {
      const [device] = await pendingDevices(ctx, [await resolveDevice(ctx.scc, args.device, ASA)]);
      if (!device) throw new Error('a resolved device has no pending facts');
      return { facts: { device }, raw: { device: device.uid } };
    },
    reread: async (ctx, facts) => {
      const read = await rereadPending(ctx, { devices: [facts.device], force: false, description: null });
      const [device] = read.found ? read.facts.devices : [];
      if (!read.found) return read;
      return device ? { found: true, facts: { device } } : { found: false, reason: 'the device is gone' };
    },
    compare: (before, after) =>
      compareDeploys(
        { devices: [before.device], force: false, description: null },
        { devices: [after.device], force: false, description: null },
      ),
    // The device stays, so its re-read cannot tell: after a crash while the discard was being sent, a device
    // with nothing staged any more (SYNCED) says it took effect. Still NOT_SYNCED, a person checks: SCC may
    // still be reading the configuration, or the discard never arrived.
    interrupted: async (ctx, { device }) => {
      const { data } = await ctx.scc.call('getDevice', { path: { deviceUid: device.uid } });
      if (data.configState !== 'SYNCED') return undefined;
      await forgetStaged(ctx, device.uid);
      const text = `:white_check_mark: Done: the discard sent before fwbot restarted took effect; nothing is staged on ${code(device.name)} any more.`;
      return {
        view: {
          summary: `discard the staged changes of ${device.name}: done before fwbot restarted`,
          blocks: [{ kind: 'text', text }],
          visibility: 'in_channel',
        },
        track: [],
      };
    },
    describe: ({ device }) => ({
      action: `discard the staged changes of ${code(device.name)} (SCC reads the device’s configuration again)`,
      line: `staged changes of ${untrusted(device.name)}`,
      fields: [{ label: 'Lost', value: counted(device.pending.commands.length, 'pending command') }],
      warnings: [':warning: Everything staged on it is lost, whoever staged it (SCC UI, API, fwbot).'],
      code: commandsText({ devices: [device], force: false, description: null }),
      notes: stagerNotes([device]),
    }),
  },
  run: async (ctx, _args, { device }) => {
    const { data } = await ctx.scc.call('readAsaDeviceConfiguration', { path: { deviceUid: device.uid } });
    // What fwbot remembered as staged there is thrown away with it.
    await forgetStaged(ctx, device.uid);
    return { device, transaction: data };
  },
  render: ({ device, transaction }, _args, meta) =>
    announcement(
      { sentence: `discard the staged changes of ${device.name}`, tense: 'asked', transaction },
      meta,
    ),
  track: ({ device, transaction }) =>
    transactionTrack(transaction, `discard the staged changes of ${device.name}`),
});

export const deploymentsList = defineOperation({
  id: 'deployments',
  words: ['deployments'],
  area: 'changes',
  failure: 'Could not list the deployment runs',
  summary: 'List deployment runs, newest first',
  params: [queryParam('deployment run'), OFFSET],
  args: z.object(listArgs),
  role: 'viewer',
  approval: 'never',
  scc: ['getDeviceDeploymentRuns'],
  examples: ['deployments', 'deployments deploymentRunStatus:DEPLOY_FAILED'],
  run: async (ctx, args) =>
    (
      await ctx.scc.call('getDeviceDeploymentRuns', {
        query: { ...pageQuery(args), sort: ['submissionTime:DESC'] },
      })
    ).data,
  render: (data, args, meta) =>
    renderDeploymentList(data.items ?? [], pageInfo(data, pageQuery(args)), args.query, meta),
});

export const deploymentsShow = defineOperation({
  id: 'deployments.show',
  words: ['deployments', 'show'],
  area: 'changes',
  failure: 'Could not show the deployment run',
  summary: 'Show one deployment run: each device’s result and what was deployed to it',
  params: [{ name: 'run', kind: 'uuid', description: 'the deployment run’s UUID' }],
  args: z.object({ run: uuid() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getDeviceDeploymentRun', 'getChangesDeployedInDeploymentRun'],
  examples: ['deployments show 3fa85f64-5717-4562-b3fc-2c963f66afa6'],
  run: async (ctx, args) => {
    const { data: run } = await ctx.scc.call('getDeviceDeploymentRun', {
      path: { deploymentRunUid: args.run },
    });
    const deviceUids = run.deviceUids?.length
      ? run.deviceUids
      : (run.deviceDeploymentStatuses ?? []).flatMap((d) => (d.uid ? [d.uid] : []));
    const changes = await Promise.all(
      deviceUids.map(async (deviceUid) => {
        const { data } = await ctx.scc.call('getChangesDeployedInDeploymentRun', {
          path: { deploymentRunUid: args.run, deviceUid },
        });
        // FTD and ASA items share the list; for an ASA, each carries the initial and the deployed config.
        const items = data.flatMap((item) =>
          item.deploymentType === 'ASA_DEVICE_DEPLOY' ? [AsaChangeItemDto.parse(item)] : [],
        );
        return { deviceUid, items };
      }),
    );
    return { run, changes };
  },
  render: ({ run, changes }, _args, meta) => renderDeployment(run, changes, meta),
});

/** Staged changes and deploys: this area's operations, in the order help and the command table list them. */
export const CHANGE_OPERATIONS: readonly Operation[] = [
  changesShow,
  deploy,
  discard,
  deploymentsList,
  deploymentsShow,
];
