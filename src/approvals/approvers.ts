// Who may approve a request and how many must: the channel's approver role by default, or the people that
// `approvals.approvers` rules scoped to the target name (src/config/profilesFileSchema.ts), with the
// largest `min_approvers` of the matching rules. The decisions and the executor ask the same question
// through one RoleCheck, so a re-check before execution is the same check as the click.
import { isSlackUserGroupId } from '../config/slackIds.js';
import { userMention } from '../render/mrkdwn.js';
import type { RoleCheck } from './authorizer.js';
import type { ApprovalRecord, ApprovalRequest } from './record.js';

/** The check an approver of this request must pass: among the rule's principals, or the channel's role. */
export function approverCheck(request: ApprovalRequest, userId: string): RoleCheck {
  return {
    userId,
    role: 'approver',
    channelId: request.channelId,
    teamId: request.teamId,
    ...(request.approverRule ? { among: request.approverRule.principals } : {}),
  };
}

/** A user id or a user-group id as Slack shows it: `<@U…>` or `<!subteam^S…>`. */
export function principalMention(principal: string): string {
  return isSlackUserGroupId(principal) ? `<!subteam^${principal}>` : userMention(principal);
}

/** Everyone who approved so far (older records hold only `decidedBy`). */
export function approversOf(record: ApprovalRecord): string[] {
  if (record.approvers && record.approvers.length > 0) return record.approvers;
  return record.state !== 'pending' && record.decidedBy && record.decidedBy !== 'fwbot'
    ? [record.decidedBy]
    : [];
}
