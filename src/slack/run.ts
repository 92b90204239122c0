// Running an operation for a Slack user, after ack(): the permission check (always first, before any SCC
// call), then one of three paths — destructive operations go to the approval gate, operations that
// produce a secret offer a "Reveal" button (the secret is only ever shown in a modal), the rest run and
// their outcome is delivered (reads privately, changes announced in the channel and followed).
import { PermissionError, UsageError } from '../catalogue/errors.js';
import type { Operation, OperationContext, Outcome, RawArgs } from '../catalogue/operation.js';
import { COMMAND, usageLine } from '../catalogue/usage.js';
import type { Access } from '../policy/access.js';
import type { Button, View } from '../render/view.js';
import type { SccOperationId } from '../scc/operationTypes.js';
import { encodeReveal, REVEAL_ACTION } from './actions/revealValue.js';
import type { Delivery } from './delivery.js';
import type { SurfaceDeps } from './deps.js';
import { errorView, explainError } from '../dispatch/errors.js';
import { withProfile } from '../dispatch/profileFlag.js';
import type { RequestContext } from '../dispatch/request.js';
import { createsTenant, queueTenantCreation } from './tenantCreation.js';

/** SCC operations whose answer is a credential: their results are shown only in a modal, once. */
const SECRET_SCC_OPERATIONS: ReadonlySet<SccOperationId> = new Set<SccOperationId>([
  'generateApiTokenForUserInTenant',
]);

export function producesSecret(op: Operation): boolean {
  return op.scc.some((id) => SECRET_SCC_OPERATIONS.has(id));
}

export interface Invocation {
  op: Operation;
  raw: RawArgs;
  /** What the user typed (or the equivalent command line), for approvals and logs. */
  commandText: string;
  /** `--profile NAME`, an admin's choice of another profile than the channel's. */
  profileOverride?: string | undefined;
}

/** The one permission check, in terms of an operation; a refusal is counted as the command's outcome. */
export async function authorize(
  deps: SurfaceDeps,
  request: RequestContext,
  op: Operation,
  profileOverride?: string,
): Promise<Access> {
  try {
    return await deps.access.authorize({
      userId: request.actor.userId,
      channelId: request.actor.channelId,
      needs: op.role,
      action: `\`${[COMMAND, ...op.words].join(' ')}\``,
      profileOverride,
    });
  } catch (error) {
    // Only refusals: a bad profile name is a UserError the user fixes, not a denial.
    if (error instanceof PermissionError) deps.metrics?.commands.inc({ operation: op.id, outcome: 'denied' });
    throw error;
  }
}

export function operationContext(
  deps: SurfaceDeps,
  request: RequestContext,
  profile: string,
): OperationContext {
  return {
    scc: deps.scc.get(profile),
    profile,
    actor: request.actor,
    requestId: request.requestId,
    log: request.log,
    ...(deps.services ? { services: deps.services } : {}),
  };
}

/** The operation's validation as a UsageError with its usage line (before anything is sent anywhere). */
export function checkArguments(op: Operation, raw: RawArgs): void {
  const issues = op.validate(raw);
  if (issues.length > 0) throw new UsageError(op.id, issues, usageLine(op));
}

/** Runs an invocation end to end; every failure becomes a private answer to the requester. */
export async function perform(
  deps: SurfaceDeps,
  request: RequestContext,
  delivery: Delivery,
  invocation: Invocation,
  options: { replace?: boolean } = {},
): Promise<void> {
  const { op, raw, profileOverride } = invocation;
  try {
    const access = await authorize(deps, request, op, profileOverride);
    if (producesSecret(op)) {
      checkArguments(op, raw);
      request.log.info({ operationId: op.id }, 'offering to reveal a secret');
      await delivery.privately(revealOffer(op, raw, profileOverride, request));
      return;
    }
    const ctx = operationContext(deps, request, access.profile);
    if (deps.requiresApproval ? deps.requiresApproval(op) : op.destructive) {
      checkArguments(op, raw);
      request.log.info({ operationId: op.id }, 'asking for approval');
      await deps.approvals.request({ operation: op, raw, ctx, commandText: invocation.commandText });
      return;
    }
    if (deps.tenantCreation && createsTenant(op)) {
      checkArguments(op, raw);
      request.log.info({ operationId: op.id, profile: access.profile }, 'queueing');
      await queueTenantCreation(deps, request, delivery, raw, access.profile);
      return;
    }
    request.log.info({ operationId: op.id, profile: access.profile }, 'running');
    const outcome = await op.execute(ctx, raw);
    await deliverOutcome(deps, request, delivery, outcome, access.profile, { ...options, profileOverride });
  } catch (error) {
    await delivery.privately(errorView(explainError(error, request)));
  }
}

export async function deliverOutcome(
  deps: SurfaceDeps,
  request: RequestContext,
  delivery: Delivery,
  outcome: Outcome,
  profile: string,
  options: { replace?: boolean; profileOverride?: string | undefined } = {},
): Promise<void> {
  if (outcome.secretView) {
    // Only the reveal flow may show a secret, in a modal. Never post it; say so instead of pretending.
    request.log.warn('an outcome carried a secret outside the reveal flow; it was not shown');
  }
  const view = withProfile(outcome.view, options.profileOverride);
  if (view.visibility === 'in_channel' || outcome.track.length > 0) {
    await delivery.announce(view, outcome.track, deps.tracker, profile);
    return;
  }
  await delivery.privately(view, { replace: options.replace ?? false });
}

function revealOffer(op: Operation, raw: RawArgs, profile: string | undefined, request: RequestContext): View {
  const value = encodeReveal({ operationId: op.id, raw, profile, requester: request.actor.userId });
  const button: Button = { label: 'Reveal token', style: 'primary', action: { id: REVEAL_ACTION, value } };
  const text =
    `*${op.summary}*: the token is shown once, only to you, in a private window; fwbot does not store it. ` +
    'Press the button when you are ready to copy it.';
  return {
    summary: `${op.summary}: press Reveal to see it privately`,
    blocks: [
      { kind: 'text', text },
      { kind: 'actions', buttons: [button] },
    ],
    visibility: 'ephemeral',
  };
}
