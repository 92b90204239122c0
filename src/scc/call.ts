// The generic core every area module is built on: `call(operationId, params)` (build the request, send it,
// parse the answer with the model of its status) and `paginate(operationId, params)` (every item of every
// page). Driven entirely by the generated operation table, so every operation behaves alike.
import type { z } from 'zod';
import { type TimeoutOptions, timeoutFor } from './callPolicy.js';
import { SccResponseError } from './errors.js';
import type { SccHttp } from './http.js';
import type { CallParams, QueryParams, SccOperationId, SccResponse } from './operationTypes.js';
import { buildRequest, type LooseCallParams, MAX_PAGE_LIMIT } from './request.js';
import { successResponses } from './responseSchemas.js';

/** Per-call options every area method accepts last. */
export interface CallOptions {
  /** Overrides the operation's timeout for this call only. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** `field:ASC` or `field:DESC`, sent as repeated `sort` parameters. */
export type SortOrder = `${string}:ASC` | `${string}:DESC`;

export interface PageQuery {
  /** 0–200; SCC's default is 50. */
  limit?: number;
  offset?: number;
}

export interface SearchQuery extends PageQuery {
  /** Lucene: `name:fw-*`, `connectivityState:ONLINE AND deviceType:ASA`, `[a TO b]` ranges. */
  q?: string;
  sort?: readonly SortOrder[];
}

/** Operations that page with `limit`/`offset` and answer `{ count, limit, offset, items }`. */
export type PagedOperationId = {
  [Id in SccOperationId]: 'offset' extends keyof QueryParams<Id> ? Id : never;
}[SccOperationId];

type PageData<Id extends SccOperationId> = SccResponse<Id>['data'];
type ItemsOf<P> = P extends { items?: infer Items } ? NonNullable<Items> : never;

/** One item of a paged operation's answer, e.g. `Device` for getDevices. */
export type PageItem<Id extends PagedOperationId> =
  ItemsOf<PageData<Id>> extends readonly (infer Item)[] ? Item : never;

export interface PaginateOptions {
  /** Items per request (the `limit`); defaults to the query's limit, else the maximum, 200. */
  pageSize?: number;
  /** Refuses to go on after this many pages, against a server that never says it is done. */
  maxPages?: number;
  /**
   * A lookup's budget: more items than `items`, or more pages than `pages`, throws PagingBudgetExceeded
   * (the caller asks the user to narrow it) instead of reading without end.
   */
  budget?: { items: number; pages: number };
}

/** A bounded read found more than its budget: the question is too broad, not the server at fault. */
export class PagingBudgetExceeded extends Error {
  override readonly name = 'PagingBudgetExceeded';
  constructor(
    readonly operationId: string,
    readonly items: number,
    readonly pages: number,
  ) {
    super(`${operationId}: more than ${items} items or ${pages} pages`);
  }
}

export interface SccCaller {
  call<Id extends SccOperationId>(operationId: Id, params: CallParams<Id>): Promise<SccResponse<Id>>;
  paginate<Id extends PagedOperationId>(
    operationId: Id,
    params: CallParams<Id>,
    options?: PaginateOptions,
  ): AsyncIterable<PageItem<Id>>;
}

export function createCaller(http: SccHttp, timeouts: TimeoutOptions): SccCaller {
  /** `call` without the per-operation typing; the request builder checks the parameters at run time. */
  async function callLoose(
    operationId: SccOperationId,
    params: LooseCallParams & CallOptions,
  ): Promise<{ status: number; data: unknown; headers: Headers }> {
    const built = buildRequest(operationId, params);
    const response = await http.send({
      operationId,
      method: built.method,
      path: built.path,
      query: built.query,
      body: built.body,
      timeoutMs: timeoutFor(operationId, params.query, timeouts, params.timeoutMs),
      signal: params.signal,
      secrets: built.secrets,
    });
    const info = { operationId, method: built.method, path: built.path, secrets: built.secrets };
    const table = successResponses(operationId);
    const problem = (text: string): SccResponseError =>
      new SccResponseError({ ...info, status: response.status, issues: [{ field: '', problem: text }] });
    if (!(response.status in table)) {
      const declared = Object.keys(table).join(', ');
      throw problem(`status ${response.status} is not one the reference declares (${declared})`);
    }
    const schema: z.ZodType | null = table[response.status] ?? null;
    let data: unknown;
    if (schema !== null) {
      if (!response.json) throw problem('body is not JSON');
      if (response.body === undefined) throw problem('body is empty');
      const parsed = schema.safeParse(response.body);
      if (!parsed.success) {
        throw new SccResponseError({
          ...info,
          status: response.status,
          issues: SccResponseError.issuesOf(parsed.error, response.body),
        });
      }
      data = parsed.data;
    }
    return { status: response.status, data, headers: response.headers };
  }

  async function call<Id extends SccOperationId>(
    operationId: Id,
    params: CallParams<Id>,
  ): Promise<SccResponse<Id>> {
    // The table says which model goes with which status; TypeScript cannot follow that runtime lookup.
    return (await callLoose(operationId, params)) as SccResponse<Id>;
  }

  async function* paginate<Id extends PagedOperationId>(
    operationId: Id,
    params: CallParams<Id>,
    options: PaginateOptions = {},
  ): AsyncGenerator<PageItem<Id>> {
    const query: Record<string, unknown> = { ...params.query };
    const limit = Number(options.pageSize ?? query.limit ?? MAX_PAGE_LIMIT);
    const maxPages = options.maxPages ?? 10_000;
    let offset = Number(query.offset ?? 0);
    let previous: string | undefined;
    let yielded = 0;
    const { budget } = options;
    for (let page = 1; ; page++) {
      if (budget && page > budget.pages)
        throw new PagingBudgetExceeded(operationId, budget.items, budget.pages);
      const response = await callLoose(operationId, { ...params, query: { ...query, limit, offset } });
      const status = response.status;
      // Every paged operation answers a page model (test/scc/paginate.test.ts checks it); read it as one.
      const data = response.data as PageShape;
      const items = data.items ?? [];
      if (items.length === 0) return;
      const stuck = (why: string): SccResponseError =>
        new SccResponseError({
          operationId,
          method: 'GET',
          path: buildRequest(operationId, params).path,
          status,
          issues: [{ field: '', problem: `paging stopped: ${why}` }],
        });
      // A server that ignores `offset` hands out the first page forever; these catch it on the second page.
      if (typeof data.offset === 'number' && data.offset !== offset) {
        throw stuck(`asked for offset ${offset}, the server answered offset ${data.offset}`);
      }
      const fingerprint = JSON.stringify(items);
      if (fingerprint === previous) throw stuck(`the server sent the same page again at offset ${offset}`);
      previous = fingerprint;
      yielded += items.length;
      if (budget && yielded > budget.items)
        throw new PagingBudgetExceeded(operationId, budget.items, budget.pages);
      yield* items as PageItem<Id>[];
      offset += items.length;
      const finished = typeof data.count === 'number' ? offset >= data.count : items.length < limit;
      if (finished) return;
      if (page >= maxPages) throw stuck(`more than ${maxPages} pages`);
    }
  }

  return { call, paginate };
}

interface PageShape {
  count?: number | null;
  offset?: number | null;
  items?: readonly unknown[] | null;
}
