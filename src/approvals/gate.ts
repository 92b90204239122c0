// The entry of a governed call, as the dispatcher hands it over (arguments checked, target resolved and
// described): check the requester's role again, store the pending request and post the card. Nothing runs
// until someone else approves (decisions.ts).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ticketLink } from '../catalogue/tickets.js';
import type { ApprovalGate, ApprovalRequestInput } from '../dispatch/ports.js';
import { PermissionError, UserError } from '../model/errors.js';
import { workspaceOf } from '../model/workspace.js';
import { SccError } from '../scc/errors.js';
import { allOf, fieldIs } from '../scc/lucene.js';
import { type ScopedApprovers, scopedApprovers, scopeOfFacts } from './approvers.js';
import { type AuditTrail, requestTrail } from './audit.js';
import type { Authorizer } from './authorizer.js';
import { renderCard } from './card.js';
import type { ApprovalNotifier } from './notifier.js';
import type { ApprovalRecord, ApprovalRequest } from './record.js';
import type { ApprovalSettings } from './settings.js';
import type { ApprovalStore } from './store.js';

export interface GateDeps {
  store: ApprovalStore;
  audit: AuditTrail;
  notifier: ApprovalNotifier;
  authorizer: Authorizer;
  settings: ApprovalSettings;
  clock: () => number;
  log: Logger;
}

/** Short, unguessable and readable in a card footer: `ap-3f9c1a7e2b`. */
export function newApprovalId(): string {
  return `ap-${randomBytes(5).toString('hex')}`;
}

/** Raw arguments as stored: `undefined` (an absent optional) is simply left out. */
function storable(raw: ApprovalRequestInput['raw']): ApprovalRequest['raw'] {
  const out: ApprovalRequest['raw'] = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) out[name] = value;
  return out;
}

/**
 * The approver rules that cover the target (`approvals.approvers`): device queries are answered by SCC
 * itself, so a rule means what /fw devices with the same query shows.
 */
async function approversFor(
  deps: GateDeps,
  ctx: ApprovalRequestInput['ctx'],
  facts: unknown,
  channelTenant: string | undefined,
): Promise<ScopedApprovers | undefined> {
  const rules = deps.settings.approvers;
  if (rules.length === 0) return undefined;
  return scopedApprovers(rules, scopeOfFacts(ctx.profile, facts, channelTenant), async (query, uid) => {
    try {
      const page = await ctx.scc.devices.list({ q: allOf(query, fieldIs('uid', uid)), limit: 1 });
      return (page.items?.length ?? 0) > 0;
    } catch (error) {
      const why = error instanceof SccError ? ` ${error.userMessage()}` : '';
      throw new UserError(
        `fwbot could not tell who may approve this: SCC refused the device query \`${query}\` of approvals.approvers in the profiles file.${why}`,
        [],
        { cause: error },
      );
    }
  });
}

/**
 * The customer's side of a request that needs both (`customer_approvers`). Their click counts only on the
 * card in the tenant's customer channel, so the request must be asked there: elsewhere (the MSP's channel,
 * or a request that spans several such tenants) nobody of theirs could ever approve it, and it is refused.
 */
function customerSideOf(
  scoped: ScopedApprovers | undefined,
  channelTenant: string | undefined,
): ApprovalRequest['customerSide'] {
  const customer = scoped?.customer;
  if (!customer) return undefined;
  const here = channelTenant?.toLowerCase();
  const tenant = customer.tenants.length === 1 ? customer.tenants[0] : undefined;
  if (tenant === undefined || tenant.toLowerCase() !== here) {
    const rules = customer.rules.map((rule) => `\`${rule}\``).join(', ');
    const tenants = customer.tenants.map((name) => `\`${name}\``).join(' and ');
    throw new UserError(
      `Changes on ${tenants} need one of the customer’s approvers as well (${rules} in the profiles file), who approve on the card in ${customer.tenants.length === 1 ? 'that tenant’s customer channel' : 'each tenant’s customer channel'}: ask there${customer.tenants.length === 1 ? '' : ', one request per tenant'}.`,
    );
  }
  return { tenant, principals: customer.principals, rules: customer.rules };
}

/** The request's ticket and its link, when it has one. */
function ticketed(ticket: string | undefined, template: string | undefined): Partial<ApprovalRequest> {
  if (ticket === undefined) return {};
  const url = ticketLink(ticket, template);
  return url === undefined ? { ticket } : { ticket, ticketUrl: url };
}

export function createGate(
  deps: GateDeps,
): ApprovalGate & { requestAndReturn(input: ApprovalRequestInput): Promise<ApprovalRecord> } {
  async function requestAndReturn({
    operation,
    raw,
    target,
    ctx,
    commandText,
    role,
    ticket,
    channelTenant,
    holder,
  }: ApprovalRequestInput): Promise<ApprovalRecord> {
    const { actor } = ctx;
    // The dispatcher checked the role already; approvals do not trust their caller on it.
    const mayAsk = await deps.authorizer({
      userId: actor.userId,
      role,
      channelId: actor.channelId,
      teamId: actor.teamId,
      external: actor.external,
    });
    if (!mayAsk) throw new PermissionError(`Asking for this needs the ${role} role here.`, role);
    const scoped = await approversFor(deps, ctx, target.facts, channelTenant);
    const customerSide = customerSideOf(scoped, channelTenant);
    // Break-glass (a deploy outside its change window) always takes a second approver; both sides, two.
    const breakGlass = operation.target?.timing?.breakGlass(target.facts);
    const usual = Math.max(scoped?.minApprovers ?? 1, breakGlass !== undefined || customerSide ? 2 : 1);
    // Extra approvers the target asks for come on top of the usual ones (src/approvals/extraApprovers.ts).
    const extra = (operation.target?.approvers?.(target.facts) ?? []).map(({ rule, reason }) => ({
      key: rule.key,
      principals: [...rule.approvers],
      minApprovers: rule.minApprovers,
      reason: deps.audit.clean(reason),
    }));
    const needed = usual + extra.reduce((sum, rule) => sum + rule.minApprovers, 0);
    const now = deps.clock();
    const request: ApprovalRequest = {
      id: newApprovalId(),
      operationId: operation.id,
      raw: storable(raw),
      commandText: deps.audit.clean(commandText),
      profile: ctx.profile,
      requesterId: actor.userId,
      channelId: actor.channelId,
      ...(actor.external === true ? { external: true } : {}),
      ...workspaceOf(actor),
      createdAt: now,
      expiresAt: now + deps.settings.expiryMinutes * 60_000,
      role,
      target: { facts: target.facts, description: target.description },
      ...(scoped ? { approverRule: { principals: scoped.principals, rules: scoped.rules } } : {}),
      ...(customerSide ? { customerSide } : {}),
      ...(extra.length > 0 ? { extraApprovers: extra } : {}),
      ...(needed > 1 ? { approvalsNeeded: needed } : {}),
      ...ticketed(ticket, ctx.policy?.changes?.ticketUrl),
      ...(breakGlass !== undefined ? { breakGlass: deps.audit.clean(breakGlass) } : {}),
      ...(holder === undefined ? {} : { holder }),
    };
    await deps.store.create(request);
    const pending: ApprovalRecord = { request, state: 'pending', attempts: 0 };
    try {
      const card = await deps.notifier.postCard(
        actor.channelId,
        renderCard(pending, now),
        workspaceOf(actor),
      );
      await deps.store.attachCard(request.id, card.channel, card.ts);
      pending.cardChannel = card.channel;
      pending.cardTs = card.ts;
    } catch (error) {
      // Without a card nobody can decide it; keep no request that could only ever expire.
      await deps.store.discard(request.id);
      throw error;
    }
    await deps.audit.record({
      actor: actor.userId,
      action: 'requested',
      operationId: operation.id,
      target: request.target.description.line,
      outcome: `pending until ${new Date(request.expiresAt).toISOString()}`,
      ...requestTrail(request),
    });
    ctx.log.info({ approvalId: request.id, operationId: operation.id }, 'approval requested');
    return pending;
  }

  return {
    requestAndReturn,
    async request(input) {
      return { approvalId: (await requestAndReturn(input)).request.id };
    },
  };
}
