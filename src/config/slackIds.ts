// Shapes of Slack ids as they appear in configuration: channels (public C…, private G…, direct D…),
// users (U…, and W… on Enterprise Grid), user groups (S…), and the workspace, organization and app fwbot
// serves (T…, E…, A…). Slack ids are upper-case letters and digits.
export const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{8,20}$/;
export const SLACK_USER_ID = /^[UW][A-Z0-9]{8,20}$/;
export const SLACK_USER_GROUP_ID = /^S[A-Z0-9]{8,20}$/;
/** The workspace (T…), the Enterprise Grid organization (E…) and the app (A…) fwbot serves. */
export const SLACK_TEAM_ID = /^T[A-Z0-9]{8,20}$/;
export const SLACK_ENTERPRISE_ID = /^E[A-Z0-9]{8,20}$/;
export const SLACK_APP_ID = /^A[A-Z0-9]{8,20}$/;

export function isSlackChannelId(text: string): boolean {
  return SLACK_CHANNEL_ID.test(text);
}

export function isSlackUserId(text: string): boolean {
  return SLACK_USER_ID.test(text);
}

export function isSlackUserGroupId(text: string): boolean {
  return SLACK_USER_GROUP_ID.test(text);
}
