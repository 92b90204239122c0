// Who holds which role is the policy module's business (src/policy/); approvals only ask. The service
// passes the policy's check in as this function, so the approvals re-check roles themselves at every
// decision instead of trusting whoever called them.
import type { Role } from '../catalogue/operation.js';

export interface RoleCheck {
  userId: string;
  role: Role;
  channelId: string;
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  /** An external person (Slack Connect): only the channel's external grants count (src/policy/access.ts). */
  external?: boolean | undefined;
  /**
   * Scoped approvers (`approvals.approvers` rules): the user must be one of these user ids or a member of
   * one of these user groups, instead of holding `role` in the channel.
   */
  among?: readonly string[];
  /**
   * The customer's side of a request that needs both (`customer_approvers`, with `among`): the MSP's admin
   * naming them there is the grant, so an external person among them counts without
   * `allow_external_approvers` (where they click is checked by the decisions).
   */
  customerSide?: boolean;
}

/** Resolves true when the user holds `role` in that channel (or is `among` the principals given). */
export type Authorizer = (check: RoleCheck) => Promise<boolean>;

/** The policy module's check (src/policy/access.ts) as an Authorizer. */
export function authorizerFrom(access: {
  holds(
    userId: string,
    channelId: string,
    role: Role,
    origin?: {
      teamId?: string | undefined;
      enterpriseId?: string | undefined;
      external?: boolean | undefined;
    },
  ): Promise<boolean>;
  /** Without it (a policy without user groups), only user ids named outright count. */
  isAmong?(userId: string, principals: readonly string[]): Promise<boolean>;
  /** Whether external people's approvals count in this channel (`allow_external_approvers`). */
  allowsExternalApprovers?(channelId: string, origin: { teamId?: string | undefined }): boolean;
}) {
  const authorize: Authorizer = async (check) => {
    const origin = { teamId: check.teamId, enterpriseId: check.enterpriseId, external: check.external };
    if (!check.among) return access.holds(check.userId, check.channelId, check.role, origin);
    // Approver rules name people outright; an external person among them still approves only where the
    // channel allows external approvers, so a customer never approves by a rule's accident.
    if (
      check.external === true &&
      check.customerSide !== true &&
      access.allowsExternalApprovers?.(check.channelId, origin) !== true
    )
      return false;
    if (access.isAmong) return access.isAmong(check.userId, check.among);
    return check.among.includes(check.userId);
  };
  return authorize;
}
