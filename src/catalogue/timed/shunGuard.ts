// A shun kept in place across a failover, a reload or a reconnect. An ASA keeps its shuns in memory only: a
// failover (the unit that takes over has none) or a reload loses them. While a shun's end waits, a chain of
// these items watches its device, one look a minute (GUARD_EVERY_MS): the device's record in SCC, the same
// fields the HA and connectivity alerts read (which unit is active; whether it is ONLINE). Each item holds
// what the previous look saw and schedules the next look with what it sees now, so an event is seen by
// exactly one item: the active unit changed (a failover), or the device came back ONLINE (a reload or a
// reconnect, as SCC sees either). That item reads `show shun` and, when the shun is missing, sends it again
// from its template, once, and says so in the shun's thread (the thread its end speaks in). A device that
// cannot take it now (undeployed changes, not ONLINE) is named with the reason, once, and the re-apply is
// owed to the next looks until it can. The chain ends when the shun's end is no longer waiting (it ran, or
// /fw unshun brought it forward); it never re-applies in the last REAPPLY_MARGIN_MS before the end, so the
// end's `no shun` is never followed by a `shun` of its own chain.
import { z } from 'zod';
import { code } from '../../render/format.js';
import { untrusted } from '../../render/untrusted.js';
import type { Device } from '../../scc/generated/models.js';
import { shunScriptOf } from '../asaCommands.js';
import { runCliLine } from '../trace.js';
import { defineTimedKind } from './kind.js';
import { addressOf, isShunned, notSendable, shunExpiry, utcMinute } from './shunExpiry.js';

/** How often a shun's device is looked at while the shun lasts. */
export const GUARD_EVERY_MS = 60_000;
/** No re-apply this close to the shun's end: the end runs then, and wins. */
export const REAPPLY_MARGIN_MS = 2 * 60_000;

/** What one look at the device's record saw: the unit that is active (HA pairs), and whether it is ONLINE. */
const Seen = z.object({ active: z.string().optional(), online: z.boolean() });
type Seen = z.infer<typeof Seen>;

const EVENTS = ['failover', 'online'] as const;
type GuardEvent = (typeof EVENTS)[number];

/** How the thread names the event: "re-applied on asa-hq-01 after a failover". */
export const EVENT_WORDS: Record<GuardEvent, string> = {
  failover: 'after a failover',
  online: 'after it came back ONLINE (a reload or a reconnect)',
};

/** "Primary - Active" on either unit: the role of the active one. */
function activeUnit(device: Pick<Device, 'asaFailoverState' | 'asaFailoverMate'>): string | undefined {
  for (const text of [device.asaFailoverState, device.asaFailoverMate?.failoverState]) {
    const [role, ...status] = (text ?? '').split(' - ');
    if (/^active$/i.test(status.join(' - ').trim())) return (role ?? '').trim();
  }
  return undefined;
}

export function seenOf(device: Device): Seen {
  const active = device.asaFailoverMode === 'OFF' ? undefined : activeUnit(device);
  return { ...(active ? { active } : {}), online: device.connectivityState === 'ONLINE' };
}

/** What happened between two looks, if anything that loses shuns. */
export function eventBetween(before: Seen, now: Seen): GuardEvent | undefined {
  if (before.active && now.active && before.active !== now.active) return 'failover';
  if (!before.online && now.online) return 'online';
  return undefined;
}

const Payload = z.object({
  deviceUid: z.string().min(1),
  device: z.string(),
  address: z.string().min(1),
  /** The look's number in its chain (0: the first, scheduled with the shun). */
  seq: z.number().int().nonnegative(),
  /** What the previous look saw (absent for the first: it only looks). */
  seen: Seen.optional(),
  /** A re-apply an earlier look could not make (the device could not take it then), and whether that was said. */
  owed: z.enum(EVENTS).optional(),
  told: z.boolean().optional(),
});
type Payload = z.infer<typeof Payload>;

export const shunGuard = defineTimedKind({
  kind: 'shun-guard',
  payload: Payload,
  id: (p) => `${p.deviceUid}:${p.address}#${p.seq}`,
  describe: (p) => `keep the shun of ${p.address} on ${p.device} (failover, reload, reconnect)`,
  devices: (p) => [{ uid: p.deviceUid, name: p.device }],
  async run(ctx, p) {
    const timed = ctx.op.services?.timed;
    if (!timed) return { status: 'failed', summary: 'this process cannot read the shun’s end' };
    const end = await timed.get({
      kind: shunExpiry.kind,
      profile: ctx.item.profile,
      key: shunExpiry.id({ ...p, reason: '', by: '' }),
    });
    if (end?.state !== 'scheduled')
      return { status: 'done', summary: `the shun of ${p.address} on ${p.device} has ended: watching stops` };
    const { data: device } = await ctx.op.scc.call('getDevice', { path: { deviceUid: p.deviceUid } });
    const seen = seenOf(device);
    const owed = (p.seen ? eventBetween(p.seen, seen) : undefined) ?? p.owed;
    const next = async (carry: Pick<Payload, 'owed' | 'told'> = {}) => {
      const { owed: _owed, told: _told, ...rest } = p;
      await timed.schedule(shunGuard, {
        profile: ctx.item.profile,
        at: ctx.now() + GUARD_EVERY_MS,
        owner: ctx.item.owner,
        // The thread the shun's end speaks in (it learns it once the shun's announcement is posted).
        thread: end.thread ?? ctx.item.thread,
        payload: { ...rest, ...carry, seq: p.seq + 1, seen },
      });
    };
    if (!owed) {
      await next();
      return { status: 'done', summary: 'looked: no failover, reload or reconnect' };
    }
    const why = EVENT_WORDS[owed];
    const address = addressOf(p.address);
    const target = { uid: p.deviceUid, name: p.device };
    if (end.dueAt - ctx.now() < REAPPLY_MARGIN_MS) {
      await next();
      return { status: 'done', summary: `not re-applied ${why}: the shun ends within minutes` };
    }
    const blocked = notSendable(device, p.device);
    if (blocked) {
      await next({ owed, told: true });
      if (!p.told)
        await ctx.say(
          'blocked',
          `:warning: The shun of ${code(address)} was not re-applied on ${untrusted(p.device)} ${why}: ${blocked} fwbot tries again every minute while the shun lasts.`,
        );
      return { status: 'done', summary: `not re-applied ${why}: ${blocked}` };
    }
    if (await isShunned(ctx.op, target, address)) {
      await next();
      return { status: 'done', summary: `still in place on ${p.device} ${why}` };
    }
    // The next look is scheduled before the point of no return: a run interrupted after it is settled by
    // `show shun` (below), and the chain goes on either way.
    await next();
    await ctx.committing();
    await runCliLine(ctx.op, target, shunScriptOf({ kind: 'shun', address }));
    await ctx.say(
      'reapplied',
      `:shield: shun of ${code(address)} re-applied on ${untrusted(p.device)} ${why} (\`shun\` ran at ${utcMinute(ctx.now())} UTC).`,
    );
    return { status: 'done', summary: `re-applied on ${p.device} ${why}` };
  },
  interrupted: async (ctx, p) =>
    (await isShunned(ctx.op, { uid: p.deviceUid, name: p.device }, addressOf(p.address)))
      ? 'took-effect'
      : 'not-done',
});
