// What a user sees when something fails. Errors safe to show (bad input, a refusal, SCC's own errorCode
// and errorMsg) are shown as sentences; anything else is internal: it is logged with a short reference
// and the user sees only that reference, which finds the log line (with the request id).
import { randomBytes } from 'node:crypto';
import { PermissionError, UsageError, UserError } from '../model/errors.js';
import type { View } from '../model/view.js';
import { SccError } from '../scc/errors.js';
import type { RequestContext } from './request.js';

export interface ExplainedError {
  text: string;
  /** Present for internal errors: the reference shown to the user and logged. */
  ref?: string;
}

export function newErrorRef(): string {
  return randomBytes(3).toString('hex');
}

/** The sentence for an error, logging it (with a reference when it is internal). */
export function explainError(error: unknown, request: RequestContext): ExplainedError {
  if (error instanceof PermissionError) {
    request.log.info({ needed: error.needed }, 'refused: missing role');
    return { text: `:no_entry: ${error.message}` };
  }
  if (error instanceof UsageError) {
    request.log.info({ operationId: error.operationId }, 'usage error');
    const usage = error.usage ? `\nUsage: \`${error.usage}\`` : '';
    return { text: `${error.message}${usage}` };
  }
  if (error instanceof UserError) {
    // SCC refusals arrive here too (SccUserError, with the SccApiError as cause): log what SCC said.
    request.log.info({ err: error.cause ?? undefined, userError: error.message }, 'answered with an error');
    return { text: error.message };
  }
  if (error instanceof SccError && error.safeForUser) {
    request.log.info({ err: error }, 'SCC refused');
    return { text: error.userMessage() };
  }
  const ref = newErrorRef();
  request.log.error({ err: error, ref }, 'internal error');
  if (error instanceof SccError) {
    // Timeouts and unreadable answers: the sentence helps, and the reference finds the details.
    return { text: `${error.userMessage()} (ref ${ref})`, ref };
  }
  return { text: `Something went wrong inside fwbot (ref ${ref}); the details are in its log.`, ref };
}

export function errorView(explained: ExplainedError): View {
  return {
    summary: explained.text,
    blocks: [{ kind: 'text', text: explained.text }],
    visibility: 'ephemeral',
  };
}
