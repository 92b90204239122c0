// Who holds which role is the policy module's business (src/policy/); approvals only ask. The service
// passes the policy's check in as this function, so the approvals re-check roles themselves at every
// decision instead of trusting whoever called them.
import type { Role } from '../catalogue/operation.js';
import type { RoleHolder } from '../catalogue/timed/index.js';

/**
 * One grant to check: `userId` holds `role` in `channelId`, or is `among` the principals of a scoped
 * approver rule (instead of holding the role); `external` (Slack Connect) counts only the channel's
 * external grants; `customerSide` is the customer's side of a request that needs both, where naming them is
 * their grant. Timed work re-checks the same (src/catalogue/timed/kind.ts RoleHolder).
 */
export type RoleCheck = RoleHolder;

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
