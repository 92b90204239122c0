// The read after a transaction that added API-only users: SCC's list of the tenant's API-only users,
// filtered to the names added, so the outcome names each new user with its UUID.
import { exactLucene } from '../../catalogue/query.js';
import { newApiUsersOutcome } from '../messages.js';
import type { TrackRequestData } from '../payloads.js';
import { end, type StepContext, type StepResult, unlessGone } from './step.js';

type FollowUp = NonNullable<Extract<TrackRequestData, { kind: 'transaction' }>['afterDone']>;

/** SCC adds at most 50 users at a time, so one page of up to 200 holds every name asked for. */
const LIMIT = 200;

export async function stepNewApiUsers(
  ctx: StepContext,
  transactionUid: string,
  followUp: FollowUp,
): Promise<StepResult> {
  const q = followUp.usernames.map((name) => exactLucene('name', name)).join(' OR ');
  const page = await unlessGone(() =>
    ctx.client.call('getApiOnlyUsersInMspManagedTenant', {
      path: { tenantUid: followUp.tenantUid },
      query: { q, limit: LIMIT },
    }),
  );
  const listed = page ? (page.data.items ?? []) : undefined;
  return end(newApiUsersOutcome(transactionUid, followUp.tenantName, followUp.usernames, listed));
}
