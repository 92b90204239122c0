// The lifecycle of the access rules fwbot created (issue 36, item 7): `/fw access list` says which rules
// fwbot made, on which device, who asked for them and why, when they were made and when they end, from
// the records kept when each was created (src/access/records.ts); SCC's own rule records carry none of it.
// With `--hits` it adds how often each rule matched, as the device itself counts it: `show access-list <acl>`
// from its fixed template (asaCommands.ts), once per access list, read by asaAccessListOutput.ts; a rule
// the device counts no hit for is a candidate for removal.
import { z } from 'zod';
import type { AccessRecord } from '../access/records.js';
import { UserError } from '../model/errors.js';
import { code, counted } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { commandButton } from '../render/paging.js';
import { untrusted } from '../render/untrusted.js';
import { SccError } from '../scc/errors.js';
import { timeRangeFor } from './accessDesign.js';
import { cancelExpiry, moveExpiry } from './accessExpiries.js';
import { flag, optionalText, text } from './args.js';
import { findRuleLine, hitsOf, parseShowAccessList } from './asaAccessListOutput.js';
import { parseAccessListName, scriptOf } from './asaCommands.js';
import { defineOperation, type Operation, type OperationContext, type Outcome } from './operation.js';
import { compareRules, RuleFacts, rulesRemove } from './ruleChanges.js';
import { explainFailure, isNotFound, SccUserError } from './sccErrors.js';
import { runCliLine } from './trace.js';

const DAY = 24 * 60 * 60 * 1000;
/** `--expiring` lists the rules that end within this: the reminder comes three days before. */
export const EXPIRING_WITHIN_MS = 7 * DAY;

/** What the device reports for a rule with `--hits`: its count, or why there is none. */
export type RuleHits = { hits: number } | { unknown: string };

export interface AccessListing {
  records: AccessRecord[];
  now: number;
  /** With `--hits`: per record id. */
  hits?: Record<string, RuleHits>;
  /** What the list was narrowed to, in words: `on asa-hq-01, yours, expiring within 7 days`. */
  scope: string[];
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `in 3 days`, `today`, `2 days ago`: how far a date is from now, in whole days. */
function fromNow(ms: number, now: number): string {
  const days = Math.round((ms - now) / DAY);
  if (days === 0) return 'today';
  const n = Math.abs(days);
  const words = `${n} ${n === 1 ? 'day' : 'days'}`;
  return days > 0 ? `in ${words}` : `${words} ago`;
}

/** How a rule's hits read on its line; 0 hits makes it a candidate for removal. */
function hitsText(hits: RuleHits): string {
  if ('unknown' in hits) return `hits unknown: ${untrusted(hits.unknown)}`;
  if (hits.hits > 0) return `${hits.hits.toLocaleString('en-US')} ${hits.hits === 1 ? 'hit' : 'hits'}`;
  return '*0 hits*: a candidate for removal';
}

/** One record as a line: what it allows where, who asked and why, and its dates (and its hits, when read). */
export function accessRecordLine(record: AccessRecord, now: number, hits?: RuleHits): string {
  const what = `${record.protocol} ${untrusted(record.source)} → ${untrusted(record.destination)}${
    record.port === undefined ? '' : ` ${untrusted(record.port)}`
  }`;
  const ends =
    record.expiresAt === undefined
      ? 'permanent'
      : `expires ${day(record.expiresAt)} (${fromNow(record.expiresAt, now)})`;
  return [
    `• ${code(record.id)} ${untrusted(record.deviceName)} · ${untrusted(record.accessGroup)} · ${what}`,
    `by ${userMention(record.requester)}`,
    ...(record.ticket === undefined ? [] : [code(record.ticket)]),
    untrusted(record.reason),
    `created ${day(record.createdAt)}`,
    ends,
    ...(hits === undefined ? [] : [hitsText(hits)]),
  ].join(' · ');
}

export const fwAccessList = defineOperation({
  id: 'access.list',
  words: ['access', 'list'],
  area: 'policy',
  failure: 'Could not list the access rules',
  summary:
    'List the access rules fwbot created: device, rule, requester, ticket, reason, when created, when it expires, and with `--hits` how often each matched',
  params: [
    {
      name: 'device',
      kind: 'device',
      optional: true,
      description: 'only the rules on this ASA (name or UUID)',
    },
    { name: 'mine', kind: 'word', flag: true, boolean: true, description: 'only the rules you asked for' },
    {
      name: 'expiring',
      kind: 'word',
      flag: true,
      boolean: true,
      description: `only the rules that expire within ${EXPIRING_WITHIN_MS / DAY} days`,
    },
    {
      name: 'hits',
      kind: 'word',
      flag: true,
      boolean: true,
      description:
        'add the hit count each device reports (`show access-list`); a rule with 0 hits is a candidate for removal',
    },
  ],
  args: z.object({ device: optionalText(), mine: flag(), expiring: flag(), hits: flag() }),
  role: 'viewer',
  approval: 'never',
  needs: ['accessRecords'],
  // Only with --hits: the rule as SCC has it now, and `show access-list` on its device.
  scc: ['fetchAccessRule', 'executeCliCommand', 'getTransaction', 'getCliResults', 'getCliResult'],
  examples: [
    'access list',
    'access list asa-hq-01 --expiring',
    'access list --mine',
    'access list asa-hq-01 --hits',
  ],
  run: async (ctx, args): Promise<AccessListing> => {
    const records = ctx.services?.accessRecords;
    if (!records) throw new UserError('This fwbot process cannot read the access rules it created.');
    const now = ctx.now();
    const all = await records.list(ctx.profile, {
      ...(args.mine ? { requester: ctx.actor.userId } : {}),
      ...(args.expiring ? { expiringBefore: now + EXPIRING_WITHIN_MS } : {}),
    });
    // A device is named as people know it; the records keep its name and uid as they were at creation.
    const wanted = args.device?.toLowerCase();
    const kept =
      wanted === undefined
        ? all
        : all.filter(
            (record) => record.deviceName.toLowerCase() === wanted || record.deviceUid === args.device,
          );
    const scope = [
      ...(args.device === undefined ? [] : [`on ${args.device}`]),
      ...(args.mine ? ['yours'] : []),
      ...(args.expiring ? [`expiring within ${EXPIRING_WITHIN_MS / DAY} days`] : []),
    ];
    return {
      records: kept,
      now,
      scope: [...scope, ...(args.hits ? ['with the hits each device reports'] : [])],
      ...(args.hits ? { hits: await hitsOfRecords(ctx, kept) } : {}),
    };
  },
  render: ({ records, now, scope, hits }) => {
    const narrowed = scope.length === 0 ? '' : ` (${scope.map((s) => untrusted(s)).join(', ')})`;
    const lines =
      records.length === 0
        ? [`fwbot created no access rule here that is still in place${narrowed}.`]
        : [
            `*${counted(records.length, 'access rule')}* fwbot created${narrowed}:`,
            ...records.map((record) => accessRecordLine(record, now, hits?.[record.id])),
          ];
    const idle = records.filter((record) => {
      const counted = hits?.[record.id];
      return counted !== undefined && 'hits' in counted && counted.hits === 0;
    });
    if (idle.length > 0)
      lines.push(
        `${counted(idle.length, 'rule')} the devices count no hit for: ${idle.map((r) => code(r.id)).join(', ')}. If ${idle.length === 1 ? 'it is' : 'they are'} no longer needed, \`/fw access revoke <id>\` removes ${idle.length === 1 ? 'it' : 'them'} (the counts start again at a reload or \`clear access-list\`).`,
      );
    return {
      summary: lines[0] ?? '',
      blocks: [{ kind: 'text', text: lines.join('\n') }],
      visibility: 'ephemeral',
    };
  },
});

/**
 * The hits the devices report for the records' rules: `show access-list` once per device and access list
 * (a list whose name cannot be sent, or a device that cannot answer, leaves its rules' hits unknown, said
 * why), and each rule found in the answer by its line and text as SCC has it now.
 */
async function hitsOfRecords(
  ctx: OperationContext,
  records: readonly AccessRecord[],
): Promise<Record<string, RuleHits>> {
  const answers = new Map<string, Promise<ReturnType<typeof parseShowAccessList> | { unknown: string }>>();
  const answerOf = (record: AccessRecord) => {
    const key = `${record.deviceUid}\u0000${record.accessGroup}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = readList(ctx, record);
      answers.set(key, answer);
    }
    return answer;
  };
  const out: Record<string, RuleHits> = {};
  for (const record of records) {
    const answer = await answerOf(record);
    if ('unknown' in answer) {
      out[record.id] = answer;
      continue;
    }
    const rule = await ctx.scc.lookups.accessRule(record.ruleUid).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    if (!rule) {
      out[record.id] = { unknown: 'SCC no longer has the rule' };
      continue;
    }
    const line = findRuleLine(answer, { index: rule.index, text: rule.ruleConfigurationText ?? '' });
    const hits = line === undefined ? undefined : hitsOf(line);
    out[record.id] =
      line === undefined
        ? { unknown: `the device has no such line in ${record.accessGroup} (not deployed yet?)` }
        : hits === undefined
          ? { unknown: 'the device printed no count for it' }
          : { hits };
  }
  return out;
}

/** `show access-list <acl>` on the record's device, read; or why it was not. */
async function readList(ctx: OperationContext, record: AccessRecord) {
  const name = parseAccessListName(record.accessGroup);
  if (!name.ok)
    return {
      unknown: `its access list's name is not sent to a device: it ${name.reason.replace(/\.$/, '')}`,
    };
  const device = { uid: record.deviceUid, name: record.deviceName };
  try {
    return parseShowAccessList(
      await runCliLine(ctx, device, scriptOf({ kind: 'access-list', acl: name.value })),
    );
  } catch (error) {
    if (error instanceof UserError) return { unknown: error.message.replace(/\.$/, '') };
    throw error;
  }
}

/** A rule fwbot created, as revoke acts on it: the rule as `rules remove` reads it, and its record. */
const RevokeFacts = RuleFacts.extend({ recordId: z.string() });
type RevokeFacts = z.infer<typeof RevokeFacts>;

function removal(): NonNullable<Operation['target']> {
  const target = rulesRemove.target;
  if (!target) throw new Error('rules remove has no target');
  return target;
}

async function recordOf(ctx: OperationContext, ref: string) {
  const records = ctx.services?.accessRecords;
  if (!records) throw new UserError('This fwbot process cannot read the access rules it created.');
  const record = await records.find(ctx.profile, ref);
  if (!record)
    throw new UserError(
      `fwbot created no access rule ${ref} in this profile that is still in place; \`/fw access list\` shows them.`,
    );
  return record;
}

/**
 * `/fw access revoke <rule>`: removes a rule fwbot created before its time, by `rules remove`'s own path
 * (its target read, its card, deleteAccessRule, the staged commands and the deploy buttons), and drops
 * its record once SCC removed the rule.
 */
const REVOKE_FAILURE = 'Could not revoke the access rule';

/** A failure of the removal revoke runs, said as revoke's own: SCC's own words follow it. */
function asRevoke(error: unknown): unknown {
  return error instanceof SccUserError && error.cause instanceof SccError
    ? explainFailure(error.cause, REVOKE_FAILURE)
    : error;
}

export const fwAccessRevoke = defineOperation({
  id: 'access.revoke',
  words: ['access', 'revoke'],
  area: 'policy',
  failure: REVOKE_FAILURE,
  summary:
    'Remove an access rule fwbot created, before it expires (as `rules remove`; deployed with `deploy`)',
  params: [
    { name: 'rule', kind: 'word', description: 'the record’s id (see `access list`) or the rule’s UUID' },
  ],
  args: z.object({ rule: text() }),
  role: 'operator',
  approval: 'always',
  needs: ['accessRecords'],
  scc: rulesRemove.scc,
  examples: ['access revoke 1'],
  changes: { devices: async (_ctx, _args, facts) => (facts ? [facts.device] : []) },
  target: {
    facts: RevokeFacts,
    resolve: async (ctx, args) => {
      const record = await recordOf(ctx, args.rule);
      const resolved = await removal()
        .resolve(ctx, { asa: record.deviceUid, rule: record.ruleUid })
        .catch((error: unknown) => {
          throw asRevoke(error);
        });
      const facts = RevokeFacts.parse({ ...RuleFacts.parse(resolved.facts), recordId: record.id });
      return { facts, raw: { rule: record.id } };
    },
    reread: async (ctx, facts: RevokeFacts) => {
      const read = await removal().reread(ctx, facts);
      return read.found
        ? { found: true, facts: { ...RuleFacts.parse(read.facts), recordId: facts.recordId } }
        : read;
    },
    compare: (before: RevokeFacts, after: RevokeFacts) => compareRules(before, after),
    describe: (facts, now) => removal().describe(facts, now),
    removes: true,
  },
  run: async (ctx, _args, facts: RevokeFacts): Promise<Outcome> => {
    let outcome: Outcome;
    try {
      outcome = await rulesRemove.execute(ctx, { asa: facts.device.uid, rule: facts.uid }, facts);
    } catch (error) {
      throw asRevoke(error);
    }
    // The rule is gone from SCC's copy: its record goes with it (the deploy takes it off the device), and
    // so do its removal at expiry and its reminder.
    const record = await ctx.services?.accessRecords?.get(ctx.profile, facts.recordId);
    await ctx.services?.accessRecords?.remove(ctx.profile, facts.recordId);
    if (record) await cancelExpiry(ctx, record, 'the rule was revoked');
    return outcome;
  },
  // The reminder before an expiry offers it (*Remove now…*).
  offeredAsButton: true,
  track: (outcome) => outcome.track,
  render: (outcome) => outcome.view,
});

/** A new expiry, from `30d` (counted from the current expiry) or a date, checked against now. */
export function extendedExpiry(typed: string, current: number, now: number): number {
  const days = /^(\d{1,3})d$/.exec(typed);
  let at: number;
  if (days) {
    const count = Number(days[1]);
    if (count < 1 || count > 365) throw new UserError('until: takes 1 to 365 days (`30d`).');
    at = Math.max(current, now) + count * DAY;
  } else {
    at = Date.parse(`${typed}T00:00:00Z`);
    if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== typed)
      throw new UserError(`until: ${typed} is not a date.`);
    if (at <= now) throw new UserError(`until: ${typed} is not in the future.`);
  }
  if (at > now + 366 * DAY) throw new UserError('until: at most a year from now.');
  if (at === current) throw new UserError('until: the rule expires then already.');
  return at;
}

const ExtendFacts = z.object({
  recordId: z.string(),
  ruleUid: z.string(),
  device: z.object({ uid: z.string(), name: z.string() }),
  accessGroup: z.string(),
  /** The rule as SCC writes it now. */
  rule: z.string(),
  requester: z.string(),
  reason: z.string(),
  ticket: z.string().optional(),
  expiresAt: z.number().int(),
  newExpiresAt: z.number().int(),
  /** The time-range the rule names (`access.time_range_for_expiry`), and the one it gets: staged in SCC. */
  timeRange: z.object({ from: z.string(), to: z.string(), line: z.string() }).optional(),
});
type ExtendFacts = z.infer<typeof ExtendFacts>;

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

async function ruleTextOf(
  ctx: OperationContext,
  record: AccessRecord,
): Promise<{ text: string; timeRange: string | undefined } | undefined> {
  try {
    const rule = await ctx.scc.lookups.accessRule(record.ruleUid);
    return { text: rule.ruleConfigurationText ?? '', timeRange: rule.ruleTimeRange?.name ?? undefined };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * `/fw access extend <rule> <30d|date>`: moves the expiry of a rule fwbot created. It keeps access open
 * longer, so it is governed like the request was: a second person approves the new date on the card. Once
 * approved, the record says the new expiry, and the removal at expiry and the reminder move with it.
 */
export const fwAccessExtend = defineOperation({
  id: 'access.extend',
  words: ['access', 'extend'],
  area: 'policy',
  failure: 'Could not extend the access rule',
  summary: 'Move the expiry of an access rule fwbot created (a second person approves the new date)',
  params: [
    { name: 'rule', kind: 'word', description: 'the record’s id (see `access list`) or the rule’s UUID' },
    {
      name: 'until',
      kind: 'word',
      description: '`30d` more (counted from the current expiry) or a date (`2027-03-31`)',
    },
  ],
  args: z.object({
    rule: text(),
    until: text().refine((typed) => /^\d{1,3}d$/.test(typed) || /^\d{4}-\d{2}-\d{2}$/.test(typed), {
      message: 'must be a number of days (`30d`) or a date (`2027-01-31`).',
    }),
  }),
  role: 'operator',
  approval: 'always',
  needs: ['accessRecords'],
  scc: ['fetchAccessRule', 'modifyAccessRule'],
  // The rule's time-range, when it has one, is changed in SCC's copy of the device.
  changes: { devices: async (_ctx, _args, facts) => (facts?.timeRange ? [facts.device] : []) },
  examples: ['access extend 1 30d', 'access extend 1 2027-03-31'],
  offeredAsButton: true,
  target: {
    facts: ExtendFacts,
    resolve: async (ctx, args) => {
      const record = await recordOf(ctx, args.rule);
      if (record.expiresAt === undefined)
        throw new UserError(`Access rule ${record.id} is permanent: it has no expiry to extend.`);
      const rule = await ruleTextOf(ctx, record);
      if (rule === undefined)
        throw new UserError(
          `SCC no longer has access rule ${record.id} on ${record.deviceName}: there is nothing to extend.`,
        );
      const newExpiresAt = extendedExpiry(args.until, record.expiresAt, ctx.now());
      // Only a time-range fwbot made for the expiry follows it; another one named on the rule is left alone.
      const to = timeRangeFor(newExpiresAt);
      const timeRange = rule.timeRange?.startsWith('fwbot-until-')
        ? { from: rule.timeRange, to: to.name, line: to.line }
        : undefined;
      const facts: ExtendFacts = {
        recordId: record.id,
        ruleUid: record.ruleUid,
        device: { uid: record.deviceUid, name: record.deviceName },
        accessGroup: record.accessGroup,
        rule: rule.text,
        requester: record.requester,
        reason: record.reason,
        ...(record.ticket ? { ticket: record.ticket } : {}),
        expiresAt: record.expiresAt,
        newExpiresAt,
        ...(timeRange ? { timeRange } : {}),
      };
      return { facts, raw: { rule: record.id, until: new Date(newExpiresAt).toISOString().slice(0, 10) } };
    },
    reread: async (ctx, facts: ExtendFacts) => {
      const record = await ctx.services?.accessRecords?.get(ctx.profile, facts.recordId);
      if (!record || record.ruleUid !== facts.ruleUid)
        return { found: false, reason: `access rule ${facts.recordId} was removed since` };
      const rule = await ruleTextOf(ctx, record);
      if (rule === undefined)
        return { found: false, reason: `SCC no longer has access rule ${facts.recordId}` };
      return {
        found: true,
        facts: { ...facts, rule: rule.text, expiresAt: record.expiresAt ?? facts.expiresAt },
      };
    },
    // The rule stays, so its re-read cannot tell. The only call to SCC is the time-range's change, when the
    // rule has fwbot's: after a crash while it was being made, the rule's time-range says whether it took
    // effect; the rest (the record, the timed work) is fwbot's own and is made again, which changes nothing
    // made already. Without a time-range nothing reached SCC, so all of it is made.
    interrupted: async (ctx, facts: ExtendFacts) => {
      const records = ctx.services?.accessRecords;
      const record = await records?.get(ctx.profile, facts.recordId);
      if (!records || !record || record.ruleUid !== facts.ruleUid) return undefined;
      if (facts.timeRange && (await ruleTextOf(ctx, record))?.timeRange !== facts.timeRange.to)
        return undefined;
      await moveExpiry(
        ctx,
        await records.update(ctx.profile, facts.recordId, { expiresAt: facts.newExpiresAt }),
      );
      const text = `:white_check_mark: Done: access rule ${code(facts.recordId)} on ${untrusted(facts.device.name)} now expires ${when(facts.newExpiresAt)} (was ${when(facts.expiresAt)}); fwbot restarted while it was being extended, and finished it.`;
      return {
        view: {
          summary: `access rule ${facts.recordId} on ${facts.device.name} now expires ${when(facts.newExpiresAt)}`,
          blocks: [{ kind: 'text', text }],
          visibility: 'in_channel',
        },
        track: [],
      };
    },
    compare: (before: ExtendFacts, after: ExtendFacts) => [
      ...(before.expiresAt === after.expiresAt
        ? []
        : [`its expiry moved from ${when(before.expiresAt)} to ${when(after.expiresAt)} since`]),
      ...(before.rule === after.rule ? [] : [`the rule changed from “${before.rule}” to “${after.rule}”`]),
    ],
    describe: (facts: ExtendFacts) => ({
      action: `keep the access rule ${code(facts.recordId)} on ${code(facts.device.name)} until ${when(facts.newExpiresAt)}`,
      line: `access rule ${facts.recordId} (${facts.ruleUid}) on ${facts.device.name}: expiry ${when(facts.expiresAt)} → ${when(facts.newExpiresAt)}`,
      fields: [
        { label: 'Device', value: facts.device.name },
        { label: 'Rule', value: facts.rule },
        { label: 'Requested by', value: facts.requester },
        { label: 'Reason', value: facts.reason },
        ...(facts.ticket ? [{ label: 'Ticket', value: facts.ticket }] : []),
        { label: 'Expires now', value: when(facts.expiresAt) },
        { label: 'New expiry', value: when(facts.newExpiresAt) },
        ...(facts.timeRange
          ? [
              {
                label: 'Time range',
                value: `${facts.timeRange.from} → ${facts.timeRange.to} (${facts.timeRange.line})`,
              },
            ]
          : []),
      ],
      warnings: [],
      notes: [
        facts.timeRange
          ? `The rule's time-range is changed in SCC's copy of ${code(facts.device.name)} (modifyAccessRule); \`/fw deploy ${facts.device.name}\` takes it to the device, which stops matching the rule at the old end until then. fwbot removes the rule at the new expiry (in the change windows) and reminds the requester 3 days before it.`
          : 'Nothing changes on the device now: fwbot removes the rule at the new expiry instead (in the change windows), and reminds the requester 3 days before it.',
      ],
    }),
  },
  run: async (ctx, _args, facts: ExtendFacts): Promise<ExtendFacts> => {
    const records = ctx.services?.accessRecords;
    if (!records) throw new UserError('This fwbot process cannot read the access rules it created.');
    if (facts.timeRange)
      await ctx.scc.call('modifyAccessRule', {
        path: { accessRuleUid: facts.ruleUid },
        body: {
          uid: facts.ruleUid,
          ruleTimeRange: { name: facts.timeRange.to, type: 'TIME_RANGE', elements: [facts.timeRange.line] },
        },
      });
    const record = await records.update(ctx.profile, facts.recordId, { expiresAt: facts.newExpiresAt });
    await moveExpiry(ctx, record);
    return facts;
  },
  render: (facts) => ({
    summary: `access rule ${facts.recordId} on ${facts.device.name} now expires ${when(facts.newExpiresAt)}`,
    blocks: [
      {
        kind: 'text',
        text: `:white_check_mark: Access rule ${code(facts.recordId)} on ${untrusted(facts.device.name)} now expires ${when(facts.newExpiresAt)} (was ${when(facts.expiresAt)}); its removal and the reminder 3 days before moved with it.${
          facts.timeRange
            ? ` Its time-range is now ${code(facts.timeRange.to)} in SCC's copy: deploy ${untrusted(facts.device.name)} to take it to the device.`
            : ''
        }`,
      },
      ...(facts.timeRange
        ? (() => {
            const deploy = commandButton('Deploy…', `deploy ${facts.device.name}`);
            return deploy ? [{ kind: 'actions' as const, buttons: [deploy] }] : [];
          })()
        : []),
    ],
    visibility: 'in_channel',
  }),
});

export const ACCESS_LIFECYCLE_OPERATIONS: readonly Operation[] = [
  fwAccessList,
  fwAccessRevoke,
  fwAccessExtend,
];
