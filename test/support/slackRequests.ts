// Builds and sends requests the way Slack sends them to an app in HTTP mode: form-encoded bodies,
// `x-slack-request-timestamp` and `x-slack-signature` = v0= + hex HMAC-SHA256 of `v0:{ts}:{body}`.
import { createHmac } from 'node:crypto';

export interface SignedRequestOptions {
  /** Seconds since the epoch; defaults to now. Use an old value to test replay protection. */
  timestamp?: number;
  /** Replace the computed signature (forged requests). `null` sends no signature headers at all. */
  signature?: string | null;
  /** More headers, as Slack sends them (e.g. `x-slack-retry-num` on a retry). */
  headers?: Record<string, string>;
}

export function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SlackHttpResponse {
  status: number;
  body: string;
  json(): unknown;
}

export async function postSigned(
  url: string,
  signingSecret: string,
  body: string,
  options: SignedRequestOptions = {},
): Promise<SlackHttpResponse> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    ...options.headers,
  };
  if (options.signature !== null) {
    headers['x-slack-request-timestamp'] = String(timestamp);
    headers['x-slack-signature'] = options.signature ?? slackSignature(signingSecret, timestamp, body);
  }
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  return {
    status: response.status,
    body: text,
    json: () => (text.length === 0 ? undefined : JSON.parse(text)),
  };
}

export interface SlashCommandFields {
  text: string;
  userId?: string;
  channelId?: string;
  teamId?: string;
  responseUrl: string;
  triggerId?: string;
  command?: string;
  /** Enterprise Grid: the organization, and whether fwbot is installed org-wide there (form fields). */
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
}

export function slashCommandBody(fields: SlashCommandFields): string {
  return new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: fields.teamId ?? 'T0FAKE',
    team_domain: 'fake',
    channel_id: fields.channelId ?? 'C0OPS',
    channel_name: 'ops',
    user_id: fields.userId ?? 'U0ALICE',
    user_name: (fields.userId ?? 'U0ALICE').toLowerCase(),
    command: fields.command ?? '/fw',
    text: fields.text,
    api_app_id: 'A0FWBOT',
    response_url: fields.responseUrl,
    trigger_id: fields.triggerId ?? `trigger-${Date.now()}`,
    ...(fields.enterpriseId === undefined ? {} : { enterprise_id: fields.enterpriseId }),
    ...(fields.isEnterpriseInstall === undefined
      ? {}
      : { is_enterprise_install: String(fields.isEnterpriseInstall) }),
  }).toString();
}

/** Interactive payloads (block_actions, view_submission, block_suggestion) travel as `payload=<json>`. */
export function interactionBody(payload: Record<string, unknown>): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
