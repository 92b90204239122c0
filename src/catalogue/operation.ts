// What an operation of the catalogue is. Every /fw command is declared once with this shape; the slash
// grammar, help, usage errors, modals, permissions, approvals, tracking, the console and the README's
// command table are all derived from these declarations.
import type { Logger } from 'pino';
import type { z } from 'zod';
import { shareButton } from '../render/paging.js';
import type { View } from '../render/view.js';
import type { SccClient } from '../scc/client.js';
import type { SccOperationId } from '../scc/operationTypes.js';
import { UsageError } from './errors.js';
import { explainFailure } from './sccErrors.js';
import { commandText, usageLine } from './usage.js';

export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export type Area = 'help' | 'devices' | 'tenants' | 'interfaces' | 'reports' | 'gateway' | 'vpn' | 'audit';

/**
 * How a parameter is written. `device`, `tenant` and `interface` accept a name or a UUID and are
 * resolved at run time (through the inventory, the tenant list or the device's interfaces).
 */
export type ParamKind =
  | 'word'
  | 'query' // the rest of the line: no colon → wildcard search on the name, with a colon → Lucene
  | 'device'
  | 'tenant'
  | 'interface'
  | 'uuid'
  | 'int'
  | 'json'
  | 'choice';

export interface Param {
  name: string;
  kind: ParamKind;
  description: string;
  optional?: boolean;
  /** Takes every remaining word (e.g. `<username…>`); only the last positional may be variadic. */
  variadic?: boolean;
  /** Written `--name value` (or `--name` alone when `boolean`), in any position. */
  flag?: boolean;
  boolean?: boolean;
  choices?: readonly string[];
  /** Accepted by the grammar but left out of usage lines and help (e.g. `--offset`, set by paging). */
  hidden?: boolean;
}

/** Raw arguments as the grammar or a modal binds them, before the operation's zod schema types them. */
export type RawArgs = Record<string, string | string[] | boolean | undefined>;

/** What to follow when SCC answers 202 (the tracking queue's input; see src/jobs/). */
export type TrackRequest =
  | { kind: 'transaction'; transactionUid: string; label: string }
  /** Two legs: the portal transaction, then TRANSACTION_UID_IN_TARGET_TENANT on the target tenant. */
  | { kind: 'cdfmc'; transactionUid: string; tenantUid: string; tenantName: string; label: string }
  | { kind: 'gateway'; requestId: string; deviceUid: string; label: string }
  | { kind: 'upgradeRun'; transactionUid: string; label: string };

export interface ModalOption {
  label: string;
  value: string;
}

export interface ModalField {
  /** The argument this field fills: validation errors on that argument are shown on this field. */
  name: string;
  label: string;
  input:
    | 'text'
    | 'multiline'
    | 'number'
    | 'secret' // typed once, never echoed, never logged (e.g. a tenant API token)
    | 'select'
    | 'multi_select'
    | 'checkbox'
    | 'device' // external selects, options looked up as the user types
    | 'tenant'
    | 'interface';
  optional?: boolean;
  hint?: string;
  placeholder?: string;
  options?: readonly ModalOption[];
  initial?: string | readonly string[] | boolean;
  /** External selects (`device`, `tenant`, `interface`): several may be picked (e.g. an upgrade's devices). */
  multiple?: boolean;
  /**
   * Device selects: Lucene the lookup always adds to what is typed, so the menu offers only devices the
   * operation can act on (e.g. ASAs and FTDs for a VPN client upgrade).
   */
  deviceQuery?: string;
}

export interface ModalSpec {
  title: string;
  submit: string;
  /** Fixed fields, or fields fitted to what is being edited (e.g. an interface's kind). */
  fields:
    | readonly ModalField[]
    | ((ctx: OperationContext, prefilled: RawArgs) => Promise<readonly ModalField[]>);
  /**
   * `empty`: opened when the command has no arguments; `always`: the command opens its form, prefilled
   * with what was typed. The grammar decides (ParsedCommand.modal); a required argument may be left to
   * the form only when `fields` is a fixed list holding a field of that name.
   */
  when: 'empty' | 'always';
}

export interface Actor {
  userId: string;
  channelId: string;
  teamId?: string;
}

/** Everything an operation may use; handlers never reach for globals. */
export interface OperationContext {
  scc: SccClient;
  profile: string;
  actor: Actor;
  requestId: string;
  log: Logger;
  signal?: AbortSignal;
  /** Services behind Redis that a few operations need (watches, audit); absent where not running. */
  services?: OperationServices;
}

/** A channel that hears about every VPN client upgrade run that ends (issue 5). */
export interface UpgradeWatch {
  channelId: string;
  profile: string;
  createdBy: string;
  createdAt: string;
}

export interface WatchRegistry {
  watch(watch: UpgradeWatch): Promise<{ created: boolean }>;
  unwatch(channelId: string, profile: string): Promise<{ removed: boolean }>;
  list(profile?: string): Promise<UpgradeWatch[]>;
}

/** One decision or execution in the approval trail (issue 6). Never holds a secret. */
export interface AuditRecord {
  id: string;
  at: string;
  actor: string;
  action: string;
  operationId: string;
  target: string;
  outcome: string;
  transactionUid?: string;
  approvalId?: string;
}

export interface AuditReader {
  latest(count: number): Promise<AuditRecord[]>;
}

export interface OperationServices {
  watches?: WatchRegistry;
  audit?: AuditReader;
}

/**
 * What a renderer may know besides the result and the typed arguments: plain data, so renderers stay
 * pure. Paging buttons need the operation id and the raw arguments; announcements name the requester.
 */
export interface RenderMeta {
  operationId: string;
  raw: RawArgs;
  actor: Actor;
}

/**
 * The exact thing a destructive request acts on, resolved from names to UUIDs: the approval card shows
 * `summary` and `fields`, and the approval stores `raw` (UUIDs only), so what runs after approval is what
 * was approved even if a name now points elsewhere.
 */
export interface Target {
  summary: string;
  fields: { label: string; value: string }[];
  raw: RawArgs;
}

/** The outcome of running an operation: what to show and what to follow. */
export interface Outcome {
  view: View;
  track: TrackRequest[];
  /** Shown only to the requester in a modal, never posted nor stored (e.g. a generated API token). */
  secretView?: View;
  /** What `run` returned (SCC's answer), for the CLI's `--json`; never posted, logged or stored. */
  result?: unknown;
}

export interface OperationSpec<A, R> {
  /** Stable id, the words joined by dots: `tenants.users.remove`. */
  id: string;
  words: readonly string[];
  area: Area;
  summary: string;
  params: readonly Param[];
  /** Types the raw arguments; its issues name the argument (→ usage errors, modal field errors). */
  args: z.ZodType<A, RawArgs>;
  role: Role;
  destructive: boolean;
  /** The SCC operations this command may call (the README and a coverage test read it). */
  scc: readonly SccOperationId[];
  examples?: readonly string[];
  modal?: ModalSpec;
  run(ctx: OperationContext, args: A): Promise<R>;
  render(result: R, args: A, meta: RenderMeta): View;
  track?(result: R, args: A): TrackRequest[];
  /** For results that must only be shown privately (see Outcome.secretView). */
  secret?(result: R, args: A): View;
  /** Destructive operations: resolve what would be acted on, without changing anything. */
  target?(ctx: OperationContext, args: A): Promise<Target>;
}

/** A declared operation with its types erased, so one registry holds them all. */
export interface Operation {
  readonly id: string;
  readonly words: readonly string[];
  readonly area: Area;
  readonly summary: string;
  readonly params: readonly Param[];
  readonly role: Role;
  readonly destructive: boolean;
  readonly scc: readonly SccOperationId[];
  readonly examples: readonly string[];
  readonly modal?: ModalSpec;
  /** Checks raw arguments without running anything: an empty list means they are acceptable. */
  validate(raw: RawArgs): ArgIssue[];
  /** Types the raw arguments (throws UsageError when they are not acceptable), runs, renders. */
  execute(ctx: OperationContext, raw: RawArgs): Promise<Outcome>;
  /** Destructive operations: what `execute` would act on, resolved to UUIDs (for the approval card). */
  target?(ctx: OperationContext, raw: RawArgs): Promise<Target>;
}

/** A problem with one argument (or with the whole command when `arg` is undefined). */
export interface ArgIssue {
  arg: string | undefined;
  message: string;
}

export function argIssues(error: z.ZodError): ArgIssue[] {
  return error.issues.map((issue) => {
    const head = issue.path[0];
    return { arg: typeof head === 'string' ? head : undefined, message: issue.message };
  });
}

/** Parses raw arguments with the operation's schema; a UsageError names each argument and the usage line. */
function parseArgs<A, R>(spec: OperationSpec<A, R>, raw: RawArgs): A {
  // Raw arguments are what approvals store and what modals and the grammar produce, so they are parsed
  // here, at the boundary, every time.
  const parsed = spec.args.safeParse(raw);
  if (!parsed.success) throw new UsageError(spec.id, argIssues(parsed.error), usageLine(spec));
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

export function defineOperation<A, R>(spec: OperationSpec<A, R>): Operation {
  const operation: Operation = {
    id: spec.id,
    words: spec.words,
    area: spec.area,
    summary: spec.summary,
    params: spec.params,
    role: spec.role,
    destructive: spec.destructive,
    scc: spec.scc,
    examples: spec.examples ?? [],
    modal: spec.modal,
    validate(raw) {
      const parsed = spec.args.safeParse(raw);
      return parsed.success ? [] : argIssues(parsed.error);
    },
    async execute(ctx, raw) {
      const typed = parseArgs(spec, raw);
      let result: R;
      try {
        result = await spec.run(ctx, typed);
      } catch (error) {
        throw explainFailure(error, spec.summary);
      }
      const rendered = spec.render(result, typed, { operationId: spec.id, raw, actor: ctx.actor });
      return {
        view: spec.role === 'viewer' ? withShareButton(rendered, commandText(spec, raw)) : rendered,
        track: spec.track?.(result, typed) ?? [],
        secretView: spec.secret?.(result, typed),
        result,
      };
    },
  };
  const { target } = spec;
  if (target) {
    operation.target = async (ctx, raw) => {
      const typed = parseArgs(spec, raw);
      try {
        return await target(ctx, typed);
      } catch (error) {
        throw explainFailure(error, spec.summary);
      }
    };
  }
  return operation;
}
