// SCC's refusals as sentences a chat user can act on. An SccApiError (any status: 400, 403, 404, 409,
// 429, 500 …) says what SCC answered, with its errorCode and errorMsg; other client errors that their
// class marks safe for users are passed on the same way. Everything else stays internal: the surface
// logs it and shows only a reference.

import { UserError } from '../model/errors.js';
import { SccApiError, SccError } from '../scc/errors.js';

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
  if (error instanceof SccApiError) {
    const said = error.userMessage();
    const why = detailReasons(error);
    const text = why.length === 0 ? said : `${/[.?!]$/.test(said) ? said : `${said}.`} ${why.join(' ')}`;
    return new SccUserError(`${failure}. ${text}`, error);
  }
  if (error instanceof SccError && error.safeForUser) {
    return new SccUserError(`${failure}. ${error.userMessage()}`, error);
  }
  return error;
}

/** Reasons that read as something said of their subject: "asa-hq-01 is already in a running upgrade". */
const PREDICATE = /^(is|are|has|have|was|were|cannot|does|do|needs|runs)\b/;

/**
 * Why each object was refused, when SCC's details say it and its message does not: SCC names the devices
 * it refuses in errorMsg ("1 device is not eligible for Secure Client 5.1.8.105: asa-hq-01") and gives
 * each one's reason in details, keyed by UUID ({name, reason}). One sentence per object.
 */
function detailReasons(error: SccApiError): string[] {
  const { details } = error;
  if (details === null || typeof details !== 'object') return [];
  return Object.entries(details as Record<string, unknown>).flatMap(([key, value]) => {
    if (value === null || typeof value !== 'object') return [];
    const { name, reason } = value as { name?: unknown; reason?: unknown };
    if (typeof reason !== 'string' || reason.trim() === '' || error.errorMsg?.includes(reason)) return [];
    const who = typeof name === 'string' && name !== '' ? name : key;
    const text = PREDICATE.test(reason) ? `${who} ${reason.trim()}` : `${who}: ${reason.trim()}`;
    return [/[.?!]$/.test(text) ? text : `${text}.`];
  });
}
