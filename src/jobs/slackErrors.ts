// What a failed Slack Web API call means for a worker: come back later (429: Slack says when), give up
// (Slack refused for good: no such channel, not a member, missing scope), or retry with backoff. And,
// for posts, whether Slack may have accepted the message anyway (then the thread is read back before
// posting again).
import { z } from 'zod';

/** Come back after `delayMs`; the job reschedules itself instead of sleeping. */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** Slack refused the call and will refuse it again: retrying cannot help. */
export class SlackRefused extends Error {
  override readonly name = 'SlackRefused';
  constructor(
    readonly slackError: string,
    readonly method: string,
  ) {
    super(`Slack refused ${method}: ${slackError}`);
  }
}

// Errors that repeating the same call will not fix.
const PERMANENT = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'msg_too_long',
  'no_text',
  'invalid_blocks',
  'invalid_metadata_format',
  'invalid_metadata_schema',
  'metadata_too_large',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'missing_scope',
  'restricted_action',
  'thread_not_found',
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
  'invalid_arguments',
  'unknown_method',
]);

// Slack's own words for these: "it's possible some aspect of the operation succeeded".
const MAY_HAVE_APPLIED = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

const RateLimited = z.object({ code: z.literal('slack_webapi_rate_limited_error'), retryAfter: z.number() });
const Platform = z.object({
  code: z.literal('slack_webapi_platform_error'),
  data: z.object({ error: z.string() }),
});

export interface SlackFailure {
  kind: 'rateLimited' | 'refused' | 'transient';
  /** Slack's error name, or the client's message for network and HTTP failures. */
  reason: string;
  retryAfterMs?: number;
  /** False only when Slack certainly did not act on the call (a 429, or a definite refusal). */
  mayHaveApplied: boolean;
}

export function classifySlackError(error: unknown): SlackFailure {
  const limited = RateLimited.safeParse(error);
  if (limited.success) {
    return {
      kind: 'rateLimited',
      reason: 'ratelimited',
      retryAfterMs: Math.max(1, limited.data.retryAfter) * 1000,
      mayHaveApplied: false,
    };
  }
  const platform = Platform.safeParse(error);
  if (platform.success) {
    const name = platform.data.data.error;
    if (name === 'ratelimited') return { kind: 'rateLimited', reason: name, mayHaveApplied: false };
    if (PERMANENT.has(name)) return { kind: 'refused', reason: name, mayHaveApplied: false };
    return { kind: 'transient', reason: name, mayHaveApplied: MAY_HAVE_APPLIED.has(name) };
  }
  // Network errors and HTTP 5xx: the request may have been handled before the answer was lost.
  const reason = error instanceof Error ? error.message : String(error);
  return { kind: 'transient', reason, mayHaveApplied: true };
}
