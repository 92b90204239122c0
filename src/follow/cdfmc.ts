// Following a cdFMC provisioning in its two legs: the MSP portal's transaction, then the transaction it
// names (TRANSACTION_UID_IN_TARGET_TENANT) on the managed tenant, read with that tenant's own profile.
import { z } from 'zod';
import { escapeAll } from '../render/mrkdwn.js';
import { TARGET_TENANT_TRANSACTION_KEY } from '../scc/cdFmc.js';
import { isTransactionFinished } from '../scc/transactions.js';
import { defineFollowKind, end, type Outcome, unlessGone } from './kind.js';
import { expiredOutcome, transactionOutcome } from './words.js';

const CdfmcRequest = z.object({
  kind: z.literal('cdfmc'),
  transactionUid: z.string().min(1),
  tenantUid: z.string().min(1),
  tenantName: z.string(),
  label: z.string(),
});

const CdfmcState = z.object({
  /** The second leg, once the portal transaction has named it. */
  target: z
    .object({ transactionUid: z.string().min(1), profile: z.string().min(1), tenantName: z.string() })
    .optional(),
});

const SECOND = 1_000;
const HOUR = 60 * 60 * SECOND;

export const cdfmc = defineFollowKind({
  kind: 'cdfmc',
  request: CdfmcRequest,
  state: CdfmcState,
  id: (request) => request.transactionUid,
  sccId: (request) => request.transactionUid,
  // cdFMC provisioning takes tens of minutes: poll more gently, and each leg gets the whole deadline.
  poll: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 60 * SECOND, deadlineMs: 6 * HOUR },
  describe: (request) =>
    `the cdFMC provisioning of tenant *${request.tenantName}* (transaction \`${request.transactionUid}\`)`,
  async step(ctx, request, state) {
    const target = state.target;
    if (target) {
      const client = ctx.clientOf(target.profile);
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
    if (!targetUid) return end(noTargetOutcome(portalUid));
    const profile = await ctx.resolveTenantProfile({
      tenantUid: request.tenantUid,
      tenantName: request.tenantName,
      transactionUid: targetUid,
      portalProfile: ctx.profile,
    });
    if (!profile) return end(cannotFollowOutcome(request.tenantName, request.tenantUid, targetUid));
    return {
      kind: 'continue',
      // The second leg starts afresh: its own deadline, and fast polls again.
      state: {
        ...state,
        step: 0,
        legStartedAt: ctx.now,
        lastStatus: undefined,
        target: { transactionUid: targetUid, profile, tenantName: request.tenantName },
      },
      note: { id: 'cdfmc-target', text: secondLegNote(request.tenantName, targetUid, profile) },
    };
  },
});

export function secondLegNote(tenantName: string, targetUid: string, profile: string): string {
  return (
    `The portal step is done. Provisioning now runs on tenant *${escapeAll(tenantName)}* as transaction ` +
    `\`${escapeAll(targetUid)}\`; fwbot follows it with profile \`${escapeAll(profile)}\`.`
  );
}

export function cannotFollowOutcome(
  tenantName: string,
  tenantUid: string,
  targetUid: string | undefined,
): Outcome {
  const where = targetUid ? ` as transaction \`${escapeAll(targetUid)}\`` : '';
  return {
    status: 'unknown',
    text:
      `the portal step is done. Provisioning continues on tenant *${escapeAll(tenantName)}*${where}, which fwbot cannot ` +
      `follow: no profile is configured for that tenant (uid \`${escapeAll(tenantUid)}\`), and only the tenant's own API ` +
      'token can read its transactions. Check it in SCC, or ask an admin to add a profile for the tenant so fwbot can follow it next time.',
  };
}

/** An outcome of the second leg, said of the tenant it ran on. */
export function onTenant(tenantName: string, outcome: Outcome): Outcome {
  return { ...outcome, text: `tenant *${escapeAll(tenantName)}*: ${outcome.text}` };
}

function noTargetOutcome(portalUid: string): Outcome {
  return {
    status: 'unknown',
    text:
      `the portal step is done, but SCC did not name the transaction on the target tenant ` +
      `(no TRANSACTION_UID_IN_TARGET_TENANT in transaction \`${escapeAll(portalUid)}\`). Check the tenant in SCC.`,
  };
}
