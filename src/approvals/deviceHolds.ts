// What the approvals' executor does about device holds (src/catalogue/deviceHolds.ts), around the one rule
// of src/dispatch/holds.ts: right before an approved call runs it takes its own hold or meets another's;
// a call whose devices are held by work that lets others wait is held back (approved again, tried by a
// later recovery pass, its thread told once), one held by work that refuses others fails; and once the
// call ran, its own hold is handed to the work it started (its followed run releases it) or released.
import type { Logger } from 'pino';
import { type DeviceHold, heldSentence, holdKindOf } from '../catalogue/deviceHolds.js';
import type { Operation, OperationServices, TrackRequest } from '../catalogue/operation.js';
import { holderOf } from '../follow/index.js';
import { workspaceOf } from '../model/workspace.js';
import { userMention } from '../render/mrkdwn.js';
import type { ApprovalNotifier } from './notifier.js';
import type { ApprovalRecord } from './record.js';
import type { ApprovalStore } from './store.js';

/** How long an approved call held back by a device hold waits before it is tried again. */
export const HELD_BACK_RETRY_MS = 60_000;

/** Thrown inside an execution held back by a device hold whose kind lets it wait. */
export class HeldBack extends Error {
  constructor(readonly hold: DeviceHold) {
    super(`held back by ${hold.holder.kind} ${hold.holder.id}`);
  }
}

export interface HeldBackDeps {
  store: ApprovalStore;
  notifier: ApprovalNotifier;
  clock: () => number;
  executorId: string;
  log: Logger;
}

/**
 * The request goes back to approved and is tried again in a minute, whichever process passes then; its
 * thread hears once per hold that it waits, and why.
 */
export async function holdBack(deps: HeldBackDeps, record: ApprovalRecord, hold: DeviceHold): Promise<void> {
  const { store, clock, executorId, log } = deps;
  const { request } = record;
  const now = clock();
  if (!(await store.postpone(request.id, executorId, now, now + HELD_BACK_RETRY_MS))) return;
  log.info({ approvalId: request.id, holder: hold.holder.id }, 'approved request held back by a device hold');
  const firstTime = await store.firstTime(request.id, `held:${hold.holder.id}`, hold.until - now + 60_000);
  if (!firstTime || !record.cardChannel || !record.cardTs) return;
  const card = { channel: record.cardChannel, ts: record.cardTs, ...workspaceOf(request) };
  const text = `:hourglass_flowing_sand: ${userMention(request.requesterId)}, this request waits: ${heldSentence(hold, 'it runs once that ends (fwbot tries again every minute), after the same checks as before.')}`;
  await deps.notifier
    .postInThread(card, {
      summary: 'Waiting for a device hold to end',
      blocks: [{ kind: 'text', text }],
      visibility: 'in_channel',
    })
    .catch((error: unknown) =>
      log.warn({ err: error, approvalId: request.id }, 'could not say that it waits'),
    );
}

/**
 * After the call of an operation that holds its devices: the hold lasts as long as the work the call
 * started, when that work releases it at its end (a deploy's run), renewed from now, never shortened (an
 * upgrade that left its devices' upgrade for their window extended it to then); otherwise it ends now.
 * A failure is logged: the hold lapses at its `until` anyway.
 */
export async function settleOwnHold(
  services: OperationServices | undefined,
  operation: Operation | undefined,
  requestId: string,
  track: readonly TrackRequest[],
  now: number,
  log: Logger,
): Promise<void> {
  const holds = services?.holds;
  const own = operation?.changes?.hold;
  if (!holds || !own) return;
  try {
    const kind = holdKindOf(own.kind);
    if (kind && track.some((request) => holderOf(request) === requestId)) {
      const until = (await holds.list(now))
        .filter((hold) => hold.holder.id === requestId)
        .reduce((latest, hold) => Math.max(latest, hold.until), now + kind.maxMs);
      await holds.extend(requestId, until);
    } else await holds.release(requestId);
  } catch (error) {
    log.warn({ err: error, approvalId: requestId }, 'device holds not settled after the call');
  }
}
