// The one place where an operation's declaration is applied (src/catalogue/operation.ts), for every
// surface: Slack, the console and the CLI hand it an invocation and deliver what it returns. In order:
// the entry (a button or form may reach only what the declaration allows), the role (in this channel, and
// in the other channel an operation acts on), the arguments, then the operation's fate: a second person's
// approval, a reveal offered privately, a queue, or a run — audited where the declaration or the policy
// says so — unless a device the call changes is held for a change in progress (holds.ts). Refusals are
// thrown as the errors src/dispatch/errors.ts turns into sentences. Its length is the point: every step of
// a call's fate, and the Reveal click that completes one, in one place and in order.
import type { Logger } from 'pino';
import {
  type Actor,
  type ArgIssue,
  type Entry,
  type ErasedQueue,
  type Operation,
  type OperationContext,
  type OperationPolicy,
  type OperationServices,
  type Outcome,
  type RawArgs,
  sccIdOf,
  type TargetDescription,
} from '../catalogue/operation.js';
import { checkTicket } from '../catalogue/tickets.js';
import { COMMAND, usageLine } from '../catalogue/usage.js';
import { PermissionError, UsageError, UserError } from '../model/errors.js';
import type { Button, View } from '../model/view.js';
import { workspaceOf } from '../model/workspace.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import { type Access, type AccessControl, originOf } from '../policy/access.js';
import { channelMention, userMention } from '../render/mrkdwn.js';
import { SccError } from '../scc/errors.js';
import { type ButtonForm, buttonFormOf, requiredByPolicy } from './buttons.js';
import { CREDENTIAL_REFUSAL, containsCredential, redactCommandText } from './commandSecrets.js';
import { operationContext } from './context.js';
import { FOUR_EYES, type Governance, NONE } from './governance.js';
import { refuseIfHeld } from './holds.js';
import type {
  ApprovalGate,
  AuditSink,
  CommandHistory,
  CommandRecord,
  OperationQueue,
  QueuedPlace,
  SccClients,
  ThreadRef,
} from './ports.js';
import type { RequestContext } from './request.js';
import type { RevealGrant, RevealGrants } from './reveals.js';
import { readTargetAgain } from './target.js';
import { callInScope } from './tenancy.js';

/** The action id of a Reveal button; its value is a grant id, nothing else. */
export const REVEAL_ACTION = 'fw.reveal';

export interface Invocation {
  op: Operation;
  raw: RawArgs;
  /** What the user typed (or the equivalent command line), for approvals, audit and logs. */
  commandText: string;
  /** `--profile NAME`, an admin's choice of another profile than the channel's. */
  profileOverride?: string | undefined;
  /** How the call arrived: a typed command, a form, a paging or share button. */
  entry: Entry;
  /** The CLI's `--yes`: a governed call runs when the surface has no approvers (see DispatcherDeps). */
  confirmed?: boolean;
  /**
   * The id of the device holds this call belongs to (the work that took them, e.g. an access request's
   * own deploy): set by fwbot's code for its own later calls, never from what was typed. Its holds do not
   * stop it (src/dispatch/holds.ts).
   */
  holder?: string;
}

export type Dispatched =
  /** It ran: show the view (privately, or announced and followed when it changed something). */
  | { kind: 'outcome'; outcome: Outcome; profile: string }
  /** A card was posted; someone else decides. */
  | { kind: 'approval'; approvalId: string }
  /** Offer this view privately: its button reveals the secret once (`dispatcher.reveal`). */
  | { kind: 'reveal'; view: View; grantId: string }
  /** Announce this view, then hand the request to the queue with the announcement as its thread. */
  | {
      kind: 'queued';
      announcement: View;
      profile: string;
      enqueue(thread: ThreadRef): Promise<QueuedPlace>;
    }
  /** The CLI without `--yes`: nothing ran; this is what would happen. */
  | { kind: 'confirm'; description: TargetDescription };

export interface Revealed {
  /** Shown once, in a modal or on the terminal; never posted, logged or stored. */
  secretView: View;
  /** What the channel may learn (that a token was made), and what to follow. */
  outcome: Outcome;
  profile: string;
}

export interface DispatcherDeps {
  access: AccessControl;
  scc: SccClients;
  /** The catalogue's registry: a grant or an approval names an operation by id. */
  lookup: (operationId: string) => Operation | undefined;
  /** The approval rule of each operation in this deployment (src/dispatch/governance.ts). */
  governance: (op: Operation) => Governance;
  /**
   * Takes four-eyes calls. Without it (the CLI: one person, their own SCC token) a governed call says what
   * it would do and runs only when the invocation is `confirmed`.
   */
  approvals?: ApprovalGate;
  reveals: RevealGrants;
  audit?: AuditSink;
  /** Takes calls of operations that declare a queue; without it (the CLI) they run at once. */
  queue?: OperationQueue;
  services?: OperationServices;
  /** What the policy file decides for some operations (e.g. deploying an approved deletion with it). */
  policy?: OperationPolicy;
  metrics?: FwbotMetrics;
  /** Notes how each typed or form command ended, per person (the App Home's "last commands"). */
  history?: CommandHistory;
  /**
   * The clock operations read (OperationContext.now): the approvals' executor's own, so what a card says of
   * time (a window open now, when `--at` is) is what the executor then does. Default: the machine's.
   */
  clock?: () => number;
  log: Logger;
}

/** Entries that are a person's command (paging, sharing and buttons are not new commands). */
const NOTED_ENTRIES: ReadonlySet<Entry> = new Set(['command', 'form']);

function fateOf(dispatched: Dispatched): Pick<CommandRecord, 'outcome' | 'detail'> {
  switch (dispatched.kind) {
    case 'outcome':
      return { outcome: 'ran', detail: dispatched.outcome.view.summary };
    case 'approval':
      return { outcome: 'approval', detail: `request ${dispatched.approvalId}` };
    case 'reveal':
      return { outcome: 'reveal', detail: dispatched.view.summary };
    case 'queued':
      return { outcome: 'queued', detail: dispatched.announcement.summary };
    case 'confirm':
      return { outcome: 'confirm', detail: dispatched.description.line };
  }
}

/** A refusal or failure in a line a person may read (internal errors are not described). */
function failureOf(error: unknown): Pick<CommandRecord, 'outcome' | 'detail'> {
  if (error instanceof PermissionError) return { outcome: 'refused', detail: error.message };
  if (error instanceof UserError) return { outcome: 'failed', detail: error.message };
  if (error instanceof SccError && error.safeForUser)
    return { outcome: 'failed', detail: error.userMessage() };
  return { outcome: 'failed', detail: 'an error inside fwbot (see its log)' };
}

function commandWords(op: Operation): string {
  return `\`${[COMMAND, ...op.words].join(' ')}\``;
}

export class Dispatcher {
  readonly #deps: DispatcherDeps;

  constructor(deps: DispatcherDeps) {
    this.#deps = deps;
  }

  get governance(): (op: Operation) => Governance {
    return this.#deps.governance;
  }

  /** The operation's context on a profile, as every run gets it. */
  context(request: RequestContext, profile: string): OperationContext {
    return operationContext(this.#deps, request, profile);
  }

  /**
   * The role check, in this channel (a refusal is counted as the command's outcome), and the profile the
   * operation runs on there (a customer channel's scope applied: a form is filled from the right profile).
   */
  async authorize(request: RequestContext, op: Operation, profileOverride?: string): Promise<Access> {
    const access = await this.#authorize(request.actor, op, op.role, profileOverride);
    return { ...access, profile: (await callInScope(op, {}, access.scope, this.#deps.scc)).profile };
  }

  async #authorize(actor: Actor, op: Operation, role: Operation['role'], profileOverride?: string) {
    try {
      return await this.#deps.access.authorize({
        userId: actor.userId,
        channelId: actor.channelId,
        ...originOf(actor),
        needs: role,
        action: commandWords(op),
        profileOverride,
      });
    } catch (error) {
      // Only refusals: a bad profile name is a UserError the user fixes, not a denial.
      if (error instanceof PermissionError)
        this.#deps.metrics?.commands.inc({ operation: op.id, outcome: 'denied' });
      throw error;
    }
  }

  /** Applies the declaration; a typed or form command's fate is noted in the person's history. */
  async dispatch(invocation: Invocation, request: RequestContext): Promise<Dispatched> {
    const { history } = this.#deps;
    if (!history || !NOTED_ENTRIES.has(invocation.entry)) return this.#dispatch(invocation, request);
    // Text that looks like it holds a token is refused below and never kept; a value named as a secret
    // (`token=…`) is kept redacted.
    const text = containsCredential(invocation.commandText)
      ? '(withheld: it looked like it held a token)'
      : redactCommandText(invocation.commandText);
    const note = (fate: Pick<CommandRecord, 'outcome' | 'detail'>) =>
      history
        .note({ userId: request.actor.userId, text, ...fate })
        .catch((error: unknown) =>
          request.log.warn({ err: error }, 'could not note the command in its history'),
        );
    try {
      const dispatched = await this.#dispatch(invocation, request);
      await note(fateOf(dispatched));
      return dispatched;
    } catch (error) {
      await note(failureOf(error));
      throw error;
    }
  }

  async #dispatch(invocation: Invocation, request: RequestContext): Promise<Dispatched> {
    const { op, raw: asked, commandText, profileOverride, entry } = invocation;
    const log = request.log;
    if (!op.entries.has(entry)) {
      await this.#audit(
        request.actor,
        op,
        'refused',
        commandText,
        `refused: ${op.id} cannot be reached by a ${entry}`,
      );
      throw new UserError('That button cannot run this; type the command instead.');
    }
    // Console and CLI lines reach here as typed; Slack's front has withheld such text already.
    if (containsCredential(commandText)) throw new UserError(CREDENTIAL_REFUSAL);
    const access = await this.#authorize(request.actor, op, op.role, profileOverride);
    const issues = op.validate(asked);
    if (issues.length > 0) throw new UsageError(op.id, issues, usageLine(op));
    // A customer channel's scope, applied as the operation's tenancy declares (src/dispatch/tenancy.ts): a
    // tenant named there runs bound to the UID it was checked by.
    const { profile, raw } = await callInScope(op, asked, access.scope, this.#deps.scc);
    // A change's ticket is checked against the policy before anything reaches SCC or anyone's card.
    const ticket = op.makesChange(raw) ? checkTicket(op.id, raw, this.#deps.policy?.changes) : undefined;
    await this.#checkOtherChannel(request, op, raw, profile);
    const ctx = {
      ...this.context(request, profile),
      ...(access.scope.tenant === undefined ? {} : { channelTenant: access.scope.tenant }),
    };
    const rule = await this.#ruleFor(request.actor, op, raw);

    if (rule.kind === 'four-eyes') {
      const target = op.target;
      if (!target) throw new Error(`${op.id} is governed but declares no target`);
      // What SCC would refuse when a queued call's turn comes is refused before anyone is asked to approve.
      await op.queue?.check(ctx, raw);
      const resolved = await target.resolve(ctx, raw);
      // A device held for a change in progress is said now, not found by the approver's click.
      await refuseIfHeld(op, ctx, resolved.raw, resolved.facts, invocation.holder);
      const description = target.describe(resolved.facts, ctx.now());
      const { approvals } = this.#deps;
      if (approvals) {
        log.info({ operationId: op.id }, 'asking for approval');
        const { approvalId } = await approvals.request({
          operation: op,
          raw: resolved.raw,
          target: { facts: resolved.facts, description },
          ctx,
          commandText,
          role: op.role,
          ...(ticket === undefined ? {} : { ticket }),
          ...(access.scope.tenant === undefined ? {} : { channelTenant: access.scope.tenant }),
          ...(invocation.holder === undefined ? {} : { holder: invocation.holder }),
        });
        return { kind: 'approval', approvalId };
      }
      if (!invocation.confirmed) return { kind: 'confirm', description };
      return this.#run(
        ctx,
        op,
        resolved.raw,
        resolved.facts,
        description,
        commandText,
        'confirmed with --yes',
        ticket,
      );
    }

    if (op.revealsSecret) {
      const grant: RevealGrant = {
        operationId: op.id,
        raw: storable(raw),
        profile,
        requesterId: request.actor.userId,
        channelId: request.actor.channelId,
        ...(request.actor.external === true ? { external: true } : {}),
        ...workspaceOf(request.actor),
      };
      const grantId = await this.#deps.reveals.create(grant);
      log.info({ operationId: op.id }, 'offering to reveal a secret');
      return { kind: 'reveal', grantId, view: revealOffer(op.summary, grantId) };
    }

    const audited = op.auditEveryCall || rule.kind === 'role';
    const why =
      rule.kind === 'role' ? `run without a second person (policy: ${rule.role} role)` : 'audited call';
    if (op.queue) {
      // What SCC would refuse when the turn comes is refused now, before anything is announced or run.
      await op.queue.check(ctx, raw);
      await refuseIfHeld(op, ctx, raw, undefined, invocation.holder);
      const { queue } = this.#deps;
      if (queue) return this.#queue(queue, op, op.queue, raw, ctx, audited ? why : undefined);
    }

    if (audited && op.target) {
      const resolved = await op.target.resolve(ctx, raw);
      await refuseIfHeld(op, ctx, resolved.raw, resolved.facts, invocation.holder);
      const description = op.target.describe(resolved.facts, ctx.now());
      return this.#run(ctx, op, resolved.raw, resolved.facts, description, commandText, why, ticket);
    }
    await refuseIfHeld(op, ctx, raw, undefined, invocation.holder);
    log.info({ operationId: op.id, profile }, 'running');
    return { kind: 'outcome', outcome: await op.execute(ctx, raw), profile };
  }

  /**
   * Hands a call to its operation's queue: the call's declared key is held (a call with a key another one
   * holds is refused now, in the declaration's words), and the surface posts the announcement, in whose
   * thread the call is queued. An audited call is bound to its target now and audited when it runs.
   */
  async #queue(
    queue: OperationQueue,
    op: Operation,
    declared: ErasedQueue,
    asked: RawArgs,
    ctx: OperationContext,
    audited: string | undefined,
  ): Promise<Dispatched> {
    let raw = asked;
    let target: { facts: unknown; line: string } | undefined;
    if (audited && op.target) {
      const resolved = await op.target.resolve(ctx, asked);
      raw = resolved.raw;
      target = { facts: resolved.facts, line: op.target.describe(resolved.facts, ctx.now()).line };
    }
    const reserved = await queue.reserve(op, ctx.profile, raw);
    if (!reserved) throw new UserError(declared.key(raw)?.taken ?? 'This call is already queued.');
    ctx.log.info({ operationId: op.id, profile: ctx.profile }, 'queueing');
    return {
      kind: 'queued',
      announcement: declared.announce(raw, ctx.actor),
      profile: ctx.profile,
      enqueue: async (thread) => {
        const call = { raw: storable(raw), requester: ctx.actor, thread, requestId: reserved.requestId };
        const queued = await queue.enqueue(op, { ...call, target, audited });
        ctx.log.info({ place: queued.place }, 'queued');
        return queued;
      },
    };
  }

  /**
   * The rule that applies to this person's call. A policy that lets holders of a role run an operation
   * alone (`approvals.operations.<id>: admin`) does not shut out the others who may ask for it: without
   * that role, the call goes to a second person as four-eyes would.
   */
  async #ruleFor(actor: Actor, op: Operation, raw: RawArgs): Promise<Governance> {
    if (!op.governed(raw)) return NONE;
    const rule = this.#deps.governance(op);
    // The operation's fast path (a short shun): its role runs it alone, audited, where the rule asks a
    // second person. Re-checked here, as the call is made, against this deployment's policy.
    const alone = rule.kind === 'four-eyes' ? op.aloneBy(raw, this.#deps.policy) : undefined;
    if (alone && (await this.#deps.access.holds(actor.userId, actor.channelId, alone, originOf(actor))))
      return { kind: 'role', role: alone };
    if (rule.kind !== 'role') return rule;
    return (await this.#deps.access.holds(actor.userId, actor.channelId, rule.role, originOf(actor)))
      ? rule
      : FOUR_EYES;
  }

  /** Runs a resolved call and writes its audit record (what ran, on what, and how it ended). */
  async #run(
    ctx: OperationContext,
    op: Operation,
    raw: RawArgs,
    facts: unknown,
    description: TargetDescription,
    commandText: string,
    why: string,
    ticket: string | undefined,
  ): Promise<Dispatched> {
    ctx.log.info({ operationId: op.id, profile: ctx.profile, why }, 'running');
    try {
      const outcome = await op.execute(ctx, raw, facts);
      await this.#audit(
        ctx.actor,
        op,
        'executed',
        description.line,
        `${why}: ${outcome.view.summary}`,
        outcome,
        ticket,
      );
      return { kind: 'outcome', outcome, profile: ctx.profile };
    } catch (error) {
      const said = error instanceof Error ? error.message : String(error);
      const outcome = `${why}: ${said} (${commandText})`;
      await this.#audit(ctx.actor, op, 'failed', description.line, outcome, undefined, ticket);
      throw error;
    }
  }

  async #audit(
    actor: Actor,
    op: Operation,
    action: 'executed' | 'failed' | 'refused',
    target: string,
    outcome: string,
    result?: Outcome,
    ticket?: string,
  ): Promise<void> {
    await this.#deps.audit?.record({
      actor: actor.userId,
      action,
      operationId: op.id,
      target,
      outcome,
      transactionUid: result?.track.map(sccIdOf).find((uid) => uid !== undefined),
      ...(ticket === undefined ? {} : { ticket }),
    });
  }

  /** An operation acting on another channel: the requester needs the role there, on the same profile. */
  async #checkOtherChannel(request: RequestContext, op: Operation, raw: RawArgs, profile: string) {
    const other = op.otherChannel(raw);
    if (other === undefined || other === request.actor.channelId) return;
    const there = await this.#authorize({ ...request.actor, channelId: other }, op, op.role);
    // Scoped there as it would be if run there: an MSP channel cannot point portal-wide work at a customer's.
    const { profile: thereProfile } = await callInScope(op, raw, there.scope, this.#deps.scc);
    if (thereProfile !== profile) {
      throw new PermissionError(
        `${channelMention(other)} uses the SCC profile \`${thereProfile}\`, not \`${profile}\` like this channel; run ${commandWords(op)} there instead.`,
        op.role,
      );
    }
  }

  /**
   * The form a command button opens before its call is dispatched (src/dispatch/buttons.ts): what the
   * policy requires of the call that the button cannot carry. Undefined: dispatch it as it is. Whoever may
   * not make the call is refused here, before filling anything in.
   */
  async buttonForm(invocation: Invocation, request: RequestContext): Promise<ButtonForm | undefined> {
    const { op, raw, profileOverride } = invocation;
    // What dispatching refuses (the entry, the arguments) is said by dispatching, with its own words.
    if (!op.entries.has(invocation.entry) || op.validate(raw).length > 0) return undefined;
    const fields = requiredByPolicy(op, raw, this.#deps.policy?.changes);
    if (fields.length === 0) return undefined;
    await this.#authorize(request.actor, op, op.role, profileOverride);
    return buttonFormOf(op, fields);
  }

  /**
   * What a form's answers get wrong before anything runs, said under their fields: the operation's own
   * checks, then the policy's ticket (required, or one its pattern refuses) for a call that changes something.
   */
  formIssues(op: Operation, raw: RawArgs): readonly ArgIssue[] {
    const issues = op.validate(raw);
    if (issues.length > 0 || !op.makesChange(raw)) return issues;
    try {
      checkTicket(op.id, raw, this.#deps.policy?.changes);
      return [];
    } catch (error) {
      if (error instanceof UsageError) return error.issues;
      throw error;
    }
  }

  /** Whether this person may use this Reveal button now (before a modal is opened for it). */
  async mayReveal(grantId: string, request: RequestContext): Promise<void> {
    await this.#deps.reveals.check(grantId, request.actor.userId);
  }

  /**
   * A Reveal click: the grant (only its requester may use it, once), the role checked again, the target
   * read again when the grant carries one, then the call. Its secret goes to the caller only.
   */
  async reveal(grantId: string, request: RequestContext): Promise<Revealed> {
    const grant = await this.#deps.reveals.take(grantId, request.actor.userId);
    const op = this.#lookupSecret(grant.operationId);
    const actor: Actor = {
      userId: grant.requesterId,
      channelId: grant.channelId,
      teamId: grant.teamId,
      ...(grant.enterpriseId !== undefined ? { enterpriseId: grant.enterpriseId } : {}),
      ...(grant.external === true ? { external: true } : {}),
    };
    const access = await this.#authorize(actor, op, op.role);
    const rule = await this.#ruleFor(actor, op, grant.raw);
    if (rule.kind === 'four-eyes' && !grant.approvalId)
      throw new UserError('This now needs a second person’s approval; run the command again to ask for it.');
    if (grant.approvalId) await this.#checkApprover(grant, op);
    const { profile } = await callInScope(op, grant.raw, access.scope, this.#deps.scc);
    if (profile !== grant.profile) {
      throw new UserError(
        `This channel now uses the SCC profile \`${profile}\`, not \`${grant.profile}\`; run the command again.`,
      );
    }
    const ctx = this.context({ ...request, actor }, grant.profile);
    let facts: unknown;
    if (grant.facts !== undefined && op.target) {
      const read = await readTargetAgain(op, ctx, grant.facts);
      if (!read.ok) throw new UserError(`Nothing was generated: ${read.why}`);
      facts = read.facts;
    }
    request.log.info({ operationId: op.id }, 'generating a secret for the requester only');
    const outcome = await op.execute(ctx, grant.raw, facts);
    if (!outcome.secretView) throw new Error(`${op.id} produced no secret view`);
    if (grant.approvalId || op.governed(grant.raw)) {
      await this.#deps.audit?.record({
        actor: actor.userId,
        action: 'executed',
        operationId: op.id,
        target: op.target && facts !== undefined ? op.target.describe(facts, ctx.now()).line : op.summary,
        outcome: 'secret revealed once to the requester (fwbot keeps no copy)',
        approvalId: grant.approvalId,
      });
    }
    const { secretView, ...rest } = outcome;
    return { secretView, outcome: rest, profile: grant.profile };
  }

  /**
   * An approved grant is used only while its approver still holds the approver role in the channel, checked
   * right before the call as the approval executor checks it: a policy changed since the approval (or a
   * restart with another one) takes effect on the Reveal button too. A grant that does not name its approver
   * (made by an older fwbot) is refused the same way: nobody can be checked.
   */
  async #checkApprover(grant: RevealGrant, op: Operation): Promise<void> {
    const approver = grant.approvedBy;
    // In the grant's workspace, and as an external person when the approver was one (Slack Connect).
    const origin = {
      teamId: grant.teamId,
      enterpriseId: grant.enterpriseId,
      external: grant.approverExternal,
    };
    const holds =
      approver !== undefined &&
      (await this.#deps.access.holds(approver, grant.channelId, 'approver', origin));
    if (holds) return;
    const who = approver === undefined ? 'Its approver' : `${userMention(approver)}, who approved,`;
    const why = `${who} no longer holds the approver role here`;
    await this.#deps.audit?.record({
      actor: grant.requesterId,
      action: 'aborted',
      operationId: op.id,
      target: op.summary,
      outcome: `Nothing was generated: ${why}.`,
      approvalId: grant.approvalId,
    });
    throw new UserError(`Nothing was generated: ${why}. Run the command again to ask for a new approval.`);
  }

  #lookupSecret(id: string): Operation {
    const op = this.#deps.lookup(id);
    if (!op?.revealsSecret)
      throw new UserError('This button comes from a command fwbot no longer has; run it again.');
    return op;
  }
}

/** Raw arguments as stored: `undefined` (an absent optional) is simply left out. */
export function storable(raw: RawArgs): Record<string, string | string[] | boolean> {
  const out: Record<string, string | string[] | boolean> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) out[name] = value;
  return out;
}

/** The private offer: the secret is made only when its one requester presses the button. */
export function revealOffer(summary: string, grantId: string): View {
  const button: Button = {
    label: 'Reveal token',
    style: 'primary',
    action: { id: REVEAL_ACTION, value: grantId },
  };
  const text =
    `*${summary}*: the token is shown once, only to you, in a private window; fwbot does not store it. ` +
    'Press the button when you are ready to copy it.';
  return {
    summary: `${summary}: press Reveal to see it privately`,
    blocks: [
      { kind: 'text', text },
      { kind: 'actions', buttons: [button] },
    ],
    visibility: 'ephemeral',
  };
}
