// Event search reports: the results of searches run with the Report feature of the Event Logging page,
// each with a presigned URL to download it.
import type { CallOptions, SccCaller, SearchQuery } from './call.js';
import type * as Model from './generated/models.js';

export interface ReportsArea {
  list(query?: SearchQuery, options?: CallOptions): Promise<Model.Page>;
}

export function createReportsArea({ call }: SccCaller): ReportsArea {
  return {
    list: async (query = {}, options = {}) => (await call('getSearchReports', { query, ...options })).data,
  };
}
