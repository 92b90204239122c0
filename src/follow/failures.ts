// What an error from the SCC client means for work done later (a tracking job, a queued call): the thing
// is gone (404), SCC refuses for good (other 4xx, an answer fwbot cannot read), or try again later (429,
// 5xx, network, anything unexpected), honouring SCC's Retry-After.
import {
  SccApiError,
  SccError,
  SccInputError,
  SccResponseError,
  SccResponseTooLargeError,
} from '../scc/errors.js';

export type SccFailure =
  | { kind: 'notFound'; sccSays: string }
  | { kind: 'permanent'; sccSays: string }
  | { kind: 'transient'; reason: string; retryAfterMs?: number };

function apiSays(error: SccApiError): string {
  const code = error.errorCode ?? String(error.status);
  return error.errorMsg ? `${error.status} ${code}: ${error.errorMsg}` : `${error.status} ${code}`;
}

export function classifySccError(error: unknown): SccFailure {
  if (error instanceof SccApiError) {
    if (error.status === 404) return { kind: 'notFound', sccSays: apiSays(error) };
    if (error.status === 429 || error.status >= 500 || error.status === 408) {
      return {
        kind: 'transient',
        reason: apiSays(error),
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      };
    }
    return { kind: 'permanent', sccSays: `SCC refused (${apiSays(error)}).` };
  }
  // A success answer fwbot cannot parse or will not read (too large), or a request it cannot build, will
  // not improve by waiting.
  if (
    error instanceof SccResponseError ||
    error instanceof SccResponseTooLargeError ||
    error instanceof SccInputError
  ) {
    return { kind: 'permanent', sccSays: error.userMessage() };
  }
  if (error instanceof SccError) return { kind: 'transient', reason: error.userMessage() };
  return { kind: 'transient', reason: error instanceof Error ? error.message : String(error) };
}
