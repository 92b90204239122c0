// Who holds which role is the policy module's business (src/policy/); approvals only ask. The service
// passes the policy's check in as this function, so the approvals re-check roles themselves at every
// decision instead of trusting whoever called them.
import type { Role } from '../catalogue/operation.js';

export interface RoleCheck {
  userId: string;
  role: Role;
  channelId: string;
  teamId?: string;
  /**
   * Scoped approvers (`approvals.approvers` rules): the user must be one of these user ids or a member of
   * one of these user groups, instead of holding `role` in the channel.
   */
  among?: readonly string[];
}

/** Resolves true when the user holds `role` in that channel (or is `among` the principals given). */
export type Authorizer = (check: RoleCheck) => Promise<boolean>;

/** The policy module's check (src/policy/access.ts) as an Authorizer. */
export function authorizerFrom(access: {
  holds(userId: string, channelId: string, role: Role): Promise<boolean>;
  /** Without it (a policy without user groups), only user ids named outright count. */
  isAmong?(userId: string, principals: readonly string[]): Promise<boolean>;
}) {
  const authorize: Authorizer = (check) => {
    if (!check.among) return access.holds(check.userId, check.channelId, check.role);
    if (access.isAmong) return access.isAmong(check.userId, check.among);
    return Promise.resolve(check.among.includes(check.userId));
  };
  return authorize;
}
