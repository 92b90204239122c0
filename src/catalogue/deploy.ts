// `deploy`: the staged changes of ASAs go to the devices, after a second person approves exactly the commands
// that will run (the card names who staged them). Its target is the devices with their pending commands
// (stagedDevices.ts), read again and compared before it runs; its timing (deployWindows.ts: `--at`, the change
// windows, `--break-glass`) is what the approvals' executor holds it for. A deploy keeps each device's running
// configuration first (configHistory.ts), opens or finds the change request of its ticket, and is followed to
// each device's result; after a crash while it was sent, its tagged run tells whether SCC took it.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import { flag, keptText, list, optionalText, redactedText, unique } from './args.js';
import { keepBeforeDeploy } from './configHistory.js';
import { DeviceWindowsFacts, deployAt, deployWindows, refuseUnheld, windowNotes } from './deployWindows.js';
import { defineOperation, type OperationContext } from './operation.js';
import { ASA, PENDING_READS } from './pendingCommands.js';
import { resolveDevices } from './resolve.js';
import {
  commandsText,
  comparePending,
  newestDeployRuns,
  PendingDevice,
  pendingDevices,
  requestTag,
  rereadPending,
  stagerNotes,
  taggedRequest,
} from './stagedDevices.js';
import { CHANGE_LOG_READS } from './stagedInScc.js';
import { changeRequestFor, ticketedDescription } from './tickets.js';

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
  // Its devices are held from the moment its approved run is claimed until its deployment run ends: nothing
  // staged meanwhile misses it unseen, and a second deploy waits its turn.
  changes: {
    devices: async (_ctx, _args, facts) => facts?.devices ?? [],
    hold: { kind: 'deploy', reason: (facts) => `deploy to ${facts.devices.map((d) => d.name).join(', ')}` },
  },
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
    reread: (ctx, facts: DeployFacts) => rereadPending(ctx, facts),
    compare: (before: DeployFacts, after: DeployFacts) => comparePending(before, after),
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
        track: [{ kind: 'deployment', transactionUid: run.transactionUid, label, holder: ctx.requestId }],
      };
    },
    describe: (facts, now) => {
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
          ...windowNotes(facts.windows ?? [], facts.at, facts.breakGlass, now),
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
    // Its device holds (taken under this request's id when its approved run was claimed) end with its run.
    return { facts, transaction: data, snapshots, holder: ctx.requestId };
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
  track: ({ facts, transaction, snapshots, holder }) =>
    transaction.transactionUid
      ? [
          {
            kind: 'deployment',
            transactionUid: transaction.transactionUid,
            label: `deploy to ${facts.devices.map((d) => d.name).join(', ')}`,
            ...(snapshots.length > 0 ? { snapshots } : {}),
            holder,
          },
        ]
      : [],
});

/** Who staged what before this deploy goes with it once SCC says it succeeded on the device. */
async function markDeploying(ctx: OperationContext, devices: readonly { uid: string }[]): Promise<void> {
  try {
    for (const device of devices)
      await ctx.services?.staging?.deploying(ctx.profile, device.uid, {
        at: ctx.now(),
        requestId: ctx.requestId,
      });
  } catch (error) {
    ctx.log.warn({ err: error }, 'deploy not marked for who staged what');
  }
}
