// Scheduled runs (issue 28): `/fw deployments scheduled` lists the approved requests held until their
// time (a deploy approved outside its change window, or asked for `--at` later), and
// `/fw deployments cancel <request>` withdraws one before it runs. Both read the approvals in Redis
// (the `scheduled` service, src/approvals/scheduled.ts), which decides who may cancel from what it
// recorded: the request's requester and its approvers. Viewers may list; the cancel needs no approval of
// its own, since it only stops what people already approved and sends nothing to SCC, and the approvals
// record it in the audit trail, update the card and tell its thread.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { renderScheduledCancelled, renderScheduledList } from '../render/scheduledDeploys.js';
import { text } from './args.js';
import { defineOperation, type OperationContext, type ScheduledRuns } from './operation.js';

function scheduledOf(ctx: OperationContext): ScheduledRuns {
  const scheduled = ctx.services?.scheduled;
  if (!scheduled) throw new UserError('Scheduled runs are not available here: they are kept in Redis.');
  return scheduled;
}

/** An approval request's id as cards and the list show it (`ap-…`). */
const requestId = () =>
  text().pipe(
    z.string().regex(/^ap-[0-9a-f]{10}$/, 'must be a request id from /fw deployments scheduled (ap-…).'),
  );

export const deploymentsScheduled = defineOperation({
  id: 'deployments.scheduled',
  words: ['deployments', 'scheduled'],
  area: 'changes',
  failure: 'Could not list the scheduled deploys',
  summary:
    'List approved deploys waiting for their time (a change window or --at): when, who asked and approved, ticket, break-glass',
  params: [],
  args: z.object({}),
  role: 'viewer',
  approval: 'never',
  needs: ['scheduled'],
  scc: [],
  examples: ['deployments scheduled'],
  offeredAsButton: true,
  run: async (ctx) => ({ profile: ctx.profile, runs: await scheduledOf(ctx).list(ctx.profile) }),
  render: ({ profile, runs }) => renderScheduledList(runs, profile),
});

export const deploymentsCancel = defineOperation({
  id: 'deployments.cancel',
  words: ['deployments', 'cancel'],
  area: 'changes',
  failure: 'Could not cancel the scheduled deploy',
  summary: 'Cancel an approved deploy before its scheduled time (its requester or an approver)',
  params: [{ name: 'request', kind: 'word', description: 'the request id from deployments scheduled' }],
  args: z.object({ request: requestId() }),
  role: 'viewer',
  approval: 'never',
  needs: ['scheduled'],
  scc: [],
  examples: ['deployments cancel ap-0123456789'],
  offeredAsButton: true,
  run: async (ctx, args) => scheduledOf(ctx).cancel(args.request, ctx.profile, ctx.actor.userId),
  render: (run) => renderScheduledCancelled(run),
});

export const SCHEDULED_DEPLOY_OPERATIONS = [deploymentsScheduled, deploymentsCancel];
