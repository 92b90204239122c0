// The people, channel and role policy every approvals test uses, and the registry of the operations they
// run: the catalogue's real registry plus /fw audit.

import { instrumentCatalogue } from '../../../src/app/instrument.js';
import { type Authorizer, authorizerFrom } from '../../../src/approvals/authorizer.js';
import { createCatalogue } from '../../../src/catalogue/index.js';
import type { Operation } from '../../../src/catalogue/operation.js';
import type { RolePolicy } from '../../../src/config/policy.js';
import { createMetrics } from '../../../src/observability/metrics.js';
import { AccessControl } from '../../../src/policy/access.js';

export const CHANNEL = 'C0OPS';
export const TEAM = 'T0FAKE';
export const SIGNING_SECRET = 'approvals-signing-secret';
export const BOT_TOKEN = 'xoxb-approvals-test-bot-token';

export const USERS = {
  /** operator: asks */
  alice: 'U0ALICE',
  /** approver */
  bob: 'U0BOB',
  /** approver */
  dave: 'U0DAVE',
  /** viewer only */
  carol: 'U0CAROL',
  /** admin (reads the audit trail) */
  erin: 'U0ERIN',
  /** operator and approver at once: only the four-eyes rule stops her approving her own request */
  olga: 'U0OLGA',
} as const;

/** Fifty approvers for the concurrency test. */
export const MANY_APPROVERS = Array.from({ length: 50 }, (_, i) => `U0APPR${String(i).padStart(2, '0')}`);

function grants(partial: Partial<Record<'viewer' | 'operator' | 'approver' | 'admin', string[]>>) {
  return { viewer: [], operator: [], approver: [], admin: [], ...partial };
}

export const POLICY: RolePolicy = {
  workspace: grants({
    viewer: ['*'],
    operator: [USERS.alice, USERS.olga],
    approver: [USERS.bob, USERS.dave, USERS.olga, ...MANY_APPROVERS],
    admin: [USERS.erin],
  }),
  channels: new Map(),
};

/** A copy of the test policy whose grant lists a test may change while the bot runs. */
export function mutablePolicy(): {
  policy: RolePolicy;
  take(role: 'operator' | 'approver', user: string): void;
  give(role: 'operator' | 'approver', user: string): void;
} {
  const workspace = {
    viewer: [...POLICY.workspace.viewer],
    operator: [...POLICY.workspace.operator],
    approver: [...POLICY.workspace.approver],
    admin: [...POLICY.workspace.admin],
  };
  return {
    policy: { workspace, channels: new Map() },
    take(role, user) {
      workspace[role] = workspace[role].filter((u) => u !== user);
    },
    give(role, user) {
      workspace[role].push(user);
    },
  };
}

/** The real policy module's check, as approvals take it. */
export function policyAccess(policy: RolePolicy = POLICY): AccessControl {
  return new AccessControl({ policy, channels: new Map(), profiles: ['default'] });
}

export function policyAuthorizer(): Authorizer {
  return authorizerFrom(policyAccess());
}

/** The real registry, with /fw audit added as the service adds it. */
// Instrumented as every fwbot process runs it (src/app/bot.ts), so the tests see what production runs.
export const CATALOGUE = instrumentCatalogue(createCatalogue(), createMetrics());

export function lookup(operationId: string): Operation | undefined {
  return CATALOGUE.get(operationId);
}
