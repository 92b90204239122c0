// Shapes of Slack ids as they appear in configuration: channels (public C…, private G…, direct D…),
// users (U…, and W… on Enterprise Grid) and user groups (S…). Slack ids are upper-case letters and digits.
export const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{8,20}$/;
export const SLACK_USER_ID = /^[UW][A-Z0-9]{8,20}$/;
export const SLACK_USER_GROUP_ID = /^S[A-Z0-9]{8,20}$/;

export function isSlackChannelId(text: string): boolean {
  return SLACK_CHANNEL_ID.test(text);
}

export function isSlackUserId(text: string): boolean {
  return SLACK_USER_ID.test(text);
}

export function isSlackUserGroupId(text: string): boolean {
  return SLACK_USER_GROUP_ID.test(text);
}
