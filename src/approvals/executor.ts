// Runs approved requests exactly once. A process claims a request (approved → executing) in one Lua step,
// holds the claim with a renewed lease while it works, re-reads the target and compares it with what was
// approved, marks the point of no return (`phase = calling`) only while it still holds the claim, then
// calls SCC. A recovery pass takes over requests whose holder died: before the point of no return it simply
// runs them; after it, the re-read tells whether the call took effect (the target is gone) or not. An
// operation that declares a queue is not called here: once approved it is handed to its queue (in the card's
// thread, under the approval's id, so handing it over again queues nothing twice), whose worker checks both
// people's roles and the target again right before the call. It is one concern at its length: the steps of
// one exactly-once execution (claim, hold for its time, re-check, call, finish, recover) share the claim and
// its lease, and are read in the order they happen.
import type { Logger } from 'pino';
import { heldSentence } from '../catalogue/deviceHolds.js';
import {
  type ErasedQueue,
  type Operation,
  type OperationContext,
  type OperationPolicy,
  type OperationServices,
  sccIdOf,
} from '../catalogue/operation.js';
import { operationContext } from '../dispatch/context.js';
import { REVEAL_ACTION } from '../dispatch/dispatcher.js';
import { holdForRun } from '../dispatch/holds.js';
import { handOnLater, type OperationQueue, type SccClients, type Tracker } from '../dispatch/ports.js';
import type { RevealGrants } from '../dispatch/reveals.js';
import { readTargetAgain } from '../dispatch/target.js';
import { UserError } from '../model/errors.js';
import type { View, ViewBlock } from '../model/view.js';
import { workspaceOf } from '../model/workspace.js';
import { type KeptLease, keepLease } from '../redis/lease.js';
import { userMention } from '../render/mrkdwn.js';
import { SccError } from '../scc/errors.js';
import {
  approverCheck,
  approversOf,
  grantsToRecheck,
  sideStillHeld,
  sidesCovered,
  stillNeeded,
} from './approvers.js';
import { type AuditAction, type AuditTrail, requestTrail } from './audit.js';
import type { Authorizer } from './authorizer.js';
import { renderCard } from './card.js';
import { HeldBack, holdBack, settleOwnHold } from './deviceHolds.js';
import { type Eligibility, eligibilityOf, fits } from './extraApprovers.js';
import type { ApprovalNotifier } from './notifier.js';
import type { ApprovalRecord, ExecutionOutcome } from './record.js';
import { remindBefore } from './reminder.js';
import type { ApprovalStore } from './store.js';
import { type HeldRun, heldWhen, planRun, type RunPlan } from './timing.js';

export interface ExecutorDeps {
  store: ApprovalStore;
  audit: AuditTrail;
  notifier: ApprovalNotifier;
  clients: SccClients;
  lookup: (operationId: string) => Operation | undefined;
  tracker: Tracker;
  /** Roles are checked again right before anything is sent to SCC (also after a restart). */
  authorizer: Authorizer;
  /** Approved secret-producing calls become a Reveal button for the requester (src/dispatch/reveals.ts). */
  reveals: RevealGrants;
  /** What the policy file decides for some operations, as the dispatcher passes it at request time. */
  policy?: OperationPolicy;
  /** The Redis-backed services operations use, as the dispatcher passes them (e.g. who staged what). */
  services?: OperationServices;
  /** Takes approved calls of operations that declare a queue; without it they run here, at once. */
  queue?: OperationQueue | undefined;
  clock: () => number;
  leaseMs: number;
  /** Identifies this process in claims, so a takeover fences the previous holder out. */
  executorId: string;
  log: Logger;
}

interface Result {
  state: 'done' | 'failed';
  action: AuditAction;
  outcome: ExecutionOutcome;
  /** What the audit trail keeps: the summary, and for a failure why (what changed, SCC's words). */
  note: string;
}

/** Thrown when another process took the claim over: this one must stop without touching anything. */
class ClaimLost extends Error {}

function failure(summary: string, detail: string, action: AuditAction = 'failed'): Result {
  const view: View = {
    summary,
    blocks: [{ kind: 'text', text: `:x: ${summary}\n${detail}` }],
    visibility: 'in_channel',
  };
  return {
    state: 'failed',
    action,
    outcome: { summary, view, track: [] },
    note: `${summary} ${detail}`,
  };
}

function success(
  summary: string,
  view: View,
  track: ExecutionOutcome['track'],
  timed?: ExecutionOutcome['timed'],
): Result {
  const outcome = { summary, view, track, ...(timed && timed.length > 0 ? { timed } : {}) };
  return { state: 'done', action: 'executed', outcome, note: summary };
}

/** A sentence a user may read: SCC's and our own refusals as they are, anything else as a reference. */
function userFacing(error: unknown, reference: string): string {
  if (error instanceof UserError) return error.message;
  if (error instanceof SccError) return error.userMessage();
  return `An internal error stopped it (reference ${reference}).`;
}

export class ApprovalExecutor {
  readonly #deps: ExecutorDeps;

  constructor(deps: ExecutorDeps) {
    this.#deps = deps;
  }

  /** Claims and runs one approved request; does nothing when another process has it. */
  async run(id: string): Promise<void> {
    const { store, clock, leaseMs, executorId, log } = this.#deps;
    const timing = await this.#timing(id);
    if (timing.kind === 'hold') return;
    const claim = await store.claim(id, executorId, clock(), leaseMs);
    if (!claim.claimed) return;
    const record = await store.get(id);
    if (!record) return;
    const lease = this.#holdLease(id);
    let result: Result;
    try {
      result =
        timing.kind === 'refuse'
          ? failure('Nothing was deployed: it is outside its change window.', `${timing.reason}.`, 'aborted')
          : await this.#execute(record, claim.previousPhase, lease.lost);
    } catch (error) {
      if (error instanceof ClaimLost) {
        log.warn({ approvalId: id }, 'another process took this approval over; stopping without calling SCC');
        return;
      }
      if (error instanceof HeldBack) {
        await holdBack(this.#deps, record, error.hold);
        return;
      }
      log.error({ err: error, approvalId: id }, 'approved request failed');
      result = failure('It failed before reaching SCC.', userFacing(error, id));
    } finally {
      lease.stop();
    }
    // A call of another holder's work took no hold of its own: that work ends its hold.
    if (record.request.holder === undefined) {
      const operation = this.#deps.lookup(record.request.operationId);
      await settleOwnHold(this.#deps.services, operation, id, result.outcome.track, clock(), log);
    }
    const finished = await store.finish(id, executorId, result.state, result.outcome, clock(), leaseMs);
    if (!finished) return;
    await this.#deps.audit.record({
      actor: record.decidedBy ?? 'fwbot',
      action: result.action,
      operationId: record.request.operationId,
      target: record.request.target.description.line,
      outcome: result.note,
      ...requestTrail(record.request),
      transactionUid: result.outcome.track.map(sccIdOf).find((uid) => uid !== undefined),
    });
    try {
      await this.notify(id);
    } catch (error) {
      // The execution stands; the outcome waits in Redis and a recovery pass posts it.
      log.warn({ err: error, approvalId: id }, 'could not report an approval outcome yet; recovery retries');
    }
  }

  /**
   * Whether an approved request runs now, waits (held until its time: the recovery pass of any process runs
   * it then), or is refused (held, due, and its windows are closed). Only operations that declare a timing
   * (TargetSpec.timing) ever wait; an execution already under way is never held again.
   */
  async #timing(id: string): Promise<RunPlan> {
    const { store, clock, log } = this.#deps;
    const record = await store.get(id);
    const timing = record && this.#deps.lookup(record.request.operationId)?.target?.timing;
    if (record?.state !== 'approved' || !timing) return { kind: 'run' };
    const now = clock();
    const held = await store.heldRun(id);
    if (held && held.runAt > now) return { kind: 'hold', held };
    const plan = await planRun(timing, this.#context(record), record.request.target.facts, now, held);
    if (plan.kind !== 'hold') return plan;
    if (!(await store.holdRun(id, plan.held))) return { kind: 'hold', held: plan.held };
    log.info({ approvalId: id, runAt: plan.held.runAt }, 'approved request held until its time');
    await this.#announceHeld(record, plan.held).catch((error: unknown) =>
      log.warn({ err: error, approvalId: id }, 'could not say in the thread when the request runs'),
    );
    return plan;
  }

  /** The card says when, the thread says what will be checked then, the audit trail records the hold. */
  async #announceHeld(record: ApprovalRecord, held: HeldRun): Promise<void> {
    const { request } = record;
    const now = this.#deps.clock();
    const when = heldWhen(held, now);
    await this.#deps.audit.record({
      actor: record.decidedBy ?? 'fwbot',
      action: 'scheduled',
      operationId: request.operationId,
      target: request.target.description.line,
      outcome: `held until ${new Date(held.runAt).toISOString()} (${held.runReason === 'explicit' ? 'the time asked for' : 'change window'})`,
      ...requestTrail(request),
    });
    if (!record.cardChannel || !record.cardTs) return;
    const card = { channel: record.cardChannel, ts: record.cardTs, ...workspaceOf(request) };
    // Before the thread hears of the hold, so that a cancel it prompts finds the reminder to withdraw.
    await remindBefore(this.#deps, record, held, card, now);
    const text = `:calendar: Approved; scheduled for ${when}. Then fwbot checks again that the pending commands are still the approved ones, that ${userMention(request.requesterId)} and the approver still hold their roles, and that the change window is open; if anything differs, nothing is deployed and this thread says why. Whichever fwbot process is running then deploys it, once.`;
    await this.#deps.notifier.postInThread(card, {
      summary: `Scheduled for ${when}`,
      blocks: [{ kind: 'text', text }],
      visibility: 'in_channel',
    });
    await this.#deps.notifier.updateCard(card, renderCard({ ...record, ...held }, now));
  }

  #context(record: ApprovalRecord, approval?: OperationContext['approval']): OperationContext {
    const { request } = record;
    return operationContext(
      {
        scc: this.#deps.clients,
        services: this.#deps.services,
        policy: this.#deps.policy,
        clock: this.#deps.clock,
      },
      {
        requestId: request.id,
        actor: { userId: request.requesterId, channelId: request.channelId, teamId: request.teamId },
        log: this.#deps.log.child({ approvalId: request.id, operationId: request.operationId }),
      },
      request.profile,
      record.decidedBy,
      approval,
    );
  }

  /** Renews the claim while the work runs; `lost()` says whether a renewal was refused. */
  #holdLease(id: string): KeptLease {
    const { store, clock, leaseMs, executorId, log } = this.#deps;
    return keepLease(
      () => store.hold(id, executorId, clock(), leaseMs),
      leaseMs,
      (error) => log.warn({ err: error, approvalId: id }, 'could not renew the execution lease'),
    );
  }

  async #execute(
    record: ApprovalRecord,
    previousPhase: 'checking' | 'calling' | undefined,
    lost: () => boolean,
  ) {
    const { request } = record;
    const { store, clock, leaseMs, executorId } = this.#deps;
    const operation = this.#deps.lookup(request.operationId);
    if (!operation)
      return failure('Nothing was run.', `This fwbot no longer knows the operation ${request.operationId}.`);
    const lostRole = await this.#rolesLost(record);
    if (lostRole) return failure('Nothing was run: a role changed since the request.', lostRole, 'aborted');
    const queued = this.#deps.queue && operation.queue;
    // Handed over before this process died: handing it over again queues nothing twice.
    if (queued && previousPhase === 'calling')
      return this.#handOver(record, operation, queued, request.target.facts, lost);
    const ctx = this.#context(record, {
      ...(record.cardChannel && record.cardTs
        ? {
            thread: {
              channelId: record.cardChannel,
              threadTs: record.cardTs,
              requesterId: request.requesterId,
              profile: request.profile,
              ...workspaceOf(request),
            },
          }
        : {}),
      people: grantsToRecheck(record, await store.externalApprovers(request.id)),
    });
    // A device hold begun since the approval, or this call's own (a deploy's), before the target is read
    // again: nothing staged after the read can then slip into the call.
    const held = await holdForRun(
      operation,
      ctx,
      request.raw,
      request.target.facts,
      {
        id: request.id,
        requesterId: request.requesterId,
        ...(record.cardChannel && record.cardTs
          ? { channelId: record.cardChannel, threadTs: record.cardTs }
          : {}),
      },
      request.holder,
    );
    if (!held.ok && held.meets === 'wait') throw new HeldBack(held.hold);
    if (!held.ok)
      return failure(
        'Nothing was run: a device it changes is held for another change.',
        heldSentence(held.hold, 'nothing was run. Ask again once it ends.'),
        'aborted',
      );
    let read: Awaited<ReturnType<typeof readTargetAgain>>;
    try {
      read = await readTargetAgain(operation, ctx, request.target.facts);
    } catch (error) {
      const why = userFacing(error, request.id);
      return failure('Nothing was run: the target could not be read again.', why, 'aborted');
    }
    if (previousPhase === 'calling') {
      // A process died after it may have sent the call. For an operation that removes its target, a target
      // that is gone means the call took effect; for any other, sending it again could run it twice, so a
      // person looks first.
      if (!read.ok && read.gone && operation.target?.removes) {
        const view: View = {
          summary: 'Done (completed before fwbot restarted).',
          blocks: [
            {
              kind: 'text',
              text: `:white_check_mark: Done: ${read.reason}; the call sent before fwbot restarted took effect.`,
            },
          ],
          visibility: 'in_channel',
        };
        return success(view.summary, view, []);
      }
      if (!operation.target?.removes) {
        // An operation that can find its own effect in SCC (a deploy's run) reports it and follows it.
        const found = await operation.target
          ?.interrupted?.(ctx, request.target.facts)
          .catch((error: unknown) => {
            ctx.log.warn({ err: error }, 'could not look for the interrupted call’s effect in SCC');
            return undefined;
          });
        if (found) return success(found.view.summary, found.view, found.track);
        return failure(
          'Not run again: fwbot restarted while sending it.',
          `Check in SCC whether it happened (${request.target.description.line}), then ask again if it did not.`,
        );
      }
    }
    if (!read.ok && read.gone) {
      return failure(`Nothing was run: ${read.reason}.`, 'The approved target is gone.', 'aborted');
    }
    if (!read.ok) {
      return failure(
        'Nothing was run: the target changed since the request.',
        `What changed:\n${read.changes.map((c) => `• ${c}`).join('\n')}\nAsk again if it should still go.`,
        'aborted',
      );
    }
    if (operation.revealsSecret) return this.#grantReveal(record, read.facts);
    if (queued) return this.#handOver(record, operation, queued, read.facts, lost);
    // The point of no return: only while this process still holds the claim.
    if (lost() || !(await store.hold(request.id, executorId, clock(), leaseMs, 'calling')))
      throw new ClaimLost();
    try {
      const outcome = await operation.execute(ctx, request.raw, read.facts);
      // Secret views are for the requester's eyes in a modal; an approval has no modal to show them in.
      if (outcome.secretView) ctx.log.warn('an approved operation returned a secret view; it was not shown');
      return success(outcome.view.summary, outcome.view, outcome.track, outcome.timed);
    } catch (error) {
      ctx.log.error({ err: error }, 'approved operation failed');
      return failure('SCC refused or failed it.', userFacing(error, request.id));
    }
  }

  /**
   * Both people must still hold their roles right before anything reaches SCC: the requester the role the
   * request needed, the approver `approver`. A sentence saying who lost what, or undefined.
   */
  async #rolesLost(record: ApprovalRecord): Promise<string | undefined> {
    const { request } = record;
    const where = { channelId: request.channelId, teamId: request.teamId, external: request.external };
    const requester = await this.#deps.authorizer({
      userId: request.requesterId,
      role: request.role,
      ...where,
    });
    if (!requester)
      return `${userMention(request.requesterId)}, who asked, no longer holds the ${request.role} role here.`;
    // Every approver of a multi-approver request, each against the rule that let them approve, and an
    // external person (Slack Connect) as external: only the channel's external grants count for them.
    const externals = await this.#deps.store.externalApprovers(request.id);
    let held = '';
    const extra = request.extraApprovers && request.extraApprovers.length > 0;
    const places: Eligibility[] = [];
    for (const approver of approversOf(record)) {
      const origin = { external: externals.has(approver) };
      if (extra)
        places.push(
          await eligibilityOf(request, approverCheck(request, approver, origin), this.#deps.authorizer),
        );
      const side = await sideStillHeld(record, approver, origin, this.#deps.authorizer);
      if (side !== undefined) {
        held += side;
        continue;
      }
      // An extra rule's approver need not be a usual approver (src/approvals/extraApprovers.ts).
      if (extra && places.at(-1)?.rules.some(Boolean)) {
        held += 'm';
        continue;
      }
      return request.approverRule
        ? `${userMention(approver)}, who approved, is no longer one of this request’s approvers.`
        : `${userMention(approver)}, who approved, no longer holds the approver role here.`;
    }
    if (extra && !fits(request, places))
      return `The approvals no longer fill the places of ${(request.extraApprovers ?? []).map((rule) => `\`${rule.key}\``).join(', ')} besides the usual approvers.`;
    // Both sides (customer_approvers): each approver still stands, but for the sides they were counted for.
    if (request.customerSide && sidesCovered(held) !== 'both')
      return `The approvals no longer include ${stillNeeded({ ...record, approverSides: held }) ?? 'both sides'}.`;
    return undefined;
  }

  /**
   * An approved call of a queued operation: its declared key held under the approval's id, then queued in
   * the card's thread (the point of no return, marked first). The queue's worker records how it ends.
   */
  async #handOver(
    record: ApprovalRecord,
    operation: Operation,
    queue: ErasedQueue,
    facts: unknown,
    lost: () => boolean,
  ): Promise<Result> {
    const { request } = record;
    const { store, clock, leaseMs, executorId } = this.#deps;
    const approver = record.decidedBy;
    if (!record.cardChannel || !record.cardTs || !approver)
      return failure('Nothing was run.', 'fwbot lost the card whose thread its queue reports in; ask again.');
    const handOver = this.#deps.queue;
    if (!handOver) throw new Error(`${operation.id} was handed over without a queue`);
    const reserved = await handOver.reserve(operation, request.profile, request.raw, request.id);
    if (!reserved)
      return failure('Nothing was run.', queue.key(request.raw)?.taken ?? 'It is queued already.', 'aborted');
    if (lost() || !(await store.hold(request.id, executorId, clock(), leaseMs, 'calling')))
      throw new ClaimLost();
    const externals = await store.externalApprovers(request.id);
    const { place } = await handOver.enqueue(operation, {
      raw: request.raw,
      requester: {
        userId: request.requesterId,
        channelId: request.channelId,
        ...workspaceOf(request),
        ...(request.external === true ? { external: true } : {}),
      },
      thread: {
        channelId: record.cardChannel,
        threadTs: record.cardTs,
        requesterId: request.requesterId,
        profile: request.profile,
        ...workspaceOf(request),
      },
      requestId: request.id,
      target: { facts, line: request.target.description.line },
      approval: {
        id: request.id,
        approvedBy: approver,
        ...(externals.has(approver) ? { external: true } : {}),
      },
      audited: 'approved',
    });
    const words = queue.words(request.raw);
    const summary = `Queued: ${words.pace}; this thread says when it starts and how it ends.`;
    const view: View = {
      summary,
      blocks: [
        {
          kind: 'text',
          text: `:inbox_tray: Approved and queued (place ${place}): ${words.pace}, so ${words.call} waits its turn. This thread says when it starts and how it ends.`,
        },
      ],
      visibility: 'in_channel',
    };
    return { state: 'done', action: 'queued', outcome: { summary, view, track: [] }, note: summary };
  }

  /** An approved secret: no SCC call yet; the requester gets a Reveal button in the thread, used once. */
  async #grantReveal(record: ApprovalRecord, facts: unknown): Promise<Result> {
    const { request } = record;
    const grantId = await this.#deps.reveals.create({
      operationId: request.operationId,
      raw: request.raw,
      profile: request.profile,
      requesterId: request.requesterId,
      channelId: request.channelId,
      ...workspaceOf(request),
      facts,
      approvalId: request.id,
      ...(record.decidedBy ? { approvedBy: record.decidedBy } : {}),
      ...(request.external === true ? { external: true } : {}),
      ...(record.decidedBy && (await this.#deps.store.externalApprovers(request.id)).has(record.decidedBy)
        ? { approverExternal: true }
        : {}),
    });
    const summary = 'Approved: the requester can reveal it once.';
    const view: View = {
      summary,
      blocks: [
        {
          kind: 'text',
          text: `${userMention(request.requesterId)}, press Reveal to see it once, privately; only you can. The button works for 15 minutes.`,
        },
        {
          kind: 'actions',
          buttons: [
            { label: 'Reveal token', style: 'primary', action: { id: REVEAL_ACTION, value: grantId } },
          ],
        },
      ],
      visibility: 'in_channel',
    };
    return success(summary, view, []);
  }

  /**
   * Posts the outcome in the card's thread, updates the card and hands 202s to the tracker, once. Each step
   * is marked done in Redis as it completes, so a retry after a crash or a Slack outage repeats none.
   */
  async notify(id: string): Promise<void> {
    const { store, clock, leaseMs, notifier, tracker } = this.#deps;
    if (!(await store.claimNotice(id, clock(), leaseMs))) return;
    const record = await store.get(id);
    const outcome = record?.outcome;
    if (!record || !outcome) return;
    const { request } = record;
    let card =
      record.cardChannel && record.cardTs
        ? { channel: record.cardChannel, ts: record.cardTs, ...workspaceOf(request) }
        : undefined;
    const headline: ViewBlock = {
      kind: 'context',
      text: `${userMention(request.requesterId)} asked, ${approversOf(record).map(userMention).join(' and ') || userMention(record.decidedBy ?? 'someone')} approved · request ${request.id}`,
    };
    const view: View = {
      ...outcome.view,
      blocks: [...outcome.view.blocks, headline],
      visibility: 'in_channel',
    };
    if (!card) {
      // The card's location was lost (a crash right after posting it): the outcome becomes the thread's start.
      card = await notifier.postCard(request.channelId, view, workspaceOf(request));
      await store.attachCard(id, card.channel, card.ts);
      await store.markNoticeStep(id, 'threadPosted');
    } else if (!record.threadPosted) {
      await notifier.postInThread(card, view);
      await store.markNoticeStep(id, 'threadPosted');
    }
    if (!record.cardUpdated) {
      await notifier.updateCard(card, renderCard(record, clock()));
      await store.markNoticeStep(id, 'cardUpdated');
    }
    if (!record.tracked) {
      const thread = {
        channelId: card.channel,
        threadTs: card.ts,
        requesterId: request.requesterId,
        profile: request.profile,
        ...workspaceOf(request),
        // A Cancel… of the work this approved call started is four-eyes too (catalogue/transactions.ts).
        approvedBy: approversOf(record),
        ...(request.ticket ? { ticket: request.ticket } : {}),
      };
      await handOnLater(tracker, outcome, thread);
      await store.markNoticeStep(id, 'tracked');
    }
    await store.noticed(id);
  }

  /** One recovery pass: approved requests nobody ran, executions whose process died, unposted outcomes. */
  async recover(limit = 100): Promise<number> {
    const { store, clock, log } = this.#deps;
    const ids = await store.dueForRecovery(clock(), limit);
    for (const id of ids) {
      try {
        const record = await store.get(id);
        if (record?.state === 'approved' || record?.state === 'executing') await this.run(id);
        else if (record?.state === 'done' || record?.state === 'failed') await this.notify(id);
      } catch (error) {
        log.error({ err: error, approvalId: id }, 'recovery of an approval failed; the next pass retries');
      }
    }
    return ids.length;
  }
}
