// What a failed Slack Web API call means, for every caller in fwbot: one list of Slack's error codes.
// Come back later (429: Slack says when), give up (Slack refused for good: no such channel, not a
// member, missing scope…, and why), or retry with backoff. And, for posts, whether Slack may have
// accepted the message anyway (then a worker reads the thread back before posting again).
import { z } from 'zod';

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

/**
 * Why a refusal is final. `conversation`: the bot may not post or read there (gone, archived, not a
 * member, restricted); `message`: the message or thread named is gone or frozen; `request`: the call
 * itself is malformed or too large; `credentials`: the token, or what it may do; `workspace`: the
 * workspace's plan or data lacks what was asked (user groups on a free plan).
 */
export type SlackRefusal = 'conversation' | 'message' | 'request' | 'credentials' | 'workspace';

// Errors that repeating the same call will not fix (docs.slack.dev, each method's error table).
const REFUSALS: Readonly<Record<string, SlackRefusal>> = {
  channel_not_found: 'conversation',
  not_in_channel: 'conversation',
  is_archived: 'conversation',
  restricted_action: 'conversation',
  thread_not_found: 'message',
  message_not_found: 'message',
  cant_update_message: 'message',
  edit_window_closed: 'message',
  msg_too_long: 'request',
  no_text: 'request',
  invalid_blocks: 'request',
  invalid_metadata_format: 'request',
  invalid_metadata_schema: 'request',
  metadata_too_large: 'request',
  invalid_arguments: 'request',
  unknown_method: 'request',
  invalid_auth: 'credentials',
  not_authed: 'credentials',
  account_inactive: 'credentials',
  token_revoked: 'credentials',
  token_expired: 'credentials',
  no_permission: 'credentials',
  missing_scope: 'credentials',
  plan_upgrade_required: 'workspace',
  paid_teams_only: 'workspace',
  no_such_subteam: 'workspace',
};

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
  /** Why a `refused` call is final. */
  refusal?: SlackRefusal;
  /** How long Slack asked to wait (a 429's Retry-After), when it said. */
  retryAfterMs?: number;
  /** False only when Slack certainly did not act on the call (a 429, or a definite refusal). */
  mayHaveApplied: boolean;
}

/** Slack's error name (`channel_not_found`, `plan_upgrade_required`…) when Slack answered `ok: false`. */
export function slackErrorCode(error: unknown): string | undefined {
  // A refusal fwbot raises itself before calling Slack (no installation for the workspace) names Slack's code.
  if (error instanceof SlackRefused) return error.slackError;
  const platform = Platform.safeParse(error);
  return platform.success ? platform.data.data.error : undefined;
}

/** What a failure of a @slack/web-api call (thrown by SlackApi) means for whoever made it. */
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
  const name = slackErrorCode(error);
  if (name !== undefined) {
    if (name === 'ratelimited') return { kind: 'rateLimited', reason: name, mayHaveApplied: false };
    const refusal = REFUSALS[name];
    if (refusal !== undefined) return { kind: 'refused', reason: name, refusal, mayHaveApplied: false };
    return { kind: 'transient', reason: name, mayHaveApplied: MAY_HAVE_APPLIED.has(name) };
  }
  // Network errors and HTTP 5xx: the request may have been handled before the answer was lost.
  const reason = error instanceof Error ? error.message : String(error);
  return { kind: 'transient', reason, mayHaveApplied: true };
}

/** Slack refused for good because the bot cannot post in that conversation (not a member, archived…). */
export function cannotPostThere(error: unknown): boolean {
  return classifySlackError(error).refusal === 'conversation';
}
