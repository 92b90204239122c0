// What an operation declares (OperationSpec: words, arguments, role, approval, target, queue, run, render,
// what is followed) and what defineOperation makes of it for the registry (Operation: the types erased, the
// traits derived once — readsOnly, takesTicket, the entries that may reach it — and execute, which types the
// raw arguments, runs and renders). One concern at its length: the declaration and its erasure change
// together, and every trait the dispatcher applies is derived here, nowhere else.
import type { z } from 'zod';
import type { ApproverRule } from '../config/profilesFileSchema.js';
import type { TrackRequest } from '../follow/index.js';
import type { DeviceWindows } from '../model/changeWindows.js';
import { UsageError } from '../model/errors.js';
import type { Area, ArgIssue, Param, RawArgs, RenderMeta, Role } from '../model/types.js';
import type { View } from '../model/view.js';
import { shareButton } from '../render/paging.js';
import { COMPUTING_POSTS } from '../scc/callPolicy.js';
import { type SccOperationId, sccOperations } from '../scc/operationTypes.js';
import type { OperationContext, OperationPolicy } from './context.js';
import type { HeldDevice, HoldKindName } from './deviceHolds.js';
import type { ModalSpec } from './modal.js';
import type { ErasedQueue, QueueSpec } from './queue.js';
import { explainFailure } from './sccErrors.js';
import type { ServiceName, StagedChange, TimedRef } from './services.js';
import { ticketField, ticketOf, ticketParam, withoutTicket } from './tickets.js';
import { commandText, usageLine } from './usage.js';

export { sccIdOf, type TrackRequest } from '../follow/index.js';
export type { TransactionFollowUp } from '../follow/transaction.js';
export type { Actor, Area, ArgIssue, Param, ParamKind, RawArgs, RenderMeta, Role } from '../model/types.js';
export { ROLES } from '../model/types.js';
export type { OperationContext, OperationPolicy } from './context.js';
export type { ModalField, ModalOption, ModalSpec } from './modal.js';
export type { ErasedQueue, QueueKey, QueueLimit, QueueSpec, QueueWords } from './queue.js';
export type {
  AuditReader,
  AuditRecord,
  CertificateLook,
  CertificateProbe,
  ConfigSnapshot,
  ConfigSnapshotEntry,
  ConfigSnapshots,
  DeployMark,
  OperationServices,
  PresentedCertificate,
  SchedulableKind,
  ScheduledRun,
  ScheduledRuns,
  ServiceName,
  StagedChange,
  StagedRecord,
  StagingLedger,
  ThreadPlace,
  TimedCancel,
  TimedFilter,
  TimedItem,
  TimedRef,
  TimedReschedule,
  TimedSchedule,
  TimedState,
  TimedWork,
  UpgradeWatch,
  WatchRegistry,
} from './services.js';

/**
 * Who must agree before an operation runs.
 * - `always`: a second person approves every call, whatever the policy file says (deletes, removals).
 * - `never`: the role check alone (reads, and changes that reach neither a firewall nor anyone's access).
 * - `{ default }`: governed by the policy file (`approvals.operations.<id>`): four-eyes or not by default,
 *   and the file may change it for this operation, explicitly (e.g. lower a four-eyes default to admins).
 */
export type ApprovalRule = 'always' | 'never' | { readonly default: 'four-eyes' | 'none' };

/**
 * How an operation stands to an MSP portal's managed tenants, which decides what it may do in a customer
 * channel (a channel scoped to one tenant: docs/operating/msp.md). The dispatcher applies it.
 * - `tenant` (the default): acts inside one tenant with the profile's token (devices, deploys, reports…);
 *   in a customer channel it runs on the tenant's own profile, so SCC itself keeps it inside the tenant.
 * - `portal`: spans the portal's tenants (`msp …`, `tenants list`, `tenants create`); refused there.
 * - `{ tenantArg }`: acts from the portal on the tenant that argument names (`tenants users <tenant>`); it
 *   runs on the MSP profile, and in a customer channel the tenant named must be the channel's.
 */
export type Tenancy = 'tenant' | 'portal' | { readonly tenantArg: string };

/** How a target is shown to an approver, in the audit trail and in the CLI's confirmation. */
export interface TargetDescription {
  /** Completes "@alice asks to …": `delete the VLAN interface \`iot (Vlan20)\` on \`asa-hq-01\``. */
  action: string;
  /** One plain line naming the target, for the audit trail: `VLAN interface iot (Vlan20) on asa-hq-01`. */
  line: string;
  fields: { label: string; value: string }[];
  /** What else goes with it (dependents, a credential that stops working): shown before the buttons. */
  warnings: string[];
  /** Exact text the approver must see as it is (the ASA commands a deploy runs), shown as a code block. */
  code?: string | undefined;
  /** What else the approver should know, one mrkdwn line each (who staged the changes a deploy pushes). */
  notes?: string[] | undefined;
}

/** A fresh read of a target by its UUIDs: what it is now, or why it is gone. */
export type TargetRead<F> = { found: true; facts: F } | { found: false; reason: string };

/**
 * The exact thing a governed call acts on. Resolved from the names people typed to UUIDs when the request
 * is made (the facts are what the approver judges, and the raw arguments are bound to the UUIDs), read
 * again by those UUIDs right before executing, and compared: a change since the card was posted stops
 * the execution. `run` receives the facts of the latest read, so it needs no lookup of its own.
 */
export interface TargetSpec<A, F> {
  /** The facts as stored with an approval (JSON), parsed with this schema when read back. */
  facts: z.ZodType<F>;
  resolve(ctx: OperationContext, args: A): Promise<{ facts: F; raw: RawArgs }>;
  reread(ctx: OperationContext, facts: F): Promise<TargetRead<F>>;
  /** What differs, one sentence each; empty when nothing that was approved has changed. */
  compare(before: F, after: F): string[];
  /** `now` is the moment it is described (ctx.now()): what it says of time ("open now") is said of then. */
  describe(facts: F, now: number): TargetDescription;
  /**
   * The operation makes its target disappear, so after a call interrupted by a crash a re-read tells
   * whether it took effect. Without it, an interrupted call is never repeated: a person checks first.
   */
  removes?: boolean;
  /**
   * For an operation that does not remove its target: after a call interrupted by a crash, looks in SCC
   * for the call's effect (a deploy's run, found by the approval id it carries). The outcome to report
   * when it is found; undefined when SCC shows nothing, and then nothing is sent again: a person checks.
   */
  interrupted?(ctx: OperationContext, facts: F): Promise<Pick<Outcome, 'view' | 'track'> | undefined>;
  /**
   * When an approved call may run (a deploy): the approvals' executor holds it until the time asked for
   * and until every device's change windows are open, and checks the windows again when it runs.
   */
  timing?: RunTiming<F>;
  /**
   * Approver rules the target needs besides the usual approvers (an access request reaching a protected
   * destination), each with the sentence the card shows why: the request then waits for `minApprovers`
   * of each rule's approvers as well (src/approvals/extraApprovers.ts).
   */
  approvers?(facts: F): ExtraApproval[];
}

/** An approver rule a target adds to its request, and why (see TargetSpec.approvers). */
export interface ExtraApproval {
  rule: Pick<ApproverRule, 'key' | 'approvers' | 'minApprovers'>;
  reason: string;
}

/** When an approved call may run: see TargetSpec.timing and src/approvals/timing.ts. */
export interface RunTiming<F> {
  /** The time asked for (`--at`), if any. */
  at(facts: F): number | undefined;
  /** A reason to run outside the change windows (break-glass), if one was given. */
  breakGlass(facts: F): string | undefined;
  /** Each device's change windows as they are now; a device with none is always open. */
  windows(ctx: OperationContext, facts: F): Promise<DeviceWindows[]>;
}

/**
 * The ASAs a call changes (their configuration in SCC, or on the device): a hold on one of them by anyone but
 * the call's own holder stops it, when it is asked for and again right before an approved call runs
 * (src/dispatch/holds.ts applies it; src/catalogue/deviceHolds.ts says what a hold is).
 */
export interface DeviceChanges<A, F> {
  /** The devices, from the target's facts when the operation has a target, else from the arguments. */
  devices(ctx: OperationContext, args: A, target: F | undefined): Promise<readonly HeldDevice[]>;
  /**
   * The call holds them itself, from the moment its approved run is claimed until its followed work ends
   * (a deploy), under its request's id: what its hold is called, and why. Needs a target.
   */
  hold?: { kind: HoldKindName; reason(target: F): string };
}

/** An operation's DeviceChanges with its types erased: arguments raw, facts as stored. */
export interface ErasedChanges {
  devices(ctx: OperationContext, raw: RawArgs, facts?: unknown): Promise<readonly HeldDevice[]>;
  hold?: { kind: HoldKindName; reason(facts: unknown): string };
}

/** The outcome of running an operation: what to show and what to follow. */
export interface Outcome {
  view: View;
  track: TrackRequest[];
  /**
   * Timed work the call scheduled that speaks in the thread this outcome is announced in (a shun's end):
   * the surface that posts the announcement hands them its thread (dispatch/ports.ts handOnLater).
   */
  timed?: TimedRef[];
  /** Shown only to the requester in a modal, never posted nor stored (e.g. a generated API token). */
  secretView?: View;
  /** What `run` returned (SCC's answer), for the CLI's `--json`; never posted, logged or stored. */
  result?: unknown;
}

export interface OperationSpec<A, R, F = undefined> {
  /** Stable id, the words joined by dots: `tenants.users.remove`. */
  id: string;
  words: readonly string[];
  area: Area;
  summary: string;
  /**
   * What failed, as the opening of the sentence a user reads when SCC refuses or fails: `Could not list
   * the devices`. SCC's own answer (status, errorCode, errorMsg) follows it. Required, so that no operation
   * is left to a sentence stitched from its summary.
   */
  failure: string;
  params: readonly Param[];
  /** Types the raw arguments; its issues name the argument (→ usage errors, modal field errors). */
  args: z.ZodType<A, RawArgs>;
  role: Role;
  approval: ApprovalRule;
  /** Only some calls are governed (a gateway GET reads); default: every call. */
  governs?: {
    /** Which calls, in words for help and the command table: `requests other than GET`. */
    readonly which: string;
    applies(args: A): boolean;
  };
  /**
   * The responder's fast path, declared in the policy: a call this says is small enough (a shun of a few
   * hours) is run alone by someone holding `role`, audited, where the rule would ask a second person; any
   * other call follows the rule. `which` says it in words for help and the command table.
   */
  fastPath?: {
    readonly role: Role;
    readonly which: string;
    applies(args: A, policy: OperationPolicy | undefined): boolean;
  };
  /** Every call leaves an audit record, governed or not (e.g. every request sent to an FMC). */
  auditEveryCall?: boolean;
  /** How it stands to an MSP portal's tenants (see Tenancy); default `tenant`. */
  tenancy?: Tenancy;
  /**
   * Services it cannot run without (the audit trail, the watch registry): a catalogue made for a process
   * that has none of them (the CLI) leaves it out of its grammar and help.
   */
  needs?: readonly ServiceName[];
  /**
   * Services a call uses when the process has them, by its arguments (an upgrade's `--at` and `--canary`:
   * the timed work): the CLI opens the bot's Redis for such a call when its configuration names one.
   */
  uses?: (raw: RawArgs) => readonly ServiceName[];
  /** Governed operations and those audited on every call declare their target. */
  target?: TargetSpec<A, F>;
  /** The ASAs a call changes, which device holds apply to (see DeviceChanges); typed by args and target. */
  changes?: DeviceChanges<NoInfer<A>, NoInfer<F>>;
  /** The SCC operations this command may call (the command table and a coverage test read it). */
  scc: readonly SccOperationId[];
  examples?: readonly string[];
  modal?: ModalSpec;
  /** The call acts on another channel than the one it is typed in (role and profile are checked there too). */
  otherChannel?(args: A): string | undefined;
  queue?: QueueSpec<A>;
  /**
   * Other views offer it as a button that carries its command line (e.g. "Preview commands" under an
   * interface change); a click is dispatched like the typed command, with the clicker's roles.
   */
  offeredAsButton?: boolean;
  run(ctx: OperationContext, args: A, target: F): Promise<R>;
  render(result: R, args: A, meta: RenderMeta): View;
  /** `now` is the moment the call ran (ctx.now()). */
  track?(result: R, args: A, now: number): TrackRequest[];
  /** The timed items the call scheduled that speak in the thread of its announcement (see Outcome.timed). */
  timed?(result: R, args: A): TimedRef[];
  /**
   * The call staged a change on an ASA (it reaches the device with a deploy): what to remember of it, so a
   * deploy's card can say who staged what (see StagingLedger). Recorded wherever the call runs.
   */
  stages?(result: R, args: A): StagedChange | undefined;
  /** The result holds a secret: it is revealed once, privately (see Outcome.secretView), never posted. */
  secret?(result: R, args: A): View;
}

/**
 * POSTs an operation may make and still count as a read (shared in a channel, run again after a crash):
 * the ASA command line, which fwbot sends only its read-only templates (asaCommands.ts). Each is also in
 * COMPUTING_POSTS, so SCC's client retries it like a read. The calculations there are harmless to repeat
 * as well, but are left out: counting them would give `changes` and `msp.vpn.versions` a share button.
 */
export const READ_ONLY_POSTS: ReadonlySet<SccOperationId> = new Set<SccOperationId>(
  (['executeCliCommand'] as const).filter((id) => COMPUTING_POSTS.has(id)),
);

/** The ways a call reaches the dispatcher; an operation is reachable only by the ones its declaration allows. */
export type Entry = 'command' | 'form' | 'page' | 'share' | 'reveal' | 'button';

/** An operation's target with its types erased: facts travel as JSON and are parsed at each use. */
export interface ErasedTarget {
  resolve(ctx: OperationContext, raw: RawArgs): Promise<{ facts: unknown; raw: RawArgs }>;
  reread(ctx: OperationContext, facts: unknown): Promise<TargetRead<unknown>>;
  compare(before: unknown, after: unknown): string[];
  describe(facts: unknown, now: number): TargetDescription;
  readonly removes: boolean;
  interrupted?(ctx: OperationContext, facts: unknown): Promise<Pick<Outcome, 'view' | 'track'> | undefined>;
  timing?: RunTiming<unknown>;
  approvers?(facts: unknown): ExtraApproval[];
}

/** A declared operation with its types erased, so one registry holds them all. */
export interface Operation {
  readonly id: string;
  readonly words: readonly string[];
  readonly area: Area;
  readonly summary: string;
  /** The opening of the sentence shown when the operation fails (see OperationSpec.failure). */
  readonly failure: string;
  readonly params: readonly Param[];
  readonly role: Role;
  readonly approval: ApprovalRule;
  /** When only some calls are governed, which ones, in words (see OperationSpec.governs). */
  readonly governsOnly?: string;
  /** Always approved by a second person: no policy can lower it. */
  readonly destructive: boolean;
  readonly revealsSecret: boolean;
  readonly auditEveryCall: boolean;
  /** How it stands to an MSP portal's tenants: what it may do in a customer channel (see Tenancy). */
  readonly tenancy: Tenancy;
  /** Services it cannot run without (see OperationSpec.needs). */
  readonly needs: readonly ServiceName[];
  /** Services this call uses when the process has them (see OperationSpec.uses). */
  uses(raw: RawArgs): readonly ServiceName[];
  /** Running it again changes nothing anywhere (a worker that died on it may simply run it again). */
  readonly readsOnly: boolean;
  /**
   * It changes SCC or a device (some SCC call it may make is neither a GET nor a calculation), so it takes
   * a change ticket: `--ticket`, declared here once, and a field of its form (src/catalogue/tickets.ts).
   */
  readonly takesTicket: boolean;
  readonly entries: ReadonlySet<Entry>;
  readonly scc: readonly SccOperationId[];
  readonly examples: readonly string[];
  readonly modal?: ModalSpec;
  readonly target?: ErasedTarget;
  /** The ASAs a call changes, which device holds apply to (see DeviceChanges). */
  readonly changes?: ErasedChanges;
  readonly queue?: ErasedQueue;
  /** Checks raw arguments without running anything: an empty list means they are acceptable. */
  validate(raw: RawArgs): ArgIssue[];
  /** Whether this call is governed by the approval rule (see OperationSpec.governs). */
  governed(raw: RawArgs): boolean;
  /** The role that may run this call alone by the operation's fast path (see OperationSpec.fastPath). */
  aloneBy(raw: RawArgs, policy: OperationPolicy | undefined): Role | undefined;
  /** The fast path in words, for help and the command table. */
  readonly fastPath?: string;
  /**
   * Whether this call changes SCC or a device, and so is checked against the ticket policy: every call of
   * an operation that takes a ticket, except those its `governs` declaration leaves ungoverned (a GET).
   */
  makesChange(raw: RawArgs): boolean;
  otherChannel(raw: RawArgs): string | undefined;
  /**
   * Types the raw arguments (a UsageError when they are not acceptable), runs, renders. Operations with a
   * target run on `facts` (the dispatcher's latest read); without them the target is resolved here first.
   */
  execute(ctx: OperationContext, raw: RawArgs, facts?: unknown): Promise<Outcome>;
}

export function argIssues(error: z.ZodError): ArgIssue[] {
  return error.issues.map((issue) => {
    const head = issue.path[0];
    return { arg: typeof head === 'string' ? head : undefined, message: issue.message };
  });
}

/** Parses raw arguments with the operation's schema; a UsageError names each argument and the usage line. */
function parseArgs<A>(
  spec: Pick<OperationSpec<A, unknown, unknown>, 'id' | 'args' | 'words' | 'params'>,
  raw: RawArgs,
): A {
  // Raw arguments are what approvals store and what modals and the grammar produce, so they are parsed
  // here, at the boundary, every time. The change ticket is the dispatcher's (tickets.ts), not the schema's.
  const parsed = spec.args.safeParse(ownArgs(spec, raw));
  if (!parsed.success) throw new UsageError(spec.id, argIssues(parsed.error), usageLine(spec));
  return parsed.data;
}

/** The raw arguments the operation's own schema types: the ticket is left out unless it declares one. */
function ownArgs(spec: Pick<OperationSpec<unknown, unknown, unknown>, 'params'>, raw: RawArgs): RawArgs {
  return spec.params.some((param) => param.name === ticketParam.name) ? raw : withoutTicket(raw);
}

/** The form with the ticket's field last (shown or not, required or not, as the policy says: forms.ts). */
function withTicketField(modal: ModalSpec): ModalSpec {
  const { fields } = modal;
  if (typeof fields !== 'function') return { ...modal, fields: [...fields, ticketField] };
  return { ...modal, fields: async (ctx, prefilled) => [...(await fields(ctx, prefilled)), ticketField] };
}

/** Whether an SCC operation changes something: neither a GET nor a POST that only computes an answer. */
function changesScc(id: SccOperationId): boolean {
  return sccOperations[id].method !== 'GET' && !COMPUTING_POSTS.has(id);
}

/** Parses stored facts with the target's schema: an approval read back from Redis is a boundary too. */
function parseFacts<F>(spec: TargetSpec<unknown, F>, facts: unknown, operationId: string): F {
  const parsed = spec.facts.safeParse(facts);
  if (!parsed.success) throw new Error(`${operationId}: stored target facts do not fit their schema`);
  return parsed.data;
}

/**
 * Private read results may be shared by the one who asked: the button carries the command text (what
 * `parse` takes), and the surface runs it again in the channel (reads only: a change is never re-run by
 * a share). It joins the view's last actions block (next to the paging buttons) when there is one, so a
 * view spends no extra block on it.
 */
function withShareButton(view: View, text: string): View {
  const button = shareButton(text);
  if (view.visibility !== 'ephemeral' || !button) return view;
  const last = view.blocks[view.blocks.length - 1];
  if (last?.kind === 'actions') {
    return {
      ...view,
      blocks: [...view.blocks.slice(0, -1), { kind: 'actions', buttons: [...last.buttons, button] }],
    };
  }
  return { ...view, blocks: [...view.blocks, { kind: 'actions', buttons: [button] }] };
}

function entriesOf(spec: OperationSpec<unknown, unknown, unknown>, readsOnly: boolean): Set<Entry> {
  const entries = new Set<Entry>(['command']);
  if (spec.modal) entries.add('form');
  // Paging buttons re-run a list at another offset: only lists (an `offset` parameter) accept them.
  if (spec.params.some((param) => param.name === 'offset')) entries.add('page');
  // "Share in channel" re-runs the call in the channel: only plain reads.
  if (readsOnly && spec.role === 'viewer' && !spec.secret) entries.add('share');
  if (spec.secret) entries.add('reveal');
  if (spec.offeredAsButton) entries.add('button');
  return entries;
}

/** The call is made: a failure to remember who staged it is logged, never the call's failure. */
async function rememberStaged(ctx: OperationContext, change: StagedChange | undefined): Promise<void> {
  const ledger = ctx.services?.staging;
  if (!change || !ledger) return;
  try {
    await ledger.record(ctx.profile, {
      ...change,
      at: ctx.now(),
      actor: ctx.actor.userId,
      ...(ctx.approvedBy ? { approvedBy: ctx.approvedBy } : {}),
    });
  } catch (error) {
    ctx.log.warn({ err: error, deviceUid: change.deviceUid }, 'staged change not remembered');
  }
}

export function defineOperation<A, R, F = undefined>(spec: OperationSpec<A, R, F>): Operation {
  const loose = spec as unknown as OperationSpec<unknown, unknown, unknown>;
  const governedByRule = spec.approval !== 'never';
  if ((governedByRule || spec.auditEveryCall) && !spec.target)
    throw new Error(`${spec.id}: a governed or audited operation must declare its target`);
  if (!/^Could not \S(.*[^.])?$/.test(spec.failure))
    throw new Error(
      `${spec.id}: its failure sentence opens with "Could not" and leaves the full stop to SCC's answer`,
    );
  if (spec.secret && spec.queue) throw new Error(`${spec.id}: a secret cannot go through a queue`);
  if (spec.queue) checkQueue(spec.id, spec.queue, spec.modal);
  if (spec.changes?.hold && !spec.target)
    throw new Error(`${spec.id}: a call that holds its devices must declare its target`);
  const tenancy = spec.tenancy ?? 'tenant';
  if (typeof tenancy === 'object' && !spec.params.some((param) => param.name === tenancy.tenantArg))
    throw new Error(
      `${spec.id}: its tenancy names the argument ${tenancy.tenantArg}, which it does not take`,
    );
  const readsOnly =
    spec.approval === 'never' &&
    !spec.queue &&
    !spec.secret &&
    spec.scc.every((id) => sccOperations[id].method === 'GET' || READ_ONLY_POSTS.has(id));
  const takesTicket = !readsOnly && spec.scc.some(changesScc);
  const target = spec.target;
  const entries = entriesOf(loose, readsOnly);
  const operation: Operation = {
    id: spec.id,
    words: spec.words,
    area: spec.area,
    summary: spec.summary,
    failure: spec.failure,
    params: takesTicket ? [...spec.params, ticketParam] : spec.params,
    role: spec.role,
    approval: spec.approval,
    destructive: spec.approval === 'always',
    revealsSecret: spec.secret !== undefined,
    auditEveryCall: spec.auditEveryCall === true,
    tenancy,
    needs: spec.needs ?? [],
    uses: (raw) => spec.uses?.(raw) ?? [],
    readsOnly,
    takesTicket,
    entries,
    scc: spec.scc,
    examples: spec.examples ?? [],
    modal: takesTicket && spec.modal ? withTicketField(spec.modal) : spec.modal,
    ...(spec.governs ? { governsOnly: spec.governs.which } : {}),
    ...(spec.fastPath ? { fastPath: spec.fastPath.which } : {}),
    validate(raw) {
      const parsed = spec.args.safeParse(ownArgs(spec, raw));
      return parsed.success ? [] : argIssues(parsed.error);
    },
    aloneBy(raw, policy) {
      if (!spec.fastPath) return undefined;
      return spec.fastPath.applies(parseArgs(spec, raw), policy) ? spec.fastPath.role : undefined;
    },
    governed(raw) {
      if (!governedByRule) return false;
      if (!spec.governs) return true;
      return spec.governs.applies(parseArgs(spec, raw));
    },
    makesChange(raw) {
      if (!takesTicket) return false;
      return !spec.governs || spec.governs.applies(parseArgs(spec, raw));
    },
    otherChannel(raw) {
      return spec.otherChannel?.(parseArgs(spec, raw));
    },
    async execute(ctx, raw, facts) {
      const typed = parseArgs(spec, raw);
      let result: R;
      try {
        let current = undefined as F;
        if (target) {
          current =
            facts === undefined
              ? (await target.resolve(ctx, typed)).facts
              : parseFacts(target as TargetSpec<unknown, F>, facts, spec.id);
        }
        const ticket = takesTicket ? ticketOf(raw) : undefined;
        result = await spec.run(ticket === undefined ? ctx : { ...ctx, ticket }, typed, current);
      } catch (error) {
        throw explainFailure(error, spec.failure);
      }
      await rememberStaged(ctx, spec.stages?.(result, typed));
      const rendered = spec.render(result, typed, { operationId: spec.id, raw, actor: ctx.actor });
      return {
        view: entries.has('share') ? withShareButton(rendered, commandText(spec, raw)) : rendered,
        track: spec.track?.(result, typed, ctx.now()) ?? [],
        ...(spec.timed ? { timed: spec.timed(result, typed) } : {}),
        secretView: spec.secret?.(result, typed),
        result,
      };
    },
  };
  if (target) {
    const typedTarget = target as TargetSpec<unknown, F>;
    Object.assign(operation, {
      target: {
        removes: target.removes === true,
        async resolve(ctx: OperationContext, raw: RawArgs) {
          const typed = parseArgs(spec, raw);
          try {
            const resolved = await target.resolve(ctx, typed);
            // The call is bound to its target's UUIDs; its ticket goes with it (approved, queued, run).
            const ticket = takesTicket ? ticketOf(raw) : undefined;
            return ticket === undefined ? resolved : { ...resolved, raw: { ...resolved.raw, ticket } };
          } catch (error) {
            throw explainFailure(error, spec.failure);
          }
        },
        async reread(ctx: OperationContext, facts: unknown) {
          return target.reread(ctx, parseFacts(typedTarget, facts, spec.id));
        },
        compare: (before: unknown, after: unknown) =>
          target.compare(parseFacts(typedTarget, before, spec.id), parseFacts(typedTarget, after, spec.id)),
        describe: (facts: unknown, now: number) =>
          target.describe(parseFacts(typedTarget, facts, spec.id), now),
        ...(target.interrupted
          ? {
              interrupted: (ctx: OperationContext, facts: unknown) =>
                target.interrupted?.(ctx, parseFacts(typedTarget, facts, spec.id)) ??
                Promise.resolve(undefined),
            }
          : {}),
        ...(target.timing
          ? { timing: eraseTiming(target.timing, (facts) => parseFacts(typedTarget, facts, spec.id)) }
          : {}),
        ...(target.approvers
          ? {
              approvers: (facts: unknown) =>
                target.approvers?.(parseFacts(typedTarget, facts, spec.id)) ?? [],
            }
          : {}),
      } satisfies ErasedTarget,
    });
  }
  const queue = spec.queue;
  if (queue) Object.assign(operation, { queue: eraseQueue(spec, queue) });
  if (spec.changes) Object.assign(operation, { changes: eraseChanges(spec, spec.changes) });
  return operation;
}

function eraseChanges<A, F>(spec: OperationSpec<A, unknown, F>, changes: DeviceChanges<A, F>): ErasedChanges {
  const { hold } = changes;
  const target = spec.target;
  return {
    async devices(ctx, raw, facts) {
      const typed = parseArgs(spec, raw);
      try {
        // A target not resolved yet (a call that is neither governed nor audited) is resolved for it.
        let current: F | undefined;
        if (target)
          current =
            facts === undefined
              ? (await target.resolve(ctx, typed)).facts
              : parseFacts(target as TargetSpec<unknown, F>, facts, spec.id);
        return await changes.devices(ctx, typed, current);
      } catch (error) {
        throw explainFailure(error, spec.failure);
      }
    },
    ...(hold && target
      ? {
          hold: {
            kind: hold.kind,
            reason: (facts: unknown) =>
              hold.reason(parseFacts(target as TargetSpec<unknown, F>, facts, spec.id)),
          },
        }
      : {}),
  };
}

function eraseTiming<F>(timing: RunTiming<F>, parse: (facts: unknown) => F): RunTiming<unknown> {
  return {
    at: (facts) => timing.at(parse(facts)),
    breakGlass: (facts) => timing.breakGlass(parse(facts)),
    windows: (ctx, facts) => timing.windows(ctx, parse(facts)),
  };
}

/** A queue's declaration, checked when the catalogue is built. */
function checkQueue(id: string, queue: QueueSpec<never>, modal: ModalSpec | undefined): void {
  if (!/^[a-z][a-z0-9-]*$/.test(queue.name))
    throw new Error(`${id}: a queue's name is lower-case words joined by hyphens`);
  const { max, perMs } = queue.limit;
  if (!Number.isInteger(max) || max < 1 || !Number.isInteger(perMs) || perMs < 1)
    throw new Error(`${id}: a queue's limit is a whole number of calls per whole number of milliseconds`);
  // A queued call waits in Redis with its arguments: a secret typed into the form would wait there too.
  if (modal && typeof modal.fields !== 'function' && modal.fields.some((field) => field.input === 'secret'))
    throw new Error(`${id}: a queued call cannot take a secret (it waits in Redis with its arguments)`);
}

function eraseQueue<A>(spec: OperationSpec<A, unknown, unknown>, queue: QueueSpec<A>): ErasedQueue {
  const { key, words } = queue;
  return {
    name: queue.name,
    limit: queue.limit,
    afterInterruption: queue.afterInterruption,
    key(raw) {
      if (!key) return undefined;
      const args = parseArgs(spec, raw);
      const value = key.of(args);
      return {
        value: key.compare === 'ignore-case' ? value.toLowerCase() : value,
        taken: key.taken(args),
        heldAfterAcceptMs: key.heldAfterAcceptMs,
      };
    },
    words(raw) {
      return { call: words.call(parseArgs(spec, raw)), pace: words.pace, check: words.check };
    },
    announce: (raw, actor) => queue.announce(parseArgs(spec, raw), actor),
    async check(ctx, raw) {
      try {
        await queue.check?.(ctx, parseArgs(spec, raw));
      } catch (error) {
        throw explainFailure(error, spec.failure);
      }
    },
  };
}
