// Errors that are safe to show to the person who typed the command. Anything else is internal: it is
// logged with a reference, and the user sees only that reference.
import type { ArgIssue } from './types.js';

/** A problem the user can fix: bad input, an unknown or ambiguous name, a refused permission. */
export class UserError extends Error {
  override readonly name: string = 'UserError';
  /** Alternatives worth offering (did-you-mean, the choices behind an ambiguous name). */
  readonly choices: readonly string[];

  constructor(message: string, choices: readonly string[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.choices = choices;
  }
}

/**
 * Arguments that do not fit the operation. The message names the arguments; `usage` is the operation's
 * usage line (kept apart so each surface can set it as code), shown after the message.
 */
export class UsageError extends UserError {
  override readonly name = 'UsageError';
  readonly operationId: string;
  readonly issues: readonly ArgIssue[];
  readonly usage: string | undefined;

  constructor(operationId: string, issues: readonly ArgIssue[], usage?: string) {
    super(issues.map((i) => (i.arg ? `${i.arg}: ${i.message}` : i.message)).join('; '));
    this.operationId = operationId;
    this.issues = issues;
    this.usage = usage;
  }
}

/** The caller lacks the role the operation needs. */
export class PermissionError extends UserError {
  override readonly name = 'PermissionError';
  readonly needed: string;

  constructor(message: string, needed: string) {
    super(message);
    this.needed = needed;
  }
}
