// Who holds which role is the policy module's business (src/policy/); approvals only ask. The service
// passes the policy's check in as this function, so the approvals re-check roles themselves at every
// decision instead of trusting whoever called them.
import type { Role } from '../catalogue/operation.js';

export interface RoleCheck {
  userId: string;
  role: Role;
  channelId: string;
  teamId?: string;
}

/** Resolves true when the user holds `role` in that channel. */
export type Authorizer = (check: RoleCheck) => Promise<boolean>;

/** The policy module's check (src/policy/access.ts) as an Authorizer. */
export function authorizerFrom(access: {
  holds(userId: string, channelId: string, role: Role): Promise<boolean>;
}) {
  const authorize: Authorizer = (check) => access.holds(check.userId, check.channelId, check.role);
  return authorize;
}
