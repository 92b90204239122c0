// The simulator's error type and the CommonApiError bodies SCC answers with. Handlers throw SimError;
// the server turns it into `{errorCode, errorMsg, details}` with the matching HTTP status.
import type * as Model from '../scc/generated/models.js';

export type ErrorCode =
  | 'INVALID_INPUT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'TOO_MANY_REQUESTS'
  | 'SERVER_ERROR'
  | 'PROXY_ERROR'
  | 'BAD_REQUEST'
  | 'UNPROCESSABLE_ENTITY';

/** `details` of CommonApiError: an object of objects, keyed by the field or entity it is about. */
export type ErrorDetails = Record<string, Record<string, unknown>>;

export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SimError';
  }

  /** 401s carry SCC's AuthenticationError body; everything else is a CommonApiError. */
  toBody(): Model.CommonApiError | Model.AuthenticationError {
    if (this.status === 401) return { error: 'invalid_token', errorDescription: this.message };
    return { errorCode: this.errorCode, errorMsg: this.message, details: this.details };
  }
}

export const invalidInput = (message: string, details: ErrorDetails = {}): SimError =>
  new SimError(400, 'INVALID_INPUT', message, details);

export const badRequest = (message: string, details: ErrorDetails = {}): SimError =>
  new SimError(400, 'BAD_REQUEST', message, details);

export const unauthorized = (message: string): SimError =>
  new SimError(401, 'UNAUTHORIZED', message, {}, { 'www-authenticate': 'Bearer error="invalid_token"' });

export const forbidden = (message: string): SimError => new SimError(403, 'FORBIDDEN', message);

export const notFound = (message: string, details: ErrorDetails = {}): SimError =>
  new SimError(404, 'NOT_FOUND', message, details);

export const conflict = (message: string, details: ErrorDetails = {}): SimError =>
  new SimError(409, 'CONFLICT', message, details);

export const tooManyRequests = (message: string, retryAfterSeconds: number): SimError =>
  new SimError(
    429,
    'TOO_MANY_REQUESTS',
    message,
    { retry: { afterSeconds: retryAfterSeconds } },
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
