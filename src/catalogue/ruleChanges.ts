// Removing or disabling any access rule of an ASA (`/fw rules remove|disable <asa> <line|uid>`), fwbot's or
// not. Both are governed: a second person approves exactly the rule the card shows (its access list, line
// and configuration text, read when the request is made), and right before the call the rule is read again
// by its UUID; a rule that moved, changed or went since is refused. The call changes SCC's copy only (the
// device becomes NOT_SYNCED): the outcome shows what SCC now calculates for the device and offers the
// deploy, itself governed (`/fw deploy`). Anything already staged on the device is on the card, since a
// deploy carries it too.
//
// A rule is named by its line in the device's configuration (the Line column of `/fw rules`: unique on the
// device, so no access list need be named) or by its UUID; anything else is a usage error before any call.
import { z } from 'zod';
import type { TrackRequest } from '../follow/index.js';
import { maskConfigSecrets } from '../model/configSecrets.js';
import { UserError } from '../model/errors.js';
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import { isRemark } from '../render/accessRules.js';
import { announcement } from '../render/announce.js';
import { withStagedButtons } from '../render/changes.js';
import { code, counted } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import type { AccessRule } from '../scc/generated/models.js';
import { isUuid, text } from './args.js';
import { stagedTrack } from './common.js';
import { ASA_PARAM, ASA_RULES, LINE_NUMBER, ruleOf } from './lookups.js';
import { defineOperation, type Operation, type OperationContext, type TargetRead } from './operation.js';
import { CommandsFacts, PENDING_READS, pendingCommands } from './pendingCommands.js';
import { INTERFACE_LISTS, resolveDevice } from './resolve.js';
import { ruleTrace } from './ruleTrace.js';
import { isNotFound } from './sccErrors.js';
import { newestDeployRuns } from './stagedDevices.js';
import { commandText } from './usage.js';

const Ref = z.object({ uid: z.string(), name: z.string() });

export const RuleFacts = z.object({
  device: Ref,
  uid: z.string(),
  accessGroupUid: z.string(),
  /** The access list's name (the access group's), as the configuration names it. */
  accessList: z.string(),
  /** Its line in the access list (remarks count), as `access-list X line N` numbers it. */
  index: z.number().int(),
  /** Its line in the device's configuration (the Line column of `/fw rules`). */
  line: z.number().int().nullable(),
  /** The configuration line as the device prints it. */
  text: z.string(),
  active: z.boolean(),
  remark: z.string().nullable(),
  /** What was already staged on the device when the request was made: a deploy carries it too. */
  staged: CommandsFacts,
  /**
   * The flow the rule matched, as the packet-tracer line run once the change is deployed (ruleTrace.ts), or
   * why the rule has none. Read when the request is made; absent on requests made before it was read.
   */
  trace: z.union([z.object({ script: z.string() }), z.object({ untraceable: z.string() })]).optional(),
});
export type RuleFacts = z.infer<typeof RuleFacts>;

type Change = 'remove' | 'disable';

/** A line number or a UUID, checked before anything is read (nothing typed reaches SCC's query as typed). */
const ruleArg = text().refine((typed) => LINE_NUMBER.test(typed) || isUuid(typed), {
  message:
    'give the rule’s line in the configuration (the Line column of `/fw rules <asa>`, digits only) or its UUID.',
});

/** The rule's facts from a fresh read of it and of its access group. */
async function factsOf(
  ctx: OperationContext,
  device: { uid: string; name: string },
  rule: AccessRule,
  staged: CommandsFacts,
  trace?: RuleFacts['trace'] | 'read',
): Promise<RuleFacts> {
  const group = await ctx.scc.lookups.accessGroup(rule.accessGroupUid).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  const ruleText = rule.ruleConfigurationText ?? '';
  return {
    device,
    uid: rule.uid ?? '',
    accessGroupUid: rule.accessGroupUid,
    // SCC's configuration line names the list even when the group is gone.
    accessList: group?.name ?? ruleText.split(/\s+/)[1] ?? '?',
    index: rule.index,
    line: rule.ruleConfigurationLineNumber ?? null,
    text: ruleText,
    active: rule.isActiveRule !== false && !/\sinactive(\s|$)/.test(ruleText),
    remark: rule.remark ?? null,
    staged,
    ...(trace === 'read'
      ? { trace: await ruleTrace(ctx, device.uid, group, ruleText) }
      : trace
        ? { trace }
        : {}),
  };
}

/** The commands fwbot expects SCC to calculate for the change; shown as a prediction, SCC's come after. */
export function predictedCommands(change: Change, facts: RuleFacts): string[] {
  const prefix = `access-list ${facts.accessList} `;
  if (change === 'remove')
    return [...(facts.remark ? [`no ${prefix}remark ${facts.remark}`] : []), `no ${facts.text}`];
  const rest = facts.text.startsWith(prefix) ? facts.text.slice(prefix.length) : facts.text;
  return [`no ${facts.text}`, `${prefix}line ${facts.index} ${rest} inactive`];
}

/** `line 128 (#2 of outside_access_in)`, for sentences (names through code()). */
function where(facts: RuleFacts): string {
  const line = facts.line === null ? `#${facts.index}` : `line ${facts.line}`;
  return `${line} (#${facts.index} of ${code(facts.accessList)})`;
}

function whereText(facts: RuleFacts): string {
  const line = facts.line === null ? `#${facts.index}` : `line ${facts.line}`;
  return `${line} (#${facts.index} of ${untrusted(facts.accessList)})`;
}

const VERB: Record<Change, { ask: string; done: string; what: string }> = {
  remove: {
    ask: 'remove the access rule',
    done: 'removed the access rule',
    what: 'removed from SCC’s copy of the policy',
  },
  disable: {
    ask: 'disable the access rule',
    done: 'disabled the access rule',
    what: 'kept, marked `inactive`: the device ignores it',
  },
};

function describeChange(change: Change, facts: RuleFacts) {
  const device = facts.device.name;
  const predicted = predictedCommands(change, facts);
  const staged = facts.staged.commands;
  const codeText = [
    '! predicted by fwbot; SCC calculates the exact commands once the change is made',
    ...predicted,
    ...(staged.length > 0 ? [`! already staged on ${device}, deployed with it`, ...staged] : []),
  ].join('\n');
  const warnings =
    staged.length > 0
      ? [
          `:warning: ${counted(staged.length, 'command')} already staged on ${code(device)} ${staged.length === 1 ? 'goes' : 'go'} with this change in the next deploy, whoever staged ${staged.length === 1 ? 'it' : 'them'}.`,
        ]
      : [];
  if (facts.staged.status !== 'SUCCESS')
    warnings.push(
      `:warning: SCC’s calculation of what is already staged on ${code(device)} ended ${facts.staged.status}.`,
    );
  return {
    action: `${VERB[change].ask} at ${where(facts)} on ${code(device)}`,
    line: `access rule ${whereText(facts)} on ${untrusted(device)}: ${untrusted(facts.text)}`,
    fields: [
      { label: 'Device', value: device },
      { label: 'Access list', value: facts.accessList },
      {
        label: 'Line',
        value: `${facts.line ?? '—'} (#${facts.index} of the list)`,
      },
      { label: 'Rule', value: facts.text },
      ...(facts.remark ? [{ label: 'Remark', value: facts.remark }] : []),
      {
        label: 'Will be',
        value: `${VERB[change].what}${change === 'remove' && facts.remark ? ' (its remark goes with it)' : ''}`,
      },
      { label: 'Rule UUID', value: facts.uid },
    ],
    warnings,
    code: maskConfigSecrets(codeText),
    notes: [
      ...(verifyNote(facts) ? [verifyNote(facts) ?? ''] : []),
      `Only SCC’s copy changes: ${code(device)} keeps ${change === 'remove' ? 'running the rule' : 'the rule active'} until a deploy, itself approved (${code(`/fw deploy ${device}`)}).`,
    ],
  };
}

/** The rule read again by its UUID, or why it is gone. */
async function reread(ctx: OperationContext, before: RuleFacts): Promise<TargetRead<RuleFacts>> {
  let rule: AccessRule;
  try {
    rule = await ctx.scc.lookups.accessRule(before.uid);
  } catch (error) {
    if (isNotFound(error))
      return { found: false, reason: `the access rule no longer exists on ${before.device.name}` };
    throw error;
  }
  return { found: true, facts: await factsOf(ctx, before.device, rule, before.staged, before.trace) };
}

/** What differs, one sentence each: a rule that moved or changed is not the one approved. */
export function compareRules(before: RuleFacts, after: RuleFacts): string[] {
  const out: string[] = [];
  if (before.accessList !== after.accessList || before.accessGroupUid !== after.accessGroupUid)
    out.push(`the rule moved from access list ${before.accessList} to ${after.accessList}`);
  if (before.index !== after.index || before.line !== after.line)
    out.push(
      `the rule moved from line ${before.line ?? '—'} (#${before.index}) to line ${after.line ?? '—'} (#${after.index})`,
    );
  if (before.text !== after.text) out.push(`the rule changed from “${before.text}” to “${after.text}”`);
  if (before.active !== after.active)
    out.push(`the rule was made ${after.active ? 'active' : 'inactive'} since`);
  return out;
}

/** The request's target: the device, then the rule, checked for what the change can do with it. */
async function resolveRule(ctx: OperationContext, change: Change, args: { asa: string; rule: string }) {
  const device = await resolveDevice(ctx.scc, args.asa, ASA_RULES);
  const ref = { uid: device.uid, name: device.name };
  const rule = await ruleOf(ctx, ref, args.rule);
  if (isRemark(rule))
    throw new UserError(
      `Line ${rule.ruleConfigurationLineNumber ?? args.rule} of ${device.name} is a remark, not a rule: a remark goes with the rule under it.`,
    );
  if (
    change === 'disable' &&
    (rule.isActiveRule === false || /\sinactive(\s|$)/.test(rule.ruleConfigurationText ?? ''))
  )
    throw new UserError(
      `That rule of ${device.name} is already inactive: \`/fw rules remove ${device.name} ${args.rule}\` removes it.`,
    );
  const facts = await factsOf(ctx, ref, rule, await pendingCommands(ctx, device.uid), 'read');
  return { facts, raw: { asa: device.uid, rule: facts.uid } };
}

/** SCC's own calculation for the device after the change, or undefined when it could not say. */
async function calculated(ctx: OperationContext, deviceUid: string): Promise<CommandsFacts | undefined> {
  try {
    return await pendingCommands(ctx, deviceUid);
  } catch (error) {
    ctx.log.warn({ err: error, deviceUid }, 'pending commands not calculated after the rule change');
    return undefined;
  }
}

export function renderRuleChanged(
  change: Change,
  facts: RuleFacts,
  pending: CommandsFacts | undefined,
  meta: RenderMeta,
): View {
  const device = facts.device.name;
  const view = announcement(
    {
      sentence: `${VERB[change].done} at ${whereText(facts)} in SCC’s copy of ${untrusted(device)}`,
      tense: 'done',
      details: [
        ['Rule', facts.text],
        ['Rule UUID', facts.uid],
        ['Device UUID', facts.device.uid],
      ],
    },
    meta,
  );
  const blocks: ViewBlock[] = [...view.blocks];
  if (pending === undefined)
    blocks.push({
      kind: 'text',
      text: `SCC did not say what a deploy of ${code(device)} would run now; \`/fw changes ${device}\` asks again.`,
    });
  else if (pending.commands.length === 0)
    blocks.push({ kind: 'text', text: `SCC calculates no command for ${code(device)}.` });
  else {
    blocks.push({
      kind: 'text',
      text: `SCC calculates that a deploy of ${code(device)} runs ${counted(pending.commands.length, 'command')} (${pending.status}):`,
    });
    blocks.push({
      kind: 'code',
      text: maskConfigSecrets(pending.commands.join('\n')),
      filename: `${device}-pending.txt`,
    });
  }
  const verify = verifyNote(facts);
  if (verify) blocks.push({ kind: 'text', text: verify });
  blocks.push({
    kind: 'context',
    text: `Staged in SCC, not yet on ${device}: the device is NOT_SYNCED and keeps the rule ${change === 'remove' ? '' : 'active '}until a deploy. \`/fw deploy ${device}\` asks a second person to approve it.`,
  });
  return withStagedButtons({ ...view, blocks }, device);
}

/**
 * The verification once a deploy carries the change (src/follow/ruleVerify.ts): the first deploy of the
 * device SCC lists after its newest run before the change, then packet-tracer with the line read when the request was made. None for a
 * rule with no single flow (its render says so) or a request made before the line was read.
 */
function verifyTrack(
  change: Change,
  facts: RuleFacts,
  lastRun: { submittedAt: number; transactionUid: string | undefined },
): TrackRequest[] {
  if (!facts.trace || !('script' in facts.trace)) return [];
  return [
    {
      kind: 'rule-verify',
      label: `${change} of access rule ${whereText(facts)} on ${facts.device.name}`,
      device: facts.device,
      after: lastRun.submittedAt,
      ...(lastRun.transactionUid ? { notRun: lastRun.transactionUid } : {}),
      rule: { uid: facts.uid, text: facts.text },
      change,
      script: facts.trace.script,
      removal: commandText(
        { words: ['rules', 'remove'], params: [ASA_PARAM, { name: 'rule', kind: 'word', description: '' }] },
        { asa: facts.device.uid, rule: facts.uid },
      ),
    },
  ];
}

/** What happens after the deploy, in one sentence: the trace to run, or why there is none. */
function verifyNote(facts: RuleFacts): string | undefined {
  if (!facts.trace) return undefined;
  if ('script' in facts.trace)
    return `Once a deploy of ${code(facts.device.name)} carries it, fwbot runs ${code(facts.trace.script)} and says here which line decides that traffic now.`;
  return `It will not be verified after the deploy: the rule ${untrusted(facts.text)} has no single flow to trace (${untrusted(facts.trace.untraceable)}).`;
}

function ruleOperation(change: Change) {
  const disable = change === 'disable';
  return defineOperation({
    id: `rules.${change}`,
    words: ['rules', change],
    area: 'policy',
    failure: disable ? 'Could not disable the access rule' : 'Could not remove the access rule',
    summary: disable
      ? 'Disable an access rule of an ASA (made inactive in SCC’s copy; deployed with `deploy`)'
      : 'Remove an access rule of an ASA from SCC’s copy (deployed with `deploy`)',
    params: [
      ASA_PARAM,
      {
        name: 'rule',
        kind: 'word',
        description: 'the rule’s line in the configuration (the Line column of `rules`), or its UUID',
      },
    ],
    args: z.object({ asa: text(), rule: ruleArg }),
    role: 'operator',
    approval: 'always',
    scc: [
      // PENDING_READS finds the device (getDevices, getDevice) and reads what is already staged.
      ...PENDING_READS,
      'listAccessRules',
      'fetchAccessRule',
      'fetchAccessGroup',
      // The flow the rule matched (ruleTrace.ts): its objects, and the device's interfaces for the input.
      'getObjects',
      ...Object.values(INTERFACE_LISTS),
      disable ? 'modifyAccessRule' : 'deleteAccessRule',
      // The verification once a deploy carries the change (src/follow/ruleVerify.ts): the run, packet-tracer.
      'getDeviceDeploymentRuns',
      'executeCliCommand',
      'getCliResults',
      'getCliResult',
    ],
    examples: [`rules ${change} asa-hq-01 ${disable ? 129 : 130}`],
    // An access rule that was not verified after its deploy offers its removal as a button (accessVerify.ts);
    // a click is dispatched like the typed command, governed the same way.
    offeredAsButton: !disable,
    changes: { devices: async (_ctx, _args, facts) => (facts ? [facts.device] : []) },
    target: {
      facts: RuleFacts,
      resolve: (ctx, args) => resolveRule(ctx, change, args),
      reread,
      compare: compareRules,
      describe: (facts) => describeChange(change, facts),
      removes: !disable,
      // A disable interrupted by a crash: the rule, read again, says whether SCC made it inactive.
      ...(disable
        ? {
            interrupted: async (ctx: OperationContext, facts: RuleFacts) => {
              const read = await reread(ctx, facts);
              if (!read.found || read.facts.active) return undefined;
              const text = `:white_check_mark: The access rule at ${whereText(facts)} on ${untrusted(facts.device.name)} was made inactive in SCC before fwbot restarted; it was not sent again. \`/fw changes ${facts.device.name}\` shows what a deploy would run.`;
              return {
                view: {
                  summary: `disable of access rule ${whereText(facts)}: done before fwbot restarted`,
                  blocks: [{ kind: 'text', text }],
                  visibility: 'in_channel',
                },
                track: [],
              };
            },
          }
        : {}),
    },
    run: async (ctx, _args, facts) => {
      // SCC's newest deployment run before the change, by SCC's own clock: the verification waits for a
      // later one of this device (read first, so a failed read changes nothing).
      const before = facts.trace && 'script' in facts.trace ? (await newestDeployRuns(ctx))[0] : undefined;
      const path = { accessRuleUid: facts.uid };
      if (disable)
        await ctx.scc.call('modifyAccessRule', { path, body: { uid: facts.uid, isActiveRule: false } });
      else await ctx.scc.call('deleteAccessRule', { path });
      const lastRun = {
        submittedAt: before?.submissionTime ? Date.parse(before.submissionTime) || 0 : 0,
        transactionUid: before?.transactionUid ?? undefined,
      };
      return { facts, pending: await calculated(ctx, facts.device.uid), lastRun };
    },
    track: ({ facts, pending, lastRun }, _args, now) => [
      ...stagedTrack(
        facts.device,
        `${change} of access rule ${whereText(facts)} on ${facts.device.name}`,
        now,
        pending !== undefined,
      ),
      ...verifyTrack(change, facts, lastRun),
    ],
    render: ({ facts, pending }, _args, meta) => renderRuleChanged(change, facts, pending, meta),
  });
}

export const rulesRemove = ruleOperation('remove');
export const rulesDisable = ruleOperation('disable');

/** Removing and disabling access rules: this area's changes, after its reads in help (index.ts). */
export const RULE_CHANGE_OPERATIONS: readonly Operation[] = [rulesRemove, rulesDisable];
