// Where calls meet device holds (src/catalogue/deviceHolds.ts), as one rule for the dispatcher (when a call
// is asked for) and the approvals' executor (right before an approved call runs, since a hold can begin
// between the approval and the run). A call changes the devices its operation declares
// (OperationSpec.changes); a live hold on one of them by anyone but the call's own holder stops it. A call
// whose operation holds its devices itself (a deploy) takes the hold instead, under its holder's id, so its
// own later calls pass and another taker loses.
import type { DeviceHold, Holder } from '../catalogue/deviceHolds.js';
import { heldSentence, holdKindOf } from '../catalogue/deviceHolds.js';
import type { Operation, OperationContext, RawArgs } from '../catalogue/operation.js';
import { UserError } from '../model/errors.js';

/** A call refused because a device it changes is held: the one sentence, and the hold it met. */
export class DeviceHeldError extends UserError {
  constructor(readonly hold: DeviceHold) {
    super(
      heldSentence(
        hold,
        'nothing was done. Ask again once it ends (`/fw holds` lists what holds which device).',
      ),
    );
  }
}

/**
 * A live hold by someone else on a device this call changes; undefined when there is none, or the operation
 * changes no device, or this process keeps no holds (the CLI). The devices are named only when something
 * on the profile is held, since naming them may cost an SCC read.
 */
export async function holdAgainst(
  op: Operation,
  ctx: OperationContext,
  raw: RawArgs,
  facts: unknown,
  holderId?: string,
): Promise<DeviceHold | undefined> {
  const holds = ctx.services?.holds;
  if (!holds || !op.changes) return undefined;
  const now = ctx.now();
  if (!(await holds.anyOn(ctx.profile, now))) return undefined;
  const devices = await op.changes.devices(ctx, raw, facts);
  if (devices.length === 0) return undefined;
  return holds.heldBy(
    ctx.profile,
    devices.map((device) => device.uid),
    now,
    holderId,
  );
}

/** At request time: a call on a held device is refused in one sentence (DeviceHeldError). */
export async function refuseIfHeld(
  op: Operation,
  ctx: OperationContext,
  raw: RawArgs,
  facts: unknown,
  holderId?: string,
): Promise<void> {
  const hold = await holdAgainst(op, ctx, raw, facts, holderId);
  if (hold) throw new DeviceHeldError(hold);
}

export type HoldForRun =
  | { ok: true; took: boolean }
  /** Held by someone else: the hold, and whether its kind lets the call wait for it or refuses it. */
  | { ok: false; hold: DeviceHold; meets: 'wait' | 'refuse' };

/**
 * Right before an approved call runs, under `holder` (the approval's id, who asked, its card's thread): a
 * call that holds its devices takes the hold (a renewal, when it holds them already), any other checks them.
 * A call that belongs to another holder's work (`belongsTo`: an access request's own deploy) passes that
 * holder's holds and takes none of its own.
 */
export async function holdForRun(
  op: Operation,
  ctx: OperationContext,
  raw: RawArgs,
  facts: unknown,
  holder: Omit<Holder, 'kind'>,
  belongsTo?: string,
): Promise<HoldForRun> {
  const holds = ctx.services?.holds;
  if (!holds || !op.changes) return { ok: true, took: false };
  if (belongsTo !== undefined) {
    const met = await holdAgainst(op, ctx, raw, facts, belongsTo);
    return met
      ? { ok: false, hold: met, meets: holdKindOf(met.holder.kind)?.others ?? 'refuse' }
      : { ok: true, took: false };
  }
  const own = op.changes.hold;
  const met = own
    ? await take(op, ctx, raw, facts, holder, own)
    : await holdAgainst(op, ctx, raw, facts, holder.id);
  if (!met) return { ok: true, took: own !== undefined };
  return { ok: false, hold: met, meets: holdKindOf(met.holder.kind)?.others ?? 'refuse' };
}

async function take(
  op: Operation,
  ctx: OperationContext,
  raw: RawArgs,
  facts: unknown,
  holder: Omit<Holder, 'kind'>,
  own: NonNullable<NonNullable<Operation['changes']>['hold']>,
): Promise<DeviceHold | undefined> {
  const holds = ctx.services?.holds;
  const kind = holdKindOf(own.kind);
  if (!holds || !op.changes || !kind)
    throw new Error(`${op.id} holds its devices as an unknown kind ${own.kind}`);
  const now = ctx.now();
  const taken = await holds.take(
    {
      profile: ctx.profile,
      devices: await op.changes.devices(ctx, raw, facts),
      holder: { ...holder, kind: own.kind },
      reason: own.reason(facts),
      until: now + kind.maxMs,
    },
    now,
  );
  return taken.taken ? undefined : taken.by;
}
