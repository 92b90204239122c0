// The ways an SCC call fails, as error classes that carry their context (operation, method, path without
// the query, status, SCC's errorCode/errorMsg/details, attempts) and keep their cause. Every string in them
// has passed through the redactor: tokens never reach a message, `toString()`, `toJSON()` or `inspect`.
//
// Two audiences: `message` is for logs and developers; `userMessage()` is a plain sentence that a chat
// user can act on.
import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import * as Model from './generated/models.js';
import { createRedactor, type Redact, redactCause, redactDeep } from './redaction.js';

/** Which request failed. `path` is the URL path with parameters filled in and no query string. */
export interface SccRequestInfo {
  operationId: string;
  method: string;
  path: string;
}

interface SccErrorInit extends SccRequestInfo {
  cause?: unknown;
  /** Strings that must not appear anywhere in the error (the client's token, tokens sent in the body). */
  secrets?: readonly (string | undefined)[];
}

/** Base of every SCC client error. */
export abstract class SccError extends Error {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  // `declare`: no class field is emitted, so the non-enumerable property set below is the only one.
  declare protected readonly redact: Redact;

  protected constructor(init: SccErrorInit, message: string) {
    const redact = createRedactor(init.secrets ?? []);
    const cause = init.cause === undefined ? undefined : redactCause(init.cause, redact);
    super(redact(message), cause === undefined ? undefined : { cause });
    // Not enumerable: the redactor closes over the secrets, and logged objects must not reach it.
    Object.defineProperty(this, 'redact', { value: redact, enumerable: false });
    Object.defineProperty(this, 'name', { value: new.target.name, enumerable: false, configurable: true });
    this.operationId = init.operationId;
    this.method = init.method;
    this.path = redact(init.path);
  }

  /** A sentence a chat user can read: what happened and, where it matters, what to do. */
  abstract userMessage(): string;

  /** Whether `userMessage()` describes something the user can act on (bad input, a refusal by SCC). */
  abstract readonly safeForUser: boolean;

  toJSON(): Record<string, unknown> {
    const cause = this.cause;
    return {
      name: this.name,
      message: this.message,
      operationId: this.operationId,
      method: this.method,
      path: this.path,
      ...this.jsonFields(),
      ...(cause === undefined ? {} : { cause: describeCause(cause) }),
    };
  }

  protected abstract jsonFields(): Record<string, unknown>;
}

/** The input was refused before any request was made (bad body, missing parameter, limit out of range). */
export class SccInputError extends SccError {
  readonly issues: readonly string[];
  readonly safeForUser = true;

  constructor(init: SccErrorInit & { issues: readonly string[] }) {
    super(init, `${init.operationId}: request not sent: ${init.issues.join('; ')}`);
    this.issues = init.issues.map((issue) => this.redact(issue));
  }

  userMessage(): string {
    return `The request was not sent because its input is invalid: ${this.issues.join('; ')}.`;
  }

  protected jsonFields(): Record<string, unknown> {
    return { issues: this.issues };
  }
}

interface SccApiErrorInit extends SccErrorInit {
  status: number;
  errorCode?: string | undefined;
  errorMsg?: string | undefined;
  details?: unknown;
  /** Start of a body that was not SCC's JSON error (a proxy's HTML page), for the log. */
  rawBody?: string | undefined;
  retryAfterMs?: number | undefined;
  mayHaveBeenProcessed: boolean;
  attempts: number;
  /** Why the client stopped instead of retrying, when that is worth saying. */
  notRetriedBecause?: string | undefined;
}

/** SCC answered with an error status (after any retries the policy allowed). */
export class SccApiError extends SccError {
  readonly status: number;
  readonly errorCode: string | undefined;
  readonly errorMsg: string | undefined;
  readonly details: unknown;
  readonly rawBody: string | undefined;
  readonly retryAfterMs: number | undefined;
  /** True when the request may have taken effect on SCC although it failed (a POST answered 500). */
  readonly mayHaveBeenProcessed: boolean;
  readonly attempts: number;
  readonly notRetriedBecause: string | undefined;

  constructor(init: SccApiErrorInit) {
    const label = init.errorCode ?? STATUS_CODES[init.status] ?? 'error';
    const summary = `${init.operationId} (${init.method} ${init.path}) failed: ${init.status} ${label}`;
    const text = init.errorMsg ?? (init.rawBody ? 'the answer was not SCC JSON' : undefined);
    const why = init.notRetriedBecause ? `; ${init.notRetriedBecause}` : '';
    super(init, `${summary}${text ? `: ${text}` : ''}${why}`);
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.errorMsg = init.errorMsg === undefined ? undefined : this.redact(init.errorMsg);
    this.details = init.details === undefined ? undefined : redactDeep(init.details, this.redact);
    this.rawBody = init.rawBody === undefined ? undefined : this.redact(init.rawBody);
    this.retryAfterMs = init.retryAfterMs;
    this.mayHaveBeenProcessed = init.mayHaveBeenProcessed;
    this.attempts = init.attempts;
    this.notRetriedBecause =
      init.notRetriedBecause === undefined ? undefined : this.redact(init.notRetriedBecause);
  }

  get safeForUser(): boolean {
    return this.status < 500;
  }

  userMessage(): string {
    const code = this.errorCode ?? STATUS_CODES[this.status]?.toUpperCase().replace(/ /g, '_') ?? 'ERROR';
    const label = `(${this.status} ${code})`;
    let head = `SCC refused the request ${label}`;
    let then: string | undefined;
    if (this.status === 429) {
      head = `SCC is limiting the rate of requests ${label}`;
      if (this.retryAfterMs !== undefined) then = `Try again in ${formatDuration(this.retryAfterMs)}.`;
    } else if (this.status >= 500) {
      head = `SCC could not handle the request ${label}`;
      if (this.mayHaveBeenProcessed) then = 'It may still have been applied: check before trying again.';
    }
    const said = this.errorMsg ? `${head}: ${this.errorMsg}` : head;
    if (then) return `${endSentence(said)} ${then}`;
    // SCC's own message is quoted as it stands; a bare label gets a full stop.
    return this.errorMsg ? said : `${said}.`;
  }

  protected jsonFields(): Record<string, unknown> {
    return {
      status: this.status,
      errorCode: this.errorCode,
      errorMsg: this.errorMsg,
      details: this.details,
      rawBody: this.rawBody,
      retryAfterMs: this.retryAfterMs,
      mayHaveBeenProcessed: this.mayHaveBeenProcessed,
      attempts: this.attempts,
      notRetriedBecause: this.notRetriedBecause,
    };
  }
}

export type SccNetworkErrorKind = 'timeout' | 'connection' | 'aborted';

interface SccNetworkErrorInit extends SccErrorInit {
  kind: SccNetworkErrorKind;
  timeoutMs?: number | undefined;
  mayHaveBeenProcessed: boolean;
  attempts: number;
  notRetriedBecause?: string | undefined;
}

/** No HTTP answer: the call timed out, the connection failed, or the caller aborted it. */
export class SccNetworkError extends SccError {
  readonly kind: SccNetworkErrorKind;
  readonly timeoutMs: number | undefined;
  readonly mayHaveBeenProcessed: boolean;
  readonly attempts: number;
  readonly notRetriedBecause: string | undefined;
  readonly safeForUser = false;

  constructor(init: SccNetworkErrorInit) {
    const what =
      init.kind === 'timeout'
        ? `no answer within ${formatDuration(init.timeoutMs ?? 0)}`
        : init.kind === 'aborted'
          ? 'aborted by the caller'
          : `could not reach SCC${causeCode(init.cause)}`;
    const why = init.notRetriedBecause ? `; ${init.notRetriedBecause}` : '';
    super(init, `${init.operationId} (${init.method} ${init.path}) failed: ${what}${why}`);
    this.kind = init.kind;
    this.timeoutMs = init.timeoutMs;
    this.mayHaveBeenProcessed = init.mayHaveBeenProcessed;
    this.attempts = init.attempts;
    this.notRetriedBecause = init.notRetriedBecause;
  }

  userMessage(): string {
    const applied = this.mayHaveBeenProcessed
      ? ' It may still have been applied: check before trying again.'
      : '';
    if (this.kind === 'timeout')
      return `SCC did not answer within ${formatDuration(this.timeoutMs ?? 0)}.${applied}`;
    if (this.kind === 'aborted') return `The request to SCC was cancelled.${applied}`;
    return `SCC could not be reached.${applied}`;
  }

  protected jsonFields(): Record<string, unknown> {
    return {
      kind: this.kind,
      timeoutMs: this.timeoutMs,
      mayHaveBeenProcessed: this.mayHaveBeenProcessed,
      attempts: this.attempts,
      notRetriedBecause: this.notRetriedBecause,
    };
  }
}

/**
 * SCC's answer was larger than the client reads (SccHttpOptions.maxResponseBytes): reading stopped there,
 * so a hostile or broken server cannot grow fwbot's memory without bound. Not retried: the same request
 * would get the same answer.
 */
export class SccResponseTooLargeError extends SccError {
  /** The HTTP status, when the headers came before the limit was passed. */
  readonly status: number | undefined;
  readonly limitBytes: number;
  readonly attempts: number;
  readonly safeForUser = true;

  constructor(init: SccErrorInit & { status: number | undefined; limitBytes: number; attempts: number }) {
    const limit = formatBytes(init.limitBytes);
    super(
      init,
      `${init.operationId} (${init.method} ${init.path}): the answer is larger than ${limit}; stopped reading it`,
    );
    this.status = init.status;
    this.limitBytes = init.limitBytes;
    this.attempts = init.attempts;
  }

  userMessage(): string {
    return (
      `SCC's answer was larger than fwbot reads (${formatBytes(this.limitBytes)}), so fwbot stopped reading it. ` +
      'Narrow the request (a search query) and try again.'
    );
  }

  protected jsonFields(): Record<string, unknown> {
    return { status: this.status, limitBytes: this.limitBytes, attempts: this.attempts };
  }
}

/** 33554432 → `32 MiB`; sizes that are not whole MiB in bytes. */
function formatBytes(bytes: number): string {
  const MIB = 1024 * 1024;
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/** One field of a response that did not match the model: `items[0].uid` and what is wrong with it. */
export interface ResponseIssue {
  field: string;
  problem: string;
}

/** A success answer SCC sent in a shape the client does not understand (the reference's model refused it). */
export class SccResponseError extends SccError {
  readonly status: number;
  readonly issues: readonly ResponseIssue[];
  readonly safeForUser = false;

  constructor(init: SccErrorInit & { status: number; issues: readonly ResponseIssue[] }) {
    const list = init.issues.map((issue) =>
      issue.field === '' ? `response ${issue.problem}` : `response field ${issue.field} ${issue.problem}`,
    );
    super(init, `${init.operationId}: ${list.join('; ')}`);
    this.status = init.status;
    this.issues = init.issues.map((issue) => ({ field: issue.field, problem: this.redact(issue.problem) }));
  }

  userMessage(): string {
    return `SCC answered ${this.operationId} in a form fwbot does not understand; the details are in the log.`;
  }

  protected jsonFields(): Record<string, unknown> {
    return { status: this.status, issues: this.issues };
  }

  /** The issues of a zod failure, naming fields and never echoing values (a response may hold tokens). */
  static issuesOf(error: z.ZodError, body: unknown): ResponseIssue[] {
    return error.issues.map((issue) => {
      const field = formatPath(issue.path);
      const missing = issue.code === 'invalid_type' && valueAt(body, issue.path) === undefined;
      return { field, problem: missing ? 'is required' : describeIssue(issue) };
    });
  }
}

/** An SCC transaction that ended in ERROR or CANCELLED, or finished without what the caller needed. */
export class SccTransactionError extends SccError {
  readonly transactionUid: string;
  readonly transactionStatus: string | undefined;
  readonly errorMessage: string | undefined;
  readonly errorDetails: Record<string, string> | undefined;
  readonly safeForUser = true;
  private readonly sentence: string;

  constructor(
    init: SccErrorInit & {
      transactionUid: string;
      transactionStatus: string | undefined;
      errorMessage?: string | null | undefined;
      errorDetails?: Record<string, string> | null | undefined;
      /** The user-facing sentence: what was being done and how it ended. */
      sentence: string;
    },
  ) {
    super(init, `${init.operationId}: transaction ${init.transactionUid}: ${init.sentence}`);
    this.transactionUid = init.transactionUid;
    this.transactionStatus = init.transactionStatus;
    this.errorMessage = init.errorMessage ? this.redact(init.errorMessage) : undefined;
    this.errorDetails = init.errorDetails
      ? (redactDeep(init.errorDetails, this.redact) as Record<string, string>)
      : undefined;
    this.sentence = this.redact(init.sentence);
  }

  userMessage(): string {
    return this.errorMessage ? `${this.sentence}: ${this.errorMessage}` : `${this.sentence}.`;
  }

  protected jsonFields(): Record<string, unknown> {
    return {
      transactionUid: this.transactionUid,
      transactionStatus: this.transactionStatus,
      errorMessage: this.errorMessage,
      errorDetails: this.errorDetails,
    };
  }
}

/** SCC's error body: CommonApiError, or AuthenticationError on a 401 from the gateway in front of it. */
export function readErrorBody(body: unknown): {
  errorCode?: string | undefined;
  errorMsg?: string | undefined;
  details?: unknown;
} {
  const common = Model.CommonApiError.safeParse(body);
  if (common.success && (common.data.errorCode || common.data.errorMsg)) {
    return {
      errorCode: common.data.errorCode ?? undefined,
      errorMsg: common.data.errorMsg ?? undefined,
      details: common.data.details ?? undefined,
    };
  }
  const auth = Model.AuthenticationError.safeParse(body);
  if (auth.success && (auth.data.error || auth.data.errorDescription)) {
    return { errorMsg: auth.data.errorDescription ?? auth.data.error ?? undefined };
  }
  return {};
}

/** `items[0].uid` from ['items', 0, 'uid']. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let here = value;
  for (const key of path) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // zod's messages start with "Invalid input: expected …"; lower-case them to read inside a sentence.
  const message = issue.message.replace(/^Invalid input: /, '');
  return message.charAt(0).toLowerCase() + message.slice(1);
}

function describeCause(cause: unknown): Record<string, unknown> | string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return { name: cause.name, message: cause.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return String(cause);
}

function causeCode(cause: unknown): string {
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? ` (${code})` : '';
}

function endSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** 75 s, 1.5 s, 250 ms. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
