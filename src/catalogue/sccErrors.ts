// SCC's refusals as sentences a chat user can act on. An SccApiError (any status: 400, 403, 404, 409,
// 429, 500 …) says what SCC answered, with its errorCode and errorMsg; other client errors that their
// class marks safe for users are passed on the same way. Everything else stays internal: the surface
// logs it and shows only a reference.
import { SccApiError, SccError } from '../scc/errors.js';
import { UserError } from './errors.js';

/** An SCC failure, safe to show; the original error is its `cause` (for the log). */
export class SccUserError extends UserError {
  override readonly name = 'SccUserError';
  readonly operationId: string;
  readonly status: number | undefined;
  readonly errorCode: string | undefined;

  constructor(message: string, error: SccError) {
    super(message, [], { cause: error });
    this.operationId = error.operationId;
    this.status = error instanceof SccApiError ? error.status : undefined;
    this.errorCode = error instanceof SccApiError ? error.errorCode : undefined;
  }
}

/** SCC answered 404: the object is not (or no longer) there. */
export function isNotFound(error: unknown): boolean {
  return error instanceof SccApiError && error.status === 404;
}

/**
 * The error to throw for a failure of an operation: its declared `failure` ("Could not list the devices")
 * followed by what SCC answered.
 */
export function explainFailure(error: unknown, failure: string): unknown {
  if (error instanceof SccApiError || (error instanceof SccError && error.safeForUser)) {
    return new SccUserError(`${failure}. ${error.userMessage()}`, error);
  }
  return error;
}
