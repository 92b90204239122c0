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
    super(issues.map(issueSentence).join(' '));
    this.operationId = operationId;
    this.issues = issues;
    this.usage = usage;
  }
}

/** Messages that say something of their argument ("is required.", "must be a UUID …"). */
const PREDICATE = /^(is|are|must|needs|takes|may|has|cannot|should)\b/;

/**
 * One problem as a sentence that names its argument as the usage line writes it: "Missing `tenant`:
 * tenant name, display name or UUID.", "`run-uid` must be a UUID such as …", "Too many arguments: …".
 * Several problems are several sentences, never clauses stitched with ";".
 */
export function issueSentence(issue: ArgIssue): string {
  const text = issue.message.trim();
  const ended = /[.?!]\)?$/.test(text) ? text : `${text}.`;
  const missing = /^missing (.*)$/s.exec(ended);
  if (issue.arg && missing) return `Missing \`${issue.arg}\`: ${missing[1]}`;
  // "--name needs a value." names its flag already.
  if (issue.arg && !ended.startsWith(`--${issue.arg}`))
    return PREDICATE.test(ended) ? `\`${issue.arg}\` ${ended}` : `\`${issue.arg}\`: ${ended}`;
  return ended.charAt(0).toUpperCase() + ended.slice(1);
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
