// SCC's change requests, read: `/fw change-requests [query]` lists the tenant's, `/fw change-requests show
// <name | uid>` shows one with every change SCC's change log ties to it (what was done under that ticket, by
// whom, when). fwbot opens them itself when a change carries `--ticket` and the tenant tracks change requests
// (tickets.ts); these let a team check what a ticket covered. Read only, for viewers.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import {
  CHANGE_REQUEST_PAGE_SIZE,
  renderChangeRequest,
  renderChangeRequests,
} from '../render/changeRequests.js';
import { pageInfo } from '../render/list.js';
import type { ChangeRequest } from '../scc/generated/models.js';
import { exactLucene, toLucene } from '../scc/lucene.js';
import { isUuid, offset, optionalText, text } from './args.js';
import { OFFSET, queryParam } from './common.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { isNotFound } from './sccErrors.js';

export const changeRequests = defineOperation({
  id: 'change-requests',
  words: ['change-requests'],
  area: 'changes',
  failure: 'Could not list the change requests',
  summary: 'SCC’s change requests of the tenant (the tickets its changes are tied to)',
  params: [
    {
      ...queryParam('change request'),
      description: 'text in the name, or a Lucene query (description:*firewall*)',
    },
    OFFSET,
  ],
  args: z.object({ query: optionalText(), offset: offset() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getChangeRequests'],
  examples: ['change-requests', 'change-requests CHG00123'],
  run: async (ctx, args) => {
    const asked = { offset: args.offset, limit: CHANGE_REQUEST_PAGE_SIZE };
    const q = toLucene(args.query);
    const page = await ctx.scc.governance.changeRequests({ ...(q ? { q } : {}), ...asked });
    return { items: page.items ?? [], page: pageInfo(page, asked) };
  },
  render: (result, args, meta) => renderChangeRequests(result.items, result.page, args.query, meta),
});

/** The change request a UUID or an exact name names. */
async function changeRequestOf(ctx: OperationContext, typed: string): Promise<ChangeRequest> {
  if (isUuid(typed)) {
    try {
      return await ctx.scc.governance.changeRequest(typed);
    } catch (error) {
      if (isNotFound(error)) throw new UserError(`No change request has the UUID ${typed}.`);
      throw error;
    }
  }
  const page = await ctx.scc.governance.changeRequests({ q: exactLucene('name', typed), limit: 50 });
  const found = (page.items ?? []).find((item) => item.name === typed);
  if (!found)
    throw new UserError(
      `No change request is named “${typed}” (names are matched exactly here); \`/fw change-requests ${typed}\` searches names containing it.`,
    );
  // Read by its UUID too: the list may hold less than the request itself.
  return ctx.scc.governance.changeRequest(found.uid);
}

export const changeRequestsShow = defineOperation({
  id: 'change-requests.show',
  words: ['change-requests', 'show'],
  area: 'changes',
  failure: 'Could not show the change request',
  summary: 'One SCC change request, with every change SCC’s change log ties to it',
  params: [
    {
      name: 'request',
      kind: 'word',
      description: 'the change request’s exact name (the ticket), or its UUID',
    },
  ],
  args: z.object({ request: text() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getChangeRequests', 'getChangeRequest', 'getChangelogs'],
  examples: ['change-requests show CHG0012345'],
  run: async (ctx, args) => {
    const request = await changeRequestOf(ctx, args.request);
    const logs = await ctx.scc.events.changelogs({
      q: exactLucene('events.changeRequestName', request.name),
      limit: 50,
    });
    return { request, logs: logs.items ?? [] };
  },
  render: (result) => renderChangeRequest(result.request, result.logs),
});

/** Change requests: this area's read operations, in the order help lists them (index.ts). */
export const CHANGE_REQUEST_OPERATIONS: readonly Operation[] = [changeRequests, changeRequestsShow];
