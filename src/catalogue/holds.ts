// `holds` and `holds release`: which devices are held for a change in progress (src/catalogue/deviceHolds.ts;
// a deploy holds its devices from its approved run to the end of its deployment run), by whom, why, since and
// until when; and an admin's early release of one, governed (a second person approves by default; the policy
// may let admins do it alone, audited either way), for a hold whose holder will not end it: the work it holds
// for is not stopped, only the device is taken out of its hold.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { code, time } from '../render/format.js';
import { type HoldLine, renderHoldReleased, renderHolds } from '../render/holds.js';
import { untrusted } from '../render/untrusted.js';
import { optionalText, text } from './args.js';
import { DEVICE } from './common.js';
import { DeviceHold, type DeviceHolds, holdKindOf } from './deviceHolds.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';

function holdsOf(ctx: OperationContext): DeviceHolds {
  const holds = ctx.services?.holds;
  if (!holds) throw new UserError('Device holds are not available here: they are kept in Redis.');
  return holds;
}

/** A hold as the renderers show it: its holder's kind in words. */
function lineOf(hold: DeviceHold): HoldLine {
  return {
    device: hold.device,
    holder: holdKindOf(hold.holder.kind)?.noun ?? hold.holder.kind,
    holderId: hold.holder.id,
    requesterId: hold.holder.requesterId,
    reason: hold.reason,
    since: hold.since,
    until: hold.until,
  };
}

/** The device typed: its name (any case) or its UUID, among what is held. */
function named(hold: DeviceHold, typed: string): boolean {
  const wanted = typed.trim().toLowerCase();
  return hold.device.toLowerCase() === wanted || hold.deviceUid.toLowerCase() === wanted;
}

export const holdsList = defineOperation({
  id: 'holds',
  words: ['holds'],
  area: 'changes',
  failure: 'Could not list the held devices',
  summary: 'List the devices held for a change in progress (a deploy running): by whom, why, since, until',
  params: [{ ...DEVICE, optional: true, description: 'only this device (name or UUID)' }],
  args: z.object({ device: optionalText() }),
  role: 'viewer',
  approval: 'never',
  needs: ['holds'],
  scc: [],
  examples: ['holds', 'holds asa-hq-01'],
  offeredAsButton: true,
  run: async (ctx, args) => {
    const all = await holdsOf(ctx).list(ctx.now(), ctx.profile);
    const typed = args.device;
    return {
      profile: ctx.profile,
      device: typed,
      holds: (typed === undefined ? all : all.filter((hold) => named(hold, typed))).map(lineOf),
    };
  },
  render: ({ holds, profile, device }) => renderHolds(holds, profile, device),
});

const ReleaseFacts = z.object({ hold: DeviceHold, reason: z.string() });
type ReleaseFacts = z.infer<typeof ReleaseFacts>;

export const holdsRelease = defineOperation({
  id: 'holds.release',
  words: ['holds', 'release'],
  area: 'changes',
  failure: 'Could not release the hold',
  summary: 'End a device’s hold early, when its holder will not (admins; a second person approves)',
  params: [
    DEVICE,
    {
      name: 'reason',
      kind: 'word',
      flag: true,
      description: 'why the hold ends early (kept in the audit trail)',
    },
  ],
  args: z.object({ device: text(), reason: text() }),
  role: 'admin',
  // It lets changes reach a device in the middle of someone's change: a second person by default; the
  // policy may let admins do it alone (`approvals.operations.holds.release: admin`), audited either way.
  approval: { default: 'four-eyes' },
  needs: ['holds'],
  scc: [],
  examples: ['holds release asa-hq-01 --reason "the deploy was cancelled in SCC"'],
  target: {
    facts: ReleaseFacts,
    resolve: async (ctx, args) => {
      const hold = (await holdsOf(ctx).list(ctx.now(), ctx.profile)).find((one) => named(one, args.device));
      if (!hold)
        throw new UserError(
          `${untrusted(args.device)} is not held on profile ${code(ctx.profile)} (\`/fw holds\` lists the held devices).`,
        );
      return { facts: { hold, reason: args.reason }, raw: { device: hold.deviceUid, reason: args.reason } };
    },
    reread: async (ctx, facts: ReleaseFacts) => {
      const now = (await holdsOf(ctx).list(ctx.now(), ctx.profile)).find(
        (one) => one.deviceUid === facts.hold.deviceUid,
      );
      if (!now) return { found: false, reason: `the hold on ${facts.hold.device} has ended` };
      return { found: true, facts: { ...facts, hold: now } };
    },
    compare: (before: ReleaseFacts, after: ReleaseFacts) =>
      before.hold.holder.id === after.hold.holder.id
        ? []
        : [
            `${before.hold.device} is now held by request ${after.hold.holder.id}, not by request ${before.hold.holder.id}`,
          ],
    describe: ({ hold, reason }) => {
      const line = lineOf(hold);
      return {
        action: `end the hold on ${code(hold.device)} early`,
        line: `hold on ${untrusted(hold.device)} (${line.holder}, request ${hold.holder.id})`,
        fields: [
          { label: 'Held by', value: `${line.holder}, request ${hold.holder.id}` },
          { label: 'Why', value: hold.reason },
          { label: 'Since', value: time(new Date(hold.since).toISOString()) },
          { label: 'At the latest until', value: time(new Date(hold.until).toISOString()) },
          { label: 'Reason to end it', value: reason },
        ],
        warnings: [
          ':warning: The work that holds it is not stopped: changes staged from now on may meet it (a deploy still running pushes whatever is staged).',
        ],
      };
    },
    // Once released, a fresh read finds no hold of that holder: an interrupted release took effect.
    removes: true,
  },
  run: async (ctx, _args, { hold, reason }) => {
    const released = await holdsOf(ctx).forceRelease(ctx.profile, hold.deviceUid, hold.holder.id);
    if (!released)
      throw new UserError(`The hold on ${untrusted(hold.device)} ended meanwhile: nothing to release.`);
    return { hold: released, reason, by: ctx.actor.userId };
  },
  render: ({ hold, reason, by }) => renderHoldReleased(lineOf(hold), reason, by),
});

/** Device holds: this area's operations, in the order help and the command table list them (index.ts). */
export const HOLD_OPERATIONS: readonly Operation[] = [holdsList, holdsRelease];
