// The lifecycle of the access rules fwbot created (issue 36, item 7): `/fw access list` says which rules
// fwbot made, on which device, who asked for them and why, when they were made and when they end, from
// the records kept when each was created (src/access/records.ts); SCC's own rule records carry none of it.
import { z } from 'zod';
import type { AccessRecord } from '../access/records.js';
import { UserError } from '../model/errors.js';
import { code, counted } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import { flag, optionalText } from './args.js';
import { defineOperation, type Operation } from './operation.js';

const DAY = 24 * 60 * 60 * 1000;
/** `--expiring` lists the rules that end within this: the reminder comes three days before. */
export const EXPIRING_WITHIN_MS = 7 * DAY;

export interface AccessListing {
  records: AccessRecord[];
  now: number;
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

/** One record as a line: what it allows where, who asked and why, and its dates. */
export function accessRecordLine(record: AccessRecord, now: number): string {
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
  ].join(' · ');
}

export const fwAccessList = defineOperation({
  id: 'access.list',
  words: ['access', 'list'],
  area: 'policy',
  failure: 'Could not list the access rules',
  summary:
    'List the access rules fwbot created: device, rule, requester, ticket, reason, when created, when it expires',
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
  ],
  args: z.object({ device: optionalText(), mine: flag(), expiring: flag() }),
  role: 'viewer',
  approval: 'never',
  needs: ['accessRecords'],
  scc: [],
  examples: ['access list', 'access list asa-hq-01 --expiring', 'access list --mine'],
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
    return { records: kept, now, scope };
  },
  render: ({ records, now, scope }) => {
    const narrowed = scope.length === 0 ? '' : ` (${scope.map((s) => untrusted(s)).join(', ')})`;
    const lines =
      records.length === 0
        ? [`fwbot created no access rule here that is still in place${narrowed}.`]
        : [
            `*${counted(records.length, 'access rule')}* fwbot created${narrowed}:`,
            ...records.map((record) => accessRecordLine(record, now)),
          ];
    return {
      summary: lines[0] ?? '',
      blocks: [{ kind: 'text', text: lines.join('\n') }],
      visibility: 'ephemeral',
    };
  },
});

export const ACCESS_LIFECYCLE_OPERATIONS: readonly Operation[] = [fwAccessList];
