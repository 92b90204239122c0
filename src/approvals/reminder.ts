// The reminder before a held run (src/catalogue/timed/heldRunReminder.ts), as the approvals' executor
// schedules it when it holds an approved request an hour or more ahead: in the card's thread, fifteen minutes
// before, with the grants the run will check (the requester's role, each approver's side).
import type { OperationServices } from '../catalogue/operation.js';
import { heldRunReminder, REMIND_BEFORE_MS, REMIND_IF_AHEAD_MS } from '../catalogue/timed/index.js';
import { workspaceOf } from '../model/workspace.js';
import { grantsToRecheck } from './approvers.js';
import type { ApprovalRecord } from './record.js';
import type { ApprovalStore } from './store.js';
import type { HeldRun } from './timing.js';

export async function remindBefore(
  deps: { services?: OperationServices | undefined; store: ApprovalStore },
  record: ApprovalRecord,
  held: HeldRun,
  card: { channel: string; ts: string },
  now: number,
): Promise<void> {
  const timed = deps.services?.timed;
  if (!timed || held.runAt - now < REMIND_IF_AHEAD_MS) return;
  const { request } = record;
  const externals = await deps.store.externalApprovers(request.id);
  await timed.schedule(heldRunReminder, {
    profile: request.profile,
    at: held.runAt - REMIND_BEFORE_MS,
    owner: request.requesterId,
    thread: {
      channelId: card.channel,
      threadTs: card.ts,
      requesterId: request.requesterId,
      profile: request.profile,
      ...workspaceOf(request),
    },
    payload: {
      requestId: request.id,
      what: request.target.description.line,
      runAt: held.runAt,
      zone: held.runZone,
      people: grantsToRecheck(record, externals),
    },
  });
}
