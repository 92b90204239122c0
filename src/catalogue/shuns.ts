// Blocking an address on ASAs for a while (`/fw shun <address> --for 4h --reason "…"`), the responder's first
// move in an attack. The address is validated (asaCommands.ts parseAddress) and only the fixed templates
// reach the devices: `show conn address <ip>` first, for the impact (the connections a shun drops, per
// device), then `shun <ip>`. A shun is governed with a fast path the policy declares
// (`response.shun_alone_up_to`, 4h by default): an operator shuns alone up to that long, audited; longer
// waits for a second person's approval. An ASA's shun has no expiry of its own: each device's shun gets a
// timed end (timed/shunExpiry.ts) that sends `no shun` once when the time is up. A device with undeployed
// changes runs no command line in SCC: it is named with the reason, and the shun goes on for the others.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defaultResponse, durationText, MAX_SHUN_MS, parseDuration } from '../config/sections/response.js';
import { UserError } from '../model/errors.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import type { Device } from '../scc/generated/models.js';
import { allOf, typedLucene } from '../scc/lucene.js';
import { isUuid, keptText, optionalText, redactedText, text } from './args.js';
import { parseAddress, scriptOf, shunScriptOf } from './asaCommands.js';
import { connectionsOf, parseShowConn } from './asaShunOutput.js';
import { DeviceFacts, deviceFacts } from './deviceTarget.js';
import { defineOperation, type Operation, type OperationContext, type TimedRef } from './operation.js';
import { boundedPaginate, type DeviceRequirement, type ResolvedDevice, resolveDevice } from './resolve.js';
import { notSendable, shunExpiry } from './timed/shunExpiry.js';
import { shunGuard } from './timed/shunGuard.js';
import { runCliLine } from './trace.js';

const ASA: DeviceRequirement = { kinds: ['asa'], why: 'a shun is an ASA command' };
/** Every ASA of the profile, when no device is named: a fixed query, nothing typed in it. */
const EVERY_ASA = 'deviceType:ASA';
const MAX_SHUN_DEVICES = 50;

/** The address, refused as parseAddress says; written back canonically. */
const address = () =>
  text().transform((typed, ctx) => {
    const checked = parseAddress(typed);
    if (checked.ok) return checked.value as string;
    ctx.addIssue({ code: 'custom', message: checked.reason });
    return z.NEVER;
  });

const duration = () =>
  text().transform((typed, ctx) => {
    const ms = parseDuration(typed);
    if (ms === undefined || ms > MAX_SHUN_MS) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a duration such as 4h, 90m or 2d (at most 30d): an ASA shun has no end of its own, fwbot’s is its end.',
      });
      return z.NEVER;
    }
    return ms;
  });

/** Device names, comma-separated: each one is looked up as a name, never as a query. */
const deviceNames = () =>
  optionalText().transform((typed) =>
    typed === undefined
      ? undefined
      : typed
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
  );

/**
 * `--devices` of a shun: a device query (text with a colon, read as Lucene as every device query is, and
 * narrowed to ASAs), or names and UUIDs, comma-separated.
 */
const deviceChoice = () =>
  optionalText().transform((typed) => {
    const text = typed?.trim();
    if (!text) return undefined;
    const words = text.split(',').map((word) => word.trim());
    if (text.includes(':') && !words.every(isUuid)) return { query: text };
    return { names: words.filter((word) => word !== '') };
  });
type DeviceChoice = { query: string } | { names: string[] } | undefined;

const ShunDevice = DeviceFacts.extend({ connections: z.number().int().nullable() });
const Skipped = z.object({ name: z.string(), reason: z.string() });
const ShunFacts = z.object({
  address: z.string(),
  durationMs: z.number().int().positive(),
  reason: redactedText,
  devices: z.array(ShunDevice),
  skipped: z.array(Skipped),
});

async function devicesFor(ctx: OperationContext, choice: DeviceChoice): Promise<ResolvedDevice[]> {
  if (choice && 'names' in choice && choice.names.length > 0) {
    const found = await Promise.all(choice.names.map((name) => resolveDevice(ctx.scc, name, ASA)));
    const seen = new Set<string>();
    for (const d of found) {
      if (seen.has(d.uid)) throw new UserError(`${d.name} is named twice.`);
      seen.add(d.uid);
    }
    return found;
  }
  // A query is read and written again (typedLucene: refused before SCC when fwbot cannot read it), and only
  // ever selects the profile's ASAs.
  const typed = choice && 'query' in choice ? choice.query : undefined;
  const q = typed === undefined ? EVERY_ASA : (allOf(typedLucene(typed).q, EVERY_ASA) ?? EVERY_ASA);
  const what = typed === undefined ? 'the ASAs' : `the ASAs matching “${typed}”`;
  const all: Device[] = await boundedPaginate(ctx.scc, 'getDevices', { query: { q } }, what);
  const asas = all.map((device) => ({
    uid: device.uid ?? '',
    name: device.name,
    kind: 'asa' as const,
    device,
  }));
  if (asas.length === 0)
    throw new UserError(
      typed === undefined
        ? 'This profile has no ASA to shun an address on.'
        : `No ASA matches \`${typed}\` (searched \`${q}\`).`,
    );
  if (asas.length > MAX_SHUN_DEVICES)
    throw new UserError(
      typed === undefined
        ? `This profile has ${asas.length} ASAs: choose at most ${MAX_SHUN_DEVICES} with --devices.`
        : `\`${typed}\` selects ${asas.length} ASAs; a shun goes to at most ${MAX_SHUN_DEVICES}. Narrow it down.`,
    );
  return asas;
}

/** The impact: how many connections the address has on each device now (`show conn address`). */
async function impactOf(ctx: OperationContext, addressText: string, found: readonly ResolvedDevice[]) {
  const checked = parseAddress(addressText);
  if (!checked.ok) throw new UserError(`address: ${checked.reason}`);
  const devices: z.infer<typeof ShunDevice>[] = [];
  const skipped: z.infer<typeof Skipped>[] = [];
  for (const device of found) {
    const why = notSendable(device.device, device.name);
    if (why) {
      skipped.push({ name: device.name, reason: why });
      continue;
    }
    try {
      const answer = await runCliLine(
        ctx,
        device,
        scriptOf({ kind: 'show', topic: 'conn', address: checked.value }),
      );
      devices.push({
        ...deviceFacts(device),
        connections: connectionsOf(parseShowConn(answer), checked.value).length,
      });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      skipped.push({ name: device.name, reason: error.message });
    }
  }
  return { devices, skipped };
}

function deviceLine(d: z.infer<typeof ShunDevice>): string {
  return `${d.name} (${d.connections === null ? 'connections not read' : counted(d.connections, 'connection')})`;
}

export const fwShun = defineOperation({
  id: 'shun',
  words: ['shun'],
  area: 'devices',
  failure: 'Could not shun the address',
  summary:
    'Block an address on ASAs for a while (shun), its connections dropped; fwbot lifts it when time is up',
  params: [
    { name: 'address', kind: 'word', description: 'the IPv4 or IPv6 address to block' },
    {
      name: 'devices',
      kind: 'word',
      flag: true,
      optional: true,
      description:
        'only these ASAs: names or UUIDs, comma-separated, or a device query with field:value (`name:asa-dc*`), ASAs only, at most 50 (default: every ASA of the profile)',
    },
    { name: 'for', kind: 'word', flag: true, description: 'how long: 90m, 4h, 2d (at most 30d)' },
    { name: 'reason', kind: 'word', flag: true, description: 'why, in a few words (quote it)' },
  ],
  args: z
    .object({ address: address(), devices: deviceChoice(), for: duration(), reason: keptText() })
    .refine((args) => args.reason !== undefined, {
      path: ['reason'],
      message: 'is required: say why the address is blocked.',
    }),
  role: 'operator',
  approval: { default: 'four-eyes' },
  fastPath: {
    role: 'operator',
    which: 'an operator shuns alone up to `response.shun_alone_up_to` (4h by default)',
    applies: (args, policy) => args.for <= (policy?.response ?? defaultResponse).shunAloneUpToMs,
  },
  auditEveryCall: true,
  needs: ['timed'],
  scc: ['getDevices', 'getDevice', 'executeCliCommand', 'getTransaction', 'getCliResults', 'getCliResult'],
  examples: [
    'shun 203.0.113.66 --for 4h --reason "brute force on the VPN portal"',
    'shun 2001:db8::66 --devices asa-hq-01,asa-dc-03 --for 1d --reason "scanner, ticket INC-4411"',
    'shun 198.51.100.9 --devices "name:asa-dc*" --for 2h --reason "DDoS source"',
  ],
  target: {
    facts: ShunFacts,
    resolve: async (ctx, args) => {
      const found = await devicesFor(ctx, args.devices);
      const { devices, skipped } = await impactOf(ctx, args.address, found);
      if (devices.length === 0)
        throw new UserError(
          `No ASA can take the shun now:\n${skipped.map((s) => `• ${s.reason}`).join('\n')}`,
        );
      const reason = args.reason ?? '';
      return {
        facts: { address: args.address, durationMs: args.for, reason, devices, skipped },
        raw: {
          address: args.address,
          devices: devices.map((d) => d.uid).join(','),
          for: durationText(args.for),
          reason,
        },
      };
    },
    reread: async (ctx, facts) => {
      const found = await devicesFor(ctx, { names: facts.devices.map((d) => d.uid) });
      const { devices, skipped } = await impactOf(ctx, facts.address, found);
      return { found: true, facts: { ...facts, devices, skipped: [...facts.skipped, ...skipped] } };
    },
    compare: (before, after) => {
      const now = new Set(after.devices.map((d) => d.uid));
      return before.devices
        .filter((d) => !now.has(d.uid))
        .map((d) => `${d.name} cannot take the shun any more.`);
    },
    describe: (facts) => ({
      action: `shun ${code(facts.address)} for ${durationText(facts.durationMs)} on ${facts.devices.length === 1 ? code(facts.devices[0]?.name ?? '') : counted(facts.devices.length, 'ASA')}`,
      line: `shun ${facts.address} for ${durationText(facts.durationMs)} on ${facts.devices.map((d) => untrusted(d.name)).join(', ')} (reason: ${untrusted(facts.reason)})`,
      fields: [
        { label: 'Address', value: facts.address },
        { label: 'For', value: durationText(facts.durationMs) },
        { label: 'Reason', value: facts.reason },
        { label: 'Connections now (dropped by the shun)', value: facts.devices.map(deviceLine).join(', ') },
      ],
      warnings: [
        ':warning: Every packet from this address is dropped at once, its connections too, until fwbot lifts the shun.',
        ...facts.skipped.map((s) => `Not shunned on: ${s.reason}`),
      ],
    }),
  },
  run: async (ctx, _args, facts) => {
    // No shun without its end: an ASA's shun never expires on its own.
    const timed = ctx.services?.timed;
    if (!timed)
      throw new UserError('This fwbot process cannot schedule the end of a shun: nothing was sent.');
    const checked = parseAddress(facts.address);
    if (!checked.ok) throw new UserError(`address: ${checked.reason}`);
    const until = ctx.now() + facts.durationMs;
    const shunned: string[] = [];
    const ends: TimedRef[] = [];
    const skipped = [...facts.skipped];
    for (const device of facts.devices) {
      try {
        await runCliLine(ctx, device, shunScriptOf({ kind: 'shun', address: checked.value }));
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        skipped.push({ name: device.name, reason: error.message });
        continue;
      }
      shunned.push(device.name);
      const payload = {
        deviceUid: device.uid,
        device: device.name,
        address: checked.value,
        reason: facts.reason,
        by: ctx.actor.userId,
      };
      const end = await timed.schedule(shunExpiry, {
        profile: ctx.profile,
        at: until,
        owner: ctx.actor.userId,
        payload,
      });
      // Its device is watched while it lasts: re-applied after a failover, a reload or a reconnect. A shun of
      // an address already shunned here keeps its end, and the watch that goes with it.
      if (end.scheduled)
        await timed.schedule(shunGuard, {
          profile: ctx.profile,
          at: ctx.now(),
          owner: ctx.actor.userId,
          payload: { deviceUid: device.uid, device: device.name, address: checked.value, seq: 0 },
        });
      ends.push({ kind: shunExpiry.kind, profile: ctx.profile, key: shunExpiry.id(payload) });
    }
    return { facts, shunned, skipped, until, ends };
  },
  // Each device's end speaks in the thread of this announcement (or of the approval card).
  timed: ({ ends }) => ends,
  render: ({ facts, shunned, skipped, until }, _args, meta) =>
    announcement(
      {
        sentence:
          shunned.length === 0
            ? `shun *${facts.address}*, but no ASA took it`
            : `shunned *${facts.address}* for ${durationText(facts.durationMs)} on ${shunned.map(code).join(', ')}`,
        tense: 'done',
        details: [
          ['Reason', untrusted(facts.reason)],
          ['Until', `${new Date(until).toISOString().replace('T', ' ').slice(0, 16)} UTC`],
          ['Connections dropped', facts.devices.map(deviceLine).join(', ')],
          ...skipped.map((s): [string, unknown] => ['Not shunned', s.reason]),
        ],
        next: 'fwbot sends `no shun` on each device once when the time is up, and says so in this thread.',
      },
      meta,
    ),
});

/**
 * A shun's id, as `shun list` shows it and `unshun` takes it: eight hex digits of a hash of what makes one
 * shun (the address, who placed it, its end), so every device's end of one `/fw shun` shares it.
 */
export function shunIdOf(address: string, by: string, until: number): string {
  return createHash('sha256').update(`${address}|${by}|${until}`).digest('hex').slice(0, 8);
}
const SHUN_ID = /^[0-9a-f]{8}$/;

/** One active shun fwbot placed, from its waiting end (one per device). */
interface ActiveShun {
  id: string;
  address: string;
  devices: string[];
  by: string;
  reason: string;
  until: number;
}

export const fwShunList = defineOperation({
  id: 'shun.list',
  words: ['shun', 'list'],
  area: 'devices',
  failure: 'Could not list the shuns',
  summary: 'List the shuns fwbot placed that are still active: address, devices, who, why, until when',
  params: [],
  args: z.object({}),
  role: 'viewer',
  approval: 'never',
  needs: ['timed'],
  scc: [],
  examples: ['shun list'],
  run: async (ctx) => {
    const timed = ctx.services?.timed;
    if (!timed) throw new UserError('This fwbot process cannot read the shuns it placed.');
    const items = await timed.list({ kind: shunExpiry.kind, profile: ctx.profile });
    const byAddress = new Map<string, ActiveShun>();
    for (const item of items) {
      const parsed = shunExpiry.payload.safeParse(item.payload);
      if (!parsed.success) continue;
      const p = parsed.data;
      const key = `${p.address}|${p.by}|${item.dueAt}`;
      const known = byAddress.get(key);
      if (known) known.devices.push(p.device);
      else
        byAddress.set(key, {
          id: shunIdOf(p.address, p.by, item.dueAt),
          address: p.address,
          devices: [p.device],
          by: p.by,
          reason: p.reason,
          until: item.dueAt,
        });
    }
    return [...byAddress.values()];
  },
  render: (shuns) => {
    const lines =
      shuns.length === 0
        ? ['No shun placed by fwbot is active in this profile.']
        : [
            `*${counted(shuns.length, 'active shun')}* placed by fwbot:`,
            ...shuns.map(
              (s) =>
                `• ${code(s.id)} ${code(s.address)} on ${s.devices.map((d) => untrusted(d)).join(', ')} · by ${userMention(s.by)} · until ${new Date(s.until).toISOString().replace('T', ' ').slice(0, 16)} UTC · ${untrusted(s.reason)}`,
            ),
          ];
    return {
      summary: lines[0] ?? '',
      blocks: [{ kind: 'text', text: lines.join('\n') }],
      visibility: 'ephemeral',
    };
  },
});

const UnshunFacts = z.object({
  address: z.string(),
  devices: z.array(z.object({ uid: z.string(), name: z.string(), key: z.string() })).min(1),
});

/** What `unshun` ends: a shun by its id (`shun list`), or every shun of an address. */
const shunChoice = () =>
  text().transform((typed, ctx) => {
    const word = typed.trim().toLowerCase();
    if (SHUN_ID.test(word)) return word;
    const checked = parseAddress(typed);
    if (checked.ok) return checked.value as string;
    ctx.addIssue({
      code: 'custom',
      message: `must be a shun's id as \`/fw shun list\` shows it (eight hex digits), or ${checked.reason}`,
    });
    return z.NEVER;
  });

/** The waiting ends of the shuns of `chosen` (an id, or an address) fwbot placed (optionally on some devices only). */
async function waitingEnds(ctx: OperationContext, chosen: string, only: readonly string[] | undefined) {
  const timed = ctx.services?.timed;
  if (!timed) throw new UserError('This fwbot process cannot read the shuns it placed.');
  const wanted = only?.map((name) => name.toLowerCase());
  return (await timed.list({ kind: shunExpiry.kind, profile: ctx.profile })).flatMap((item) => {
    const parsed = shunExpiry.payload.safeParse(item.payload);
    if (!parsed.success || item.state !== 'scheduled') return [];
    const p = parsed.data;
    const matches = SHUN_ID.test(chosen)
      ? shunIdOf(p.address, p.by, item.dueAt) === chosen
      : p.address === chosen;
    if (!matches) return [];
    if (wanted && !wanted.includes(p.device.toLowerCase()) && !wanted.includes(p.deviceUid)) return [];
    return [{ uid: p.deviceUid, name: p.device, key: item.key, address: p.address }];
  });
}

export const fwUnshun = defineOperation({
  id: 'unshun',
  words: ['unshun'],
  area: 'devices',
  failure: 'Could not end the shun',
  summary: 'End a shun fwbot placed before its time: its timed end runs now (`no shun` once on each device)',
  params: [
    {
      name: 'address',
      kind: 'word',
      description: 'the shun’s id as `shun list` shows it, or the address shunned (every shun of it)',
    },
    {
      name: 'devices',
      kind: 'word',
      flag: true,
      optional: true,
      description:
        'only on these ASAs: names or UUIDs, comma-separated (default: every one it is shunned on)',
    },
  ],
  args: z.object({ address: shunChoice(), devices: deviceNames() }),
  role: 'operator',
  approval: { default: 'four-eyes' },
  fastPath: { role: 'operator', which: 'an operator ends a shun alone', applies: () => true },
  auditEveryCall: true,
  needs: ['timed'],
  // It calls nothing in SCC itself: it brings the shun's end forward, and that end sends `no shun`.
  scc: [],
  examples: ['unshun 203.0.113.66', 'unshun 203.0.113.66 --devices asa-hq-01'],
  target: {
    facts: UnshunFacts,
    resolve: async (ctx, args) => {
      const found = await waitingEnds(ctx, args.address, args.devices);
      const shunned = found[0]?.address;
      if (shunned === undefined)
        throw new UserError(
          `fwbot has no active shun ${SHUN_ID.test(args.address) ? 'with the id' : 'of'} ${args.address} here: \`/fw shun list\` shows them.`,
        );
      // One address per call: an id names one shun, and an address its own shuns.
      const devices = found
        .filter((d) => d.address === shunned)
        .map(({ uid, name, key }) => ({ uid, name, key }));
      return {
        facts: { address: shunned, devices },
        raw: { address: shunned, devices: devices.map((d) => d.uid).join(',') },
      };
    },
    reread: async (ctx, facts) => {
      const devices = await waitingEnds(
        ctx,
        facts.address,
        facts.devices.map((d) => d.uid),
      );
      return devices.length === 0
        ? { found: false, reason: `the shun of ${facts.address} has ended already.` }
        : { found: true, facts: { ...facts, devices } };
    },
    compare: () => [],
    describe: (facts) => ({
      action: `end the shun of ${code(facts.address)} on ${facts.devices.map((d) => code(d.name)).join(', ')}`,
      line: `shun of ${facts.address} on ${facts.devices.map((d) => untrusted(d.name)).join(', ')}`,
      fields: [
        { label: 'Address', value: facts.address },
        { label: 'Devices', value: facts.devices.map((d) => d.name).join(', ') },
      ],
      warnings: [],
    }),
  },
  run: async (ctx, _args, facts) => {
    const timed = ctx.services?.timed;
    if (!timed) throw new UserError('This fwbot process cannot end the shuns it placed.');
    const lifted: string[] = [];
    const left: string[] = [];
    for (const device of facts.devices) {
      // The shun's own end is brought forward to now: it sends `no shun` exactly once (its claim is atomic
      // against any other run), and says so in the thread the shun was announced in.
      const moved = await timed.reschedule(
        { kind: shunExpiry.kind, profile: ctx.profile, key: device.key },
        ctx.now(),
      );
      if (moved.outcome !== 'rescheduled') {
        left.push(`${device.name}: its end is ${moved.state} already`);
        continue;
      }
      lifted.push(device.name);
    }
    return { address: facts.address, lifted, left };
  },
  render: ({ address: shunned, lifted, left }, _args, meta) =>
    announcement(
      {
        sentence:
          lifted.length === 0
            ? `end the shun of *${shunned}*, but its end had already begun`
            : `ending the shun of *${shunned}* on ${lifted.map(code).join(', ')}`,
        tense: 'done',
        details: left.map((line): [string, unknown] => ['Not sent', line]),
        ...(lifted.length > 0
          ? {
              next: 'Its end runs now: fwbot sends `no shun` once on each device within seconds, and says so in the shun’s thread.',
            }
          : {}),
      },
      meta,
    ),
});

export const SHUN_OPERATIONS: readonly Operation[] = [fwShun, fwShunList, fwUnshun];
