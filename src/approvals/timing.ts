// When an approved call runs: at once, or held until the time asked for (`--at`) and until every device's
// change windows are open (src/model/changeWindows.ts), as the operation's target declares
// (TargetSpec.timing). A held request stays `approved`, with `runAt` on its hash and its score in
// approvals:active set to that time: the recovery pass of whichever process is alive then runs it through
// the executor's claim, so it runs once across restarts and failovers, and the executor reads the target
// again (the pending commands are still the approved ones), both people's roles and the windows right then.
// This is the one place later work of an approval is declared: no timer of its own, only Redis.
import { z } from 'zod';
import type { OperationContext, RunTiming } from '../catalogue/operation.js';
import { nextCommonOpening, windowState, windowsText, windowsZone } from '../model/changeWindows.js';
import type { RedisClient } from '../redis/connection.js';
import { runScript } from '../redis/scripts.js';
import { viewerTime } from '../render/viewerTime.js';

/** Why a request waits: the time someone asked for, or its devices' change windows. */
export const RunReason = z.enum(['explicit', 'window']);
export type RunReason = z.infer<typeof RunReason>;

/** What a held request keeps on its hash (beside ApprovalHash's fields). */
export const HeldRun = z.object({
  runAt: z.coerce.number().int(),
  runReason: RunReason,
  /** The zone its time is said in: the first policy window's, else UTC. */
  runZone: z.string(),
  /** The windows it waits for, as the card and the thread name them. */
  runWindows: z.string().default(''),
});
export type HeldRun = z.infer<typeof HeldRun>;

export type RunPlan =
  | { kind: 'run' }
  | { kind: 'hold'; held: HeldRun }
  /** Not run at all: why, in a sentence. */
  | { kind: 'refuse'; reason: string };

export async function holdRun(
  redis: RedisClient,
  keys: { request: string; active: string },
  held: HeldRun,
): Promise<boolean> {
  const reply = await runScript(
    redis,
    'approval-hold-run',
    [keys.request, keys.active],
    [held.runAt, held.runReason, held.runZone, held.runWindows],
  );
  return reply === 1;
}

const CancelHeldReply = z.tuple([z.enum(['ok', 'refused', 'missing']), z.string(), z.enum(['0', '1'])]);

export type CancelHeldResult =
  | { outcome: 'cancelled' }
  /** Not cancelled: the state it is in (`missing` when long gone), and whether it was ever held. */
  | { outcome: 'refused'; state: string; held: boolean };

export async function cancelHeld(
  redis: RedisClient,
  keys: { request: string; active: string },
  cancel: { now: number; by: string; reason: string; ttlMs: number },
): Promise<CancelHeldResult> {
  const [status, state, held] = CancelHeldReply.parse(
    await runScript(
      redis,
      'approval-cancel-held',
      [keys.request, keys.active],
      [cancel.now, cancel.by, cancel.reason, cancel.ttlMs],
    ),
  );
  if (status === 'ok') return { outcome: 'cancelled' };
  return { outcome: 'refused', state: status === 'missing' ? 'missing' : state, held: held === '1' };
}

/** The held run of a request, when it has one. */
export async function heldRun(redis: RedisClient, requestKey: string): Promise<HeldRun | undefined> {
  const [runAt, runReason, runZone, runWindows] = await redis.hmget(
    requestKey,
    'runAt',
    'runReason',
    'runZone',
    'runWindows',
  );
  if (runAt === null) return undefined;
  const parsed = HeldRun.safeParse({ runAt, runReason, runZone, runWindows: runWindows ?? '' });
  return parsed.success ? parsed.data : undefined;
}

/**
 * What to do with an approved request now. Not held yet: hold it until the time asked for, then until all
 * its devices' windows are open together (break-glass skips the windows). Held and due: run it only when
 * the windows are open now (or break-glass).
 */
export async function planRun(
  timing: RunTiming<unknown>,
  ctx: OperationContext,
  facts: unknown,
  now: number,
  held: HeldRun | undefined,
): Promise<RunPlan> {
  const breakGlass = timing.breakGlass(facts);
  const asked = timing.at(facts);
  if (held === undefined) {
    const from = Math.max(now, asked ?? now);
    if (breakGlass)
      return from > now
        ? { kind: 'hold', held: { runAt: from, runReason: 'explicit', runZone: 'UTC', runWindows: '' } }
        : { kind: 'run' };
    const devices = await timing.windows(ctx, facts);
    const opens = nextCommonOpening(
      devices.map((device) => device.windows),
      from,
    );
    if (opens === undefined)
      return {
        kind: 'refuse',
        reason: `the change windows of its devices never open together in the coming year (${windowsText(devices)})`,
      };
    if (opens <= now) return { kind: 'run' };
    return {
      kind: 'hold',
      held: {
        runAt: opens,
        runReason: asked !== undefined && opens === asked ? 'explicit' : 'window',
        runZone: windowsZone(devices),
        runWindows: windowsText(devices),
      },
    };
  }
  if (breakGlass) return { kind: 'run' };
  const devices = await timing.windows(ctx, facts);
  const closed = devices.filter((device) => !windowState(device.windows, now).open);
  if (closed.length === 0) return { kind: 'run' };
  const opens = nextCommonOpening(
    devices.map((device) => device.windows),
    now,
  );
  const next = opens === undefined ? '' : ` (next together ${viewerTime(opens, now, windowsZone(devices))})`;
  return {
    kind: 'refuse',
    reason: `the change window of ${closed.map((d) => d.device).join(', ')} is not open now${next}: ${windowsText(closed)}`,
  };
}

/**
 * The sentence a held request is said with: `Sat 22:00 Europe/Berlin, in 2 days (your time: …), when the
 * change window opens (…)`, the reader's own time filled in by Slack (render/viewerTime.ts).
 */
export function heldWhen(held: HeldRun, now: number): string {
  const when = viewerTime(held.runAt, now, held.runZone);
  if (held.runReason === 'explicit') return `${when} (the time asked for)`;
  return `${when}, when the change window opens${held.runWindows ? ` (${held.runWindows})` : ''}`;
}
