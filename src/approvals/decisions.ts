// The decisions people make on a card (approve, reject, cancel) and the one time makes (expire): who may
// make which, the atomic transition, the audit record, and the card update. Answers to the person who
// clicked come back as text; the Slack handlers deliver them privately.
import type { Logger } from 'pino';
import { workspaceOf } from '../model/workspace.js';
import { channelMention, userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import { approverCheck, approversOf, customerCheck, principalMention, stillNeeded } from './approvers.js';
import { type AuditTrail, requestTrail } from './audit.js';
import type { Authorizer } from './authorizer.js';
import { renderCard } from './card.js';
import type { ApprovalExecutor } from './executor.js';
import { eligibilityOf, fits } from './extraApprovers.js';
import type { ApprovalNotifier, CardLocation } from './notifier.js';
import type { ApprovalRecord } from './record.js';
import type { ApprovalSettings } from './settings.js';
import type { ApprovalStore, ApproverSide, Decision } from './store.js';

export interface Clicker {
  userId: string;
  /** The message the button was on: used when the card's location was never stored (a crash after posting). */
  card?: CardLocation;
  /** An external person (Slack Connect): they approve only where the channel allows external approvers. */
  external?: boolean;
}

export interface DecisionDeps {
  store: ApprovalStore;
  audit: AuditTrail;
  notifier: ApprovalNotifier;
  executor: ApprovalExecutor;
  authorizer: Authorizer;
  settings: ApprovalSettings;
  clock: () => number;
  log: Logger;
}

const EXPIRED = 'This request has expired; nothing was run.';

const STATE_WORDS: Record<string, string> = {
  approved: 'already approved',
  executing: 'already approved and running',
  done: 'already approved and done',
  failed: 'already approved (it failed)',
  rejected: 'already rejected',
  cancelled: 'cancelled',
  expired: 'expired',
  missing: 'no longer known',
};

/** The decisions a chat's buttons and forms may ask for (every check is made inside). */
export type ApprovalDecider = Pick<
  ApprovalDecisions,
  'approve' | 'mayReject' | 'reject' | 'cancel' | 'channelOf'
>;

export class ApprovalDecisions {
  readonly #deps: DecisionDeps;

  constructor(deps: DecisionDeps) {
    this.#deps = deps;
  }

  /** Approve: an approver who is not the requester. Returns what to tell the clicker, if anything. */
  async approve(id: string, who: Clicker): Promise<string | undefined> {
    const record = await this.#pending(id, who);
    if (typeof record === 'string') return record;
    const may = await this.#mayDecide(record, who, 'approve');
    if ('refusal' in may) return may.refusal;
    const lost = await this.#requesterStillMay(record, who);
    if (lost) return lost;
    // Before it counts: the re-checks before execution ask about an external approver as external.
    if (who.external === true)
      await this.#deps.store.markExternalApprover(
        id,
        who.userId,
        record.request.expiresAt,
        this.#deps.clock(),
      );
    const result = await this.#decide(record, 'approved', who, undefined, may.side);
    if (typeof result === 'string') return result;
    if ('counted' in result) return result.counted;
    if (result.expired) return EXPIRED;
    // Runs here, in the process that won the approval; a recovery pass runs it if this process dies.
    await this.#deps.executor.run(id);
    return undefined;
  }

  /** Checks before the reason modal opens, so nobody types a reason for nothing. */
  async mayReject(id: string, who: Clicker): Promise<string | undefined> {
    const record = await this.#pending(id, who);
    if (typeof record === 'string') return record;
    const may = await this.#mayDecide(record, who, 'reject');
    return 'refusal' in may ? may.refusal : undefined;
  }

  async reject(id: string, who: Clicker, reason: string | undefined): Promise<string | undefined> {
    const record = await this.#pending(id, who);
    if (typeof record === 'string') return record;
    const may = await this.#mayDecide(record, who, 'reject');
    if ('refusal' in may) return may.refusal;
    const cleaned = reason?.trim() ? this.#deps.audit.clean(reason.trim()) : undefined;
    const result = await this.#decide(record, 'rejected', who, cleaned);
    if (typeof result === 'string') return result;
    if ('counted' in result) return result.counted;
    return result.expired ? EXPIRED : undefined;
  }

  /** Cancel: the requester only. */
  async cancel(id: string, who: Clicker): Promise<string | undefined> {
    const record = await this.#pending(id, who);
    if (typeof record === 'string') return record;
    if (who.userId !== record.request.requesterId) {
      return `Only ${userMention(record.request.requesterId)}, who asked, can cancel this request.`;
    }
    const result = await this.#decide(record, 'cancelled', who);
    if (typeof result === 'string') return result;
    if ('counted' in result) return result.counted;
    return result.expired ? EXPIRED : undefined;
  }

  /**
   * Where a request's card is (or the channel it was asked in): a click from the App Home has no channel
   * of its own, so answers go there. Undefined when the request is no longer known.
   */
  async channelOf(id: string): Promise<string | undefined> {
    const record = await this.#deps.store.get(id);
    return record ? (record.cardChannel ?? record.request.channelId) : undefined;
  }

  /** Called by the sweeper for a request whose time is up; true when this call expired it. */
  async expire(id: string): Promise<boolean> {
    const record = await this.#deps.store.get(id);
    if (record?.state !== 'pending') return false;
    const result = await this.#decide(record, 'expired', { userId: 'fwbot' });
    return typeof result !== 'string' && 'expired' in result && result.expired;
  }

  /** The request if it is still pending, else what to tell the clicker (and a stale card is refreshed). */
  async #pending(id: string, who: Clicker): Promise<ApprovalRecord | string> {
    const record = await this.#deps.store.get(id);
    if (!record) return 'This approval request is no longer known; nothing was run.';
    if (record.state === 'pending') return record;
    await this.#refreshFinalCard(record, who);
    return this.#already(record.state, record.decidedBy);
  }

  #already(state: string, decidedBy: string | undefined): string {
    const by = decidedBy && decidedBy !== 'fwbot' ? ` by ${userMention(decidedBy)}` : '';
    return `This request is ${STATE_WORDS[state] ?? state}${state === 'expired' ? '' : by}.`;
  }

  /**
   * Whether this person may approve or reject it, and for a request that needs both sides, which side their
   * approval counts for; else what to tell them (and the refusal is audited).
   */
  async #mayDecide(
    record: ApprovalRecord,
    who: Clicker,
    verb: 'approve' | 'reject',
  ): Promise<{ refusal: string } | { side: ApproverSide | undefined }> {
    const { request } = record;
    const { settings, authorizer } = this.#deps;
    if (who.userId === request.requesterId) {
      if (verb === 'reject') return { refusal: 'You asked for this; use Cancel to withdraw it.' };
      // Several approvers means several people besides the requester, whatever allow_self_approval says.
      if (!settings.allowSelfApproval || (request.approvalsNeeded ?? 1) > 1) {
        await this.#refused(record, who, 'self-approval refused (four eyes)');
        return {
          refusal:
            'You asked for this, so you cannot approve it: another person with the approver role must (four eyes).',
        };
      }
    }
    if (request.extraApprovers && request.extraApprovers.length > 0) {
      const extra = await this.#extraPlace(record, who, verb);
      if (extra) return extra;
    }
    const msp = await authorizer(approverCheck(request, who.userId, who));
    const customer = await this.#customerSide(record, who);
    if (msp || customer === 'counts') {
      if (!request.customerSide) return { side: undefined };
      return { side: msp && customer === 'counts' ? 'e' : msp ? 'm' : 'c' };
    }
    if (customer === 'elsewhere') {
      await this.#refused(record, who, `${verb} refused: customer approver outside the tenant's card`);
      return {
        refusal: `You are one of the customer’s approvers (${request.customerSide?.tenant}) for this request, and they ${verb} it only on its card in ${channelMention(request.channelId)}, the tenant’s customer channel.`,
      };
    }
    await this.#refused(record, who, `${verb} refused: not an approver`);
    const customerWords = request.customerSide
      ? `, or of the customer’s approvers (${request.customerSide.principals.map(principalMention).join(', ')})`
      : '';
    return {
      refusal: request.approverRule
        ? `To ${verb} this request you must be one of its approvers (${request.approverRule.principals.map(principalMention).join(', ')}${customerWords}, set by ${request.approverRule.rules.map((rule) => `\`${rule}\``).join(', ')} in the profiles file); you are not.`
        : `To ${verb} requests you need the approver role in this channel; you do not hold it.`,
    };
  }

  /**
   * For a request with extra approvers (src/approvals/extraApprovers.ts): an extra rule's approver may
   * decide it though not a usual approver, and an approval counts only where it fills a place still open
   * (the approvers so far and this one fit the usual places and each rule's). Undefined: the usual checks
   * decide.
   */
  async #extraPlace(
    record: ApprovalRecord,
    who: Clicker,
    verb: 'approve' | 'reject',
  ): Promise<{ refusal: string } | { side: ApproverSide | undefined } | undefined> {
    const { request } = record;
    const { authorizer, store } = this.#deps;
    const mine = await eligibilityOf(request, approverCheck(request, who.userId, who), authorizer);
    if (!mine.usual && !mine.rules.some(Boolean)) return undefined;
    const side = mine.usual ? undefined : { side: request.customerSide ? ('m' as const) : undefined };
    if (verb === 'reject') return side;
    const externals = await store.externalApprovers(request.id);
    const others: Awaited<ReturnType<typeof eligibilityOf>>[] = [];
    for (const approver of approversOf(record).filter((id) => id !== who.userId))
      others.push(
        await eligibilityOf(
          request,
          approverCheck(request, approver, { external: externals.has(approver) }),
          authorizer,
        ),
      );
    if (fits(request, [...others, mine])) return side;
    await this.#refused(record, who, 'approve refused: fills no open place');
    const rules = (request.extraApprovers ?? [])
      .map((rule) => `${rule.principals.map(principalMention).join(', ')} (\`${rule.key}\`)`)
      .join('; ');
    return {
      refusal: `Your approval would fill no place still open: this request needs its usual approvers and also ${rules}, and the approvals so far with yours do not make that up.`,
    };
  }

  /**
   * Whether the clicker counts as the customer's side of a request that needs both: named among its
   * customer's approvers (the grant), and clicking on its card in the tenant's customer channel — not from
   * the App Home, and not on a copy of the card replayed in another channel.
   */
  async #customerSide(record: ApprovalRecord, who: Clicker): Promise<'counts' | 'elsewhere' | 'no'> {
    const check = customerCheck(record.request, who.userId, who);
    if (!check || !(await this.#deps.authorizer(check))) return 'no';
    const cardChannel = record.cardChannel ?? record.request.channelId;
    return who.card?.channel === cardChannel && cardChannel === record.request.channelId
      ? 'counts'
      : 'elsewhere';
  }

  /** At approval, the requester must still hold the role the request needed; if not, the request ends. */
  async #requesterStillMay(record: ApprovalRecord, who: Clicker): Promise<string | undefined> {
    const { request } = record;
    const holds = await this.#deps.authorizer({
      userId: request.requesterId,
      role: request.role,
      channelId: request.channelId,
      teamId: request.teamId,
      external: request.external,
    });
    if (holds) return undefined;
    const reason = `${userMention(request.requesterId)}, who asked, no longer holds the ${request.role} role here; nothing was run`;
    const result = await this.#decide(record, 'cancelled', { ...who, userId: 'fwbot' }, reason);
    if (typeof result === 'string') return result;
    return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}. The request is closed.`;
  }

  async #refused(record: ApprovalRecord, who: Clicker, outcome: string): Promise<void> {
    const { store, clock } = this.#deps;
    const ttl = Math.max(record.request.expiresAt - clock(), 0) + 60 * 60_000;
    if (!(await store.firstRefusal(record.request.id, who.userId, outcome, ttl))) return;
    await this.#deps.audit.record({
      actor: who.userId,
      action: 'refused',
      operationId: record.request.operationId,
      target: record.request.target.description.line,
      outcome,
      ...requestTrail(record.request),
    });
  }

  /** The transition, then its audit record and card update; a string when someone else was first. */
  async #decide(
    record: ApprovalRecord,
    decision: Decision,
    who: Clicker,
    reason?: string,
    side?: ApproverSide,
  ): Promise<{ decided: ApprovalRecord; expired: boolean } | { counted: string } | string> {
    const { store, audit, clock } = this.#deps;
    const needed = record.request.approvalsNeeded ?? 1;
    const result = await store.decide(
      record.request.id,
      decision,
      clock(),
      who.userId,
      reason,
      needed,
      // A request that needs both sides counts each approval for its side; none may be left unsided.
      record.request.customerSide ? (side ?? 'm') : undefined,
    );
    if (result.outcome === 'refused') return this.#already(result.state, result.decidedBy);
    if (result.outcome === 'again')
      return { counted: 'You have approved this already; it waits for another approver.' };
    if (result.outcome === 'partial') return this.#counted(result.record, who, result.approvers, needed);
    const decided = result.record;
    const expired = result.state === 'expired';
    await audit.record({
      actor: expired ? 'fwbot' : who.userId,
      action: result.state,
      operationId: decided.request.operationId,
      target: decided.request.target.description.line,
      outcome: expired ? 'expired without a decision; nothing was run' : (reason ?? `${result.state}`),
      ...requestTrail(decided.request),
    });
    const card = await this.#cardOf(decided, who);
    if (card) await this.#updateCard(card, decided);
    if (decision === 'rejected' && card) {
      const text = `${userMention(decided.request.requesterId)}, your request was rejected by ${userMention(who.userId)}${reason ? `: ${untrusted(reason)}` : '.'}`;
      await this.#deps.notifier
        .postInThread(card, { summary: text, blocks: [{ kind: 'text', text }], visibility: 'in_channel' })
        .catch((error: unknown) =>
          this.#deps.log.warn({ err: error }, 'could not post the rejection in the thread'),
        );
    }
    return { decided, expired };
  }

  /** One approval of several: recorded, the card says who is still needed, the request stays pending. */
  async #counted(
    record: ApprovalRecord,
    who: Clicker,
    approvers: string[],
    needed: number,
  ): Promise<{ counted: string }> {
    // Both sides: the count can be reached with one side still missing, so say who, not how many.
    const waiting =
      (record.request.customerSide && stillNeeded(record)) || `${needed - approvers.length} more`;
    await this.#deps.audit.record({
      actor: who.userId,
      action: 'approved',
      operationId: record.request.operationId,
      target: record.request.target.description.line,
      outcome: `approval ${approvers.length} of ${needed}; waiting for ${waiting}`,
      ...requestTrail(record.request),
    });
    const card = await this.#cardOf(record, who);
    if (card) await this.#updateCard(card, record);
    const more = needed - approvers.length;
    if (record.request.customerSide)
      return {
        counted: `Your approval is counted (${approvers.length} of ${needed}); it still needs ${waiting}.`,
      };
    return {
      counted: `Your approval is counted (${approvers.length} of ${needed}); it runs once ${more} more ${more === 1 ? 'approver agrees' : 'approvers agree'}.`,
    };
  }

  async #cardOf(record: ApprovalRecord, who: Clicker): Promise<CardLocation | undefined> {
    const team = workspaceOf(record.request);
    if (record.cardChannel && record.cardTs)
      return { channel: record.cardChannel, ts: record.cardTs, ...team };
    if (!who.card) return undefined;
    await this.#deps.store.attachCard(record.request.id, who.card.channel, who.card.ts);
    return { ...who.card, ...team };
  }

  async #updateCard(card: CardLocation, record: ApprovalRecord): Promise<void> {
    try {
      await this.#deps.notifier.updateCard(card, renderCard(record, this.#deps.clock()));
    } catch (error) {
      // The decision stands; a later click on the stale card refreshes it.
      this.#deps.log.warn(
        { err: error, approvalId: record.request.id },
        'could not update the approval card',
      );
    }
  }

  /** A click on a card whose request is finished means the card missed its update: show the truth. */
  async #refreshFinalCard(record: ApprovalRecord, who: Clicker): Promise<void> {
    if (record.state === 'approved' || record.state === 'executing') return;
    const card = await this.#cardOf(record, who);
    if (card) await this.#updateCard(card, record);
  }
}
