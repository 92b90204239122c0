// A signed POST with extra headers (Slack's retry headers), which the shared helper does not send.
import { slackSignature } from '../../support/slackRequests.js';

export async function postSignedWithHeaders(
  url: string,
  signingSecret: string,
  body: string,
  headers: Record<string, string>,
): Promise<number> {
  const timestamp = Math.floor(Date.now() / 1000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(signingSecret, timestamp, body),
      ...headers,
    },
    body,
  });
  await response.text();
  return response.status;
}
