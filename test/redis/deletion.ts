// The approval request the Sentinel and Cluster tests move through the state machine: a deletion, as the
// catalogue would record it, at a fixed time so that expiry and leases are driven by the test.
import type { ApprovalRequest } from '../../src/approvals/record.js';

export const T0 = Date.parse('2025-06-02T09:00:00Z');
export const LEASE = 10_000;

export function deletionRequest(id: string): ApprovalRequest {
  return {
    id,
    operationId: 'interfaces.delete',
    raw: { device: 'asa-branch-02', interface: 'printers' },
    commandText: '/fw interfaces delete asa-branch-02 printers',
    profile: 'default',
    requesterId: 'U0ALICE',
    channelId: 'C0OPS',
    createdAt: T0,
    expiresAt: T0 + 30 * 60_000,
    role: 'operator',
    target: {
      facts: {},
      description: { action: 'delete interface printers', line: 'printers', fields: [], warnings: [] },
    },
  };
}
