// Scheduled runs: approved requests held until their time (src/approvals/timing.ts), as
// `/fw deployments scheduled` lists them and `/fw deployments cancel` withdraws one. Who may cancel is
// decided here, from what Redis recorded (the requester and the people who approved it), never from what
// the caller says; the cancel itself is one Lua step against the claim of the run at its minute, so
// exactly one of "ran" and "cancelled" wins. A cancel leaves an audit record, updates the card and tells
// its thread.
import type { Logger } from 'pino';
import type { Operation, ScheduledRun, ScheduledRuns, TimedWork } from '../catalogue/operation.js';
import { heldRunReminder } from '../catalogue/timed/index.js';
import { UserError } from '../model/errors.js';
import { userMention } from '../render/mrkdwn.js';
import { approversOf } from './approvers.js';
import { type AuditTrail, requestTrail } from './audit.js';
import { renderCard } from './card.js';
import type { ApprovalNotifier } from './notifier.js';
import type { ApprovalRecord } from './record.js';
import type { ApprovalStore } from './store.js';
import { heldWhen } from './timing.js';

/** How many held requests a list looks at: a team holds a handful, not hundreds. */
const LIST_LIMIT = 500;

export interface ScheduledDeps {
  store: ApprovalStore;
  lookup: (operationId: string) => Operation | undefined;
  clock: () => number;
  /** Absent where nobody can be authorised to cancel (the CLI, which lists only). */
  cancelling?: { audit: AuditTrail; notifier: ApprovalNotifier; log: Logger };
  /** Where the reminder before a held run waits (the executor schedules it): a cancel withdraws it. */
  timed?: TimedWork | undefined;
}

/** Why a request that is not held any more cannot be cancelled, in a sentence. */
function notHeld(record: ApprovalRecord | undefined, id: string, now: number): string {
  if (!record)
    return `No scheduled request ${id} is known (it may have run long ago): see \`/fw deployments scheduled\`.`;
  const by = (who: string | undefined) => (who && who !== 'fwbot' ? ` by ${userMention(who)}` : '');
  switch (record.state) {
    case 'pending':
      return `Request ${id} is still waiting for approval, so it is not scheduled yet; its requester can cancel it on its card.`;
    case 'approved':
      return record.runAt === undefined
        ? `Request ${id} is not held for a later time: it runs now.`
        : `Request ${id} is due${record.runAt <= now ? ' and about to run' : ''}; it could not be cancelled.`;
    case 'executing':
      return `Request ${id} is running already; it can no longer be cancelled here (a running SCC job: \`/fw transactions cancel\`).`;
    case 'done':
    case 'failed':
      return `Request ${id} has run already (${record.state === 'done' ? 'done' : 'it failed'}); see its thread.`;
    case 'cancelled':
      return `Request ${id} was cancelled already${by(record.cancelledBy ?? record.decidedBy)}.`;
    case 'rejected':
      return `Request ${id} was rejected${by(record.decidedBy)}; nothing is scheduled.`;
    case 'expired':
      return `Request ${id} expired without a decision; nothing is scheduled.`;
  }
}

export class ScheduledDeploys implements ScheduledRuns {
  readonly #deps: ScheduledDeps;

  constructor(deps: ScheduledDeps) {
    this.#deps = deps;
  }

  async list(profile: string): Promise<ScheduledRun[]> {
    const records = await this.#deps.store.heldRecords(LIST_LIMIT);
    const now = this.#deps.clock();
    return records
      .filter((record) => record.request.profile === profile)
      .map((record) => this.#entry(record, now))
      .sort((a, b) => a.runAt - b.runAt);
  }

  async cancel(id: string, profile: string, userId: string): Promise<ScheduledRun> {
    const { store, clock } = this.#deps;
    const record = await store.get(id);
    const now = clock();
    if (
      !record ||
      record.request.profile !== profile ||
      record.state !== 'approved' ||
      record.runAt === undefined
    ) {
      // Another profile's request is as unknown here as a missing one: its ids say nothing about this one's.
      throw new UserError(notHeld(record?.request.profile === profile ? record : undefined, id, now));
    }
    const entry = this.#entry(record, now);
    const cancelling = this.#deps.cancelling;
    if (!cancelling)
      throw new UserError(
        `Only ${userMention(entry.requester)}, who asked, or whoever approved it may cancel request ${id}, and here fwbot cannot tell who you are in Slack: cancel it in Slack or the console (\`/fw deployments cancel ${id}\`).`,
      );
    const mayCancel = [entry.requester, ...entry.approvers];
    if (!mayCancel.includes(userId)) {
      const reason = 'cancel of a scheduled run refused: neither its requester nor an approver';
      if (await store.firstRefusal(id, userId, reason, Math.max(record.runAt - now, 0) + 3_600_000))
        await cancelling.audit.record({
          actor: userId,
          action: 'refused',
          operationId: record.request.operationId,
          target: record.request.target.description.line,
          outcome: reason,
          ...requestTrail(record.request),
        });
      throw new UserError(
        `Only ${mayCancel.map(userMention).join(' or ')} (who asked for it and who approved it) may cancel request ${id}.`,
      );
    }
    const result = await store.cancelHeld(
      id,
      userId,
      now,
      `cancelled by ${userId} before its scheduled time`,
    );
    if (result.outcome === 'refused') throw new UserError(notHeld(await store.get(id), id, clock()));
    await cancelling.audit.record({
      actor: userId,
      action: 'cancelled',
      operationId: record.request.operationId,
      target: record.request.target.description.line,
      outcome: `scheduled for ${new Date(entry.runAt).toISOString()}; cancelled before it ran, nothing was run`,
      ...requestTrail(record.request),
    });
    await this.#deps.timed
      ?.cancel({ kind: heldRunReminder.kind, profile, key: id }, userId, 'the scheduled run was cancelled')
      .catch((error: unknown) =>
        cancelling.log.warn(
          { err: error, approvalId: id },
          'the reminder of a cancelled run was not withdrawn',
        ),
      );
    await this.#tellCard(id, record, userId).catch((error: unknown) =>
      cancelling.log.warn(
        { err: error, approvalId: id },
        'could not update the card of a cancelled scheduled run',
      ),
    );
    return entry;
  }

  /** The card shows the cancel; its thread hears who cancelled it and that nothing ran. */
  async #tellCard(id: string, before: ApprovalRecord, userId: string): Promise<void> {
    const cancelling = this.#deps.cancelling;
    if (!cancelling || !before.cardChannel || !before.cardTs) return;
    const card = { channel: before.cardChannel, ts: before.cardTs };
    const now = this.#deps.clock();
    const after = (await this.#deps.store.get(id)) ?? {
      ...before,
      state: 'cancelled' as const,
      cancelledBy: userId,
    };
    await cancelling.notifier.updateCard(card, renderCard(after, now));
    const text = `:heavy_multiplication_x: ${userMention(before.request.requesterId)}, the scheduled run of this request was cancelled by ${userMention(userId)} before its time; nothing was run.`;
    await cancelling.notifier.postInThread(card, {
      summary: 'Scheduled run cancelled',
      blocks: [{ kind: 'text', text }],
      visibility: 'in_channel',
    });
  }

  /**
   * The break-glass reason: as the request recorded it, else as its operation's timing reads it from the
   * stored facts. Facts that no longer fit (an older fwbot stored them) leave it out rather than hide the
   * whole list.
   */
  #breakGlass(record: ApprovalRecord): string | undefined {
    const { request } = record;
    if (request.breakGlass) return request.breakGlass;
    try {
      return this.#deps.lookup(request.operationId)?.target?.timing?.breakGlass(request.target.facts);
    } catch {
      return undefined;
    }
  }

  #entry(record: ApprovalRecord, now: number): ScheduledRun {
    const { request } = record;
    const held = {
      runAt: record.runAt ?? now,
      runReason: record.runReason ?? 'window',
      runZone: record.runZone ?? 'UTC',
      runWindows: record.runWindows ?? '',
    };
    const breakGlass = this.#breakGlass(record);
    return {
      id: request.id,
      profile: request.profile,
      operationId: request.operationId,
      what: request.target.description.line,
      commandText: request.commandText,
      runAt: held.runAt,
      when: heldWhen(held, now),
      reason: held.runReason,
      requester: request.requesterId,
      approvers: approversOf(record),
      ...(request.ticket ? { ticket: request.ticket } : {}),
      ...(breakGlass ? { breakGlass } : {}),
    };
  }
}
