// Following a cdFMC provisioning in its two legs: the MSP portal's transaction, then the transaction it
// names (TRANSACTION_UID_IN_TARGET_TENANT) on the managed tenant, read with that tenant's own profile.
import { TARGET_TENANT_TRANSACTION_KEY } from '../../scc/cdFmc.js';
import { isTransactionFinished } from '../../scc/transactions.js';
import {
  cdfmcCannotFollow,
  cdfmcNoTargetOutcome,
  cdfmcSecondLegNote,
  expiredOutcome,
  onTenant,
  transactionOutcome,
} from '../messages.js';
import { end, type Step, type StepResult, unlessGone } from './step.js';

export const stepCdfmc: Step<'cdfmc'> = async (ctx, request, state) => {
  const target = state.target;
  if (target) {
    const client = ctx.clients.get(target.profile);
    const transaction = await unlessGone(() => client.transactions.get(target.transactionUid));
    const where = `transaction \`${target.transactionUid}\` on tenant *${target.tenantName}*`;
    if (!transaction) return end(expiredOutcome(where));
    const outcome = transactionOutcome(target.transactionUid, transaction);
    if (outcome) return end(onTenant(target.tenantName, outcome));
    return {
      kind: 'continue',
      state: { ...state, lastStatus: transaction.cdoTransactionStatus ?? undefined },
    };
  }

  const portalUid = request.transactionUid;
  const portal = await unlessGone(() => ctx.client.transactions.get(portalUid));
  if (!portal) return end(expiredOutcome(`the portal transaction \`${portalUid}\``));
  if (!isTransactionFinished(portal)) {
    return { kind: 'continue', state: { ...state, lastStatus: portal.cdoTransactionStatus ?? undefined } };
  }
  if (portal.cdoTransactionStatus !== 'DONE') {
    const outcome = transactionOutcome(portalUid, portal);
    if (outcome) return end(outcome);
  }
  const targetUid = portal.transactionDetails?.[TARGET_TENANT_TRANSACTION_KEY];
  if (!targetUid) return end(cdfmcNoTargetOutcome(portalUid));
  const profile = await ctx.resolveTenantProfile({
    tenantUid: request.tenantUid,
    tenantName: request.tenantName,
    transactionUid: targetUid,
    portalProfile: ctx.profile,
  });
  if (!profile) return end(cdfmcCannotFollow(request.tenantName, request.tenantUid, targetUid));
  const next: StepResult = {
    kind: 'continue',
    // The second leg starts afresh: its own deadline, and fast polls again.
    state: {
      ...state,
      step: 0,
      legStartedAt: ctx.now,
      lastStatus: undefined,
      target: { transactionUid: targetUid, profile, tenantName: request.tenantName },
    },
    note: { id: 'cdfmc-target', text: cdfmcSecondLegNote(request.tenantName, targetUid, profile) },
  };
  return next;
};
